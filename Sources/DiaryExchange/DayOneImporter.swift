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
/// batch; when a zip is read with attachments, a reference to a file the zip holds names it
/// instead (`[photo: photo-1.jpeg]`) and the file is listed for the entry (`DayOneMedia`).
/// Entries whose text is blank are skipped, not refused. The source is `dayone:` and the uuid.
package enum DayOneImporter {
    /// With `attachments`, a zip's media are found for each entry (`DayOneMedia`); a `.json`
    /// file alone has none to find. A zip is read from the file a window at a time (its JSON
    /// members count against the import limit, its media do not).
    static func read(url: URL, attachments: Bool = false) throws -> ImportBatch {
        guard try isZip(url) else {
            let bytes = try Importer.load(url, requireText: false)
            try Importer.requireUTF8(bytes, file: url.path)
            return try read(bytes, file: url.path)
        }
        guard FileManager.default.isReadableFile(atPath: url.path) else {
            throw ExchangeError.unreadable(file: url.path, detail: "no permission")
        }
        let archive: ZipArchive
        do {
            archive = try ZipArchive(file: url)
        } catch {
            throw ExchangeError.malformedArchive(file: url.path, detail: error.detail)
        }
        let media = attachments ? DayOneMedia(archive: archive, url: url) : nil
        var batch = ImportBatch()
        for (name, json) in try journals(in: archive, file: url.path) {
            batch.append(try read(json, file: url.path + ":" + name, media: media))
        }
        return batch
    }

    /// A `.zip` by name, or a file starting with a zip's local header signature.
    private static func isZip(_ url: URL) throws -> Bool {
        _ = try Importer.regularFileSize(url)
        if url.pathExtension.lowercased() == "zip" { return true }
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 4)).map { [UInt8]($0) } ?? []
        return head == [0x50, 0x4B, 0x03, 0x04]
    }

    package static func read(_ bytes: [UInt8], file: String) throws -> ImportBatch {
        try read(bytes, file: file, media: nil)
    }

    static func read(_ bytes: [UInt8], file: String, media: DayOneMedia?) throws -> ImportBatch {
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
            let found = media?.find(in: fields) ?? DayOneMedia.Found()
            let (text, dropped) = DayOneText.readable(raw, imported: found.replacements)
            batch.mediaReferencesDropped += dropped
            batch.attachmentsMissing += found.missing
            let entry = Entry(
                id: SecureRandom.uuid(), text: text, date: created, created: created, modified: modified,
                starred: starred, tags: tags, source: "dayone:" + uuid)
            batch.entries.append(entry)
            if !found.attachments.isEmpty { batch.attachments[entry.id] = found.attachments }
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
        return try journals(in: archive, file: file)
    }

    static func journals(in archive: ZipArchive, file: String) throws -> [(String, [UInt8])] {
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
