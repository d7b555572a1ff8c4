import DiaryCrypto
import DiaryVault
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What `--to DIR` is: a vault directory or a folder sync remote, each with an inbox.
public enum CaptureTarget: Equatable, Sendable {
    case vault
    case folderRemote
}

/// What one capture did.
public struct CaptureReceipt: Equatable, Sendable {
    public let device: String
    public let counter: UInt64
    public let target: CaptureTarget
    /// The item's path.
    public let path: String
}

/// The capture side (`diary capture`): seals an entry with a capture key so that only the vault
/// opens it, and drops it into a vault's or a folder remote's inbox. Needs no passphrase and
/// opens nothing sealed: the vault id comes from the header or the remote's marker, in clear.
public enum CaptureSender {
    /// Seals `entry` as the next item of the key in `keyFile` and writes it into `directory`'s
    /// inbox. The key file's counter is advanced and written back before anything is sealed, so
    /// a crash can skip a number, never use one twice.
    public static func capture(_ entry: CapturedEntry, keyFile: String, to directory: String) throws
        -> CaptureReceipt
    {
        let (target, vaultID) = try Self.target(of: directory)
        let credential = try CaptureKeyFile.takeCounter(keyFile, vaultID: vaultID, directory: directory)
        var item = try CaptureItem.seal(entry, credential: credential)
        defer { secureZero(&item) }
        let inbox = (directory as NSString).appendingPathComponent(CaptureItem.inboxDirectoryName)
        try CaptureFiles.makeDirectory(inbox)
        let path = inbox + "/" + CaptureItem.fileName(deviceID: credential.deviceID, counter: credential.counter)
        do {
            try CaptureFiles.writeNew(item, to: path)
        } catch is CaptureFiles.Exists {
            // Only a copy of the key file used elsewhere numbers two items alike.
            throw CaptureAppError.io(path: path, detail: "an item of this number is there already")
        }
        return CaptureReceipt(device: credential.name, counter: credential.counter, target: target, path: path)
    }

    /// What `directory` is and the id of its vault, read without any key. A git URL is refused:
    /// capture writes a file, and a git remote is not a directory.
    public static func target(of directory: String) throws -> (CaptureTarget, UUID) {
        var info = stat()
        let exists = stat(directory, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
        // `ssh://…`, `https://…`, `user@host:path`, `host:path`: what git takes for a remote.
        if !exists, directory.contains("://") || directory.range(of: "^[^/]+:", options: .regularExpression) != nil {
            throw CaptureAppError.gitRemote(directory)
        }
        // A vault header makes a vault, whatever holds it or whatever it holds (a user's `.git`).
        if let info = try? Vault.inspect(at: URL(fileURLWithPath: directory)) { return (.vault, info.id) }
        let marker = (directory as NSString).appendingPathComponent("diary-sync")
        if case .bytes(let bytes) = try CaptureFiles.read(marker, limit: 4096), let id = remoteVaultID(marker: bytes) {
            // A clone of a git remote (diary's own or a user's) holds the marker beside `.git`,
            // and its inbox is never read. A folder remote merely below a repository is read.
            if holdsGit(directory) { throw CaptureAppError.gitWorkingTree(path: directory) }
            return (.folderRemote, id)
        }
        throw CaptureAppError.notACaptureTarget(path: directory)
    }

    /// Whether `directory` itself holds `.git` (a file or a folder): the top of a git clone.
    static func holdsGit(_ directory: String) -> Bool {
        var info = stat()
        return lstat((directory as NSString).appendingPathComponent(".git"), &info) == 0
    }

    /// The vault id in a folder remote's marker (docs/FORMAT.md §12.1): the lines, empty ones
    /// dropped, must be exactly `diary-sync 2` and a lowercase UUID.
    public static func remoteVaultID(marker: [UInt8]) -> UUID? {
        guard let text = String(validating: marker, as: UTF8.self) else { return nil }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true)
        guard lines.count == 2, lines[0] == "diary-sync 2", lines[1].count == 36,
            let id = UUID(uuidString: String(lines[1])), id.uuidString.lowercased() == lines[1]
        else { return nil }
        return id
    }
}

/// A capture key's file: read strictly, its counter advanced under a lock.
public enum CaptureKeyFile {
    /// The credential in `path` with its counter advanced, written back (flock, temporary file,
    /// fsync, rename, 0600) before it is returned. Refuses a key of another vault than
    /// `vaultID` before anything is written.
    static func takeCounter(_ path: String, vaultID: UUID, directory: String) throws -> CaptureCredential {
        while true {
            let fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW)
            guard fd >= 0 else {
                if errno == ELOOP { throw CaptureAppError.credentialIsLink(path: path) }
                throw CaptureAppError.credentialUnreadable(path: path, detail: String(cString: strerror(errno)))
            }
            defer { close(fd) }
            guard flock(fd, LOCK_EX) == 0 else {
                throw CaptureAppError.io(path: path, detail: String(cString: strerror(errno)))
            }
            // Another capture may have replaced the file while we waited: lock the file now at `path`.
            var held = stat()
            var current = stat()
            guard fstat(fd, &held) == 0, stat(path, &current) == 0, held.st_ino == current.st_ino,
                held.st_dev == current.st_dev
            else { continue }
            let credential = try parse(fd, path: path)
            guard credential.vaultID == vaultID else {
                throw CaptureAppError.otherVault(path: directory, key: credential.vaultID, found: vaultID)
            }
            let next: CaptureCredential
            do { next = try credential.advanced() } catch {
                throw CaptureAppError.credentialUnreadable(path: path, detail: "\(error)")
            }
            var bytes = next.encoded()
            defer { secureZero(&bytes) }
            try CaptureFiles.replace(path, with: bytes)
            return next
        }
    }

    /// Reads the credential a user gave, without advancing it (to say which vault it is for).
    public static func read(_ path: String) throws -> CaptureCredential {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else {
            if errno == ELOOP { throw CaptureAppError.credentialIsLink(path: path) }
            throw CaptureAppError.credentialUnreadable(path: path, detail: String(cString: strerror(errno)))
        }
        defer { close(fd) }
        return try parse(fd, path: path)
    }

    private static func parse(_ fd: Int32, path: String) throws -> CaptureCredential {
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
            info.st_size <= CaptureCredential.maximumFileBytes
        else { throw CaptureAppError.credentialUnreadable(path: path, detail: "not a capture key file") }
        guard var bytes = try CaptureFiles.readExactly(fd, size: Int(info.st_size), path: path) else {
            throw CaptureAppError.credentialUnreadable(path: path, detail: "it changed while it was read")
        }
        defer { secureZero(&bytes) }
        do {
            return try CaptureCredential.parse(bytes)
        } catch {
            throw CaptureAppError.credentialUnreadable(path: path, detail: "\(error)")
        }
    }

    /// Writes a new capture key to `path`: a new file (never replacing one), 0600.
    public static func write(_ credential: CaptureCredential, to path: String) throws {
        var bytes = credential.encoded()
        defer { secureZero(&bytes) }
        do {
            try CaptureFiles.writeNew(bytes, to: path)
        } catch is CaptureFiles.Exists {
            throw CaptureAppError.credentialExists(path: path)
        }
    }
}
