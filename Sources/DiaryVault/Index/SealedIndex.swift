import DiaryCrypto
import DiaryStore
import Foundation

/// The vault's sealed index as this process holds it, and the only code that reads or writes
/// it: the sealed root it came from, the pages read so far, how it looked when read, and the
/// guarded buffer pages are opened into.
///
/// Reads go through `load` (the root) and `ensurePages` (pages, checked against the root's
/// tags); every write goes through `commit`, which seals the changed pages and the root,
/// applies them with the caller's entries in one atomic store change, and then holds the new
/// index. Callers never assign the index, its state or its root bytes.
final class SealedIndex {
    private let backend: any VaultStore
    private let vaultID: UUID
    /// The keys pages, the root and (for a rebuild) entries are opened with. The vault sets
    /// it when its keys change (a rotation).
    var keyRing: KeyRing
    /// The recovery key as the (checked) header names it: an index rebuilt from the entries
    /// takes it, having no root of its own to keep it. The vault sets it when its header changes.
    var headerRecovery: RecoveryBinding

    /// The root and the pages read so far.
    private(set) var index: PagedIndex
    /// How the index looked when last read.
    private(set) var state: IndexState
    /// The sealed root `index` came from (nil when it was rebuilt from the entries): lets a
    /// write skip reading the index again when nobody else wrote in between.
    private var rootBytes: [UInt8]?
    /// Counts the times `index` was replaced by another (read again, or rebuilt), so a reader
    /// walking pages can tell that what it walked belongs to an index no longer held.
    private(set) var epoch = 0
    /// Where pages are decrypted before their rows are copied out (zeroed after each page).
    private let pageBuffer = PlaintextBuffer()
    /// This machine's copy of the index (`IndexWitness`), kept current by every commit; nil
    /// when none is kept (the library's default: the command line attaches one).
    var witness: IndexWitness?
    /// Told after each attempt to bring the witness up to date: nil when it followed, else
    /// why it could not (the write itself stood).
    var witnessUpdated: (Error?) -> Void = { _ in }

    /// Reads the root; see `load`.
    init(backend: any VaultStore, vaultID: UUID, keyRing: KeyRing, headerRecovery: RecoveryBinding = .none) throws {
        self.backend = backend
        self.vaultID = vaultID
        self.keyRing = keyRing
        self.headerRecovery = headerRecovery
        index = PagedIndex(generation: 0)
        state = .ok
        try load()
    }

    /// The number of entries, as the root records it.
    var count: Int { index.count }

    /// The sealed root the index was read from (nil when rebuilt from the entries).
    var sealedRoot: [UInt8]? { rootBytes }

    // MARK: Reading

    /// Reads the root again. When it is missing or fails to open, the index is rebuilt in
    /// memory from the entries so the vault stays usable (the index is only a cache), and
    /// `state` says so. An authentic root of another index version is refused: it is a format
    /// this diary does not read, not damage.
    func load() throws {
        install(try decodeRoot(try openRoot(try storeCall { try backend.readIndex() })))
    }

    /// Forgets the pages read so far (they are read again when needed), so that work needing
    /// much memory of its own, a rekey's key derivation, does not add the whole index's to it.
    /// Only an index read from the store and not changed in memory: a rebuilt one has no pages
    /// to read back.
    func dropReadPages() {
        guard state == .ok, rootBytes != nil, index.dirty.isEmpty else { return }
        index.pages = [:]
    }

