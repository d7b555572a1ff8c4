import Foundation

/// The two shapes of store a vault can have. Chosen at creation and recorded in the header.
public enum StoreKind: String, CaseIterable, Sendable, Codable {
    /// One SQLite database file (`vault.sqlite`) through GRDB: the structured store.
    case sqlite
    /// A directory with one file per entry: the key-value store.
    case files
}

/// One atomic, durable change to a store: everything in it lands, or nothing does.
///
/// The store never sees plaintext or keys: every blob is already sealed by the vault layer.
public struct StoreChange: Sendable {
    /// The new header bytes, if the header changes.
    public var header: [UInt8]?
    /// The new sealed index, if it changes.
    public var index: [UInt8]?
    /// Entries to create or replace, keyed by entry id.
    public var putEntries: [UUID: [UInt8]]
    /// Entries to remove. Removing an entry that does not exist is not an error.
    public var deleteEntries: Set<UUID>
    /// Index pages to create or replace, keyed by page number (`indexPageRange`).
    public var putIndexPages: [Int: [UInt8]]
    /// Index pages to remove (a page split in two, or a migration's old pages). Removing a
    /// page that does not exist is not an error; a page both put and deleted ends up put.
    public var deleteIndexPages: Set<Int>
    /// Attachment objects to remove (written before by `VaultStore.putAttachment`), with the
    /// rest of the change. Removing an object that does not exist is not an error.
    public var deleteAttachments: Set<UUID>
    /// Whether the change is part of a key rotation, re-sealing entries under the next key:
    /// then no cache of sealed entries is kept in part (the files store removes its scan copy
    /// whole at the rotation's first change rather than empty it a segment at a time, batch
    /// after batch). The SQLite store has no cache.
    public var reseals = false
    /// Whether the change is one batch of a key rotation's re-sealing, to be followed by
    /// another or by the rotation's last change: the files store writes its blobs into the
    /// files the batch before it replaced and keeps those it replaces for the next
    /// (`SpareFiles`); the first change that is not a batch removes what is left.
    public var rotationBatch = false

    /// The page numbers a store accepts (a u32, docs/FORMAT.md §7); `apply` refuses a change
    /// naming any other.
    public static let indexPageRange = 0...Int(UInt32.max)

    public init(
        header: [UInt8]? = nil, index: [UInt8]? = nil,
        putEntries: [UUID: [UInt8]] = [:], deleteEntries: Set<UUID> = [],
        putIndexPages: [Int: [UInt8]] = [:], deleteIndexPages: Set<Int> = [],
        deleteAttachments: Set<UUID> = []
    ) {
        self.header = header
        self.index = index
        self.putEntries = putEntries
        self.deleteEntries = deleteEntries
        self.putIndexPages = putIndexPages
        self.deleteIndexPages = deleteIndexPages
        self.deleteAttachments = deleteAttachments
    }

    public var isEmpty: Bool {
        header == nil && index == nil && putEntries.isEmpty && deleteEntries.isEmpty && putIndexPages.isEmpty
            && deleteIndexPages.isEmpty && deleteAttachments.isEmpty
    }

    /// Refuses a change naming an index page outside `indexPageRange`, before anything is
    /// written: a store must never turn an out-of-range number into a name or a row.
    func validate(path: String) throws {
        for page in putIndexPages.keys { try IndexPageNumber.check(page, path: path) }
        for page in deleteIndexPages { try IndexPageNumber.check(page, path: path) }
    }
}

/// Read access to one consistent state of a store (a snapshot), for backup and verify.
public protocol StoreReader {
    func readHeader() throws -> [UInt8]
    /// The sealed index, or nil when it is missing.
    func readIndex() throws -> [UInt8]?
    /// The sealed entry, or nil when there is none with this id.
    func readEntry(_ id: UUID) throws -> [UInt8]?
    /// Every entry id present, in no particular order.
    func entryIDs() throws -> [UUID]
    /// Calls `body` once per entry with its sealed bytes.
    func forEachEntry(_ body: (UUID, [UInt8]) throws -> Void) throws
    /// One sealed index page, or nil when it is absent. A number outside
    /// `StoreChange.indexPageRange` is refused.
    func readIndexPage(_ page: Int) throws -> [UInt8]?
    /// Every stored index page, keyed by page number.
    func readIndexPages() throws -> [Int: [UInt8]]
    /// Streams the stored bytes of the attachment object `id` to `body` in order, in pieces of
    /// at most about 1 MiB (never the whole object); false when there is no such object. An
    /// object larger than `ReadLimits.attachment`, or not stored as the store writes it, is
    /// damage, refused before a byte is handed out.
    func readAttachment(_ id: UUID, _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool
    /// The stored length of the attachment object `id`, or nil when there is none (checked as
    /// `readAttachment` checks it, without reading the bytes).
    func attachmentLength(_ id: UUID) throws -> Int?
    /// Every attachment object id present, in no particular order.
    func attachmentIDs() throws -> [UUID]
}

/// Where sealed blobs live. Both stores pass one shared test suite.
///
/// Contract:
/// - `apply` is durable before it returns (fsync / committed transaction) and atomic: after a
///   crash at any instant, a reader sees the old state or the new one. (The files store makes
///   the multi-file change atomic with a journal; see `FileStore`.)
/// - Files are created 0600 and directories 0700.
/// - Leftover temporary files from a killed writer are ignored by readers and cleaned up by
///   the next writer; they are never reported as entries or damage.
/// - Readers do not need the write lock; writers call `apply` only inside `withWriteLock`.
///   (Both stores take the lock themselves if `apply` is called without it.)
/// - The store-level `StoreReader` methods each read in a snapshot of their own; reads inside
///   `withSnapshot` (on the reader or on the store) see the snapshot's state. `apply` inside a
///   snapshot is refused with an error.
/// - An id that is both put and deleted in one `StoreChange` ends up put.
///
/// Obtain stores through `StoreLayout` (create, open, detect).
public protocol VaultStore: AnyObject, StoreReader {
    var kind: StoreKind { get }
    /// The vault directory.
    var directory: URL { get }

