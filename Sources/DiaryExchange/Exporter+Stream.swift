import DiaryVault
import Foundation

/// The exports written straight from a vault in one pass: entries are read in one snapshot and
/// decrypted a batch at a time (`Vault.forEachEntry`), and the output goes out as it is made,
/// so an export holds a few hundred entries, never all of them. The bytes are exactly those of
/// the functions that take an array of entries.
extension Exporter {
    /// Output is handed to the file or pipe once this much has gathered.
    static let flushBytes = 1 << 20

    /// The JSON export (`json(_:)`) of the entries `ids`, in this order, to `output`. With
    /// `attachments`, each entry's attachments are written into that folder and listed with
    /// their paths; without, they are listed without paths and counted as not written.
    /// On failure, a file output is removed, and the folder; what reached a pipe stays there.
    @discardableResult
    public static func json(
        _ vault: Vault, ids: [UUID], to output: ExportOutput, attachments folder: ExportAttachmentFolder? = nil
    ) throws -> ExportedAttachments {
        let files = folder.map(ExportAttachmentWriter.init)
        var count = ExportedAttachments()
        try streaming(to: output, files) {
            var writer = DiaryJSONWriter()
            // Each entry's object is made by the workers that decrypt it; this thread only
            // reads, checks and writes.
            let calendar = DiaryJSONWriter.calendar(in: .current)
            let relative = folder?.relative
            let prepare: @Sendable (Entry) -> ([UInt8], Entry?) = { entry in
                (
                    DiaryJSONWriter.object(entry, calendar: calendar, folder: relative),
                    entry.attachments.isEmpty ? nil : entry
                )
            }
            try vault.forEachEntry(ids, preparing: prepare) { object, entry in
                writer.add(object: object)
                if writer.bytes.count >= flushBytes { try flush(&writer, to: output) }
                if let entry { try count.add(entry, files, vault) }
            }
            writer.finish()
            try flush(&writer, to: output)
        }
        return count
    }

    /// The Markdown document (`markdownDocument(_:…)`) of the entries `ids`, in this order
    /// (give them newest first for the document's usual order), to `output`; attachments as
    /// `json(_:ids:to:attachments:)` writes them, linked after each entry's text.
    @discardableResult
    public static func markdownDocument(
        _ vault: Vault, ids: [UUID], to output: ExportOutput, timeZone: TimeZone = .current,
        locale: Locale = .current, attachments folder: ExportAttachmentFolder? = nil
    ) throws -> ExportedAttachments {
        let files = folder.map(ExportAttachmentWriter.init)
        var count = ExportedAttachments()
        try streaming(to: output, files) {
            let writer = MarkdownDocumentWriter(timeZone: timeZone, locale: locale)
            var text = MarkdownDocumentWriter.heading
            try vault.forEachEntry(ids) { entry in
                text += writer.section(entry) + MarkdownAttachmentLinks.block(entry, folder: folder?.relative)
                if text.utf8.count >= flushBytes { try flush(&text, to: output) }
                try count.add(entry, files, vault)
            }
            try flush(&text, to: output)
        }
        return count
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
    /// is decrypted, its attachments in `attachments/<entry id>/` inside `directory`, linked
    /// after the text. Returns the files, in the order of `ids`. On failure nothing written is
    /// left: the files, the attachments, and the directory when this export created it.
    /// `tracking` is told each file and folder created (see `CreatedPathTracking`).
    @discardableResult
    public static func markdownFiles(
        _ vault: Vault, ids: [UUID], into directory: URL, timeZone: TimeZone = .current,
        tracking: CreatedPathTracking? = nil
    ) throws -> [URL] {
        let createdDirectory = !FileManager.default.fileExists(atPath: directory.path)
        try createExportDirectory(directory)
        if createdDirectory { tracking?(directory.path) }
        var folder = ExportAttachmentFolder(inDirectory: directory)
        folder.tracking = tracking
        let files = ExportAttachmentWriter(folder)
        var count = ExportedAttachments()
        var written: [URL] = []
        do {
            try vault.forEachEntry(ids) { entry in
                let url = directory.appendingPathComponent(markdownFileName(entry, timeZone: timeZone))
                let links = MarkdownAttachmentLinks.block(entry, folder: folder.relative)
                try writeNew(Data((markdownFile(entry) + links).utf8), to: url, tracking: tracking)
                written.append(url)
                try count.add(entry, files, vault)
            }
        } catch {
            // As the other forms: a failed export leaves no plaintext (and nothing that would
            // refuse the next attempt with 73).
            files.abandon()
            for url in written { unlink(url.path) }
            if createdDirectory { rmdir(directory.path) }
            throw error
        }
        return written
    }

    static func streaming(
        to output: ExportOutput, _ files: ExportAttachmentWriter? = nil, _ body: () throws -> Void
    ) throws {
        do {
            try body()
            try output.finish()
        } catch {
            output.abandon()
            files?.abandon()
            throw error
        }
    }

    static func flush(_ writer: inout DiaryJSONWriter, to output: ExportOutput) throws {
        try writer.drain { try output.write(&$0) }
    }

    static func flush(_ text: inout String, to output: ExportOutput) throws {
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
        if let device = Vault.captureDevice(ofSource: entry.source) { meta.append("from capture device " + device) }
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
                text += writer.articleOpening(entry, previous: previous)
                previous = entry.date
                if !entry.attachments.isEmpty {
                    try flush(&text, to: output)
                    try HTMLAttachments.write(entry, from: vault, to: output)
                }
                text += HTMLDocumentWriter.articleClosing
                if text.utf8.count >= flushBytes { try flush(&text, to: output) }
            }
            text += HTMLDocumentWriter.closing
            try flush(&text, to: output)
        }
    }
}
