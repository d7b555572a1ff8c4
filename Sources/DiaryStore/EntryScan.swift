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
    /// The entries are checked as strictly as `forEachEntry` checks them before they are lent
    /// (no bytes over `ReadLimits.entry`, nothing but a blob or a regular file), and each id is
    /// handed over once. The files store lends the snapshot's entries; the SQLite store reads
    /// with one connection per worker, so an entry written or deleted while the scan starts may
    /// be lent as a later state has it, or not lent: the caller checks each entry against what
    /// it expects (the index's tags) and reads any other one again in the snapshot.
    func scanEntries(workers: Int, _ body: EntryScanBody) throws
}

/// What `EntryScanning.scanEntries` calls: worker number, entry id, sealed bytes.
public typealias EntryScanBody = @Sendable (_ worker: Int, _ id: UUID, _ sealed: UnsafeRawBufferPointer) -> Void