    /// Reads the pages among `numbers` not yet in memory, checking each against the tag the
    /// root records. A page that does not match may only mean another process wrote since
    /// the root was read: root and pages are then read again together, in one snapshot.
    /// Still wrong, the index is damaged and is rebuilt in memory from the entries.
    func ensurePages(_ numbers: some Sequence<Int>) throws {
        guard state == .ok else { return }  // a rebuilt index has every page in memory
        let wanted = Set(numbers.filter { index.pages[$0] == nil && index.records[$0] != nil })
        guard !wanted.isEmpty else { return }
        // Opened on the other cores while the rest are read.
        let opener = PageOpener(vaultID: vaultID, keyRing: keyRing, root: index)
        let first = try storeCall {
            try backend.withSnapshot { reader in
                try opener.open(reading: Array(wanted), buffer: pageBuffer) { try reader.readIndexPage($0) }
            }
        }
        if let opened = first { return index.insert(opened) }
        // The ids the caller wanted, whatever pages hold them in the index read again.
        let heads = wanted.map { IndexLayout.heads(ofPage: $0, version: index.version) }
        let (sealedRoot, again) = try storeCall {
            try backend.withSnapshot { reader in (try reader.readIndex(), try reader.readIndexPages()) }
        }
        if !sameBytes(sealedRoot, rootBytes) {
            install(try decodeRoot(try openRoot(sealedRoot) { again[$0] }))
            guard state == .ok else { return }
            let missing = IndexLayout.pages(
                index.records.keys.filter { index.pages[$0] == nil }, version: index.version, overlapping: heads)
            if let opened = open(missing.map { ($0, again[$0]) }, against: index) {
                return index.insert(opened)
            }
        }
        install((try rebuilt(generation: 0), .damaged, nil))
    }

    /// Reads the pages that can hold these ids (and first the directories naming them).
    func ensurePages(holding ids: some Sequence<UUID>) throws {
        let ids = Array(ids)
        try ensureDirectories(ids.compactMap { index.directory(ofHead: IndexLayout.head(of: $0)) })
        try ensurePages(Set(ids.map(index.pageNumber(of:))))
    }

    func ensureAllPages() throws {
        try ensureAllDirectories()
        try ensurePages(index.records.keys)
    }

    func ensureAllDirectories() throws { try ensureDirectories(index.unreadDirectories) }

    /// Reads the directories that name pages of ids in these ranges of heads.
    func ensureDirectories(overlapping ranges: [Range<Int>]) throws {
        try ensureDirectories(
            index.unreadDirectories.filter { d in ranges.contains { $0.overlaps(IndexDirectory.heads(of: d)) } })
    }

    /// Reads the directories among `numbers` not read yet, each checked against the root's
    /// record of it. As with pages, one that does not match may only mean another process
    /// wrote since the root was read: the root is read again with every directory, in one
    /// snapshot. Still wrong, the index is damaged and is rebuilt in memory from the entries.
    func ensureDirectories(_ numbers: some Sequence<Int>) throws {
        guard state == .ok, let directories = index.directories else { return }
        let wanted = Set(numbers).intersection(index.unreadDirectories)
        guard !wanted.isEmpty else { return }
        let sealed = try storeCall {
            try backend.withSnapshot { reader in
                try wanted.map { ($0, try reader.readIndexPage(IndexDirectory.storeBase + $0)) }
            }
        }
        let opener = DirectoryOpener(vaultID: vaultID, keyRing: keyRing)
        var opened: [(Int, [(number: Int, record: PageRecord)])] = []
        for (number, bytes) in sealed {
            guard let pages = try? opener.pages(of: number, record: directories[number]!, sealed: bytes) else {
                return try readWholeRootAgain()
            }
            opened.append((number, pages))
        }
        for (number, pages) in opened { index.insertDirectory(number, pages: pages) }
    }

    /// After a directory that did not match: the root and every directory read again together;
    /// the same root again means damage.
    private func readWholeRootAgain() throws {
        let (sealedRoot, stored) = try storeCall {
            try backend.withSnapshot { reader in (try reader.readIndex(), try reader.readIndexPages()) }
        }
        guard sameBytes(sealedRoot, rootBytes) else {
            return install(try decodeRoot(try openRoot(sealedRoot) { stored[$0] }))
        }
        install((try rebuilt(generation: 0), .damaged, nil))
    }

    /// Inside the write lock: picks up an index another process wrote since ours was read.
    /// After damage, every page is checked, so that a write is also a repair: a page found bad
    /// must not stay on disk because this write happens not to touch it.
    func refreshUnderLock() throws {
        let sealed = try storeCall { try backend.readIndex() }
        if state == .ok, rootBytes != nil, sameBytes(rootBytes, sealed) { return }
        let wasDamaged = state != .ok
        install(try decodeRoot(try openRoot(sealed)))
        if wasDamaged { try ensureAllPages() }
    }

