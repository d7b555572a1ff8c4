import DiaryCrypto
import DiaryStore
import Foundation

/// How the index is cut into pages (docs/FORMAT.md §7).
///
/// An entry's row lives on the page named by the top six bits of its id. Ids are random, so
/// pages fill evenly, and the page an entry lands on tells an observer nothing the id (which
/// the store shows anyway) does not: writing one entry rewrites its page and the small root,
/// not the summaries of every other entry. A prefix of two hex digits names one page, so
/// `diary show 3fa2` opens one page, not all of them.
enum IndexLayout {
    static let pageCount = 64

    static func page(of id: UUID) -> Int { Int(id.uuid.0 >> 2) }

    /// The pages that can hold an id starting with these lowercase hex digits (at least one).
    static func pages(forHexPrefix hex: Substring) -> Range<Int> {
        guard let first = hex.first?.hexDigitValue else { return 0..<pageCount }
        guard hex.count >= 2, let second = hex.dropFirst().first?.hexDigitValue else {
            return first * 4..<first * 4 + 4
        }
        let page = (first << 4 | second) >> 2
        return page..<page + 1
    }

    /// The object id a page is sealed under (its associated data): fifteen zero bytes, then
    /// the page number. The root keeps the all-zero id and its own kind.
    static func objectID(ofPage page: Int) -> UUID {
        var bytes = [UInt8](repeating: 0, count: 16)
        bytes[15] = UInt8(page)
        return UUID(bytes: bytes)
    }
}

/// Where a row stands in `list`'s newest-first order: entry date, then creation time (both
/// in milliseconds); the id breaks remaining ties. A page's *newest* key bounds every row on it.
struct ListKey: Comparable, Equatable {
    var date: Int64
    var created: Int64

    /// `a < b` when `a` comes later in the newest-first order (is older).
    static func < (a: ListKey, b: ListKey) -> Bool {
        a.date != b.date ? a.date < b.date : a.created < b.created
    }
}

/// The decrypted root of the index: the write counter and, for every page, how many rows it
/// holds, the list key of its newest row, and the tag of its sealed copy. The tag binds each
/// page to this root (an older page put back is refused); the newest key lets `list -n 10`
/// read only the pages that can hold the newest entries.
package struct IndexRoot: Equatable {
    static let version: UInt8 = 2
    static let tagLength = 16
    static let pageRecordLength = 4 + 8 + 8 + tagLength

    var generation: UInt64
    var counts: [Int]
    /// Per page, the key of its newest row (zero for an empty page).
    var newest: [ListKey]
    var tags: [[UInt8]]

    /// `version u8 = 2 | generation u64 | page count u16 |
    /// page count × (rows u32 | newest date i64 | newest created i64 | tag 16)`.
    package func encoded() -> [UInt8] {
        var w = ByteWriter(capacity: 11 + counts.count * Self.pageRecordLength)
        w.u8(Self.version)
        w.u64(generation)
        w.u16(UInt16(counts.count))
        for page in counts.indices {
            w.u32(UInt32(counts[page]))
            w.i64(newest[page].date)
            w.i64(newest[page].created)
            w.append(tags[page])
        }
        return w.bytes
    }

    package static func decode(_ bytes: [UInt8]) throws -> IndexRoot {
        var r = ByteReader(bytes)
        guard try r.u8() == version else { throw FormatError.unsupportedVersion(Int(bytes[0])) }
        let generation = try r.u64()
        guard Int(try r.u16()) == IndexLayout.pageCount else { throw FormatError.invalidField("page count") }
        var root = IndexRoot(generation: generation, counts: [], newest: [], tags: [])
        for _ in 0..<IndexLayout.pageCount {
            let count = Int(try r.u32())
            // A row takes at least `IndexPage.minimumRowLength` bytes of a page that can be at
            // most the largest padded object: a larger count is a lie.
            guard count <= LengthPadding.maximumLength / IndexPage.minimumRowLength else {
                throw FormatError.invalidField("row count")
            }
            let newest = ListKey(date: try r.i64(), created: try r.i64())
            let range = Date.storableMilliseconds
            guard
                count == 0
                    ? newest == ListKey(date: 0, created: 0)
                    : range.contains(newest.date) && range.contains(newest.created)
            else {
                throw FormatError.invalidField("newest row")
            }
            root.counts.append(count)
            root.newest.append(newest)
            root.tags.append(try r.take(tagLength))
        }
        try r.expectEnd()
        return root
    }
}

/// One entry's metadata plus the tag of its sealed copy (to tell a stale or replayed entry).
package struct IndexRow: Equatable {
    package var summary: EntrySummary
    /// The last 16 bytes of the sealed entry as stored: its AEAD tag. A fresh random nonce
    /// makes every seal's tag different, and only the key holder can make a tag that opens,
    /// so an equal tag on an entry that opens means the very copy the index recorded.
    var sealTag: [UInt8]

    static func tag(of sealed: [UInt8]) -> [UInt8] { Array(sealed.suffix(IndexRoot.tagLength)) }

    func matches(_ sealed: [UInt8]) -> Bool { SealTag(sealTag).matches(sealed) }
}

/// The 16-byte AEAD tag that ends a sealed object, as the index records it.
struct SealTag: Equatable {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// True when `sealed` ends with this tag (compared in constant time).
    func matches(_ sealed: [UInt8]) -> Bool {
        guard sealed.count >= IndexRoot.tagLength, bytes.count == IndexRoot.tagLength else { return false }
        return constantTimeEquals(sealed.suffix(IndexRoot.tagLength), bytes)
    }
}

extension UUID {
    /// True when the id's hex digits start with `nibbles` (each 0...15).
    func hasHexPrefix(_ nibbles: [UInt8]) -> Bool {
        let bytes = self.bytes
        for (i, nibble) in nibbles.enumerated() {
            let byte = bytes[i / 2]
            if (i % 2 == 0 ? byte >> 4 : byte & 0x0F) != nibble { return false }
        }
        return true
    }
}
