import DiaryCrypto
import DiaryVault
import Foundation

/// Reads jrnl's JSON export (`jrnl --export json`):
/// `{"tags": {…}, "entries": [{"title", "body", "date": "YYYY-MM-DD", "time": "HH:MM", "tags", "starred"}]}`.
///
/// - The text is the title, a newline and the body; a title with an empty body is kept as a
///   one-line entry (jrnl allows it). The title and body are trimmed of surrounding white space.
/// - `date` and `time` are local wall-clock time, read in the given time zone; a missing `time`
///   is midnight. jrnl has no created or modified dates, so both are the entry date.
/// - Tags lose jrnl's `@` (`@work` becomes `work`, as `diary` reads `@work` in text and in
///   `--tag`); `starred` carries over.
/// - The source is `jrnl:` and a hash of the date, time, title and body as written in the file,
///   so importing the same export twice adds nothing, while an entry edited in jrnl since
///   then comes in as a new entry.
enum JrnlImporter {
    static func read(_ bytes: [UInt8], file: String, timeZone: TimeZone) throws -> ImportBatch {
        let root = try Importer.parseJSON(bytes, file: file)
        var batch = ImportBatch()
        for fields in try JSONFields.entries(of: root, file: file, expected: "jrnl json") {
            let day = try fields.string("date")
            let time = try fields.optionalString("time")
            let rawTitle = try fields.optionalString("title") ?? ""
            let rawBody = try fields.optionalString("body") ?? ""
            guard let date = ExchangeDates.parse(day + " " + (time ?? "00:00"), timeZone: timeZone),
                day.count == 10
            else {
                throw fields.failure(
                    "'date' and 'time' are not a valid YYYY-MM-DD and HH:MM", at: fields.members["date"])
            }
            let title = rawTitle.trimmingCharacters(in: .whitespacesAndNewlines)
            let body = rawBody.trimmingCharacters(in: .whitespacesAndNewlines)
            let text = title.isEmpty ? body : (body.isEmpty ? title : title + "\n" + body)
            if text.isEmpty {
                batch.skipped.append(ImportSkip(file: file, entry: fields.position, reason: "empty title and body"))
                continue
            }
            batch.entries.append(
                Entry(
                    id: SecureRandom.uuid(), text: text, date: date, created: date, modified: date,
                    starred: try fields.optionalBool("starred") ?? false,
                    tags: (try fields.optionalStrings("tags") ?? []).map(withoutAt),
                    source: "jrnl:" + ExchangeHash.hex([day, time ?? "", rawTitle, rawBody])))
        }
        return batch
    }

    /// `@work` → `work`; a tag that is only `@` stays as it is.
    static func withoutAt(_ tag: String) -> String {
        tag.hasPrefix("@") && tag.count > 1 ? String(tag.dropFirst()) : tag
    }
}

/// Content hashes that name where an imported entry came from.
enum ExchangeHash {
    /// Hex BLAKE2b-128 of the parts, each length-prefixed so that no two different lists of
    /// parts hash alike ("ab" + "c" differs from "a" + "bc").
    static func hex(_ parts: [String]) -> String {
        var bytes: [UInt8] = []
        for part in parts {
            let utf8 = Array(part.utf8)
            withUnsafeBytes(of: UInt64(utf8.count).littleEndian) { bytes.append(contentsOf: $0) }
            bytes += utf8
        }
        return hex(bytes)
    }

    static func hex(_ bytes: [UInt8]) -> String {
        BLAKE2b.hash(bytes, outputCount: 16).map { String(format: "%02x", $0) }.joined()
    }
}