    /// True unless the index (when intact) records another seal for this entry.
    func recordsSeal(_ sealed: [UInt8], of id: UUID) throws -> Bool {
        try ensurePages(holding: [id])
        guard state == .ok else { return true }
        return index.page(of: id).recordsSeal(sealed, of: id) ?? true
    }

    /// The index built from the entries alone, every page in memory and marked changed.
    /// Entries that fail to open are left out (and reported by `verify`).
    func rebuilt(generation: UInt64) throws -> PagedIndex {
        var rows: [IndexRow] = []
        try storeCall {
            try backend.withSnapshot { reader in
                try reader.forEachEntry { id, sealed in
                    guard let entry = try? SealedEntry.open(sealed, id: id, vaultID: vaultID, keyRing: keyRing) else {
                        return
                    }
                    rows.append(IndexRow(summary: entry.summary, sealTag: IndexRow.tag(of: sealed)))
                }
            }
        }
        var index = PagedIndex(generation: generation, rows: rows)
        index.recovery = headerRecovery
        return index
    }

    // MARK: Writing

    /// Seals the changed pages of `next` and its root under `keys`, stores them with `change`
    /// in one atomic store change, and from then on holds `next` as the index. The caller
    /// holds the write lock and has read the index under it (`refreshUnderLock`).
    ///
    /// While the index is missing or damaged (found so at open or by any page read since),
    /// only a repair may commit: any other write would store an index rebuilt from whatever
    /// entries are left, and so make a deletion or an older copy put back look clean.
    func commit(_ next: PagedIndex, with change: StoreChange, keys: GenerationKeys, repairing: Bool = false) throws {
        try commit(keys: keys, repairing: repairing) { _ in (next, change) }
    }

    /// `commit`, with entries stored in parts first: `produce` hands sealed entries to `put`
    /// as it makes them, then gives the index and the rest of the change. All of it is one
    /// atomic store change (`VaultStore.apply(inParts:)`): if `produce` throws, nothing is.
    func commit(
        keys: GenerationKeys, repairing: Bool = false,
        _ produce: (_ put: ([UUID: [UInt8]]) throws -> Void) throws -> (PagedIndex, StoreChange)
    ) throws {
        guard state == .ok || repairing else { throw VaultError.indexNeedsRepair }
        // Whether the witness holds the root this change was made on: then the change's own
        // pages bring it up to date; otherwise it is copied whole after the write.
        let witnessInStep = witness.map { rootBytes != nil && sameBytes(try? $0.root(), rootBytes) } ?? false
        var committed: (next: PagedIndex, change: StoreChange)?
        try storeCall {
            try backend.apply(inParts: { put in
                // `put` does not outlive this call; Swift needs telling to hand it on.
                var (next, change) = try withoutActuallyEscaping(put) { try produce($0) }
                next.generation += 1
                try Self.seal(
                    &next, into: &change, vaultID: vaultID, keys: keys,
                    previousDirectories: index.directories.map { Set($0.keys) } ?? [])
                committed = (next, change)
                return change
            })
        }
        guard let (next, change) = committed else { return }
        install((next, .ok, change.index))
        if let witness, let root = change.index {
            do {
                if witnessInStep {
                    try witness.apply(
                        root: root, changedPages: change.putIndexPages, removedPages: change.deleteIndexPages)
                } else {
                    try copyIndex(to: witness)
                }
                witnessUpdated(nil)
            } catch {
                witnessUpdated(error)
            }
        }
    }

    /// Replaces `witness` with the index as the store holds it now (one snapshot). The caller
    /// holds the write lock, so no write lands between the read and the copy.
    func copyIndex(to witness: IndexWitness) throws {
        let (root, pages) = try storeCall {
            try backend.withSnapshot { reader in (try reader.readIndex(), try reader.readIndexPages()) }
        }
        guard let root else { return }
        try witness.replace(root: root, pages: pages)
    }

