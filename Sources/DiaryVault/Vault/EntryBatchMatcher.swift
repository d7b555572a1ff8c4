import DiaryCrypto
import Dispatch
import Foundation

/// Opens sealed entries and matches their text against queries, a batch at a time, on every
/// core: decryption and matching are nearly all of a search's work, and each entry is
/// independent of the others.
///
/// Each worker has its own guarded `PlaintextBuffer` (zeroed after every entry), so no
/// plaintext is shared between threads; the keys are only read. That is what makes the
/// `@unchecked Sendable` sound: nothing here is written after `init` except a worker's own
/// buffer, by that worker alone.
struct EntryBatchMatcher: @unchecked Sendable {
    /// Entries handed over at once: enough to keep the workers busy, few enough that a batch
    /// of sealed entries stays small next to the memory a search may use.
    static let batchSize = 256

    let vaultID: UUID
    let keyRing: KeyRing
    /// Every one must occur in a text for it to match (an entry with none matches if it opens).
    let queries: [TextMatcher.Query]
    private let buffers: [PlaintextBuffer]

    init(vaultID: UUID, keyRing: KeyRing, queries: [TextMatcher.Query], workers: Int = Self.defaultWorkers) {
        self.vaultID = vaultID
        self.keyRing = keyRing
        self.queries = queries.filter { !$0.needle.isEmpty }
        buffers = (0..<max(workers, 1)).map { _ in PlaintextBuffer() }
    }

    /// A matcher for one thread, with copies of the queries' strings of its own: a matcher
    /// retains a query's strings as it reads them for each entry (an array's element), and
    /// two threads retaining the same strings passed their reference counts between the cores.
    func copyForOneThread() -> EntryBatchMatcher {
        EntryBatchMatcher(
            vaultID: vaultID, keyRing: keyRing, queries: queries.map { TextMatcher.Query(copying: $0) }, workers: 1)
    }

    /// Counted once: `activeProcessorCount` reads the cgroup's files again at every call, and a
    /// search asked three times.
    static let defaultWorkers = min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 8)

    /// For each entry: nil when it fails to open or to parse (damaged), else whether its text
    /// contains every query (no query matches every entry that opens).
    func match(_ batch: [(id: UUID, sealed: [UInt8])]) -> [Bool?] {
        var results = [Bool?](repeating: nil, count: batch.count)
        let workers = min(buffers.count, batch.count)
        guard workers > 1 else {
            for (i, entry) in batch.enumerated() { results[i] = match(entry, in: buffers[0]) }
            return results
        }
        results.withUnsafeMutableBufferPointer { out in
            let slots = Slots(base: out.baseAddress!)
            // Worker w takes one contiguous slice and writes only its own slots.
            DispatchQueue.concurrentPerform(iterations: workers) { w in
                let range = (batch.count * w / workers)..<(batch.count * (w + 1) / workers)
                for i in range { slots.base[i] = match(batch[i], in: buffers[w]) }
            }
        }
        return results
    }

    /// A batch being matched in the background while the caller reads the next one from the
    /// store. One at a time: `finish` it before starting another (the workers' buffers are
    /// shared between batches, never between two batches at once).
    final class Job: @unchecked Sendable {
        fileprivate let group = DispatchGroup()
        let batch: [(id: UUID, sealed: [UInt8])]
        // Written by the job's block before it leaves the group, read after `wait`.
        fileprivate var results: [Bool?] = []

        fileprivate init(_ batch: [(id: UUID, sealed: [UInt8])]) { self.batch = batch }
    }

    func start(_ batch: [(id: UUID, sealed: [UInt8])]) -> Job {
        let job = Job(batch)
        DispatchQueue.global(qos: .userInitiated).async(group: job.group) { job.results = match(job.batch) }
        return job
    }

    /// Waits for `job` and returns each entry with its result (as `match` gives it).
    func finish(_ job: Job) -> [(id: UUID, hit: Bool?)] {
        job.group.wait()
        return zip(job.batch, job.results).map { ($0.0.id, $0.1) }
    }

    /// The results' memory, written by the workers at disjoint indices only.
    private struct Slots: @unchecked Sendable {
        let base: UnsafeMutablePointer<Bool?>
    }

    private func match(_ entry: (id: UUID, sealed: [UInt8]), in buffer: PlaintextBuffer) -> Bool? {
        entry.sealed.withUnsafeBytes { match(entry.id, $0, in: buffer) }
    }

    /// For one entry lent in place: nil when it fails to open or to parse (damaged), else
    /// whether its text contains every query. Safe on several threads, each with its own buffer.
    func match(_ id: UUID, _ sealed: UnsafeRawBufferPointer, in buffer: PlaintextBuffer) -> Bool? {
        try? Envelope.open(
            sealed, kind: .entry, objectID: id, vaultID: vaultID, keyRing: keyRing, into: buffer
        ) { plaintext in
            // Parsed as strictly as `openEntry` does, even when there is no query.
            matchesEvery(try EntryCodec.text(in: plaintext, textLimit: Vault.maximumTextBytes))
        }
    }

    private func matchesEvery(_ text: ValidatedUTF8) -> Bool {
        for i in queries.indices where !TextMatcher.contains(text, queries[i]) { return false }
        return true
    }
}
