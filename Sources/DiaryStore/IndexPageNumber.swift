import Foundation

/// Index page numbers as the stores name them: the checked range and the files store's names.
///
/// A page is stored under its number alone (a row key, or a file in `index/`). The pages of
/// an index of version 2 are numbered 0...63 and named by two lowercase hex digits; those of
/// version 3 are numbered from 64 up and named by eight (docs/FORMAT.md §2, §7). Each number
/// has exactly one name, so a store never holds one page twice.
package enum IndexPageNumber {
    /// The numbers below this are version-2 pages, named by two hex digits.
    static let firstWideNumber = 64

    /// Refuses a page number outside `StoreChange.indexPageRange`. Not damage: a caller asked
    /// for a page no store can hold.
    static func check(_ page: Int, path: String) throws {
        guard StoreChange.indexPageRange.contains(page) else {
            throw StoreError.io(path: path, detail: "index page \(page) is outside \(StoreChange.indexPageRange)")
        }
    }

    /// The file name of a page in the files store's `index/`: two lowercase hex digits below
    /// 64, else eight. Only called with a checked number.
    package static func fileName(for page: Int) -> String {
        let digits = String(page, radix: 16)
        let width = page < firstWideNumber ? 2 : 8
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// The page a file name denotes, or nil unless it is exactly the name `fileName(for:)`
    /// gives that page (so `0A`, `a`, `100`, `00000001` or `.tmp-…` are not pages).
    static func page(fromFileName name: String) -> Int? {
        let bytes = Array(name.utf8)
        guard bytes.count == 2 || bytes.count == 8,
            bytes.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }),
            let page = Int(name, radix: 16), StoreChange.indexPageRange.contains(page),
            fileName(for: page) == name
        else { return nil }
        return page
    }
}
