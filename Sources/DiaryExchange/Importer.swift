import DiaryVault
import Foundation

/// The kinds of file `diary import --from` reads.
public enum ImportFormat: String, CaseIterable, Sendable {
    /// `jrnl --export json`.
    case jrnl
    /// Day One's JSON export: a `.json` file or the `.zip` that holds it.
    case dayone
    /// One entry per `.md` file, with optional front matter.
    case markdown
    /// The lossless export `diary export --format json` writes.
    case diary
}

/// An entry an importer passed over on purpose (not an error: the rest still imports).
public struct ImportSkip: Equatable, Sendable, CustomStringConvertible {
    public var file: String
    /// Position in the file, counted from 1; nil when the whole file was skipped.
    public var entry: Int?
    public var reason: String

    public var description: String {
        entry.map { "\(file): entry \($0): \(reason)" } ?? "\(file): \(reason)"
    }
}

/// What an importer read: entries ready for `Vault.importEntries`, and what it left out.
public struct ImportBatch: Equatable, Sendable {
    public var entries: [Entry]
    public var skipped: [ImportSkip]
    /// Media references (Day One photos, videos, audio) replaced by a placeholder in the text.
    public var mediaReferencesDropped: Int
    /// The files each entry brings, by entry id (only when read with `attachments: true`;
    /// entries without any are absent).
    public var attachments: [UUID: [ImportAttachment]]
    /// Media an entry lists that the import does not hold (a Day One object whose file is not
    /// in the zip, or is malformed): not imported.
    public var attachmentsMissing: Int

    public init(
        entries: [Entry] = [], skipped: [ImportSkip] = [], mediaReferencesDropped: Int = 0,
        attachments: [UUID: [ImportAttachment]] = [:], attachmentsMissing: Int = 0
    ) {
        self.entries = entries
        self.skipped = skipped
        self.mediaReferencesDropped = mediaReferencesDropped
        self.attachments = attachments
        self.attachmentsMissing = attachmentsMissing
    }

    mutating func append(_ other: ImportBatch) {
        entries += other.entries
        skipped += other.skipped
        mediaReferencesDropped += other.mediaReferencesDropped
        attachments.merge(other.attachments) { $0 + $1 }
        attachmentsMissing += other.attachmentsMissing
    }
}

/// Reads import files into entries: pure parsing, nothing is written anywhere.
///
/// Every reader is all or nothing: a bad entry anywhere throws an `ExchangeError` naming the
/// file and the entry or line, and no entries are returned. Entries from jrnl, Day One and
/// Markdown get fresh random ids and a `source` naming where they came from, which is what
/// makes a second import of the same file add nothing.
public enum Importer {
    /// Files larger than this are refused before they are read (256 MiB).
    public static let maximumFileBytes = 256 << 20

    /// Reads every file in `urls` (for Markdown, a directory means its `*.md` files, not
    /// recursively). Dates without a zone (jrnl's date and time, Markdown dates) are read in
    /// `timeZone`. With `attachments`, the files entries bring are found too (Day One's media
    /// in its zip, Markdown's local images; `ImportBatch.attachments`), and Day One's text names
    /// them instead of saying they were not imported; without, the batch is as it always was.
    public static func read(
        _ format: ImportFormat, from urls: [URL], timeZone: TimeZone = .current, attachments: Bool = false
    ) throws -> ImportBatch {
        guard !urls.isEmpty else { throw ExchangeError.noInput(path: ".", detail: "no files to import") }
        var batch = ImportBatch()
        switch format {
        case .markdown:
            batch = try MarkdownImporter.read(
                MarkdownImporter.files(in: urls), timeZone: timeZone, attachments: attachments)
        case .jrnl:
            for url in urls { batch.append(try JrnlImporter.read(load(url), file: url.path, timeZone: timeZone)) }
        case .dayone:
            for url in urls { batch.append(try DayOneImporter.read(url: url, attachments: attachments)) }
        case .diary:
            try forEachDiaryEntry(in: urls) { batch.entries.append($0) }
        }
        return batch
    }

