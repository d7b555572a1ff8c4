import DiaryCrypto
import DiaryStore
import DiaryVault
import Foundation

/// A file holding a recovery key (`recovery-key create --output FILE`, read back by
/// `reset-passphrase --recovery-key-file FILE`): `#` comment lines saying what it is, then
/// the key's text on a line of its own.
///
/// The key is written whole to a temporary name beside FILE, flushed, and only then linked to
/// FILE (link(2) fails when anything is there: never over a file), all before the vault
/// changes; so FILE either holds the whole key or is not there, and a crash leaves at most a
/// hidden temporary name, never a file blocking the path. Where there are no hard links (FAT,
/// exFAT), FILE is made new (O_EXCL) and written and flushed directly, still before the vault
/// changes.
public final class RecoveryKeyFile {
    /// Larger files are not recovery key files.
    public static let maximumBytes = 4096

    public let path: String
    /// The temporary name beside `path` the key is written under first.
    public let temporaryPath: String
    private var fd: Int32
    private var linked = false
    /// False once written when the file's filesystem keeps no modes (FAT, exFAT): others may
    /// read it whatever was asked.
    public private(set) var keepsPermissions = true
    /// link(2); tests give one that fails as FAT's does.
    var linkFile: (String, String) -> Int32 = { Glibc.link($0, $1) }

    private init(path: String, temporaryPath: String, fd: Int32) {
        self.path = path
        self.temporaryPath = temporaryPath
        self.fd = fd
    }

    deinit { if fd >= 0 { close(fd) } }

