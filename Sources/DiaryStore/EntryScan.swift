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

    /// As `scanEntries(workers:_:)`, for a caller that wants only the entries `ids` names
    /// (distinct ids, best in id order: the order they are read in). Each of them the snapshot
    /// holds is lent once; one it does not hold is not lent. A store may lend other entries
    /// too, which the caller ignores: the default lends every entry, as a store that reads all
    /// it holds in one pass (SQLite: its table by key ranges) does best. The files store opens
    /// exactly these, by name, and never lists `entries/`, so a file there that `ids` does not
    /// name is not read at all.
    func scanEntries(among ids: [UUID], workers: Int, _ body: EntryScanBody) throws

    /// Whether `scanEntries(among:workers:_:)` reads by the ids it is given; when false it reads
    /// every entry whatever they are, and a caller need not list them (a search made a list of
    /// 100,000 ids, on one thread before the scan, only for it to be ignored).
    var readsByID: Bool { get }
}

extension EntryScanning {
    public var readsByID: Bool { false }

    /// Every stored entry (`scanEntries(workers:_:)`), whatever `ids` names.
    public func scanEntries(among ids: [UUID], workers: Int, _ body: EntryScanBody) throws {
        try scanEntries(workers: workers, body)
    }
}

/// What `EntryScanning.scanEntries` calls: worker number, entry id, sealed bytes. It returns
/// false when the bytes are not the copy of the entry the caller's index records (another
/// seal tag), true otherwise (an entry it does not want included, or one that carries the
/// recorded tag but is damaged: that is the entry's own damage). A store that lent them from a
/// copy of its entries (the files store's `entries.pack`) then knows the copy is stale and
/// writes it again.
public typealias EntryScanBody = @Sendable (_ worker: Int, _ id: UUID, _ sealed: UnsafeRawBufferPointer) -> Bool