    /// Calls `body` with each entry of the diary JSON exports `urls`, file after file, reading
    /// each file in chunks (`DiaryJSONStream`): memory does not grow with the files. Throws
    /// what `read(.diary, …)` throws, for the same files: a file's error comes before `body`'s,
    /// and `body` is not called again once it or a file has thrown, but every file is still
    /// read to find an error in it. Returns the number of entries.
    @discardableResult
    public static func forEachDiaryEntry(in urls: [URL], _ body: (Entry) throws -> Void) throws -> Int {
        guard !urls.isEmpty else { throw ExchangeError.noInput(path: ".", detail: "no files to import") }
        var bodyError: (any Error)?
        var count = 0
        for url in urls {
            count += try DiaryJSONStream.forEachEntry(in: url) { entry in
                guard bodyError == nil else { return }
                do { try body(entry) } catch { bodyError = error }
            }
        }
        if let bodyError { throw bodyError }
        return count
    }

    /// `forEachDiaryEntry`, each entry with the files its export wrote beside it (in the
    /// `.attachments` folder), ready for `Vault.importEntries(items:)` through `opener`; the
    /// attachments it lists without a file are counted in `missing`.
    @discardableResult
    public static func forEachDiaryItem(
        in urls: [URL], opener: ImportAttachmentOpener, missing: inout Int, _ body: (ImportItem) throws -> Void
    ) throws -> Int {
        guard !urls.isEmpty else { throw ExchangeError.noInput(path: ".", detail: "no files to import") }
        var bodyError: (any Error)?
        var count = 0
        var lacking = 0
        for url in urls {
            count += try DiaryJSONStream.forEachItem(in: url) { item in
                lacking += item.missing
                guard bodyError == nil else { return }
                do {
                    try body(ImportItem(entry: item.entry, attachments: item.attachments.map(opener.pending)))
                } catch { bodyError = error }
            }
        }
        missing = lacking
        if let bodyError { throw bodyError }
        return count
    }

    /// The bytes of a file, refused when over the size limit or (for text) not valid UTF-8.
    static func load(_ url: URL, requireText: Bool = true) throws -> [UInt8] {
        let path = url.path
        let size = try regularFileSize(url)
        // Checked before reading, so a huge file costs nothing.
        if size > maximumFileBytes { throw ExchangeError.tooLarge(file: path, bytes: size, limit: maximumFileBytes) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ExchangeError.unreadable(file: path, detail: "no permission")
        }
        let bytes = [UInt8](data)
        if requireText { try requireUTF8(bytes, file: path) }
        return bytes
    }

    /// The size of the file at `url`; refused when it is missing, unreadable or a directory.
    static func regularFileSize(_ url: URL) throws -> Int {
        let path = url.path
        let size: Int
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            if attributes[.type] as? FileAttributeType == .typeDirectory {
                throw ExchangeError.unreadable(file: path, detail: "is a directory")
            }
            size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        } catch let error as ExchangeError {
            throw error
        } catch {
            throw ExchangeError.unreadable(file: path, detail: "no such file or no permission")
        }
        return size
    }

    /// Throws `invalidUTF8` naming the line of the first bad byte.
    static func requireUTF8(_ bytes: [UInt8], file: String) throws {
        if String(validating: bytes, as: UTF8.self) != nil { return }
        var line = 1
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let s): if s == "\n" { line += 1 }
            case .emptyInput: break loop
            case .error: break loop
            }
        }
        throw ExchangeError.invalidUTF8(file: file, line: line)
    }

    /// Parses JSON, turning a syntax error into `malformedJSON` with its line.
    static func parseJSON(_ bytes: [UInt8], file: String) throws -> JSONNode {
        do {
            return try JSONReader.parse(bytes)
        } catch {
            throw ExchangeError.malformedJSON(file: file, line: error.line, detail: error.detail)
        }
    }
}
