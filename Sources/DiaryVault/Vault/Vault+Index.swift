import DiaryCrypto
import Foundation

extension Vault {
    static func sealIndex(_ index: IndexSnapshot, vaultID: UUID, keys: GenerationKeys) throws -> [UInt8] {
        try Envelope.seal(
            IndexCodec.encode(index), kind: .index, objectID: Envelope.indexObjectID, vaultID: vaultID, keys: keys)
    }

    func sealIndex(_ index: IndexSnapshot) throws -> [UInt8] {
        try Self.sealIndex(index, vaultID: header.vaultID, keys: keyRing.current)
    }

    func openIndex(_ sealed: [UInt8]) throws -> IndexSnapshot {
        try IndexCodec.decode(
            Envelope.open(sealed, kind: .index, objectID: Envelope.indexObjectID, vaultID: header.vaultID, keyRing: keyRing))
    }

    /// Reads the index; when it is missing or fails to open, rebuilds one in memory from the
    /// entries so the vault stays usable (the index is only a cache).
    func loadIndex() throws -> (IndexSnapshot, IndexState) {
        guard let sealed = try storeCall({ try backend.readIndex() }) else {
            loadedIndexHash = nil
            return (try rebuildIndex(generation: 0), .missing)
        }
        return try decodeIndex(sealed)
    }

    private func decodeIndex(_ sealed: [UInt8]) throws -> (IndexSnapshot, IndexState) {
        do {
            let opened = try openIndex(sealed)
            loadedIndexHash = BLAKE2b.hash(sealed)
            return (opened, .ok)
        } catch {
            loadedIndexHash = nil
            return (try rebuildIndex(generation: 0), .damaged)
        }
    }

    /// Builds the index from the entries alone. Entries that fail to open are left out (and
    /// reported by `verify`).
    func rebuildIndex(generation: UInt64) throws -> IndexSnapshot {
        var rows: [UUID: IndexRow] = [:]
        try storeCall {
            try backend.withSnapshot { reader in
                try reader.forEachEntry { id, sealed in
                    guard let entry = try? openEntry(sealed, id: id) else { return }
                    rows[id] = IndexRow(summary: entry.summary, sealedHash: BLAKE2b.hash(sealed))
                }
            }
        }
        return IndexSnapshot(generation: generation, rows: rows)
    }

    /// Runs one write: under the cross-process lock, re-reads the header and the index (another
    /// process may have written since we opened), lets `body` change the index and name the
    /// entry blobs to put or delete, then stores everything, index included, in one atomic
    /// change.
    @discardableResult
    func write<T>(_ body: (inout IndexSnapshot) throws -> (StoreChange, T)) throws -> T {
        try storeCall {
            try backend.withWriteLock {
                try refreshUnderLock()
                var next = index
                var (change, result) = try body(&next)
                next.generation = Self.nextGeneration(after: next.generation)
                let sealedIndex = try sealIndex(next)
                change.index = sealedIndex
                try backend.apply(change)
                loadedIndexHash = BLAKE2b.hash(sealedIndex)
                index = next
                indexState = .ok
                return result
            }
        }
    }

    /// Inside the lock: pick up a header or index written by another process.
    func refreshUnderLock() throws {
        let current = try Self.readHeader(backend)
        if current != header {
            // A passphrase change keeps the keys; a rotation elsewhere adds a generation we
            // do not hold, and sealing under the old one would be wrong.
            guard keyRing[current.currentGeneration] != nil else { throw VaultError.wrongKey }
            header = current
        }
        // Usually nobody wrote since we read the index: the same sealed bytes need no second
        // decryption and decoding (at 100,000 entries that was most of the cost of `add`).
        guard let sealed = try storeCall({ try backend.readIndex() }) else {
            loadedIndexHash = nil
            (index, indexState) = (try rebuildIndex(generation: 0), .missing)
            return
        }
        if indexState == .ok, let known = loadedIndexHash, constantTimeEquals(known, BLAKE2b.hash(sealed)) {
            return
        }
        (index, indexState) = try decodeIndex(sealed)
    }

    /// The index generation after `current`: one more, or the current time in milliseconds if
    /// that is larger. The clock term keeps the counter ahead of any copy this machine has
    /// seen even when a damaged index had to be rebuilt from the entries (which loses the
    /// old count), so the rollback warning does not cry wolf after a repair.
    static func nextGeneration(after current: UInt64) -> UInt64 {
        max(current &+ 1, UInt64(max(Date().millisecondsSince1970, 0)))
    }

    /// Rebuilds the index from the entries and writes it. Returns the number of entries.
    @discardableResult
    public func reindex() throws -> Int {
        try write { index in
            let rebuilt = try rebuildIndex(generation: index.generation)
            index = rebuilt
            return (StoreChange(), rebuilt.rows.count)
        }
    }
}
