import DiaryStore
import DiaryVault
import Foundation

/// The lossless export: every field of every entry, so `import --from diary` restores the
/// entries exactly, with the same ids.
///
/// ```
/// {"entries":[{"created":"2024-02-22T15:00:00.123Z","date":"…","id":"…","modified":"…",
///   "source":"jrnl:…","starred":true,"tags":["a"],"text":"…"}],"format":"diary-export","version":1}
/// ```
/// Keys are sorted; dates are UTC with milliseconds, the precision the vault stores, except an
/// entry date that is a calendar day (`Entry.isCalendarDay`), which is the day alone
/// (`"2024-03-01"`) and is imported as that day; ids are lowercase UUIDs; `source` is present
/// only for imported entries. An entry with attachments lists them first
/// (`"attachments": [{"added", "name", "path", "size", "type"}]`, `DiaryJSONAttachments`); an
/// entry without any has no such member, exactly as before attachments existed.
enum DiaryJSON {
    static let format = "diary-export"
    static let version = 1

    static func write(_ entries: [Entry]) -> Data {
        var writer = DiaryJSONWriter()
        for entry in entries { writer.add(entry) }
        writer.finish()
        return Data(writer.bytes)
    }

    /// Checks the top-level members other than `entries`: the format and a version this
    /// code reads.
    static func checkHeader(_ top: [String: JSONNode], file: String) throws {
        guard case .string(format)? = top["format"]?.value else {
            throw ExchangeError.notAnExport(file: file, expected: "diary json", detail: "no \"format\": \"\(format)\"")
        }
        guard case .number(let found)? = top["version"]?.value else {
            throw ExchangeError.notAnExport(file: file, expected: "diary json", detail: "no version number")
        }
        // Refuse versions we do not know rather than guess at their fields.
        guard found == Double(version) else {
            throw ExchangeError.unsupportedVersion(file: file, found: Int(exactly: found) ?? -1, supported: version)
        }
    }

    /// One element of `entries`, every field checked.
    static func entry(_ fields: JSONFields) throws -> Entry {
        var fields = fields
        let idText = try fields.string("id")
        fields.id = String(idText.prefix(40))
        guard let id = UUID(hyphenatedHex: idText) else { throw fields.failure("'id' is not a uuid") }
        let text = try fields.string("text")
        if EntryText.isBlank(text) { throw fields.failure("'text' is empty") }
        guard let starred = try fields.optionalBool("starred") else { throw fields.failure("'starred' is missing") }
        guard let tags = try fields.optionalStrings("tags") else { throw fields.failure("'tags' is missing") }
        // A day alone is a calendar day: local midnight of it, whatever the zone it was exported in.
        let isDay = try fields.string("date").count == 10
        let date = isDay ? try fields.date("date", timeZone: .current) : try fields.date("date")
        return Entry(
            id: id, text: text, date: date, created: try fields.date("created"),
            modified: try fields.date("modified"), starred: starred, tags: tags,
            source: try fields.optionalString("source"), isCalendarDay: isDay)
    }
}
