import DiaryCrypto
import DiaryVault
import Foundation

/// Reads Markdown files, one entry per file.
///
/// A file may open with front matter between two `---` lines, of which these keys are read
/// (others are ignored): `date:` (`2024-02-22`, `2024-02-22T15:00`, `2024-02-22 15:00:00 +09:00`,
/// `…Z`), `tags:` (`[a, b]`, `a, b`, or a `- a` list on the following lines), `starred: true|false`
/// and `title:` (which becomes the first line, unless the text already starts with it). Without
/// a `date:`, the file name must start with `YYYY-MM-DD`. A date without a time, in either
/// place, is a calendar day (`Entry.isCalendarDay`). The file's modification
/// time is never used: copying files changes it. Dates without a zone are read in the given
/// time zone; created and modified are the entry date. The source is `markdown:` and a hash of
/// the file name and content.
enum MarkdownImporter {
    /// The files to read: each directory's `*.md` files (not recursive, sorted by name), and
    /// each file as given.
    static func files(in urls: [URL]) throws -> [URL] {
        var files: [URL] = []
        for url in urls {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
                throw ExchangeError.unreadable(file: url.path, detail: "no such file or directory")
            }
            guard isDirectory.boolValue else { files.append(url); continue }
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: url.path)
            } catch {
                throw ExchangeError.unreadable(file: url.path, detail: "cannot list the directory")
            }
            let found = names.filter { $0.lowercased().hasSuffix(".md") && !$0.hasPrefix(".") }.sorted()
                .map { url.appendingPathComponent($0) }
                .filter {
                    var d: ObjCBool = false;
                    return FileManager.default.fileExists(atPath: $0.path, isDirectory: &d) && !d.boolValue
                }
            guard !found.isEmpty else {
                throw ExchangeError.noInput(path: url.path, detail: "no .md files in the directory")
            }
            files += found
        }
        return files
    }

    /// With `attachments`, each entry's local images are found (`MarkdownImages`); the text is
    /// left as written.
    static func read(_ files: [URL], timeZone: TimeZone, attachments: Bool = false) throws -> ImportBatch {
        var batch = ImportBatch()
        for url in files {
            let bytes = try Importer.load(url)
            if let entry = try entry(
                String(decoding: bytes, as: UTF8.self), name: url.lastPathComponent, file: url.path, timeZone: timeZone)
            {
                batch.entries.append(entry)
                guard attachments else { continue }
                let found = MarkdownImages.find(in: entry.text, file: url)
                batch.attachmentsMissing += found.missing
                if !found.attachments.isEmpty { batch.attachments[entry.id] = found.attachments }
            } else {
                batch.skipped.append(ImportSkip(file: url.path, entry: nil, reason: "the file holds no text"))
            }
        }
        return batch
    }

    /// The entry in one file's content, or nil when it holds no text.
    static func entry(_ content: String, name: String, file: String, timeZone: TimeZone) throws -> Entry? {
        var text = content
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var front = FrontMatter()
        var bodyStart = 0
        if lines.first.map({ $0.trimmingCharacters(in: .whitespaces) }) == "---" {
            guard
                let end = lines.indices.dropFirst().first(where: {
                    ["---", "..."].contains(lines[$0].trimmingCharacters(in: .whitespaces))
                })
            else {
                throw ExchangeError.invalidFrontMatter(
                    file: file, line: 1, detail: "the front matter is never closed with '---'")
            }
            front = try FrontMatter(lines: lines[1..<end], firstLine: 2, file: file, timeZone: timeZone)
            bodyStart = end + 1
        }
        // Blank lines after the front matter and trailing white space are layout, not text.
        let textLines = lines[bodyStart...].drop(while: { $0.allSatisfy(\.isWhitespace) })
        var body = String(textLines.joined(separator: "\n").reversed().drop(while: \.isWhitespace).reversed())
        if let title = front.title?.trimmingCharacters(in: .whitespaces), !title.isEmpty {
            let firstLine = body.prefix(while: { !$0.isNewline }).drop(while: { $0 == "#" || $0 == " " })
            if !firstLine.hasPrefix(title) { body = body.isEmpty ? title : title + "\n" + body }
        }
        guard !EntryText.isBlank(body) else { return nil }
        guard let date = front.date ?? dateFromName(name, timeZone: timeZone) else {
            throw ExchangeError.noDate(file: file)
        }
        // A day without a time (in the front matter or the file name) is a calendar day.
        let isDay = front.date == nil || front.dateIsDay
        return Entry(
            id: SecureRandom.uuid(), text: body, date: date, created: date, modified: date, starred: front.starred,
            tags: front.tags, source: "markdown:" + ExchangeHash.hex([name, content]), isCalendarDay: isDay)
    }

    /// Midnight of the `YYYY-MM-DD` the file name starts with.
    static func dateFromName(_ name: String, timeZone: TimeZone) -> Date? {
        let head = String(name.prefix(10))
        guard head.count == 10, name.count == 10 || !(name.dropFirst(10).first?.isNumber ?? false) else { return nil }
        return ExchangeDates.parse(head, timeZone: timeZone)
    }
}
