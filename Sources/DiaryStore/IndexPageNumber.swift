import Foundation

/// Index page numbers as the stores name them: the checked range and the files store's names.
///
/// A page is stored under its number alone (a row key, or the file `index/<2 hex digits>`);
/// the number says nothing about the entries in the page, and every vault has the same pages.
package enum IndexPageNumber {
    /// Refuses a page number outside `StoreChange.indexPageRange`. Not damage: a caller asked
    /// for a page no store can hold.
    static func check(_ page: Int, path: String) throws {
        guard StoreChange.indexPageRange.contains(page) else {
            throw StoreError.io(path: path, detail: "index page \(page) is outside \(StoreChange.indexPageRange)")
        }
    }

    /// The file name of a page in the files store's `index/`: two lowercase hex digits.
    /// Only called with a checked number.
    package static func fileName(for page: Int) -> String {
        let digits = String(page, radix: 16)
        return digits.count == 1 ? "0" + digits : digits
    }

    /// The page a file name denotes, or nil unless it is exactly two lowercase hex digits
    /// (so `0A`, `a`, `100` or `.tmp-…` are not pages).
    static func page(fromFileName name: String) -> Int? {
        let bytes = Array(name.utf8)
        guard bytes.count == 2, bytes.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }),
            let page = Int(name, radix: 16), StoreChange.indexPageRange.contains(page)
        else { return nil }
        return page
    }
}
