import DiaryStore
import Foundation

/// The plaintext of a sealed template (docs/FORMAT.md §7), entry plaintext version 2:
/// `version u8 = 2 | kind u8 = 1 | created i64 | modified i64 | name str16 | prompt count u8 |
/// prompts str16… | text str32`. A template is stored as an entry object (kind 1) so that
/// backup, restore, verify, the witness, rekey and sync carry it as they carry entries; the
/// version tells it apart, and a diary that knows only version 1 refuses it.
enum TemplateCodec {
    static let version: UInt8 = 2
    static let templateKind: UInt8 = 1

    static func encode(_ e: Entry, _ template: TemplateFields) -> [UInt8] {
        var w = ByteWriter(capacity: e.text.utf8.count + template.name.utf8.count + 64)
        w.u8(version)
        w.u8(templateKind)
        w.i64(e.created.millisecondsSince1970)
        w.i64(e.modified.millisecondsSince1970)
        w.string16(template.name)
        w.u8(UInt8(template.recentPrompts.count))
        for prompt in template.recentPrompts { w.string16(prompt) }
        w.string32(e.text)
        return w.bytes
    }

    /// Decodes what follows the version byte, refusing anything a writer could not have written.
    static func decode(_ r: inout ByteReader, id: UUID, textLimit: Int) throws -> Entry {
        guard try r.u8() == templateKind else { throw FormatError.invalidField("template kind") }
        let created = try r.time()
        let modified = try r.time()
        let name = try r.string16()
        guard TemplateName.isValid(name) else { throw FormatError.invalidField("template name") }
        let count = Int(try r.u8())
        guard count <= TemplateName.maximumRecentPrompts else { throw FormatError.invalidField("prompt count") }
        var prompts: [String] = []
        for _ in 0..<count {
            let prompt = try r.string16()
            guard TemplateName.isValidPrompt(prompt) else { throw FormatError.invalidField("prompt") }
            prompts.append(prompt)
        }
        let text = try r.string32(limit: textLimit)
        guard !EntryText.isBlank(text) else { throw FormatError.invalidField("template text") }
        try r.expectEnd()
        return Entry(
            id: id, text: text, date: created, created: created, modified: modified, starred: false, tags: [],
            template: TemplateFields(name: name, recentPrompts: prompts))
    }
}
