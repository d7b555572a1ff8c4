import DiaryStore
import DiaryVault
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The kinds of file `diary export --format` writes.
public enum ExportFormat: String, CaseIterable, Sendable {
    /// The lossless diary JSON export, read back by `import --from diary`.
    case json
    /// Markdown, as one document or one file per entry.
    case markdown
    /// One self-contained HTML page, for reading and printing (`Exporter.html`).
    case html
}

/// Writes entries out as plaintext files. Nothing here is encrypted: the caller warns.
public enum Exporter {
    /// The lossless JSON export (see `DiaryJSON`): sorted keys, UTC dates with milliseconds,
    /// every field; `Importer.read(.diary, …)` gives back equal entries with the same ids.
    public static func json(_ entries: [Entry]) -> Data { DiaryJSON.write(entries) }

    /// One Markdown document, newest entry first (`oldestFirst`: the other way): each entry is a `## title` heading, a line
    /// with its date (in `locale` and `timeZone`), star and tags, and its body.
    public static func markdownDocument(
        _ entries: [Entry], timeZone: TimeZone = .current, locale: Locale = .current, oldestFirst: Bool = false
    ) -> String {
        let writer = MarkdownDocumentWriter(timeZone: timeZone, locale: locale)
        var out = MarkdownDocumentWriter.heading
        let newestFirst = entries.sorted(by: Entry.newestFirst)
        for entry in oldestFirst ? newestFirst.reversed() : newestFirst { out += writer.section(entry) }
        return out
    }

    /// One `.md` file per entry in `directory` (created, mode 0700, when missing), named by
    /// `markdownFileName`, each with front matter the Markdown importer reads back (date to
    /// the millisecond, tags, star) followed by the text. Existing files are never
    /// overwritten; files are created 0600, since they hold plaintext. Returns the files.
    @discardableResult
    public static func markdownFiles(_ entries: [Entry], into directory: URL, timeZone: TimeZone = .current) throws
        -> [URL]
    {
        try createExportDirectory(directory)
        return try entries.sorted(by: Entry.newestFirst).map { entry in
            let url = directory.appendingPathComponent(markdownFileName(entry, timeZone: timeZone))
            try writeNew(Data(markdownFile(entry).utf8), to: url)
            return url
        }
    }

    /// `YYYY-MM-DD-<first 8 hex digits of the id>-<slug of the title>.md`; the id keeps names
    /// unique, the date sorts them.
    public static func markdownFileName(_ entry: Entry, timeZone: TimeZone = .current) -> String {
        let shortID = entry.id.uuidString.lowercased().prefix(8)
        return "\(ExchangeDates.day(entry.date, timeZone: timeZone))-\(shortID)-\(slug(entry.title)).md"
    }

    /// The content of one entry's file: front matter, a blank line, the text.
    public static func markdownFile(_ entry: Entry) -> String {
        let date =
            entry.isCalendarDay
            ? ExchangeDates.day(entry.date, timeZone: .current) : ExchangeDates.utcMilliseconds(entry.date)
        var front = "---\ndate: \(date)\n"
        if !entry.tags.isEmpty { front += "tags: [\(entry.tags.map(quoted).joined(separator: ", "))]\n" }
        front += "starred: \(entry.starred)\n---\n\n"
        return front + entry.text.trimmingCharacters(in: .whitespacesAndNewlines) + "\n"
    }

    /// Writes `data` to a new file, mode 0600, refusing to replace anything already there.
    public static func writeNew(_ data: Data, to url: URL, tracking: CreatedPathTracking? = nil) throws {
        let output = try ExportOutput(newFile: url, tracking: tracking)
        do {
            var bytes = [UInt8](data)
            try output.write(&bytes)
            try output.finish()
        } catch {
            output.abandon()
            throw error
        }
    }

    /// Creates `directory` (mode 0700) when it is missing.
    static func createExportDirectory(_ directory: URL) throws {
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw ExchangeError.writeFailed(path: directory.path, detail: "cannot create the directory")
        }
    }

    /// Lowercase letters and digits (any script) joined by '-', at most 40 characters.
    static func slug(_ title: String) -> String {
        var out = ""
        for c in title.lowercased() {
            if c.isLetter || c.isNumber {
                out.append(c)
            } else if !out.isEmpty && out.last != "-" {
                out.append("-")
            }
            if out.count >= 40 { break }
        }
        while out.last == "-" { out.removeLast() }
        return out.isEmpty ? "untitled" : out
    }

    static func quoted(_ s: String) -> String {
        "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
