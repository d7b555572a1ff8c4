import DiaryCrypto
import DiaryStore
import Foundation

extension Vault {
    /// Runs one write: under the cross-process lock, re-reads the header and the index root
    /// (another process may have written since we opened) and the index `pages` the change
    /// needs, lets `body` change a copy of the index and name the entry blobs to put or
    /// delete, then commits everything, changed index pages and root included, in one atomic
    /// change (`SealedIndex.commit`).
    ///
    /// With the index missing or damaged only a repair may write (`SealedIndex.commit`); the
    /// guard here only saves reading pages for a write that would be refused.
    @discardableResult
    func write<T>(
        pages: some Sequence<Int> = [], repairing: Bool = false, _ body: (inout PagedIndex) throws -> (StoreChange, T)
    ) throws -> T {
        try storeCall {
            try backend.withWriteLock {
                try refreshHeaderUnderLock()
                try sealedIndex.refreshUnderLock()
                guard repairing || sealedIndex.state == .ok else { throw VaultError.indexNeedsRepair }
                try sealedIndex.ensurePages(pages)
                var next = sealedIndex.index
                let (change, result) = try body(&next)
                try sealedIndex.commit(next, with: change, keys: keyRing.current, repairing: repairing)
                return result
            }
        }
    }

    /// Inside the lock: pick up a header written by another process.
    private func refreshHeaderUnderLock() throws {
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
            return (StoreChange(), index.count)
        }
    }
}
