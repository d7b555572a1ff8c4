import DiaryCrypto
import Foundation

/// Reads a passphrase from a file given with `--passphrase-file` / `--new-passphrase-file`.
///
/// Only the first line counts (without its `\n` or `\r\n`), so `printf 'secret\n' > file` and an
/// editor-saved file both work. The bytes are read into a buffer that is zeroed after they
/// have been copied to guarded memory. A passphrase is never taken from an argument or an
/// environment variable's value: those show up in `ps`, shell history and `/proc/PID/environ`.
public enum PassphraseFile {
    /// Files larger than this are not passphrase files.
    public static let maximumBytes = 64 * 1024

    /// The first line of `path`, normalised (NFC), in guarded memory. A file open to others
    /// is used, and said to `events`.
    public static func read(_ path: String, events: AppEventSink) throws -> SecretBytes {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw AppError.passphraseFile(path: path, detail: String(cString: strerror(errno)))
        }
        defer { close(fd) }
        warnIfOpenToOthers(fd, path: path, events: events)
        var bytes = [UInt8](repeating: 0, count: maximumBytes)
        defer { secureZero(&bytes) }
        var count = 0
        while count < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw AppError.passphraseFile(path: path, detail: String(cString: strerror(errno))) }
            if n == 0 { break }
            count += n
            if bytes[..<count].contains(UInt8(ascii: "\n")) { break }
        }
        var end = bytes[..<count].firstIndex(of: UInt8(ascii: "\n")) ?? count
        if end > 0 && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        guard end > 0 else { throw AppError.passphraseFile(path: path, detail: "the first line is empty") }
        let raw = try SecretBytes(count: end) { out in
            bytes.withUnsafeBytes { out.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[0..<end])) }
        }
        return try Passphrase.normalized(raw)
    }

    /// Warns when a regular file holding a passphrase can be read or written by group or others.
    /// A warning rather than a refusal (ssh refuses a world-readable key): scripts that work today
    /// keep working, and every run says what to fix. Pipes and `/dev/fd/N` are not files on disk.
    private static func warnIfOpenToOthers(_ fd: Int32, path: String, events: AppEventSink) {
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_mode & 0o077 != 0 else { return }
        events(.passphraseFileTooOpen(path: path, mode: UInt32(info.st_mode & 0o777)))
    }
}
