import Foundation
import Glibc

/// The lock `<socket>.lock` beside an agent's socket: a running agent holds it for its whole
/// life, and whoever replaces or removes the socket takes it first, so "is an agent alive?" and
/// the unlink that follows cannot race with an agent that is binding (connect is refused
/// between its bind and its listen).
///
/// The file can be removed by whoever holds the lock, because every taker checks, once it has
/// the lock, that the path still names the file it locked; one that locked a file removed
/// meanwhile lets go and opens the path afresh. Without that check, removing the file would let
/// two processes hold "the" lock on two different files.
final class SocketLock {
    let fd: Int32
    let path: String

    private init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
    }

    /// Takes the lock of `socketPath`, waiting up to `patience` seconds while another process
    /// holds it; nil if it still does.
    ///
    /// An agent holds the lock for its life; `status` and `lock --all` hold it for a moment,
    /// while they remove a stale socket or lock file. A starting agent waits out that moment
    /// rather than report an agent running.
    static func take(for socketPath: String, patience: TimeInterval = 0) throws -> SocketLock? {
        let deadline = Clock.now() + patience
        while true {
            if let lock = try takeNow(for: socketPath) { return lock }
            guard Clock.now() + 0.02 < deadline else { return nil }
            usleep(20_000)
        }
    }

    /// Takes the lock of `socketPath` without waiting; nil while another process holds it.
    private static func takeNow(for socketPath: String) throws -> SocketLock? {
        let path = socketPath + ".lock"
        for _ in 0..<16 {
            let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
            guard fd >= 0 else { throw AgentError.lastSystemError("open \(path)") }
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
                let code = errno
                close(fd)
                if code == EWOULDBLOCK { return nil }
                throw AgentError.system(call: "flock \(path)", errno: code)
            }
            if Self.names(path, fd) { return SocketLock(fd: fd, path: path) }
            close(fd)  // Removed by its last holder after we opened it: try the new one.
        }
        return nil
    }

    /// Removes the lock file, if it is still ours, while the lock is held.
    func removeFile() {
        if Self.names(path, fd) { unlink(path) }
    }

    deinit { close(fd) }

    /// Whether `path` names the open file `fd` (not removed, not replaced).
    private static func names(_ path: String, _ fd: Int32) -> Bool {
        var opened = stat()
        var named = stat()
        return fstat(fd, &opened) == 0 && lstat(path, &named) == 0 && opened.st_dev == named.st_dev
            && opened.st_ino == named.st_ino
    }
}
