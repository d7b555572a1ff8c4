import DiaryCrypto
import DiaryStore
import Foundation

/// How the index is cut into pages (docs/FORMAT.md §7).
///
/// Version 3: a page holds the entries whose id starts with its *prefix*, the first `depth`
/// bits of the id (extendible hashing over random ids). A page is numbered
/// `1 << depth | prefix`, so numbers are unique across depths and a page's two halves are
/// `2n` and `2n + 1`. Every index starts with the 64 pages of depth 6 (numbers 64...127); a
/// write that leaves a page with more than `maximumRows` rows splits it into its halves, so a
/// page never grows with the diary and `list -n 10`, `show` and `add` read and write pages of
/// a bounded size, however large the vault. Ids are random, so pages fill evenly, and the page
/// an entry lands on tells an observer nothing the id (which the store shows anyway) does not.
///
/// Version 2 (read only, to migrate it): 64 pages numbered 0...63 by the top six bits of the id.
///
/// Only the first 16 bits of an id (its *head*) choose a page: depth is at most 16.
enum IndexLayout {
    /// The version this code writes; `legacyVersion` is read and migrated.
    static let version: UInt8 = 3
    static let legacyVersion: UInt8 = 2
    static let minimumDepth = 6
    static let maximumDepth = 16
    /// A page with more rows is split in two (unless at `maximumDepth`). 256 rows of about
    /// 130 bytes keep a page near 32 KiB; the root then holds one 40-byte record per 180 entries.
    static let maximumRows = 256
    static let legacyPageCount = 64
    /// How much later than its stored midnight UTC a calendar day can be shown: local midnight
    /// in the zone furthest west, local mean times of the past included (Manila kept −15:56
    /// until 1844), with two hours to spare for a midnight a clock change skips. A version-3
    /// page's newest key adds it to a day's date, so the key bounds the shown date of every row
    /// and a limited `list` stops at the first page that cannot hold a newer row, with no slack.
    static let dayShownLead: Int64 = 18 * 3_600_000
    static let headCount = 1 << maximumDepth

    /// The first 16 bits of an id.
    static func head(of id: UUID) -> Int { Int(id.uuid.0) << 8 | Int(id.uuid.1) }

    static func depth(ofPage number: Int) -> Int { Int.bitWidth - 1 - number.leadingZeroBitCount }

    /// True when `number` names a version-3 page.
    static func isPageNumber(_ number: Int) -> Bool {
        number > 0 && (minimumDepth...maximumDepth).contains(depth(ofPage: number))
    }

    /// The heads a page covers: a version-2 page 1/64 of them, a version-3 page those that
    /// start with its prefix.
    static func heads(ofPage number: Int, version: UInt8) -> Range<Int> {
        if version == legacyVersion { return number << 10..<(number + 1) << 10 }
        let depth = depth(ofPage: number)
        let prefix = number ^ (1 << depth)
        return prefix << (maximumDepth - depth)..<(prefix + 1) << (maximumDepth - depth)
    }

    static func covers(page number: Int, version: UInt8, id: UUID) -> Bool {
        heads(ofPage: number, version: version).contains(head(of: id))
    }

    /// The heads an id starting with these lowercase hex digits can have (all for none).
    static func heads(forHexPrefix hex: Substring) -> Range<Int> {
        var value = 0
        var digits = 0
        for character in hex.prefix(maximumDepth / 4) {
            guard let digit = character.hexDigitValue else { break }
            value = value << 4 | digit
            digits += 1
        }
        let shift = maximumDepth - 4 * digits
        return value << shift..<(value + 1) << shift
    }

    /// Those of `numbers` (pages of `version`) whose heads overlap any of `ranges`: a
    /// running count of covered heads answers each page at once when there are many ranges.
    static func pages(
        _ numbers: some Collection<Int>, version: UInt8, overlapping ranges: [Range<Int>]
    ) -> [Int] {
        guard ranges.count > 8 else {
            return numbers.filter { number in
                ranges.contains { $0.overlaps(heads(ofPage: number, version: version)) }
            }
        }
        var covered = [Int32](repeating: 0, count: headCount + 1)
        for range in ranges {
            for head in range { covered[head + 1] = 1 }
        }
        for head in 0..<headCount { covered[head + 1] += covered[head] }
        return numbers.filter { number in
            let pageHeads = heads(ofPage: number, version: version)
            return covered[pageHeads.upperBound] > covered[pageHeads.lowerBound]
        }
    }

    /// The object id a page is sealed under (its associated data): twelve zero bytes, then the
    /// page number as a big-endian u32 (for a version-2 page, fifteen zero bytes and the
    /// number). The root keeps the all-zero id and its own kind.
    static func objectID(ofPage page: Int) -> UUID {
        var bytes = [UInt8](repeating: 0, count: 16)
        for i in 0..<4 { bytes[12 + i] = UInt8(truncatingIfNeeded: page >> (24 - 8 * i)) }
        return UUID(bytes: bytes)
    }
}

/// What the root records of one page: how many rows it holds, the list key of its newest row
/// (zero when empty), and the tag of its sealed copy.
struct PageRecord: Equatable {
    var rows: Int
    var newest: ListKey
    var tag: [UInt8]

    static let empty = PageRecord(
        rows: 0, newest: ListKey(date: 0, created: 0), tag: [UInt8](repeating: 0, count: IndexRoot.tagLength))
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

/// One entry's metadata plus the tag of its sealed copy (to tell a stale or replayed entry).
package struct IndexRow: Equatable {
    package var summary: EntrySummary
    /// The last 16 bytes of the sealed entry as stored: its AEAD tag. A fresh random nonce
    /// makes every seal's tag different, and only the key holder can make a tag that opens,
    /// so an equal tag on an entry that opens means the very copy the index recorded.
    var sealTag: [UInt8]

    static func tag(of sealed: [UInt8]) -> [UInt8] { Array(sealed.suffix(IndexRoot.tagLength)) }
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
