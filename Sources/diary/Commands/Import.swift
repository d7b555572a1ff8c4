import ArgumentParser
import DiaryApp
import DiaryExchange
import DiaryVault
import Foundation

/// `diary import`: entries from jrnl, Day One, Markdown files or a diary export, all or nothing.
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import entries from jrnl, Day One, Markdown or a diary export.",
        usage: "diary import [<options>] --from <format> <file> ...",
        discussion: """
            Every file is read and checked before anything is stored, and the entries are stored \
            in one atomic change: all of them, or none. A malformed file (bad JSON, the wrong \
            kind of export, an invalid date, a file over 256 MiB) names the file and the entry \
            or line, imports nothing and exits with status 67; a file that cannot be read exits \
            with status 1.

            Importing the same file again adds nothing: each imported entry remembers where it \
            came from (a Day One uuid, a hash of a jrnl or Markdown entry, a diary id), and \
            entries already in the vault count as duplicates.

            FORMATS
              jrnl      `jrnl --export json`: title and body become the text;
                        date and time are local; @tags and stars carry over
              dayone    Day One's JSON export (the .json, or the .zip with it);
                        the zip's photos, videos, audios and PDFs become
                        attachments; media it lacks become placeholders
              markdown  one entry per .md file (a directory: its .md files);
                        the date comes from the front matter (date:, tags:,
                        starred:, title:) or a file name YYYY-MM-DD...;
                        local images it links (inside the folder) are attached
              diary     `diary export --format json`: every field, same ids,
                        attachments from the .attachments folder beside it

            Imported photos lose their metadata (EXIF with GPS, XMP, IPTC) as with `diary \
            attach`, unless --keep-metadata.

            Prints nothing on stdout. The summary goes to stderr: entries imported, entries \
            skipped (with the file and position of each, e.g. an empty jrnl entry), duplicates, \
            media references not imported, attachments imported and listed but not found, and \
            photos whose metadata was removed. \
            Progress is shown when stderr is a terminal.

            EXAMPLE
              jrnl --export json > j.json && diary import --from jrnl j.json
              diary import --from dayone "Day One export.zip"
              diary import --from markdown ~/notes/journal/
              diary export -o all.json --yes && diary import --from diary all.json
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("What the files are: jrnl, dayone, markdown or diary.", valueName: "format"))
    var from: ImportFormat

    @Argument(
        help: ArgumentHelp("The files to import (for markdown, also directories).", valueName: "file"),
        completion: .file())
    var files: [String]

    @Flag(help: "Keep photos' metadata (EXIF with GPS, XMP, IPTC): store imported files exactly as they are.")
    var keepMetadata = false

    func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one file to import") }
    }

    func run() throws {
        let urls = files.map { URL(fileURLWithPath: ($0 as NSString).expandingTildeInPath).standardizedFileURL }
        // Open first: a locked or missing vault must fail before minutes of parsing.
        let vault = try global.session().openVault()
        let opener = ImportAttachmentOpener(keepMetadata: keepMetadata)
        if from == .diary { return try importDiaryExports(urls, into: vault, opener: opener) }
        let batch = try Importer.read(from, from: urls, timeZone: .current, attachments: from != .jrnl)
        var summary = ImportSummary(batch: batch, imported: 0, duplicates: 0)
        // Nothing to store (every entry skipped): no write at all.
        if !batch.entries.isEmpty {
            let progress = Progress("importing")
            defer { progress.finish() }
            let items: ImportItemSource = { body in
                for entry in batch.entries {
                    try body(
                        ImportItem(entry: entry, attachments: (batch.attachments[entry.id] ?? []).map(opener.pending)))
                }
            }
            let outcome = try vault.importEntries(items: items, progress: progress.update)
            (summary.imported, summary.duplicates) = (outcome.imported.count, outcome.duplicates)
            summary.attachments = outcome.attachments
            summary.stripped = (opener.photosStripped, opener.photosWithGPSPosition)
        }
        summary.stripped = (opener.photosStripped, opener.photosWithGPSPosition)
        summary.print()
    }

    /// The lossless export is read a file chunk and an entry at a time, twice (checked, then
    /// stored), so that an import of any size holds a batch of entries, not the whole file.
    private func importDiaryExports(_ urls: [URL], into vault: Vault, opener: ImportAttachmentOpener) throws {
        var missing = 0
        let progress = Progress("importing")
        defer { progress.finish() }
        let outcome = try vault.importEntries(
            items: { body in try Importer.forEachDiaryItem(in: urls, opener: opener, missing: &missing, body) },
            progress: progress.update)
        var summary = ImportSummary(batch: ImportBatch(attachmentsMissing: missing), imported: 0, duplicates: 0)
        (summary.imported, summary.duplicates) = (outcome.imported.count, outcome.duplicates)
        summary.attachments = outcome.attachments
        summary.stripped = (opener.photosStripped, opener.photosWithGPSPosition)
        progress.finish()
        summary.print()
    }
}

/// The lines `import` ends with, on stderr. They name files and positions, never entry text.
struct ImportSummary {
    let batch: ImportBatch
    var imported: Int
    var duplicates: Int
    /// Attachments stored with the imported entries.
    var attachments = 0
    /// Photos whose metadata was removed, and how many of them held a GPS position.
    var stripped = (photos: 0, withGPS: 0)

    var lines: [String] {
        var lines = batch.skipped.map { "skipped \($0)" }
        lines.append(
            "imported \(imported), skipped \(batch.skipped.count), duplicates \(duplicates)")
        let media = batch.mediaReferencesDropped
        if media > 0 {
            lines.append(
                "\(media) media reference\(media == 1 ? "" : "s") not imported (the text keeps a placeholder for each)")
        }
        let missing = batch.attachmentsMissing
        if attachments > 0 || missing > 0 {
            var line = "attachments imported \(attachments)"
            if missing > 0 { line += ", \(missing) listed but not found (not imported)" }
            lines.append(line)
        }
        if stripped.photos > 0 {
            let gps = stripped.withGPS > 0 ? " (\(stripped.withGPS) with a GPS position)" : ""
            let photos = "\(stripped.photos) photo\(stripped.photos == 1 ? "" : "s")"
            lines.append("removed the metadata of \(photos)\(gps); --keep-metadata keeps it")
        }
        return lines
    }

    func print() {
        for line in lines { Output.note(line) }
    }
}

extension ImportFormat: ExpressibleByArgument {}
