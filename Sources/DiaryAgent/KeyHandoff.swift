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
        try key.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written > 0 { offset += written; continue }
                if written < 0, errno == EINTR { continue }
                throw AgentError.lastSystemError("write key to agent")
            }
        }
    }

    /// Reads exactly `byteCount` raw bytes from `fd` (normally stdin, 0) into guarded memory.
    /// - Throws: `AgentError.invalidKeyLength` when the pipe closes early.
    public static func read(from fd: Int32, byteCount: Int) throws -> SecretBytes {
        guard byteCount > 0 else { throw AgentError.invalidKeyLength(byteCount) }
        // Errors are carried out of the initializer rather than thrown inside it: a throwing
        // SecretBytes initializer currently frees its memory twice. The half-filled secret is
        // zeroed by its deinit when we throw below.
        var failure: AgentError?
        let key = try SecretBytes(count: byteCount) { buffer in
            var offset = 0
            while offset < byteCount {
                let count = Glibc.read(fd, buffer.baseAddress! + offset, byteCount - offset)
                if count > 0 { offset += count; continue }
                if count < 0, errno == EINTR { continue }
                failure = count == 0 ? .invalidKeyLength(offset) : .lastSystemError("read key from parent")
                return
            }
        }
        if let failure { throw failure }
        return key
    }
}
