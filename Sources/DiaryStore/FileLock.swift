import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A cross-process advisory lock: `flock` on one file (`vault.lock`).
///
/// `flock` belongs to the open file description, so every acquisition opens the file afresh:
/// two `FileLock`s on the same path — even in one process — then exclude each other, as two
/// `diary` processes would. Within one `FileLock`, a thread that already holds the lock may
/// take it again (a snapshot inside a write lock, an `apply` inside `withWriteLock`) without
/// deadlocking on itself.
package final class FileLock: @unchecked Sendable {
    /// The lock file.
    let url: URL

    private struct Holding {
        var depth: Int
        var exclusive: Bool
    }

    // Which threads hold this lock and how; guarded by `mutex`.
    private let mutex = NSLock()
    private var holders: [UInt: Holding] = [:]

    package init(url: URL) {
        self.url = url
    }

    /// Runs `body` holding the lock, shared or exclusive; released on return or throw.
    package func withLock<T>(exclusive: Bool, _ body: () throws -> T) throws -> T {
        let me = Self.currentThread()
        if let held = holding(me) {
            if exclusive && !held.exclusive {
                // Upgrading in place could deadlock two shared holders against each other.
                throw StoreError.io(path: url.path, detail: "write lock requested while holding a read lock")
            }
            adjust(me, by: 1, exclusive: held.exclusive)
            defer { adjust(me, by: -1, exclusive: held.exclusive) }
            return try body()
        }
        let fd = try openLockFile(forWriting: exclusive)
        defer { close(fd) }
        while flock(fd, exclusive ? LOCK_EX : LOCK_SH) != 0 {
            guard errno == EINTR else {
                throw StoreError.io(path: url.path, detail: DurableFile.errnoText())
            }
        }
        // Closing the descriptor (deferred above) releases the flock.
        adjust(me, by: 1, exclusive: exclusive)
        defer { adjust(me, by: -1, exclusive: exclusive) }
        return try body()
    }

    /// Creates the lock file (0600) if it is missing.
    func createFile() throws {
        let fd = try openLockFile(forWriting: true)
        close(fd)
    }

    private func openLockFile(forWriting: Bool) throws -> Int32 {
        let fd = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, DurableFile.fileMode)
        if fd >= 0 {
            var info = stat()
            if fstat(fd, &info) == 0 && (info.st_mode & 0o777) != DurableFile.fileMode {
                fchmod(fd, DurableFile.fileMode)
            }
            return fd
        }
        let failure = errno
        // A vault on read-only media can still be read: a shared lock works on a read-only fd.
        if !forWriting && (failure == EROFS || failure == EACCES) {
            let readOnly = open(url.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
            if readOnly >= 0 { return readOnly }
        }
        throw StoreError.io(path: url.path, detail: DurableFile.errnoText(failure))
    }

    private func holding(_ thread: UInt) -> Holding? {
        mutex.lock()
        defer { mutex.unlock() }
        return holders[thread]
    }

    private func adjust(_ thread: UInt, by delta: Int, exclusive: Bool) {
        mutex.lock()
        defer { mutex.unlock() }
        let depth = (holders[thread]?.depth ?? 0) + delta
        holders[thread] = depth > 0 ? Holding(depth: depth, exclusive: exclusive) : nil
    }

    private static func currentThread() -> UInt {
        #if canImport(Glibc)
        return UInt(pthread_self())
        #else
        return UInt(bitPattern: pthread_self())
        #endif
    }
}
