import Foundation

/// The plaintext of a sealed entry (docs/FORMAT.md §6):
/// `version u8 | date i64 | created i64 | modified i64 | flags u8 | tag count u8 |
/// tags (u16 length + UTF-8)… | source (u16 length + UTF-8, empty = none) | text length u32 | text UTF-8`, times in Unix milliseconds.
///
/// Binary rather than JSON because `search` decodes every entry: this parses in microseconds.
enum EntryCodec {
    static let version: UInt8 = 1
    static let starredFlag: UInt8 = 1

    static func encode(_ e: Entry) -> [UInt8] {
        var w = ByteWriter(capacity: e.text.utf8.count + 64)
        w.u8(version)
        w.i64(e.date.millisecondsSince1970)
        w.i64(e.created.millisecondsSince1970)
        w.i64(e.modified.millisecondsSince1970)
        w.u8(e.starred ? starredFlag : 0)
        w.u8(UInt8(e.tags.count))
        for tag in e.tags { w.string16(tag) }
        w.string16(e.source ?? "")
        w.string32(e.text)
        return w.bytes
    }

    static func decode(_ bytes: [UInt8], id: UUID, textLimit: Int) throws -> Entry {
        var r = ByteReader(bytes)
        guard try r.u8() == version else { throw FormatError.unsupportedVersion(Int(bytes[0])) }
        let date = try r.time()
        let created = try r.time()
        let modified = try r.time()
        let flags = try r.u8()
        guard flags & ~starredFlag == 0 else { throw FormatError.invalidField("flags") }
        let tagCount = Int(try r.u8())
        var tags: [String] = []
        for _ in 0..<tagCount { tags.append(try r.string16()) }
        let source = try r.string16()
        let text = try r.string32(limit: textLimit)
        try r.expectEnd()
        return Entry(id: id, text: text, date: date, created: created, modified: modified,
                     starred: flags & starredFlag != 0, tags: tags, source: source.isEmpty ? nil : source)
    }
}
