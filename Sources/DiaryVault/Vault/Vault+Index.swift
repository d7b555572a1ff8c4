import DiaryCrypto
import DiaryStore
import Foundation

extension Vault {
    /// Runs one write: under the cross-process lock, re-reads the header and the index root
    /// (another process may have written since we opened) and the index pages that hold `ids`
    /// (all of them with `allPages`), lets `body` change a copy of the index and name the
    /// entry blobs to put or delete, then commits everything, changed index pages and root
    /// included, in one atomic change (`SealedIndex.commit`). An index of the old version is
    /// migrated in that same change (`PagedIndex.migrated`), before `body` sees it.
    ///
    /// With the index missing or damaged only a repair may write (`SealedIndex.commit`); the
    /// guard here only saves reading pages for a write that would be refused.
    @discardableResult
    func write<T>(
        ids: some Sequence<UUID> = [UUID](), allPages: Bool = false, repairing: Bool = false,
        _ body: (inout PagedIndex) throws -> (StoreChange, T)
    ) throws -> T {
        try storeCall {
            try backend.withWriteLock {
                try refreshHeaderUnderLock()
                try sealedIndex.refreshUnderLock()
                try checkRecovery()
                guard repairing || sealedIndex.state == .ok else { throw VaultError.indexNeedsRepair }
                let migrating = sealedIndex.index.version != IndexLayout.version
                if allPages || migrating {
                    try sealedIndex.ensureAllPages()
                } else {
                    try sealedIndex.ensurePages(holding: ids)
                }
                var next = sealedIndex.index.migrated()
                let (change, result) = try body(&next)
                try sealedIndex.commit(next, with: change, keys: keyRing.current, repairing: repairing)
                return result
            }
        }
    }

    /// `write` over every page, with entries stored in parts as `body` seals them: it hands
    /// them to `put`, and everything is still one atomic change (`SealedIndex.commit`), so
    /// a change of any size need not hold all its sealed entries at once.
    func writeInParts<T>(
        _ body: (inout PagedIndex, _ put: ([UUID: [UInt8]]) throws -> Void) throws -> (StoreChange, T)
    ) throws -> T {
        try storeCall {
            try backend.withWriteLock {
                try refreshHeaderUnderLock()
                try sealedIndex.refreshUnderLock()
                try checkRecovery()
                guard sealedIndex.state == .ok else { throw VaultError.indexNeedsRepair }
                try sealedIndex.ensureAllPages()
                var next = sealedIndex.index.migrated()
                var result: T?
                try sealedIndex.commit(keys: keyRing.current) { put in
                    let (change, value) = try withoutActuallyEscaping(put) { try body(&next, $0) }
                    result = value
                    return (next, change)
                }
                return result!
            }
        }
    }

    /// Rewrites an index of an old version in the current one (docs/FORMAT.md §7.3), in one
    /// atomic change under the write lock; does nothing when it is current, missing or
    /// damaged (`reindex` writes a current one). Every write migrates too: this lets a vault
    /// only read gain the new layout.
    public func migrateIndexIfNeeded() throws {
        guard sealedIndex.state == .ok, sealedIndex.index.needsMigration else { return }
        try write { _ in (StoreChange(), ()) }
    }

    /// The version of the index as read (or written) last: 2, 3 (a root naming its pages, of
    /// version 3 or 4) or 5 (a root naming directories).
    package var indexVersion: Int {
        sealedIndex.index.directories == nil ? Int(sealedIndex.index.version) : Int(IndexDirectory.rootVersion)
    }

    /// Inside the lock: pick up a header written by another process.
    func refreshHeaderUnderLock() throws {
        let current = try Self.readHeader(backend)
        guard current != header else { return }
        // A passphrase change keeps the keys; a rotation elsewhere adds a generation we do
        // not hold, and sealing under the old one would be wrong.
        guard keyRing[current.currentGeneration] != nil else { throw VaultError.wrongKey }
        header = current
    }

    /// Rebuilds the index from the entries and writes it. Returns the number of entries.
    ///
    /// The new index's generation is above both the current one and `minimumGeneration` (the
    /// newest this machine saw, from its witness), so the counter never goes back, even when
    /// the old index was lost with its count.
    @discardableResult
    public func reindex(minimumGeneration: UInt64 = 0) throws -> Int {
        try write(repairing: true) { index in
            index = try sealedIndex.rebuilt(generation: max(index.generation, minimumGeneration))
            // Every page and directory the store holds goes, but those of the new index (a page
            // both put and removed ends up put): a page split before, a directory of the old
            // root, is not left behind as a stray.
            let stored = try backend.readIndexPages().keys
            return (StoreChange(deleteIndexPages: Set(stored)), index.count)
        }
    }
}
