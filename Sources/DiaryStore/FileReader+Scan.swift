import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FileReader: EntryScanning {
    public var readsByID: Bool { true }

    /// Every file in `entries/` named as an entry, in id order (the order `forEachEntry` gives),
    /// read as `scanEntries(among:workers:_:)` reads them.
    func scanEntries(workers: Int, _ body: EntryScanBody) throws {
        let names = try DurableFile.names(in: directory.appendingPathComponent(FileStore.entriesName)) ?? []
        let ids = names.compactMap(Self.canonicalEntryID).sorted { $0.sortKey < $1.sortKey }
        try scanFiles(among: ids, workers: workers, body)
    }

    /// Each worker opens the files of its own share of `ids` by name and hands each to `body`
    /// from a buffer of its own, so reading runs on every core with the decryption. Nothing is
    /// listed and no string is made per file: the caller knows the ids (the index's), and a
    /// worker writes each file's name from its id into a buffer of its own. A file costs an
    /// `openat`, one `read` and a `close`: a read that comes back short of the buffer holds the
    /// whole file. A file that is not there is not lent. Anything else (a read that fills the
    /// buffer, an error, a name that is not a plain file) goes through `readEntry`, which
    /// decides as `DurableFile.read` does.
    ///
    /// Each worker opens `entries/` for itself: the threads then do not share one open
    /// directory, whose reference count every `openat` would otherwise bounce between cores.
    ///
    /// A file that is not a regular file but reads without error (a FIFO) gives bytes that do
    /// not open as its entry: the caller reads such an entry again with `readEntry`.
    func scanFiles(among ids: [UUID], workers: Int, _ body: EntryScanBody) throws {
        try readFiles(ids, workers: workers, each: { w, _, id, bytes in _ = body(w, id, bytes) })
    }

    /// Reads the files of `ids` as `scanFiles` describes, in shares of consecutive ids taken by
    /// the threads in turn: `each(worker, position in ids, id, bytes)` for every file there,
    /// and `shareEnded(worker)` after each share. A file that cannot be read stops the scan
    /// with its error, unless `tolerating` its position: then it is skipped.
    func readFiles(
        _ ids: [UUID], workers: Int, tolerating: @Sendable (Int) -> Bool = { _ in false }, each: FileVisit,
        shareEnded: @Sendable (Int) -> Void = { _ in }
    ) throws {
        guard !ids.isEmpty else { return }
        let entries = directory.appendingPathComponent(FileStore.entriesName)
        let failure = Mutex<(any Error)?>(nil)
        let threads = max(1, min(workers, (ids.count + Self.share - 1) / Self.share))
        DispatchQueue.concurrentPerform(iterations: threads) { w in
            do {
                // No `entries/`: no entry file, so nothing to lend.
                guard let worker = try ScanWorker(entries) else { return }
                // Interleaved shares, so a slow stretch of the directory is spread over the workers.
                for first in stride(from: w * Self.share, to: ids.count, by: threads * Self.share) {
                    if failure.withLock({ $0 != nil }) { return }
                    for at in first..<min(first + Self.share, ids.count) {
                        do {
                            try read(ids[at], with: worker) { each(w, at, ids[at], $0) }
                        } catch  where tolerating(at) {
                            continue
                        }
                    }
                    shareEnded(w)
                }
            } catch {
                failure.withLock { $0 = $0 ?? error }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
    }

    typealias FileVisit =
        @Sendable (_ worker: Int, _ position: Int, _ id: UUID, _ sealed: UnsafeRawBufferPointer) -> Void

    /// Files a worker reads before it looks for the next share.
    private static let share = 64

    /// Reads one entry file and lends its bytes to `body`; a file not there is skipped.
    private func read(_ id: UUID, with worker: ScanWorker, _ body: (UnsafeRawBufferPointer) -> Void) throws {
        let name = worker.fileName(of: id)
        var fd = openat(worker.directory, name, Self.flags | DurableFile.oNoAtime)
        if fd < 0 && errno == EPERM { fd = openat(worker.directory, name, Self.flags) }
        if fd >= 0 {
            var n: Int
            repeat { n = Glibc.read(fd, worker.base, worker.capacity) } while n < 0 && errno == EINTR
            close(fd)
            if n >= 0 && n < worker.capacity { return body(UnsafeRawBufferPointer(start: worker.base, count: n)) }
        } else if errno == ENOENT {
            return
        }
        // Larger than the buffer, or not a plain readable file: the general reader decides.
        guard let bytes = try readEntry(id) else { return }
        bytes.withUnsafeBytes(body)
        if bytes.count >= worker.capacity { worker.grow(to: bytes.count + 1) }
    }

    private static let flags = O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK
}

/// What one scanning thread owns: its open `entries/`, its read buffer (sealed bytes only:
/// ciphertext needs no guarded memory) and the buffer it writes file names into.
private final class ScanWorker {
    let directory: Int32
    private(set) var base: UnsafeMutableRawPointer
    private(set) var capacity: Int
    /// A file name (`FileStore.fileName(for:)`: 36 characters) and its terminating NUL.
    private let name: UnsafeMutablePointer<CChar>

    /// Nil when `entries/` is not there.
    init?(_ entries: URL) throws {
        let fd = open(entries.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            if errno == ENOTDIR { throw StoreError.notAVault(path: entries.path) }
            throw StoreError.io(path: entries.path, detail: DurableFile.errnoText())
        }
        directory = fd
        capacity = 64 << 10
        base = .allocate(byteCount: capacity, alignment: 16)
        name = .allocate(capacity: 37)
        name[36] = 0
    }

    deinit {
        close(directory)
        base.deallocate()
        name.deallocate()
    }

    /// Room for `count` bytes, at most one byte more than the largest entry a store reads.
    func grow(to count: Int) {
        let size = min(max(count, capacity * 2), ReadLimits.entry + 1)
        guard size > capacity else { return }
        base.deallocate()
        base = .allocate(byteCount: size, alignment: 16)
        capacity = size
    }

    /// `FileStore.fileName(for: id)` (lowercase 8-4-4-4-12 hex), written into this worker's
    /// name buffer; valid until the next call.
    func fileName(of id: UUID) -> UnsafePointer<CChar> {
        withUnsafeBytes(of: id.uuid) { raw in
            var at = 0
            for i in 0..<16 {
                if i == 4 || i == 6 || i == 8 || i == 10 {
                    name[at] = CChar(UInt8(ascii: "-"))
                    at += 1
                }
                name[at] = Self.hexDigit(raw[i] >> 4)
                name[at + 1] = Self.hexDigit(raw[i] & 0x0f)
                at += 2
            }
        }
        return UnsafePointer(name)
    }

    private static func hexDigit(_ value: UInt8) -> CChar {
        CChar(value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") - 10 + value)
    }
}
