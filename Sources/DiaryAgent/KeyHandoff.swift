import DiaryCrypto
import Glibc

/// Moves the vault key from `diary unlock` to the agent process it spawns, over a pipe.
///
/// The key never travels in argv or the environment: both are readable by other processes of the
/// user through `/proc/<pid>/cmdline` and `/proc/<pid>/environ`, and end up in crash reports. The
/// bytes are raw (no encoding) and go straight between guarded memory and the pipe.
public enum KeyHandoff {
    /// Writes the key's raw bytes to `fd` (the write end of the agent's stdin pipe).
    public static func write(_ key: SecretBytes, to fd: Int32) throws {
        try key.withUnsafeBytes { try writeAll($0, to: fd, call: "write key to agent") }
    }

    /// Every byte of `raw` to `fd`, across short writes and interruptions. A write that makes no
    /// progress is ENOSPC, never the errno an earlier call left. (This module stands on
    /// DiaryCrypto alone, so not `DurableFile.writeFully`, which the others share.)
    private static func writeAll(_ raw: UnsafeRawBufferPointer, to fd: Int32, call: String) throws {
        var offset = 0
        while offset < raw.count {
            let written = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
            if written > 0 { offset += written; continue }
            if written < 0, errno == EINTR { continue }
            throw AgentError.system(call: call, errno: written == 0 ? ENOSPC : errno)
        }
    }

    /// Reads exactly `byteCount` raw bytes from `fd` (normally stdin, 0) into guarded memory.
    /// - Throws: `AgentError.invalidKeyLength` when the pipe closes early.
    public static func read(from fd: Int32, byteCount: Int) throws -> SecretBytes {
        guard byteCount > 0 else { throw AgentError.invalidKeyLength(byteCount) }
        // A throw from inside the initializer leaves no secret behind: SecretBytes zeroes and
        // frees the half-filled buffer itself.
        return try SecretBytes(count: byteCount) { buffer in
            var offset = 0
            while offset < byteCount {
                let count = Glibc.read(fd, buffer.baseAddress! + offset, byteCount - offset)
                if count > 0 { offset += count; continue }
                if count < 0, errno == EINTR { continue }
                throw count == 0
                    ? AgentError.invalidKeyLength(offset) : AgentError.lastSystemError("read key from parent")
            }
        }
    }

    /// The longest vault path handed over after the key (Linux's PATH_MAX).
    public static let maximumPathBytes = 4096

    /// Writes `path`'s UTF-8 bytes to `fd` after the key: the vault's directory, which the
    /// agent reports in its status. Not secret, but kept out of argv, which every user on the
    /// machine can read in /proc.
    public static func write(path: String, to fd: Int32) throws {
        let bytes = Array(path.utf8.prefix(maximumPathBytes))
        try bytes.withUnsafeBytes { try writeAll($0, to: fd, call: "write vault path to agent") }
    }

    /// Reads exactly `byteCount` bytes of the vault's path from `fd` (after the key).
    public static func readPath(from fd: Int32, byteCount: Int) throws -> String {
        guard (1...maximumPathBytes).contains(byteCount) else {
            throw AgentError.invalidConfiguration("vault path of \(byteCount) bytes")
        }
        var bytes = [UInt8](repeating: 0, count: byteCount)
        var offset = 0
        while offset < byteCount {
            let count = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + offset, byteCount - offset) }
            if count > 0 { offset += count; continue }
            if count < 0, errno == EINTR { continue }
            throw count == 0
                ? AgentError.invalidConfiguration("vault path cut short")
                : AgentError.lastSystemError("read vault path")
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
