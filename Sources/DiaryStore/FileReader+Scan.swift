import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FileReader: EntryScanning {
    /// Each worker reads its own share of `entries/` and hands each file to `body` from a
    /// buffer of its own, so reading runs on every core with the decryption. A file costs an
    /// `openat`, one `read` and a `close`: a read that comes back short of the buffer holds the
    /// whole file. Anything else (a read that fills the buffer, an error, a name that is not a
    /// plain file) goes through `readEntry`, which decides as `DurableFile.read` does.
    ///
    /// A file that is not a regular file but reads without error (a FIFO) gives bytes that do
    /// not open as its entry: the caller reads such an entry again with `readEntry`.
    func scanEntries(workers: Int, _ body: EntryScanBody) throws {
        // In id order, as `forEachEntry`: the caller's lookups (the index's pages are in id
        // order) then walk memory forward instead of jumping at random.
        try withEntryFiles { _, files, dirFD in try scan(files, dirFD: dirFD, workers: workers, body) }
    }

    private func scan(_ files: [(id: UUID, name: String)], dirFD: Int32, workers: Int, _ body: EntryScanBody) throws {
        let failure = Mutex<(any Error)?>(nil)
        let threads = max(1, min(workers, (files.count + Self.share - 1) / Self.share))
        DispatchQueue.concurrentPerform(iterations: threads) { w in
            let buffer = ScanBuffer()
            // Interleaved shares, so a slow stretch of the directory is spread over the workers.
            for first in stride(from: w * Self.share, to: files.count, by: threads * Self.share) {
                if failure.withLock({ $0 != nil }) { return }
                for (id, name) in files[first..<min(first + Self.share, files.count)] {
                    do {
                        try read(name, id, in: dirFD, into: buffer) { body(w, id, $0) }
                    } catch {
                        failure.withLock { $0 = $0 ?? error }
                        return
                    }
                }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
    }

    /// Files a worker reads before it looks for the next share.
    private static let share = 64

    /// Reads one entry file and lends its bytes to `body`; a file gone meanwhile is skipped.
    private func read(
        _ name: String, _ id: UUID, in dirFD: Int32, into buffer: ScanBuffer, _ body: (UnsafeRawBufferPointer) -> Void
    ) throws {
        // `withCString` lends the name's own bytes; passing the String to `openat` would copy it
        // into a new array for every file.
        let fd = name.withCString { path in
            let fd = openat(dirFD, path, Self.flags | DurableFile.oNoAtime)
            return fd < 0 && errno == EPERM ? openat(dirFD, path, Self.flags) : fd
        }
        if fd >= 0 {
            var n: Int
            repeat { n = Glibc.read(fd, buffer.base, buffer.capacity) } while n < 0 && errno == EINTR
            close(fd)
            if n >= 0 && n < buffer.capacity { return body(UnsafeRawBufferPointer(start: buffer.base, count: n)) }
        } else if errno == ENOENT {
            return
        }
        // Larger than the buffer, or not a plain readable file: the general reader decides.
        guard let bytes = try readEntry(id) else { return }
        bytes.withUnsafeBytes(body)
        if bytes.count >= buffer.capacity { buffer.grow(to: bytes.count + 1) }
    }

    private static let flags = O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK
}

/// A worker's read buffer (sealed bytes only: ciphertext needs no guarded memory).
private final class ScanBuffer {
    private(set) var base: UnsafeMutableRawPointer
    private(set) var capacity: Int

    init() {
        capacity = 64 << 10
        base = .allocate(byteCount: capacity, alignment: 16)
    }

    deinit { base.deallocate() }

    /// Room for `count` bytes, at most one byte more than the largest entry a store reads.
    func grow(to count: Int) {
        let size = min(max(count, capacity * 2), ReadLimits.entry + 1)
        guard size > capacity else { return }
        base.deallocate()
        base = .allocate(byteCount: size, alignment: 16)
        capacity = size
    }
}