    /// Claims the way to `path` before anything is asked or made: nothing may be there (not
    /// even a dangling link), and a new temporary file (O_EXCL, 0600) is made in its directory,
    /// so a directory that cannot be written refuses the command while nothing has changed.
    public static func create(at path: String) throws -> RecoveryKeyFile {
        var info = stat()
        if lstat(path, &info) == 0 { throw RecoveryKeyFileError.exists(path: path) }
        let url = URL(fileURLWithPath: path)
        removeLeftovers(in: url.deletingLastPathComponent().path)
        let name = ".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let temporary = url.deletingLastPathComponent().appendingPathComponent(name).path
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw RecoveryKeyFileError.cannotWrite(path: path, errno: errno) }
        return RecoveryKeyFile(path: path, temporaryPath: temporary, fd: fd)
    }

    /// Removes the temporary names (`.NAME.PID.RANDOM.tmp`, ours, regular, key-sized) that a
    /// process killed while writing a key left in `directory`: they may hold a key never set.
    /// One whose process is still alive is left alone.
    static func removeLeftovers(in directory: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix(".") && name.hasSuffix(".tmp") {
            let parts = name.dropFirst().dropLast(4).split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count >= 3, let pid = pid_t(parts[parts.count - 2]), pid > 0,
                UInt32(parts[parts.count - 1]) != nil, !parts.dropLast(2).joined(separator: ".").isEmpty,
                kill(pid, 0) != 0, errno == ESRCH
            else { continue }
            let file = URL(fileURLWithPath: directory).appendingPathComponent(name).path
            var info = stat()
            guard lstat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == getuid(),
                info.st_size <= maximumBytes
            else { continue }
            unlink(file)
        }
    }

    /// Writes the key with its comment lines under the temporary name, flushes it to disk,
    /// links it to `path` and flushes the directory: afterwards `path` durably holds the key.
    /// On failure nothing is left at `path` or under the temporary name.
    public func write(_ key: RecoveryKey, vaultID: UUID, created: Date) throws {
        do {
            var bytes = Array(Self.contents(key, vaultID: vaultID, created: created).utf8)
            defer { secureZero(&bytes) }
            try writeAll(bytes)
            guard fsync(fd) == 0 else { throw RecoveryKeyFileError.cannotWrite(path: path, errno: errno) }
            close(fd)
            fd = -1
            if linkFile(temporaryPath, path) != 0 {
                let code = errno
                guard Self.noHardLinks.contains(code) else {
                    throw code == EEXIST
                        ? RecoveryKeyFileError.exists(path: path)
                        : RecoveryKeyFileError.cannotWrite(path: path, errno: code)
                }
                // FAT and exFAT (USB sticks) have no hard links: FILE is made new (O_EXCL, so
                // never over anything) and written whole before the vault changes all the same.
                try writeDirectly(bytes)
            }
            linked = true
            unlink(temporaryPath)
            try syncDirectory()
            keepsPermissions = Self.isPrivate(path)
        } catch {
            discard()
            throw error
        }
    }

    /// What link(2) says on a filesystem without hard links.
    private static let noHardLinks: Set<Int32> = [EPERM, ENOTSUP, EOPNOTSUPP, EMLINK, EXDEV]

    /// Makes `path` new and writes `bytes` to it, flushed; afterwards `discard` removes it.
    private func writeDirectly(_ bytes: [UInt8]) throws {
        fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw errno == EEXIST
                ? RecoveryKeyFileError.exists(path: path) : RecoveryKeyFileError.cannotWrite(path: path, errno: errno)
        }
        linked = true
        try writeAll(bytes)
        guard fsync(fd) == 0 else { throw RecoveryKeyFileError.cannotWrite(path: path, errno: errno) }
        close(fd)
        fd = -1
    }

    /// False when group or others can read `path`: a filesystem that keeps no modes.
    static func isPrivate(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & 0o077 == 0
    }

    private func writeAll(_ bytes: [UInt8]) throws {
        if let code = bytes.withUnsafeBytes({ DurableFile.writeFully(fd, $0) }) {
            throw RecoveryKeyFileError.cannotWrite(path: path, errno: code)
        }
    }

    /// The new name reaches the disk before the vault is sealed to the key it holds.
    private func syncDirectory() throws {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let dirFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dirFD >= 0 else { throw RecoveryKeyFileError.cannotWrite(path: path, errno: errno) }
        defer { close(dirFD) }
        guard fsync(dirFD) == 0 else { throw RecoveryKeyFileError.cannotWrite(path: path, errno: errno) }
    }

    /// Removes what this file made (the vault change it was made for did not happen): the
    /// temporary name, and `path` once linked (by this process: nothing else can be there).
    public func discard() {
        if fd >= 0 { close(fd) }
        fd = -1
        unlink(temporaryPath)
        if linked { unlink(path) }
        linked = false
    }

    /// What the file holds.
    static func contents(_ key: RecoveryKey, vaultID: UUID, created: Date) -> String {
        let day = ISO8601DateFormatter.string(from: created, timeZone: .gmt, formatOptions: [.withFullDate])
        return """
            # diary recovery key
            # vault \(vaultID.uuidString.lowercased()), created \(day)
            # It opens the vault when the passphrase is forgotten: diary reset-passphrase --recovery-key-file FILE.
            # Keep it offline and safe (printed, in a drawer); whoever holds it can read the diary.
            \(key.text)

            """
    }

    /// Reads the key from `path`: comment lines (`#`) and blank lines are skipped, and exactly
    /// one line must remain, the key's text (a mistyped character is caught by its checksum).
    public static func read(at path: String) throws -> RecoveryKey {
        var bytes = try readBytes(path)
        defer { secureZero(&bytes) }
        let lines = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        guard lines.count == 1 else { throw RecoveryKeyFileError.notAKeyFile(path: path) }
        do {
            return try RecoveryKey(text: lines[0])
        } catch .text(let problem) {
            if case .wrongLength = problem, (try? RecoveryShare(text: lines[0])) != nil {
                throw RecoveryKeyFileError.shareNotKey(path: path)
            }
            throw RecoveryKeyFileError.mistyped(path: path, problem)
        } catch {
            throw RecoveryKeyFileError.notAKeyFile(path: path)
        }
    }

    private static func readBytes(_ path: String) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw RecoveryKeyFileError.cannotRead(path: path, errno: errno) }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: maximumBytes + 1)
        var count = 0
        while count < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw RecoveryKeyFileError.cannotRead(path: path, errno: errno) }
            if n == 0 { break }
            count += n
        }
        guard count <= maximumBytes else {
            secureZero(&bytes)
            throw RecoveryKeyFileError.tooLarge(path: path, limit: maximumBytes)
        }
        bytes.removeSubrange(count...)
        return bytes
    }
}

/// Why a recovery key file could not be written or read.
public enum RecoveryKeyFileError: Error, Equatable, Sendable {
    /// Something is at the path already: a key file is never written over anything.
    case exists(path: String)
    case cannotWrite(path: String, errno: Int32)
    case cannotRead(path: String, errno: Int32)
    case tooLarge(path: String, limit: Int)
    /// Not exactly one line besides comments and blank lines.
    case notAKeyFile(path: String)
    /// The file holds a recovery share, not a whole key.
    case shareNotKey(path: String)
    /// The key's line has a wrong character, length or checksum.
    case mistyped(path: String, CheckedBase32.Error)
}
