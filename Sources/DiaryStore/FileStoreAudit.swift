import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Compares a files vault's directory with exactly the names the store writes.
///
/// Why exactly: anything else in the vault — an unknown file, a subdirectory, a symbolic link,
/// an entry file under a name that is not canonical (`ABC…` for `abc…`) — is invisible to
/// every reader (they list only canonical names), so it could hold a copy of deleted
/// ciphertext or an entry no command shows, and `verify` would stay clean. Temporary files
/// (`.tmp-…`) are a killed writer's leftovers and are tolerated, as the store contract says.
/// The capture inbox is not part of the store (docs/FORMAT.md §2): capture devices write
/// there by design, so what it holds is never the store's damage (`verify` notes it apart).
enum FileStoreAudit {
    static func findings(in directory: URL) throws -> [String] {
        var findings: [String] = []
        let top = try DurableFile.names(in: directory) ?? []
        let files: Set<String> = [
            FileStore.headerName, FileStore.indexName, StoreLayout.lockName, FileJournal.fileName, EntryPack.fileName,
        ]
        let directories: Set<String> = [
            FileStore.entriesName, FileStore.indexPagesName, FileStore.attachmentsName,
        ]
        for name in top.sorted() where !name.hasPrefix(DurableFile.tempPrefix) && name != InboxLayout.directoryName {
            let kind = try Self.kind(directory.appendingPathComponent(name))
            if files.contains(name) {
                if kind != S_IFREG { findings.append("\(name) is a \(describe(kind)), not a regular file") }
            } else if directories.contains(name) {
                if kind != S_IFDIR { findings.append("\(name) is a \(describe(kind)), not a directory") }
            } else {
                findings.append("unexpected \(describe(kind)) '\(name)' in the vault directory")
            }
        }
        if !top.contains(FileStore.entriesName) { findings.append("\(FileStore.entriesName)/ is missing") }
        findings += try audit(directory, FileStore.entriesName, what: "entry file") {
            FileStore.entryID(fromFileName: $0) != nil
        }
        findings += try audit(directory, FileStore.indexPagesName, what: "index page") {
            IndexPageNumber.page(fromFileName: $0) != nil
        }
        findings += try audit(directory, FileStore.attachmentsName, what: "attachment object") {
            FileStore.entryID(fromFileName: $0) != nil
        }
        return findings
    }

    /// Every name in `sub` must be a regular file that `isOurs` accepts (or a temporary file).
    private static func audit(
        _ directory: URL, _ sub: String, what: String, isOurs: (String) -> Bool
    ) throws -> [String] {
        let url = directory.appendingPathComponent(sub)
        guard try kind(url) == S_IFDIR, let names = try DurableFile.names(in: url) else { return [] }
        var findings: [String] = []
        for name in names.sorted() where !name.hasPrefix(DurableFile.tempPrefix) {
            let kind = try Self.kind(url.appendingPathComponent(name))
            if !isOurs(name) {
                findings.append("unexpected \(describe(kind)) '\(name)' in \(sub)/ (not an \(what) name)")
            } else if kind != S_IFREG {
                findings.append("\(sub)/\(name) is a \(describe(kind)), not a regular file")
            }
        }
        return findings
    }

    /// The file type of `url` itself (a symbolic link is not followed); 0 when it is gone.
    private static func kind(_ url: URL) throws -> mode_t {
        var info = stat()
        guard lstat(url.path, &info) == 0 else {
            if errno == ENOENT { return 0 }
            throw StoreError.io(path: url.path, detail: DurableFile.errnoText())
        }
        return info.st_mode & S_IFMT
    }

    private static func describe(_ kind: mode_t) -> String {
        switch kind {
        case S_IFREG: return "file"
        case S_IFDIR: return "directory"
        case S_IFLNK: return "symbolic link"
        case 0: return "vanished file"
        default: return "special file"
        }
    }
}