    /// Seals every changed page, then the directories naming them, then the root naming the
    /// directories into `change`; clears `dirty`. `previousDirectories` are those of the index
    /// held before: any the new root does not name is removed (an index rebuilt in memory
    /// starts its directories again).
    static func seal(
        _ index: inout PagedIndex, into change: inout StoreChange, vaultID: UUID, keys: GenerationKeys,
        previousDirectories: Set<Int> = []
    ) throws {
        precondition(index.version == IndexLayout.version, "only the current version is written")
        let changed = index.dirty.union(index.removed)
        for number in index.dirty.sorted() {
            guard let page = index.pages[number] else { preconditionFailure("a changed page is in memory") }
            let sealed = try Envelope.seal(
                page.encoded(), kind: .indexPage, objectID: IndexLayout.objectID(ofPage: number), vaultID: vaultID,
                keys: keys)
            change.putIndexPages[number] = sealed
            index.records[number]?.tag = IndexRow.tag(of: sealed)
        }
        change.deleteIndexPages.formUnion(index.removed)
        index.dirty = []
        index.removed = []
        try sealDirectories(
            &index, changed: changed, previous: previousDirectories, into: &change, vaultID: vaultID, keys: keys)
        change.index = try Envelope.seal(
            index.encodedRoot(), kind: .index, objectID: Envelope.indexObjectID, vaultID: vaultID, keys: keys)
    }

    // MARK: Private

    private func install(_ read: (PagedIndex, IndexState, [UInt8]?)) {
        (index, state, rootBytes) = read
        epoch += 1
    }

    /// What reading the root found: the root with its pages named (read from its directories
    /// for version 5) and its sealed bytes, or none to use.
    private enum RootRead {
        case read(IndexRoot, sealed: [UInt8])
        case missing
        case damaged
    }

    /// Opens `sealed` as the root; with `read`, also reads its directories through it (else
    /// they are read as commands need them, `ensureDirectories`). An authentic root of another
    /// index version is refused: a format this diary does not read, not damage.
    private func openRoot(_ sealed: [UInt8]?, read: ((Int) throws -> [UInt8]?)? = nil) throws -> RootRead {
        guard let sealed else { return .missing }
        guard
            let plaintext = try? Envelope.open(
                sealed, kind: .index, objectID: Envelope.indexObjectID, vaultID: vaultID, keyRing: keyRing)
        else { return .damaged }
        if let version = plaintext.first,
            ![IndexLayout.version, IndexLayout.legacyVersion, IndexRoot.recoveryVersion, IndexDirectory.rootVersion]
                .contains(version)
        {
            throw VaultError.unsupportedIndexVersion(
                found: Int(version), supported: Int(IndexDirectory.rootVersion))
        }
        guard let root = try? IndexRoot.decode(plaintext) else { return .damaged }
        guard let read else { return .read(root, sealed: sealed) }
        do {
            return .read(
                try DirectoryOpener(vaultID: vaultID, keyRing: keyRing).resolve(root, read: read), sealed: sealed)
        } catch let error as StoreError {
            throw error  // the store failing is not damage to the index
        } catch {
            return .damaged
        }
    }

    /// The index a root read names (no page read yet), or one rebuilt from the entries when
    /// the root is missing or damaged.
    private func decodeRoot(_ read: RootRead) throws -> (PagedIndex, IndexState, [UInt8]?) {
        switch read {
        case .read(let root, let sealed): return (PagedIndex(root: root), .ok, sealed)
        case .missing: return (try rebuilt(generation: 0), .missing, nil)
        case .damaged: return (try rebuilt(generation: 0), .damaged, nil)
        }
    }

    /// Opens the given sealed pages against what `root` records of each (`PageOpener`); nil if
    /// any is absent, is not the copy the root names, or fails to open.
    private func open(_ sealedPages: [(Int, [UInt8]?)], against root: PagedIndex) -> [IndexPage]? {
        PageOpener(vaultID: vaultID, keyRing: keyRing, root: root).open(sealedPages, buffer: pageBuffer)
    }
}

extension PagedIndex {
    /// Puts pages read from the store in place (they match the root already held).
    fileprivate mutating func insert(_ opened: [IndexPage]) {
        for page in opened { pages[page.number] = page }
    }
}
