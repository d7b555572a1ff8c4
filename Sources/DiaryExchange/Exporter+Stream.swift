import DiaryVault
import Foundation

/// The exports written straight from a vault in one pass: entries are read in one snapshot and
/// decrypted a batch at a time (`Vault.forEachEntry`), and the output goes out as it is made,
/// so an export holds a few hundred entries, never all of them. The bytes are exactly those of
/// the functions that take an array of entries.
extension Exporter {
    /// Output is handed to the file or pipe once this much has gathered.
    static let flushBytes = 1 << 20

    /// The JSON export (`json(_:)`) of the entries `ids`, in this order, to `output`.
    /// On failure, a file output is removed; what reached a pipe stays there.
    public static func json(_ vault: Vault, ids: [UUID], to output: ExportOutput) throws {
        try streaming(to: output) {
            var writer = DiaryJSONWriter()
            // Each entry's object is made by the workers that decrypt it; this thread only
            // reads, checks and writes.
            let calendar = DiaryJSONWriter.calendar(in: .current)
            try vault.forEachEntry(ids, preparing: { DiaryJSONWriter.object($0, calendar: calendar) }) { object in
                writer.add(object: object)
                if writer.bytes.count >= flushBytes { try flush(&writer, to: output) }
            }
            writer.finish()
            try flush(&writer, to: output)
        }
    }

    /// The Markdown document (`markdownDocument(_:…)`) of the entries `ids`, in this order
    /// (give them newest first for the document's usual order), to `output`.
    public static func markdownDocument(
        _ vault: Vault, ids: [UUID], to output: ExportOutput, timeZone: TimeZone = .current,
        locale: Locale = .current
    ) throws {
        try streaming(to: output) {
            let writer = MarkdownDocumentWriter(timeZone: timeZone, locale: locale)
            var text = MarkdownDocumentWriter.heading
            try vault.forEachEntry(ids) { entry in
                text += writer.section(entry)
                if text.utf8.count >= flushBytes { try flush(&text, to: output) }
            }
            try flush(&text, to: output)
        }
    }

    /// The names `markdownFiles` would give the entries `ids`, read and decrypted in one pass
    /// without keeping the entries (a clash is found before anything is written).
    public static func markdownFileNames(_ vault: Vault, ids: [UUID], timeZone: TimeZone = .current) throws
        -> [String]
    {
        var names: [String] = []
        names.reserveCapacity(ids.count)
        try vault.forEachEntry(ids) { names.append(markdownFileName($0, timeZone: timeZone)) }
        return names
    }

    /// `markdownFiles(_:into:timeZone:)` for the entries `ids`, one file written as each entry
    /// is decrypted. Returns the files, in the order of `ids`.
    @discardableResult
    public static func markdownFiles(_ vault: Vault, ids: [UUID], into directory: URL, timeZone: TimeZone = .current)
        throws -> [URL]
    {
        try createExportDirectory(directory)
        var files: [URL] = []
        try vault.forEachEntry(ids) { entry in
            let url = directory.appendingPathComponent(markdownFileName(entry, timeZone: timeZone))
            try writeNew(Data(markdownFile(entry).utf8), to: url)
            files.append(url)
        }
        return files
    }

    private static func streaming(to output: ExportOutput, _ body: () throws -> Void) throws {
        do {
            try body()
            try output.finish()
        } catch {
            output.abandon()
            throw error
        }
    }

    private static func flush(_ writer: inout DiaryJSONWriter, to output: ExportOutput) throws {
        var bytes = writer.take()
        try output.write(&bytes)
    }

    private static func flush(_ text: inout String, to output: ExportOutput) throws {
        var bytes = Array(text.utf8)
        text = ""
        try output.write(&bytes)
    }
}

/// The Markdown document's parts, with one pair of date formatters for all its entries.
struct MarkdownDocumentWriter {
    static let heading = "# Diary\n"
    private let formatter: DateFormatter
    /// A whole-day entry has no time of day to show ("at 12:00 AM" would be made up).
    private let dayFormatter: DateFormatter

    init(timeZone: TimeZone, locale: Locale) {
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
        let dayFormatter = formatter.copy() as! DateFormatter
        dayFormatter.timeStyle = .none
        (self.formatter, self.dayFormatter) = (formatter, dayFormatter)
    }

    /// One entry: a `## title` heading, a line with its date, star and tags, and its body.
    func section(_ entry: Entry) -> String {
        var meta = [(entry.isCalendarDay ? dayFormatter : formatter).string(from: entry.date)]
        if entry.starred { meta.append("★ starred") }
        if !entry.tags.isEmpty { meta.append("tags: " + entry.tags.joined(separator: ", ")) }
        // A heading's own `#`s would read `## # Title` (EntryText.displayTitle).
        var out = "\n## \(EntryText.displayTitle(entry.title))\n\n*\(meta.joined(separator: " · "))*\n"
        let body = entry.body.trimmingCharacters(in: .whitespacesAndNewlines)
        if !body.isEmpty { out += "\n\(body)\n" }
        return out
    }
}

extension Exporter {
    /// The HTML export: one self-contained page (`HTMLDocumentWriter`) of the entries
    /// `entries`, in this order (give them oldest first for a book's order), to `output`. The
    /// table of contents comes from the summaries; each entry is decrypted as it is written.
    public static func html(
        _ vault: Vault, entries: [EntrySummary], to output: ExportOutput, timeZone: TimeZone = .current,
        locale: Locale = .current
    ) throws {
        try streaming(to: output) {
            let writer = HTMLDocumentWriter(timeZone: timeZone, locale: locale)
            var text = writer.opening(entries)
            var previous: Date?
            try vault.forEachEntry(entries.map(\.id)) { entry in
                text += writer.article(entry, previous: previous)
                previous = entry.date
                if text.utf8.count >= flushBytes { try flush(&text, to: output) }
            }
            text += HTMLDocumentWriter.closing
            try flush(&text, to: output)
        }
    }
}
