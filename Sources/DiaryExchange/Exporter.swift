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
        let formatter = DateFormatter()
        formatter.locale = locale
        // Entry dates are Gregorian days, whatever the locale's default calendar (ar_SA: Hijri).
        var calendar = Calendar(identifier: .gregorian)
        calendar.locale = locale
        calendar.timeZone = timeZone
        formatter.calendar = calendar
        formatter.timeZone = timeZone
        // Gregorian before 1582 too, as `list` prints dates (DiaryApp's ProlepticGregorian).
        formatter.gregorianStartDate = .distantPast
        formatter.dateStyle = .full
        formatter.timeStyle = .short
        // A whole-day entry has no time of day to show ("at 12:00 AM" would be made up).
        let dayFormatter = formatter.copy() as! DateFormatter
        dayFormatter.timeStyle = .none
        var out = "# Diary\n"
        let newestFirst = entries.sorted(by: Entry.newestFirst)
        for entry in oldestFirst ? newestFirst.reversed() : newestFirst {
            var meta = [(entry.isCalendarDay ? dayFormatter : formatter).string(from: entry.date)]
            if entry.starred { meta.append("★ starred") }
            if !entry.tags.isEmpty { meta.append("tags: " + entry.tags.joined(separator: ", ")) }
            // A heading's own `#`s would read `## # Title` (EntryText.displayTitle).
            out += "\n## \(EntryText.displayTitle(entry.title))\n\n*\(meta.joined(separator: " · "))*\n"
            let body = entry.body.trimmingCharacters(in: .whitespacesAndNewlines)
            if !body.isEmpty { out += "\n\(body)\n" }
        }
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
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw ExchangeError.writeFailed(path: directory.path, detail: "cannot create the directory")
        }
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
    public static func writeNew(_ data: Data, to url: URL) throws {
        let path = url.path
        // O_EXCL: an export must never clobber a file, not even one that appears meanwhile.
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd < 0 {
            if errno == EEXIST { throw ExchangeError.outputExists(path: path) }
            throw ExchangeError.writeFailed(path: path, detail: String(cString: strerror(errno)))
        }
        defer { close(fd) }
        let failure: String? = data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return String(cString: strerror(errno))
                }
                offset += n
            }
            return fsync(fd) == 0 ? nil : String(cString: strerror(errno))
        }
        if let failure {
            unlink(path)
            throw ExchangeError.writeFailed(path: path, detail: failure)
        }
        // The new name must survive a crash too, like the backup's (and the stores' writes).
        do { try DurableFile.syncDirectory(url.deletingLastPathComponent()) } catch {
            throw ExchangeError.writeFailed(path: path, detail: "\(error)")
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
