import DiaryCrypto
import DiaryStore
import DiaryVault
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Where an export writes its entries' attachments: a folder beside the export file
/// (`diary.json` → `diary.attachments/<entry id>/<name>`), or `attachments/` inside a
/// directory of Markdown files. Paths in the export are relative to the export's files.
///
/// The folder must not exist: an export never writes into one (nor overwrites a file). It is
/// created (0700, as each entry's folder) only when an attachment is written; files are 0600.
public struct ExportAttachmentFolder: Sendable {
    public let url: URL
    /// The folder's path relative to the export's files: what every path in it starts with.
    public let relative: String
    /// Told every file and folder written into the folder, and the folder (see `CreatedPathTracking`).
    public var tracking: CreatedPathTracking?

    /// The folder beside the export file `file`.
    public init(besideFile file: URL) {
        relative = DiaryJSONAttachments.folderName(besideFile: file)
        url = file.deletingLastPathComponent().appendingPathComponent(relative, isDirectory: true)
    }

    /// The folder `attachments` inside `directory` (an export of one file per entry).
    public init(inDirectory directory: URL) {
        relative = "attachments"
        url = directory.appendingPathComponent(relative, isDirectory: true)
    }

    /// Throws `outputExists` when the folder (or anything by its name) is there.
    public func refuseExisting() throws {
        var info = stat()
        if lstat(url.path, &info) == 0 { throw ExchangeError.outputExists(path: url.path) }
    }

    /// `folder/<entry id>/<name>`.
    static func path(_ folder: String, entry: UUID, name: String) -> String {
        folder + "/" + entry.uuidString.lowercased() + "/" + name
    }
}

/// Writes attachments into an `ExportAttachmentFolder`, each streamed from the vault
/// (`Vault.readAttachment`) into a temporary file that is renamed to its name only once every
/// chunk authenticated; `abandon` removes the folder and all it holds.
final class ExportAttachmentWriter {
    let folder: ExportAttachmentFolder
    private var created = false
    private(set) var written = 0

    init(_ folder: ExportAttachmentFolder) {
        self.folder = folder
    }

    /// Writes the attachments of `entry` into `<folder>/<entry id>/`.
    func write(_ entry: Entry, from vault: Vault) throws {
        guard !entry.attachments.isEmpty else { return }
        try createFolder(folder.url)
        let directory = folder.url.appendingPathComponent(entry.id.uuidString.lowercased(), isDirectory: true)
        try createFolder(directory)
        for record in entry.attachments {
            let temp = directory.appendingPathComponent(DurableFile.tempPrefix + SecureRandom.uuid().uuidString)
            let output = try ExportOutput(newFile: temp, tracking: folder.tracking)
            do {
                try vault.readAttachment(record) { try output.write($0) }
                try output.finish()
            } catch {
                output.abandon()
                throw error
            }
            let target = directory.appendingPathComponent(record.name)
            // Before the rename: after it, a signal must find the name remembered.
            folder.tracking?(target.path)
            guard rename(temp.path, target.path) == 0 else {
                let detail = String(cString: strerror(errno))
                unlink(temp.path)
                throw ExchangeError.writeFailed(path: target.path, detail: detail)
            }
            written += 1
        }
        do { try DurableFile.syncDirectory(directory) } catch {
            throw ExchangeError.writeFailed(path: directory.path, detail: "\(error)")
        }
    }

    /// Removes the folder, when this writer created it.
    func abandon() {
        guard created else { return }
        try? FileManager.default.removeItem(at: folder.url)
    }

    private func createFolder(_ url: URL) throws {
        if url == folder.url && created { return }
        guard mkdir(url.path, 0o700) == 0 else {
            if errno == EEXIST { throw ExchangeError.outputExists(path: url.path) }
            throw ExchangeError.writeFailed(path: url.path, detail: String(cString: strerror(errno)))
        }
        if url == folder.url { created = true }
        folder.tracking?(url.path)
        chmod(url.path, 0o700)
    }
}

/// What an export did with its entries' attachments.
public struct ExportedAttachments: Equatable, Sendable {
    /// Files written into the attachments folder.
    public var written = 0
    /// Attachments only listed: the export had no folder to write them to (stdout).
    public var notWritten = 0

    public init(written: Int = 0, notWritten: Int = 0) {
        self.written = written
        self.notWritten = notWritten
    }

    /// Writes `entry`'s attachments with `files`, or counts them as not written without it.
    mutating func add(_ entry: Entry, _ files: ExportAttachmentWriter?, _ vault: Vault) throws {
        guard let files else {
            notWritten += entry.attachments.count
            return
        }
        try files.write(entry, from: vault)
        written += entry.attachments.count
    }
}
