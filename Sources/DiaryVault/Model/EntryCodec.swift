import DiaryStore
import Foundation

/// The plaintext of a sealed entry (docs/FORMAT.md §6):
/// `version u8 | date i64 (a calendar day at midnight UTC: `CalendarDay`) | created i64 | modified i64 | flags u8 | tag count u8 |
/// tags (u16 length + UTF-8)… | source (u16 length + UTF-8, empty = none) | text length u32 | text UTF-8`, times in Unix milliseconds.
/// An entry with attachments is version 3: the same, with its records (`AttachmentCodec`)
/// between the source and the text (§7.6); one without stays version 1, byte for byte.
///
/// Binary rather than JSON because `search` decodes every entry: this parses in microseconds.
package enum EntryCodec {
    static let version: UInt8 = 1
    /// The version of an entry that has attachments.
    static let attachmentsVersion: UInt8 = 3
    static let starredFlag: UInt8 = 1
    /// In an index row's flags: the row is a template's (docs/FORMAT.md §7).
    static let templateFlag: UInt8 = 2
    /// In an index row's flags: the entry has attachments, listed after the source (§7.6).
    static let attachmentsFlag: UInt8 = 4

    package static func encode(_ e: Entry) -> [UInt8] {
        if let device = e.captureDevice { return CaptureDeviceCodec.encode(device) }
        if let template = e.template {
            precondition(e.attachments.isEmpty, "a template has no attachments")
            return TemplateCodec.encode(e, template)
        }
        let hasAttachments = !e.attachments.isEmpty
        var w = ByteWriter(capacity: e.text.utf8.count + 64 + (hasAttachments ? 600 * e.attachments.count : 0))
        w.u8(hasAttachments ? attachmentsVersion : version)
        w.i64(CalendarDay.storedMilliseconds(of: e.date, isDay: e.isCalendarDay))
        w.i64(e.created.millisecondsSince1970)
        w.i64(e.modified.millisecondsSince1970)
        w.u8(e.starred ? starredFlag : 0)
        w.u8(UInt8(e.tags.count))
        for tag in e.tags { w.string16(tag) }
        w.string16(e.source ?? "")
        if hasAttachments { AttachmentCodec.write(e.attachments, to: &w) }
        w.string32(e.text)
        return w.bytes
    }

    package static func decode(_ bytes: [UInt8], id: UUID, textLimit: Int) throws -> Entry {
        var r = ByteReader(bytes)
        let found = try r.u8()
        if found == TemplateCodec.version { return try TemplateCodec.decode(&r, id: id, textLimit: textLimit) }
        if found == CaptureDeviceCodec.version { return try CaptureDeviceCodec.decode(&r, bytes: bytes, id: id) }
        guard found == version || found == attachmentsVersion else { throw FormatError.unsupportedVersion(Int(found)) }
        let storedDate = try r.time().millisecondsSince1970
        let created = try r.time()
        let modified = try r.time()
        let flags = try r.u8()
        guard flags & ~starredFlag == 0 else { throw FormatError.invalidField("flags") }
        let tagCount = Int(try r.u8())
        var tags: [String] = []
        for _ in 0..<tagCount { tags.append(try r.string16()) }
        let source = try r.string16()
        let attachments = found == attachmentsVersion ? try readAttachments(bytes, &r) : []
        let text = try r.string32(limit: textLimit)
        try r.expectEnd()
        return Entry(
            id: id, text: text, date: CalendarDay.date(storedMilliseconds: storedDate), created: created,
            modified: modified, starred: flags & starredFlag != 0, tags: tags,
            source: source.isEmpty ? nil : source,
            isCalendarDay: CalendarDay.isDay(storedMilliseconds: storedDate), attachments: attachments)
    }

    /// The records at `r`'s offset, read in place (each key straight into guarded memory).
    private static func readAttachments(_ bytes: [UInt8], _ r: inout ByteReader) throws -> [AttachmentRecord] {
        let start = r.offset
        let (records, end) = try bytes.withUnsafeBytes { raw in
            var cursor = RawReader(bytes: raw, offset: start)
            return (try AttachmentCodec.read(&cursor, building: true), cursor.offset)
        }
        try r.skip(end - start)
        return records
    }
}

extension EntryCodec {
    /// The text bytes of an encoded entry, read in place: what `search` needs, without building
    /// Strings or copying. Validates everything `decode` validates (version, times, flags, that
    /// every tag, the source and the text are UTF-8, the attachment records, the text limit, no
    /// trailing bytes) and throws the same errors, so an entry `decode` refuses is refused here too.
    /// A template or a capture device (stored as entries, told apart by their version) is
    /// refused by its version here, where `decode` reads it as what it is.
    static func text(in bytes: UnsafeRawBufferPointer, textLimit: Int) throws -> ValidatedUTF8 {
        var r = RawReader(bytes: bytes)
        let found = try r.u8()
        guard found == version || found == attachmentsVersion else { throw FormatError.unsupportedVersion(Int(found)) }
        for _ in 0..<3 {
            guard Date.storableMilliseconds.contains(Int64(bitPattern: try r.bigEndian(8))) else {
                throw FormatError.invalidField("time")
            }
        }
        guard try r.u8() & ~starredFlag == 0 else { throw FormatError.invalidField("flags") }
        let tagCount = Int(try r.u8())
        for _ in 0..<tagCount { try r.utf8(count: Int(try r.bigEndian(2))) }
        try r.utf8(count: Int(try r.bigEndian(2)))  // source
        if found == attachmentsVersion { _ = try AttachmentCodec.read(&r, building: false) }
        let textLength = Int(try r.bigEndian(4))
        guard textLength <= textLimit else { throw FormatError.fieldTooLarge }
        guard let text = UTF8Check.scan(try r.take(textLength)) else { throw FormatError.invalidUTF8 }
        guard r.offset == bytes.count else { throw FormatError.trailingBytes }
        return text
    }
}
