import Dispatch
import Foundation

/// Reads every sealed entry of a snapshot for a scan that handles each entry on its own
/// (`search`): the bytes are lent in place rather than copied into an array per entry, and
/// handed to several threads at once, so reading is no longer one thread feeding the others.
///
/// Both stores' readers conform; a reader that does not (a test double) is scanned with
/// `forEachEntry`.
public protocol EntryScanning {
    /// Calls `body` once for each stored entry, from up to `workers` threads at once; `worker`
    /// (in `0..<workers`) names the calling thread, so the caller can keep state per thread.
    /// The bytes are valid only during the call. An entry that cannot be read stops the scan:
    /// it throws what `forEachEntry` throws, once every worker has stopped, and the entries
    /// handed over before stay handed over (the caller starts again some other way).
    ///
    /// The entries are the snapshot's, as `forEachEntry` gives them, and are checked as
    /// strictly before they are lent (no bytes over `ReadLimits.entry`, nothing but a blob or
    /// a regular file); each id is handed over once.
    func scanEntries(workers: Int, _ body: EntryScanBody) throws
}

/// What `EntryScanning.scanEntries` calls: worker number, entry id, sealed bytes.
public typealias EntryScanBody = @Sendable (_ worker: Int, _ id: UUID, _ sealed: UnsafeRawBufferPointer) -> Void

/// A batch of sealed entries laid end to end in one buffer that is reused from batch to batch:
/// the SQLite reader fills one while the workers go through the other.
final class EntryScanBatch: @unchecked Sendable {
    /// Bytes appended before the batch is handed over; entries larger than this still fit.
    static let targetBytes = 1 << 20
    private var storage: UnsafeMutableRawPointer
    private var capacity: Int
    private(set) var used = 0
    private(set) var entries: [(id: UUID, start: Int, count: Int)] = []

    init() {
        capacity = Self.targetBytes + (64 << 10)
        storage = .allocate(byteCount: capacity, alignment: 16)
        entries.reserveCapacity(1024)
    }

    deinit { storage.deallocate() }

    var isFull: Bool { used >= Self.targetBytes }
    var isEmpty: Bool { entries.isEmpty }

    /// Copies `bytes` in as the entry `id`.
    func append(_ id: UUID, _ bytes: UnsafeRawBufferPointer) {
        if used + bytes.count > capacity {
            let grown = max(capacity * 2, used + bytes.count)
            let moved = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 16)
            moved.copyMemory(from: storage, byteCount: used)
            storage.deallocate()
            (storage, capacity) = (moved, grown)
        }
        if let base = bytes.baseAddress, !bytes.isEmpty {
            (storage + used).copyMemory(from: base, byteCount: bytes.count)
        }
        entries.append((id, used, bytes.count))
        used += bytes.count
    }

    func removeAll() {
        used = 0
        entries.removeAll(keepingCapacity: true)
    }

    /// Hands every entry to `body`, `workers` threads at once, each on a contiguous share.
    func process(workers: Int, _ body: EntryScanBody) {
        let count = entries.count
        let threads = max(1, min(workers, count))
        DispatchQueue.concurrentPerform(iterations: threads) { w in
            for i in (count * w / threads)..<(count * (w + 1) / threads) {
                let e = entries[i]
                body(w, e.id, UnsafeRawBufferPointer(start: storage + e.start, count: e.count))
            }
        }
    }
}
