import DiaryCrypto
import DiaryVault
import Foundation

/// Reads Day One's JSON export: a `.json` file, or the `.zip` Day One writes, which holds one
/// `.json` file per journal (all of them are read, in path order) next to the media folders.
///
/// `{"metadata": {"version": …}, "entries": [{"uuid", "creationDate", "modifiedDate",
/// "timeZone", "text", "tags", "starred", …}]}`: only `uuid`, `creationDate` and `text` are
/// required. Dates are ISO 8601 (Day One writes UTC, `2023-09-15T10:30:00Z`); the entry date
/// and created date are `creationDate`, modified is `modifiedDate` when given. The text is
/// unescaped (see `DayOneText`) and media references become placeholders, counted in the
/// batch. Entries whose text is blank are skipped, not refused. The source is `dayone:` and
/// the uuid.
package enum DayOneImporter {
    static func read(url: URL) throws -> ImportBatch {
        let bytes = try Importer.load(url, requireText: false)
        let isZip = bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) || url.pathExtension.lowercased() == "zip"
        guard isZip else {
            try Importer.requireUTF8(bytes, file: url.path)
            return try read(bytes, file: url.path)
        }
        var batch = ImportBatch()
        for (name, json) in try journals(inZip: bytes, file: url.path) {
            batch.append(try read(json, file: url.path + ":" + name))
        }
        return batch
    }

    package static func read(_ bytes: [UInt8], file: String) throws -> ImportBatch {
        let root = try Importer.parseJSON(bytes, file: file)
        var batch = ImportBatch()
        for var fields in try JSONFields.entries(of: root, file: file, expected: "day one json") {
            let uuid = try fields.string("uuid")
            fields.id = String(uuid.prefix(64))
            guard !uuid.trimmingCharacters(in: .whitespaces).isEmpty else { throw fields.failure("'uuid' is empty") }
            let created = try fields.date("creationDate")
            let modified = try fields.optionalDate("modifiedDate") ?? created
            let raw = try fields.string("text")
            let starred = try fields.optionalBool("starred") ?? false
            let tags = try fields.optionalStrings("tags") ?? []
            if EntryText.isBlank(raw) {
                batch.skipped.append(
                    ImportSkip(file: file, entry: fields.position, reason: "empty text (uuid \(fields.id!))"))
                continue
            }
            let (text, media) = DayOneText.readable(raw)
            batch.mediaReferencesDropped += media
            batch.entries.append(
                Entry(
                    id: SecureRandom.uuid(), text: text, date: created, created: created, modified: modified,
                    starred: starred, tags: tags, source: "dayone:" + uuid))
        }
        return batch
    }

    /// Every `.json` file in the archive (macOS resource forks aside), by path.
    ///
    /// `ZipArchive` checks the whole archive's structure before any member is read, so a
    /// crafted zip is refused as malformed input (status 67) rather than reaching code that
    /// could trap.
    package static func journals(inZip bytes: [UInt8], file: String) throws -> [(String, [UInt8])] {
        let archive: ZipArchive
        do {
            archive = try ZipArchive(bytes)
        } catch {
            throw ExchangeError.malformedArchive(file: file, detail: error.detail)
        }
        let jsons = archive.members.filter {
            !$0.isDirectory && $0.path.lowercased().hasSuffix(".json") && !$0.path.hasPrefix("__MACOSX/")
        }.sorted { $0.path < $1.path }
        guard !jsons.isEmpty else { throw ExchangeError.noInput(path: file, detail: "the archive holds no .json file") }
        // One limit for the whole archive, not per member: many members must not add up to
        // an unbounded amount of memory. The sizes in the archive are claims; `contents`
        // refuses a member that inflates to any other size, so the claim is the real cost.
        var total = 0
        return try jsons.map { member in
            let name = file + ":" + member.path
            guard member.size <= Importer.maximumFileBytes - total else {
                throw ExchangeError.tooLarge(
                    file: name, bytes: total + member.size, limit: Importer.maximumFileBytes)
            }
            total += member.size
            let out: [UInt8]
            do {
                out = try archive.contents(of: member, limit: Importer.maximumFileBytes)
            } catch let error as ZipArchive.Malformed {
                throw ExchangeError.malformedArchive(file: file, detail: error.detail)
            }
            try Importer.requireUTF8(out, file: name)
            return (member.path, out)
        }
    }
}
