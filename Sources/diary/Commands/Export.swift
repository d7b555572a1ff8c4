import ArgumentParser
import DiaryApp
import DiaryExchange
import DiaryVault
import Foundation

/// `diary export`: the entries (and their attachments) as plaintext JSON, Markdown or HTML,
/// only with explicit consent.
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export entries as plaintext JSON, Markdown or HTML.",
        usage: "diary export [<options>]",
        discussion: """
            The output is NOT encrypted. A warning always goes to stderr; on a terminal diary \
            then asks before writing anything. Without a terminal (scripts, pipes, cron) --yes \
            is required, also when writing to stdout; otherwise nothing is written and the exit \
            status is 64.

            --format json (the default) writes every field of every entry: id, text, date, \
            created, modified, star, tags. `diary import --from diary` reads it back into any \
            vault with the same ids and values.

            --format markdown writes one document (newest entry first, dates in your locale), \
            or, when -o names a directory (one that exists, or a path ending in '/'), one \
            .md file per entry with front matter that `diary import --from markdown` reads back.

            --format html writes one self-contained page to read or print (oldest entry first): \
            a table of contents by year and month, each entry's Markdown rendered, its date, \
            star and tags; the styles are inside it (with a stylesheet for printing) and it \
            loads nothing from anywhere. Nothing in an entry can run in a browser: raw HTML \
            (<script> included), event attributes and javascript: links appear as text, only \
            http, https and mailto links are links, images are shown as their description \
            and address, and the page forbids scripts (Content-Security-Policy).

            Attachments: with -o FILE (json, markdown) each entry's attachments are written, \
            decrypted, into a folder beside it, FILE without its extension + .attachments/<entry \
            id>/<name> (for a markdown directory: attachments/ inside it); json lists them with \
            their paths (import --from diary reads them back), markdown links them after the \
            text, html shows images inline as data: URIs and names other files. To stdout they \
            are listed but not written. An existing attachments folder is refused (status 73). \
            Entries without attachments are written exactly as before.

            Without -o/--output, or with -o -, the export goes to stdout (JSON or one Markdown \
            document; a file named '-' is -o ./-). An existing file is never overwritten \
            (status 73, nothing written); files are created with mode 0600, a new directory \
            with mode 0700. An export that fails (status 65 for a damaged entry or attachment) \
            or is interrupted (SIGINT, SIGTERM, SIGHUP) removes every file and folder it \
            created; what a SIGKILL interrupts stays.

            The filters are list's: --from, --to and --on (dates, as `diary list` takes them), \
            --tag and --starred export only the matching entries; --reverse puts the oldest \
            first (for html, which starts with the oldest: the newest first). (--to is a date \
            here as in list; the destination is -o/--output.)

            EXAMPLE
              diary export --format json -o ~/diary.json
              diary export --format markdown -o ~/diary-md/ --yes
              diary export --from 2024-01-01 --to 2024-12-31 --reverse -o ~/2024.json
              diary export --tag travel --yes | jq '.entries | length'
              diary export --format html --from 2024-01-01 -o ~/diary-2024.html
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: "What to write: json (lossless), markdown or html.")
    var format: ExportFormat = .json

    @Option(
        name: [.customShort("o"), .customLong("output")],
        help: ArgumentHelp(
            "Where to write (a file; for markdown also a directory; - for stdout); default stdout.",
            valueName: "path"),
        completion: .file())
    var output: String?

    @OptionGroup var filters: EntryFilterOptions

    @Flag(help: "Oldest entry first (html: newest first).")
    var reverse = false

    @Flag(help: "Do not ask: consent to writing plaintext.")
    var yes = false

    func validate() throws {
        if format != .markdown, let output, ExportDestination.namesDirectory(output) {
            // Said before the passphrase, and not as "already exists": the path is a directory.
            let example = (output.hasSuffix("/") ? output : output + "/") + "diary.\(format.rawValue)"
            throw ValidationError(
                "'\(output)' is a directory; --format \(format.rawValue) writes one file: give a file path, such as \(example)"
            )
        }
    }

    func run() throws {
        let destination = try ExportDestination(output, format: format)
        // Refuse before the passphrase and the question: the answer would not matter.
        try destination.refuseExisting()
        let session = global.session()
        try session.openVault()
        // The index alone says which entries go out, and how many, before the question; the
        // entries are then decrypted as they are written, one batch at a time. A damaged entry
        // stops the export (status 65) and removes the file it was writing.
        let (ids, summaries, attachments) = try session.read { vault in
            let newestFirst = try vault.list(filters.filter)
            // HTML is a book: oldest first unless --reverse.
            let entries = reverse != (format == .html) ? Array(newestFirst.reversed()) : newestFirst
            // Only HTML's table of contents needs the summaries: held through a JSON export of
            // 100,000 entries they were a quarter of its peak memory (26 of 105 MB).
            let attachments = entries.reduce(0) { $0 + $1.attachments.count }
            return (entries.map(\.id), format == .html ? entries : [], attachments)
        }
        // No folder at all when no entry has an attachment: such an export is as it always was.
        let folder = attachments > 0 ? destination.attachmentFolder(format: format) : nil
        try folder?.refuseExisting()
        try session.read { vault in try destination.refuseClashes(vault, ids) }
        let count = "\(ids.count) entr\(ids.count == 1 ? "y" : "ies")"
        let files = folder.map {
            " and \(attachments) attachment\(attachments == 1 ? "" : "s") to \(Printable.escaped($0.url.path))/"
        }
        Output.warning("the export is NOT encrypted: \(count) as plaintext to \(destination)\(files ?? "")")
        try confirmDestructive(
            "exporting plaintext", question: "Write \(count) as plaintext to \(destination)\(files ?? "")?", yes: yes)
        // Plaintext from here: a SIGINT, SIGTERM or SIGHUP removes every file and folder the
        // export created, as a failure does.
        SignalCleanup.install()
        let exported = try session.read { vault in
            try destination.write(
                vault, ids, summaries, format: format, attachments: folder, tracking: SignalCleanup.rememberCreated)
        }
        SignalCleanup.forgetCreated()
        if exported.notWritten > 0 {
            let n = exported.notWritten
            Output.note(
                "\(n) attachment\(n == 1 ? " was" : "s were") not written, only listed (give -o FILE to write them)")
        }
        if destination.url != nil { Output.note("exported \(count) to \(destination)") }
    }
}

/// Where an export goes: stdout, one file, or a directory of Markdown files.
enum ExportDestination: CustomStringConvertible {
    case stdout
    case file(URL)
    case directory(URL)

    /// Stdout without a path or for `-`; a directory only for Markdown, and only when `path`
    /// is one or ends in '/'.
    init(_ path: String?, format: ExportFormat) throws {
        // `-` is stdout, as for most tools; a file of that name is `./-`.
        guard let path, path != "-" else { self = .stdout; return }
        let expanded = (path as NSString).expandingTildeInPath
        if format == .markdown && Self.namesDirectory(path) {
            self = .directory(URL(fileURLWithPath: expanded, isDirectory: true).standardizedFileURL)
        } else {
            self = .file(URL(fileURLWithPath: expanded).standardizedFileURL)
        }
    }

    /// True when `path` ends in '/' or is an existing directory (`-` is stdout, never one).
    static func namesDirectory(_ path: String) -> Bool {
        guard path != "-" else { return false }
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(
            atPath: (path as NSString).expandingTildeInPath, isDirectory: &isDirectory)
        return path.hasSuffix("/") || (exists && isDirectory.boolValue)
    }

    var url: URL? {
        switch self {
        case .stdout: return nil
        case .file(let url), .directory(let url): return url
        }
    }

    var description: String {
        switch self {
        case .stdout: return "stdout"
        case .file(let url): return Printable.escaped(url.path)
        case .directory(let url): return Printable.escaped(url.path) + "/"
        }
    }

    /// Throws `outputExists` for a file that is already there (a directory may exist).
    func refuseExisting() throws {
        if case .file(let url) = self, FileManager.default.fileExists(atPath: url.path) {
            throw ExchangeError.outputExists(path: url.path)
        }
    }

    /// For a directory: throws `outputExists` when any entry's file is already there, so a
    /// clash is found before the question, not after half the files are written.
    func refuseClashes(_ vault: Vault, _ ids: [UUID]) throws {
        guard case .directory(let url) = self else { return }
        for name in try Exporter.markdownFileNames(vault, ids: ids, timeZone: .current) {
            let file = url.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: file.path) { throw ExchangeError.outputExists(path: file.path) }
        }
    }

    /// Where attachments are written: a folder beside a JSON or Markdown file, `attachments/`
    /// in a Markdown directory; none for stdout (listed only) and HTML (images inline).
    func attachmentFolder(format: ExportFormat) -> ExportAttachmentFolder? {
        switch (self, format) {
        case (.stdout, _), (_, .html): return nil
        case (.file(let url), _): return ExportAttachmentFolder(besideFile: url)
        case (.directory(let url), _): return ExportAttachmentFolder(inDirectory: url)
        }
    }

    /// Writes the entries `ids`, in this order, as they are decrypted; `summaries` are the
    /// same entries' (in the same order) for HTML's table of contents, empty for the others.
    /// `tracking` is told every file and folder created (to remove them if interrupted).
    @discardableResult
    func write(
        _ vault: Vault, _ ids: [UUID], _ summaries: [EntrySummary], format: ExportFormat,
        attachments: ExportAttachmentFolder? = nil, tracking: CreatedPathTracking? = nil
    ) throws -> ExportedAttachments {
        var folder = attachments
        folder?.tracking = tracking
        switch (self, format) {
        case (.stdout, .json):
            return try Exporter.json(vault, ids: ids, to: ExportOutput(descriptor: STDOUT_FILENO))
        case (.stdout, .markdown):
            return try markdownDocument(vault, ids, to: ExportOutput(descriptor: STDOUT_FILENO), nil)
        case (.file(let url), .json):
            return try Exporter.json(
                vault, ids: ids, to: ExportOutput(newFile: url, tracking: tracking), attachments: folder)
        case (.file(let url), .markdown):
            return try markdownDocument(vault, ids, to: ExportOutput(newFile: url, tracking: tracking), folder)
        case (.stdout, .html):
            try html(vault, summaries, to: ExportOutput(descriptor: STDOUT_FILENO))
        case (.file(let url), .html):
            try html(vault, summaries, to: ExportOutput(newFile: url, tracking: tracking))
        case (.directory(let url), _):
            try Exporter.markdownFiles(vault, ids: ids, into: url, timeZone: .current, tracking: tracking)
        }
        return ExportedAttachments()
    }

    private func html(_ vault: Vault, _ entries: [EntrySummary], to output: ExportOutput) throws {
        try Exporter.html(vault, entries: entries, to: output, timeZone: .current, locale: DateOutput.locale)
    }

    private func markdownDocument(
        _ vault: Vault, _ ids: [UUID], to output: ExportOutput, _ folder: ExportAttachmentFolder?
    ) throws -> ExportedAttachments {
        try Exporter.markdownDocument(
            vault, ids: ids, to: output, timeZone: .current, locale: DateOutput.locale, attachments: folder)
    }
}

extension ExportFormat: ExpressibleByArgument {}