    /// Runs `body` holding an exclusive, cross-process advisory lock on the vault
    /// (`flock` on `vault.lock`), so that read-modify-write sequences of concurrent `diary`
    /// processes are serialised and none of their entries is dropped.
    ///
    /// Reentrant on one thread; two store instances (or processes) exclude each other. The files
    /// store first finishes any change a crashed writer left in its journal.
    func withWriteLock<T>(_ body: () throws -> T) throws -> T

    /// Applies `change` atomically and durably.
    func apply(_ change: StoreChange) throws

    /// Stores the attachment object `id`: `write` hands its stored bytes to the store piece
    /// by piece (the caller's `chunk` closure), and the store writes them out of sight and
    /// makes the object visible, durably, only once `write` returns. If `write` throws (or the
    /// disk fills), nothing of the object remains. Takes the write lock (in the files store,
    /// readers wait for it while a large object is written). Not to be called inside
    /// `apply(inParts:)`'s producer (the SQLite store refuses: its transaction is open).
    /// Objects are written before the entry change that references them; a crash in between
    /// leaves an unreferenced object, which the vault reports and removes.
    func putAttachment(_ id: UUID, _ write: (_ chunk: ([UInt8]) throws -> Void) throws -> Void) throws

    /// Removes what a killed writer left (the files store's `.tmp-*` files: an attachment a
    /// killed sync was fetching), as the next `apply` would. For a writer that puts objects
    /// without a change after them; inside `withWriteLock`, never inside `apply(inParts:)`.
    func removeLeftovers() throws

    /// Applies, as one atomic and durable change, the entries `produce` hands to `put` a part
    /// at a time, and then the change it returns. Each entry is named at most once in all of
    /// it (the files store refuses a change naming one twice). If `produce` throws, nothing is
    /// applied. Neither store holds the change whole: the SQLite store writes each part into
    /// one open transaction as it comes; the files store stages each blob and appends it to
    /// its journal on disk (`FileStore.apply(inParts:)`).
    func apply(inParts produce: (_ put: ([UUID: [UInt8]]) throws -> Void) throws -> StoreChange) throws

    /// Runs `body` with a reader that sees one consistent state for its whole duration.
    func withSnapshot<T>(_ body: (any StoreReader) throws -> T) throws -> T

    /// Removes what earlier states left inside the store's files, so that after a key
    /// rotation no ciphertext under the old key survives in them. The SQLite store rebuilds
    /// its database (free pages keep old bytes); the files store has nothing to do, since it
    /// replaces each object's file whole.
    func compact() throws

    /// Differences between the store's structure and exactly what the store itself writes,
    /// one sentence each (no command-line phrasing); empty when there are none. The SQLite
    /// store compares its schema (tables, indexes, triggers, views) and pragmas with its own;
    /// the files store compares every name in the vault directory, `entries/`, `index/` and
    /// `attachments/` with the names it writes (temporary files are tolerated). Sealed objects are not
    /// opened: that is the vault's part of `verify`.
    func auditLayout() throws -> [String]

    /// Names of files in the vault directory that belong to this store (for audits and
    /// observers); relative to `directory`.
    func storeFiles() throws -> [String]
}

extension VaultStore {
    public func apply(inParts produce: (_ put: ([UUID: [UInt8]]) throws -> Void) throws -> StoreChange) throws {
        var parts: [UUID: [UInt8]] = [:]
        var change = try produce { parts.merge($0) { _, new in new } }
        change.putEntries.merge(parts) { own, _ in own }
        try apply(change)
    }

    // A store read outside a snapshot is a snapshot of one read: each store defines only
    // `withSnapshot`, and these forward to it.
    public func readHeader() throws -> [UInt8] { try withSnapshot { try $0.readHeader() } }
    public func readIndex() throws -> [UInt8]? { try withSnapshot { try $0.readIndex() } }
    public func readEntry(_ id: UUID) throws -> [UInt8]? { try withSnapshot { try $0.readEntry(id) } }
    public func entryIDs() throws -> [UUID] { try withSnapshot { try $0.entryIDs() } }
    public func forEachEntry(_ body: (UUID, [UInt8]) throws -> Void) throws {
        try withSnapshot { try $0.forEachEntry(body) }
    }
    public func readIndexPage(_ page: Int) throws -> [UInt8]? { try withSnapshot { try $0.readIndexPage(page) } }
    public func readIndexPages() throws -> [Int: [UInt8]] { try withSnapshot { try $0.readIndexPages() } }
    public func readAttachment(_ id: UUID, _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        try withSnapshot { try $0.readAttachment(id, body) }
    }
    public func attachmentLength(_ id: UUID) throws -> Int? { try withSnapshot { try $0.attachmentLength(id) } }
    public func attachmentIDs() throws -> [UUID] { try withSnapshot { try $0.attachmentIDs() } }
}

/// Errors of the storage layer. Messages name paths or ids, never contents.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    case notAVault(path: String)
    case noVault(path: String)
    case alreadyExists(path: String)
    case io(path: String, detail: String)
    case corrupt(path: String, detail: String)

    public var description: String {
        switch self {
        case .notAVault(let path): return "\(path) is not a diary vault"
        case .noVault(let path): return "no vault at \(path)"
        case .alreadyExists(let path): return "a vault already exists at \(path)"
        case .io(let path, let detail): return "\(path): \(detail)"
        case .corrupt(let path, let detail): return "\(path) is damaged: \(detail)"
        }
    }
}
