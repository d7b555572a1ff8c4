import DiaryCrypto
import DiaryVault
import Foundation

/// A file holding a recovery key (`recovery-key create --output FILE`, read back by
/// `reset-passphrase --recovery-key-file FILE`): `#` comment lines saying what it is, then
/// the key's text on a line of its own.
///
/// The file is created (new, 0600, never over anything) before the vault changes, so a path
/// that cannot be written refuses the command while the old key, if any, still works.
public final class RecoveryKeyFile {
    /// Larger files are not recovery key files.
    public static let maximumBytes = 4096

    public let path: String
    private var fd: Int32

    private init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    deinit { if fd >= 0 { close(fd) } }

    /// Creates `path`: a new file only (O_EXCL, no link followed), readable by its owner alone.
    public static func create(at path: String) throws -> RecoveryKeyFile {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw errno == EEXIST
                ? RecoveryKeyFileError.exists(path: path) : RecoveryKeyFileError.cannotWrite(path: path, errno: errno)
        }
        return RecoveryKeyFile(path: path, fd: fd)
    }

    /// Writes the key with its comment lines, flushes it to disk and closes the file.
    public func write(_ key: RecoveryKey, vaultID: UUID, created: Date) throws {
        var bytes = Array(Self.contents(key, vaultID: vaultID, created: created).utf8)
        defer { secureZero(&bytes) }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw RecoveryKeyFileError.cannotWrite(path: path, errno: errno) }
            written += n
        }
        guard fsync(fd) == 0 else { throw RecoveryKeyFileError.cannotWrite(path: path, errno: errno) }
        close(fd)
        fd = -1
    }

    /// Removes the file (the vault change it was made for did not happen).
    public func discard() {
        if fd >= 0 { close(fd) }
        fd = -1
        unlink(path)
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
    /// The key's line has a wrong character, length or checksum.
    case mistyped(path: String, CheckedBase32.Error)
}
