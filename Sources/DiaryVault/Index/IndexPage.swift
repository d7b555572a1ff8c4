import DiaryStore
import Foundation

/// One decrypted index page: its rows, encoded, sorted by id, kept as bytes.
///
/// `list` reads the date, the id and the flags of every row straight from these bytes and
/// builds strings only for the rows it prints; a write splices one row in or out. Decoding
/// checks every row in full (lengths, order, page, times, flags, UTF-8), so the accessors
/// below never meet a malformed row.
///
/// Plaintext (version 3): `version u8 = 3 | page u32 | row count u32 | rows…`; version 2
/// (read only, to migrate): `version u8 = 2 | page u8 | row count u32 | rows…`. Each row is
/// `id 16 | date i64 | created i64 | modified i64 | flags u8 | size u32 | seal tag 16 |
/// title str16 | tag count u8 | tags str16… | source str16`, then, when flags bit 2 is set, the
/// attachments (`IndexPage+Attachments.swift`, docs/FORMAT.md §7, §7.6).
package struct IndexPage: Equatable {
    /// The fixed part of a row, before the title.
    static let fixedRowLength = 61
    /// A row with an empty title, no tags and no source.
    static let minimumRowLength = fixedRowLength + 2 + 1 + 2

    let number: Int
    /// The index version the page belongs to (`IndexLayout`): it says which ids it covers.
    let version: UInt8
    private(set) var rows: [UInt8] = []
    /// Where each row starts in `rows`, in id order.
    private(set) var offsets: [Int] = []

    init(number: Int, version: UInt8 = IndexLayout.version) {
        self.number = number
        self.version = version
    }

    package var count: Int { offsets.count }

    private static func headerLength(_ version: UInt8) -> Int { version == IndexLayout.legacyVersion ? 6 : 9 }

    package func encoded() -> [UInt8] {
        var w = ByteWriter(capacity: 9 + rows.count)
        w.u8(version)
        if version == IndexLayout.legacyVersion { w.u8(UInt8(number)) } else { w.u32(UInt32(number)) }
        w.u32(UInt32(count))
        w.append(rows)
        return w.bytes
    }

    package static func decode(_ bytes: [UInt8], number: Int, version: UInt8, expectedCount: Int) throws -> IndexPage {
        try bytes.withUnsafeBytes { try decode($0, number: number, version: version, expectedCount: expectedCount) }
    }

    /// Decodes a page straight from an opened envelope's plaintext: the rows are copied once.
    static func decode(
        _ bytes: UnsafeRawBufferPointer, number: Int, version: UInt8, expectedCount: Int
    ) throws -> IndexPage {
        let header = headerLength(version)
        guard bytes.count >= header else { throw FormatError.truncated }
        guard bytes[0] == version else { throw FormatError.unsupportedVersion(Int(bytes[0])) }
        let field = { (range: Range<Int>) in bytes[range].reduce(0) { $0 << 8 | Int($1) } }
        guard field(1..<header - 4) == number else { throw FormatError.invalidField("page number") }
        let count = field(header - 4..<header)
        guard count == expectedCount else { throw FormatError.invalidField("row count") }
        guard count <= (bytes.count - header) / minimumRowLength else { throw FormatError.truncated }
        var page = IndexPage(number: number, version: version)
        page.rows = Array(bytes[header...])
        page.offsets.reserveCapacity(count)
        var offset = 0
        var previous: (UInt64, UInt64)?
        for _ in 0..<count {
            page.offsets.append(offset)
            offset = try page.checkRow(at: offset)
            let key = page.idKey(ofRowAt: page.offsets.count - 1)
            if let previous, !(previous < key) { throw FormatError.invalidField("row order") }
            previous = key
        }
        guard offset == page.rows.count else { throw FormatError.trailingBytes }
        return page
    }

    /// The list key of the row that comes first in newest-first order; zero when empty. In
    /// version 3, a calendar day's date counts `IndexLayout.dayShownLead` later, so the key
    /// bounds the date every row is shown at, in any time zone (docs/FORMAT.md §7).
    func newestKey() -> ListKey {
        var best: ListKey?
        for i in 0..<count {
            var key = listKey(ofRowAt: i)
            if version == IndexLayout.version, CalendarDay.isDay(storedMilliseconds: key.date) {
                key.date += IndexLayout.dayShownLead
            }
            if best.map({ $0 < key }) ?? true { best = key }
        }
        return best ?? ListKey(date: 0, created: 0)
    }

    func listKey(ofRowAt i: Int) -> ListKey {
        ListKey(date: dateMilliseconds(ofRowAt: i), created: createdMilliseconds(ofRowAt: i))
    }

    /// The row's place in the order `list` shows, by the date a reader sees: a calendar day
    /// counts from local midnight (`CalendarDay`), so it may differ from `listKey` by up to
    /// 14 hours.
    func shownListKey(ofRowAt i: Int) -> ListKey {
        ListKey(date: shownDate(ofRowAt: i), created: Date(millisecondsSince1970: createdMilliseconds(ofRowAt: i)))
    }

    /// The row's entry date as a reader sees it (`CalendarDay`).
    func shownDate(ofRowAt i: Int) -> Date { CalendarDay.date(storedMilliseconds: dateMilliseconds(ofRowAt: i)) }

    /// Validates the row at `start` and returns where the next one starts.
    private func checkRow(at start: Int) throws -> Int {
        guard rows.count - start >= Self.minimumRowLength else { throw FormatError.truncated }
        // The id's head (its first two bytes: `IndexLayout.head(of:)`), read in place.
        let head = Int(rows[start]) << 8 | Int(rows[start + 1])
        guard IndexLayout.heads(ofPage: number, version: version).contains(head) else {
            throw FormatError.invalidField("page of id")
        }
        for field in 0..<3 {
            guard Date.storableMilliseconds.contains(int64(at: start + 16 + field * 8)) else {
                throw FormatError.invalidField("time")
            }
        }
        let flags = rows[start + 40]
        let known = EntryCodec.starredFlag | EntryCodec.templateFlag | EntryCodec.attachmentsFlag
        guard flags & ~(known | CaptureDeviceCodec.rowFlag) == 0 else { throw FormatError.invalidField("flags") }
        let notEntry = flags & (EntryCodec.templateFlag | CaptureDeviceCodec.rowFlag) != 0
        // A template's or a device's row is never starred, has no tags, no source and no
        // attachments (FORMAT.md §7), and is only one of the two.
        guard !notEntry || flags == EntryCodec.templateFlag || flags == CaptureDeviceCodec.rowFlag else {
            throw FormatError.invalidField("flags")
        }
        var at = start + Self.fixedRowLength
        at = try checkString(at: at)
        guard at < rows.count else { throw FormatError.truncated }
        let tags = Int(rows[at])
        guard !notEntry || tags == 0 else { throw FormatError.invalidField("template row") }
        at += 1
        for _ in 0..<tags { at = try checkString(at: at) }
        let end = try checkString(at: at)
        guard !notEntry || end == at + 2 else { throw FormatError.invalidField("template row") }
        return flags & EntryCodec.attachmentsFlag != 0 ? try checkAttachments(at: end) : end
    }

    func checkString(at start: Int) throws -> Int {
        guard rows.count - start >= 2 else { throw FormatError.truncated }
        let end = start + 2 + Int(uint16(at: start))
        guard end <= rows.count else { throw FormatError.truncated }
        // In place: a slice of `rows` for each of a page's strings retained and released it.
        let valid = rows.withUnsafeBytes { UTF8Check.isValid(UnsafeRawBufferPointer(rebasing: $0[(start + 2)..<end])) }
        guard valid else { throw FormatError.invalidUTF8 }
        return end
    }

    // MARK: Reading rows

    /// The position of `id` among the rows, or where it would be inserted.
    func position(of id: UUID) -> (found: Bool, index: Int) {
        let key = id.sortKey
        var low = 0
        var high = count
        while low < high {
            let mid = (low + high) / 2
            let k = idKey(ofRowAt: mid)
            if k == key { return (true, mid) }
            if k < key { low = mid + 1 } else { high = mid }
        }
        return (false, low)
    }

    /// `position(of:)`, trying the row `hint` first: a scan in id order finds each entry in the
    /// row after the last one it found, nearly always, and a binary search of every entry's
    /// page missed the cache at nearly every step (2% of a search at 100,000 entries).
    func position(of id: UUID, hint: Int) -> (found: Bool, index: Int) {
        if hint >= 0, hint < count, idKey(ofRowAt: hint) == id.sortKey { return (true, hint) }
        return position(of: id)
    }

    package func row(_ id: UUID) -> IndexRow? {
        let (found, i) = position(of: id)
        return found ? row(at: i) : nil
    }

    func id(ofRowAt i: Int) -> UUID { uuid(at: offsets[i]) }
    func idKey(ofRowAt i: Int) -> (UInt64, UInt64) {
        (uint64(at: offsets[i]), uint64(at: offsets[i] + 8))
    }
    func dateMilliseconds(ofRowAt i: Int) -> Int64 { int64(at: offsets[i] + 16) }
    func createdMilliseconds(ofRowAt i: Int) -> Int64 { int64(at: offsets[i] + 24) }
    func isStarred(rowAt i: Int) -> Bool { rows[offsets[i] + 40] & EntryCodec.starredFlag != 0 }
    /// True for a template's row: every enumeration of entries skips it (`IndexListing.passes`).
    func isTemplate(rowAt i: Int) -> Bool { rows[offsets[i] + 40] & EntryCodec.templateFlag != 0 }
    /// True for an entry's row: neither a template's nor a capture device's.
    func isEntry(rowAt i: Int) -> Bool {
        rows[offsets[i] + 40] & (EntryCodec.templateFlag | CaptureDeviceCodec.rowFlag) == 0
    }
    /// True for a capture device's row (`Vault.captureDevices`).
    func isCaptureDevice(rowAt i: Int) -> Bool { rows[offsets[i] + 40] & CaptureDeviceCodec.rowFlag != 0 }

    /// True when the row for `id` records the tag that ends `sealed`.
    func recordsSeal(_ sealed: [UInt8], of id: UUID) -> Bool? {
        let (found, i) = position(of: id)
        guard found else { return nil }
        return sealTag(ofRowAt: i).matches(sealed)
    }

    func sealTag(ofRowAt i: Int) -> SealTag {
        let start = offsets[i] + 45
        return SealTag(Array(rows[start..<start + IndexRoot.tagLength]))
    }

    /// True when `sealed` ends with the seal tag of row `i` (compared in constant time, in
    /// place: `SealTag.matches` without the copy of the tag, which a scan made per entry).
    func sealTagMatches(ofRowAt i: Int, _ sealed: UnsafeRawBufferPointer) -> Bool {
        let n = IndexRoot.tagLength
        guard sealed.count >= n else { return false }
        let start = offsets[i] + 45
        return rows.withUnsafeBytes { raw in
            let tag = UnsafeRawBufferPointer(rebasing: raw[start..<start + n])
            // Every byte is compared, whatever the first difference: no early exit.
            var difference: UInt8 = 0
            let from = sealed.count - n
            for k in 0..<n { difference |= tag[k] ^ sealed[from + k] }
            return difference == 0
        }
    }

    package func row(at i: Int) -> IndexRow {
        IndexRow(summary: summary(at: i), sealTag: sealTag(ofRowAt: i).bytes)
    }

    func summary(at i: Int) -> EntrySummary {
        let start = offsets[i]
        var at = start + Self.fixedRowLength
        let title = string(at: &at)
        var tags: [String] = []
        let tagCount = Int(rows[at])
        at += 1
        for _ in 0..<tagCount { tags.append(string(at: &at)) }
        let source = string(at: &at)
        let attachments = rows[start + 40] & EntryCodec.attachmentsFlag != 0 ? attachments(at: &at) : []
        let storedDate = int64(at: start + 16)
        return EntrySummary(
            id: uuid(at: start), title: title,
            date: CalendarDay.date(storedMilliseconds: storedDate),
            isCalendarDay: CalendarDay.isDay(storedMilliseconds: storedDate),
            created: Date(millisecondsSince1970: int64(at: start + 24)),
            modified: Date(millisecondsSince1970: int64(at: start + 32)),
            starred: rows[start + 40] & EntryCodec.starredFlag != 0, tags: tags,
            size: Int(uint32(at: start + 41)), source: source.isEmpty ? nil : source,
            isTemplate: rows[start + 40] & EntryCodec.templateFlag != 0,
            isCaptureDevice: rows[start + 40] & CaptureDeviceCodec.rowFlag != 0, attachments: attachments)
    }

    // MARK: Changing rows

    /// Inserts the row, or replaces the one with the same id.
    package mutating func upsert(_ row: IndexRow) {
        precondition(IndexLayout.covers(page: number, version: version, id: row.summary.id), "row on the wrong page")
        let encoded = Self.encode(row)
        let (found, i) = position(of: row.summary.id)
        let start = i < count ? offsets[i] : rows.count
        let end = found ? (i + 1 < count ? offsets[i + 1] : rows.count) : start
        rows.replaceSubrange(start..<end, with: encoded)
        let shift = encoded.count - (end - start)
        if found {
            for j in (i + 1)..<count { offsets[j] += shift }
        } else {
            for j in i..<count { offsets[j] += shift }
            offsets.insert(start, at: i)
        }
    }

    /// Removes the row for `id`; false when there was none.
    @discardableResult
    package mutating func remove(_ id: UUID) -> Bool {
        let (found, i) = position(of: id)
        guard found else { return false }
        let start = offsets[i]
        let end = i + 1 < count ? offsets[i + 1] : rows.count
        rows.removeSubrange(start..<end)
        offsets.remove(at: i)
        for j in i..<count { offsets[j] -= end - start }
        return true
    }

    /// The page's two halves (`2n` and `2n + 1`, one bit deeper). Rows are in id order, so the
    /// first half's rows come first: the bytes are cut once, no row is encoded again.
    func halves() -> (IndexPage, IndexPage) {
        precondition(version == IndexLayout.version && IndexLayout.depth(ofPage: number) < IndexLayout.maximumDepth)
        var low = IndexPage(number: number * 2)
        var high = IndexPage(number: number * 2 + 1)
        let boundary = IndexLayout.heads(ofPage: high.number, version: version).lowerBound
        let cut = offsets.firstIndex { IndexLayout.head(of: uuid(at: $0)) >= boundary } ?? count
        let cutByte = cut < count ? offsets[cut] : rows.count
        low.rows = Array(rows[..<cutByte])
        low.offsets = Array(offsets[..<cut])
        high.rows = Array(rows[cutByte...])
        high.offsets = offsets[cut...].map { $0 - cutByte }
        return (low, high)
    }

    static func encode(_ row: IndexRow) -> [UInt8] {
        let s = row.summary
        var w = ByteWriter(capacity: minimumRowLength + s.title.utf8.count + 16 * s.tags.count)
        w.uuid(s.id)
        w.i64(CalendarDay.storedMilliseconds(of: s.date, isDay: s.isCalendarDay))
        w.i64(s.created.millisecondsSince1970)
        w.i64(s.modified.millisecondsSince1970)
        precondition(s.isEntry || s.attachments.isEmpty, "a template's or device's row has no attachments")
        let attachments = s.attachments.isEmpty ? 0 : EntryCodec.attachmentsFlag
        let flags = s.isTemplate ? EntryCodec.templateFlag : (s.starred ? EntryCodec.starredFlag : 0) | attachments
        w.u8(s.isCaptureDevice ? CaptureDeviceCodec.rowFlag : flags)
        w.u32(UInt32(clamping: s.size))
        precondition(row.sealTag.count == IndexRoot.tagLength)
        w.append(row.sealTag)
        w.string16(s.title)
        w.u8(UInt8(s.tags.count))
        for tag in s.tags { w.string16(tag) }
        w.string16(s.source ?? "")
        if !s.attachments.isEmpty { writeAttachments(s.attachments, to: &w) }
        return w.bytes
    }

    // MARK: Raw fields (bounds were checked by `decode` or written by `encode`)

    func uint64(at i: Int) -> UInt64 {
        rows.withUnsafeBytes { UInt64(bigEndian: $0.loadUnaligned(fromByteOffset: i, as: UInt64.self)) }
    }
    private func int64(at i: Int) -> Int64 { Int64(bitPattern: uint64(at: i)) }
    func uint32(at i: Int) -> UInt32 {
        rows.withUnsafeBytes { UInt32(bigEndian: $0.loadUnaligned(fromByteOffset: i, as: UInt32.self)) }
    }
    func uint16(at i: Int) -> UInt16 { UInt16(rows[i]) << 8 | UInt16(rows[i + 1]) }
    /// The id at `i`, read in place (every row's is read when a page is decoded).
    func uuid(at i: Int) -> UUID {
        var id: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        rows.withUnsafeBytes { raw in
            withUnsafeMutableBytes(of: &id) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[i..<i + 16])) }
        }
        return UUID(uuid: id)
    }
    func string(at i: inout Int) -> String {
        let n = Int(uint16(at: i))
        defer { i += 2 + n }
        return String(decoding: rows[(i + 2)..<(i + 2 + n)], as: UTF8.self)
    }
}
