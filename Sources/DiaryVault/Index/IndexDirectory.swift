import DiaryCrypto
import DiaryStore
import Foundation

/// The second level of the page directory (index root version 5, docs/FORMAT.md §7).
///
/// The root of version 3 named every page, 40 bytes each: 213 KB at a million entries, sealed
/// again by every write and opened by every command. Version 5's root names *directories*
/// instead, each a sealed object naming the pages of one range of ids, so a write seals its
/// page, that page's directory (at most 256 records) and a root of a few hundred bytes.
///
/// A directory covers the ids whose head starts with its prefix of `depth` bits (0...8) and is
/// numbered `1 << depth | prefix`, as pages are from depth 6: directory 1 covers every id, and
/// the halves of `m` are `2m` and `2m + 1`. Every page lies inside one directory. A directory
/// left with more than `maximumPages` records is split into its halves, which is exact: with
/// more than one page inside, every page is deeper than the directory.
package enum IndexDirectory {
    /// The root version that names directories.
    static let rootVersion: UInt8 = 5
    /// A directory with more page records is split in two.
    static let maximumPages = 256
    /// A directory of depth 8 covers 256 heads, so at most 256 pages: it never splits.
    static let maximumDepth = 8
    /// Directory `m` is stored as index page `storeBase + m`, above every page number.
    static let storeBase = 1 << 24

    static func depth(of number: Int) -> Int { IndexLayout.depth(ofPage: number) }

    static func isDirectoryNumber(_ number: Int) -> Bool {
        number > 0 && depth(of: number) <= maximumDepth
    }

    /// True when `stored` is the store number of a directory (not of a page).
    static func isStoreNumber(_ stored: Int) -> Bool {
        stored > storeBase && isDirectoryNumber(stored - storeBase)
    }

    /// The heads directory `number` covers: those of a page numbered alike.
    static func heads(of number: Int) -> Range<Int> { IndexLayout.heads(ofPage: number, version: IndexLayout.version) }

    /// The object id directory `number` is sealed under: that of its store number.
    static func objectID(of number: Int) -> UUID { IndexLayout.objectID(ofPage: storeBase + number) }

    /// The kind of the object stored as index page `stored`: a directory's, or a page's.
    static func kind(ofStored stored: Int) -> ObjectKind { isStoreNumber(stored) ? .indexDirectory : .indexPage }

    /// `version u8 = 5 | number u32 | page count u32 | count × page record (as version 3's root)`.
    static func encode(number: Int, pages: ArraySlice<(number: Int, record: PageRecord)>) -> [UInt8] {
        var w = ByteWriter(capacity: 9 + pages.count * IndexRoot.recordLength)
        w.u8(rootVersion)
        w.u32(UInt32(number))
        w.u32(UInt32(pages.count))
        for (page, record) in pages { IndexRoot.encode(page: page, record: record, into: &w) }
        return w.bytes
    }

    /// The pages directory `number` names, checked against the root's record of it: a
    /// partition of exactly the directory's heads, with the recorded count, rows and newest key.
    static func decode(_ bytes: [UInt8], number: Int, record: DirectoryRecord) throws -> [(
        number: Int, record: PageRecord
    )] {
        let pages = try decodePages(bytes, number: number)
        guard pages.count == record.pages else { throw FormatError.invalidField("directory page count") }
        let (rows, newest) = summary(of: pages.lazy.map(\.record))
        guard rows == record.rows, newest == record.newest else { throw FormatError.invalidField("directory rows") }
        return pages
    }

    /// The pages a directory's plaintext names, checked for themselves (a partition of exactly
    /// the heads of directory `number`) but not against the root.
    static func decodePages(_ bytes: [UInt8], number: Int) throws -> [(number: Int, record: PageRecord)] {
        var r = ByteReader(bytes)
        guard try r.u8() == rootVersion else { throw FormatError.invalidField("directory version") }
        guard Int(try r.u32()) == number, isDirectoryNumber(number) else {
            throw FormatError.invalidField("directory number")
        }
        let count = Int(try r.u32())
        guard count >= 1, r.remaining == count * IndexRoot.recordLength else {
            throw FormatError.invalidField("directory page count")
        }
        let covered = heads(of: number)
        var pages: [(number: Int, record: PageRecord)] = []
        pages.reserveCapacity(count)
        var nextHead = covered.lowerBound
        for _ in 0..<count { pages.append(try IndexRoot.decodePage(&r, startingAt: &nextHead)) }
        guard nextHead == covered.upperBound else { throw FormatError.invalidField("directory pages") }
        return pages
    }

    /// For the fuzzer: nil when `bytes` is not a directory's plaintext (its number taken from
    /// the bytes), else whether it encodes back to the same bytes.
    package static func reencodes(_ bytes: [UInt8]) -> Bool? {
        guard bytes.count >= 5 else { return nil }
        let number = bytes[1..<5].reduce(0) { $0 << 8 | Int($1) }
        guard let pages = try? decodePages(bytes, number: number) else { return nil }
        return encode(number: number, pages: pages[...]) == bytes
    }

    /// The rows of these pages and the greatest newest key of those that hold any (zero when
    /// none does: an empty page's key is zero, which is not a date to compare with).
    static func summary(of pages: some Sequence<PageRecord>) -> (rows: Int, newest: ListKey) {
        var rows = 0
        var newest: ListKey?
        for page in pages where page.rows > 0 {
            rows += page.rows
            newest = max(newest ?? page.newest, page.newest)
        }
        return (rows, newest ?? ListKey(date: 0, created: 0))
    }
}

/// What the root records of one directory: how many pages it names, their rows and newest
/// key (zero when it has no row), and the tag of its sealed copy.
struct DirectoryRecord: Equatable {
    var pages: Int
    var rows: Int
    var newest: ListKey
    var tag: [UInt8]
}

extension PagedIndex {
    /// The directories that name these pages: directory 1 split while a half has more than
    /// `IndexDirectory.maximumPages` pages. `numbers` are in head order.
    static func directories(partitioning numbers: ArraySlice<Int>, within directory: Int, version: UInt8)
        -> [(directory: Int, pages: ArraySlice<Int>)]
    {
        guard numbers.count > IndexDirectory.maximumPages,
            IndexDirectory.depth(of: directory) < IndexDirectory.maximumDepth
        else { return [(directory, numbers)] }
        let middle = IndexDirectory.heads(of: 2 * directory).upperBound
        let split =
            numbers.firstIndex { IndexLayout.heads(ofPage: $0, version: version).lowerBound >= middle }
            ?? numbers.endIndex
        return directories(partitioning: numbers[..<split], within: 2 * directory, version: version)
            + directories(partitioning: numbers[split...], within: 2 * directory + 1, version: version)
    }
}
