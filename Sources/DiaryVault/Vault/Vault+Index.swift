import DiaryCrypto
import DiaryStore
import Foundation

extension Vault {
    // MARK: Sealing

    static func sealRoot(_ root: IndexRoot, vaultID: UUID, keys: GenerationKeys) throws -> [UInt8] {
        try Envelope.seal(root.encoded(), kind: .index, objectID: Envelope.indexObjectID, vaultID: vaultID, keys: keys)
    }

    static func sealPage(_ page: IndexPage, vaultID: UUID, keys: GenerationKeys) throws -> [UInt8] {
        try Envelope.seal(
            page.encoded(), kind: .indexPage, objectID: IndexLayout.objectID(ofPage: page.number), vaultID: vaultID,
            keys: keys)
    }

    /// Seals every changed page and then the root naming them; clears `dirty`.
    static func sealChanges(
        of index: inout PagedIndex, into change: inout StoreChange, vaultID: UUID, keys: GenerationKeys
    ) throws {
        for number in index.dirty.sorted() {
            guard let page = index.pages[number] else { preconditionFailure("a changed page is in memory") }
            let sealed = try sealPage(page, vaultID: vaultID, keys: keys)
            change.putIndexPages[number] = sealed
            index.tags[number] = IndexRow.tag(of: sealed)
        }
        index.dirty = []
        change.index = try sealRoot(index.root, vaultID: vaultID, keys: keys)
    }

    func sealChanges(of index: inout PagedIndex, into change: inout StoreChange) throws {
        try Self.sealChanges(of: &index, into: &change, vaultID: header.vaultID, keys: keyRing.current)
    }

    /// Opens a page and checks it against what the root says of it (rows and newest row).
    func openPage(_ sealed: [UInt8], number: Int, expectedCount: Int, expectedNewest: ListKey) throws -> IndexPage {
        let page = try Envelope.open(
            sealed, kind: .indexPage, objectID: IndexLayout.objectID(ofPage: number), vaultID: header.vaultID,
            keyRing: keyRing, into: pageBuffer
        ) { try IndexPage.decode($0, number: number, expectedCount: expectedCount) }
        guard page.newestKey() == expectedNewest else { throw FormatError.invalidField("newest row") }
        return page
    }

    // MARK: Loading

    /// Reads the index root; when it is missing or fails to open, rebuilds the whole index in
    /// memory from the entries so the vault stays usable (the index is only a cache).
    func loadIndex() throws -> (PagedIndex, IndexState) {
        try decodeRoot(try storeCall { try backend.readIndex() })
    }

    func decodeRoot(_ sealed: [UInt8]?) throws -> (PagedIndex, IndexState) {
        loadedRoot = nil
        guard let sealed else { return (try rebuildIndex(generation: 0), .missing) }
        let plaintext: [UInt8]
        do {
            plaintext = try Envelope.open(
                sealed, kind: .index, objectID: Envelope.indexObjectID, vaultID: header.vaultID, keyRing: keyRing)
        } catch {
            return (try rebuildIndex(generation: 0), .damaged)
        }
        if plaintext.first == LegacyIndexCodec.version, let legacy = try? LegacyIndexCodec.decode(plaintext) {
            loadedRoot = sealed
            return (try upgrade(legacy), .ok)
        }
        guard let root = try? IndexRoot.decode(plaintext) else { return (try rebuildIndex(generation: 0), .damaged) }
        loadedRoot = sealed
        return (PagedIndex(root: root), .ok)
    }

    /// Reads the pages among `numbers` not yet in memory, checking each against the tag the
    /// root records. A page that does not match may only mean another process wrote since
    /// the root was read: root and pages are then read again together, in one snapshot.
    /// Still wrong, the index is damaged and is rebuilt in memory from the entries.
    func loadPages(_ numbers: some Sequence<Int>) throws {
        guard indexState == .ok else { return }  // a rebuilt index has every page in memory
        var wanted = Set(numbers.filter { index.pages[$0] == nil })
        guard !wanted.isEmpty else { return }
        let first = try storeCall {
            try backend.withSnapshot { reader in try wanted.map { ($0, try reader.readIndexPage($0)) } }
        }
        if install(first) { return }
        let (sealedRoot, again) = try storeCall {
            try backend.withSnapshot { reader in
                (try reader.readIndex(), try Array(0..<IndexLayout.pageCount).map { ($0, try reader.readIndexPage($0)) })
            }
        }
        if sealedRoot != loadedRoot {
            (index, indexState) = try decodeRoot(sealedRoot)
            guard indexState == .ok else { return }
            wanted = wanted.filter { index.pages[$0] == nil }
            if install(again.filter { wanted.contains($0.0) }) { return }
        }
        loadedRoot = nil
        (index, indexState) = (try rebuildIndex(generation: 0), .damaged)
    }

    func loadAllPages() throws { try loadPages(0..<IndexLayout.pageCount) }

    /// Opens the given sealed pages into `index`; false (and nothing installed) if any is
    /// absent, is not the copy the root names, or fails to open.
    private func install(_ sealedPages: [(Int, [UInt8]?)]) -> Bool {
        var opened: [IndexPage] = []
        for (number, sealed) in sealedPages {
            guard let sealed, SealTag(index.tags[number]).matches(sealed),
                  let page = try? openPage(
                      sealed, number: number, expectedCount: index.counts[number], expectedNewest: index.newest[number])
            else { return false }
            opened.append(page)
        }
        for page in opened { index.pages[page.number] = page }
        return true
    }

    /// Builds the index from the entries alone. Entries that fail to open are left out (and
    /// reported by `verify`).
    func rebuildIndex(generation: UInt64) throws -> PagedIndex {
        var rows: [IndexRow] = []
        try storeCall {
            try backend.withSnapshot { reader in
                try reader.forEachEntry { id, sealed in
                    guard let entry = try? openEntry(sealed, id: id) else { return }
                    rows.append(IndexRow(summary: entry.summary, sealTag: IndexRow.tag(of: sealed)))
                }
            }
        }
        return PagedIndex(generation: generation, rows: rows)
    }

    /// A version 1 index (one object with every row) becomes pages in memory. Each row's hash
    /// is checked against the entry as stored before its tag is taken, so an entry that was
    /// already not the indexed copy stays reported as such. The generation is the old index's
    /// own: an old version 1 index put back in place of a newer index is then seen by the
    /// rollback check like any older copy (writing the upgrade at open, with a new generation,
    /// would hide exactly that). Every page is marked changed, so the next write stores
    /// them all.
    private func upgrade(_ legacy: LegacyIndex) throws -> PagedIndex {
        var rows: [IndexRow] = []
        rows.reserveCapacity(legacy.rows.count)
        try storeCall {
            try backend.withSnapshot { reader in
                for (id, old) in legacy.rows {
                    var tag = [UInt8](repeating: 0, count: IndexRoot.tagLength)  // matches no seal
                    if let sealed = try reader.readEntry(id), constantTimeEquals(old.sealedHash, BLAKE2b.hash(sealed)) {
                        tag = IndexRow.tag(of: sealed)
                    }
                    rows.append(IndexRow(summary: old.summary, sealTag: tag))
                }
            }
        }
        return PagedIndex(generation: legacy.generation, rows: rows)
    }

    // MARK: Writing

    /// Runs one write: under the cross-process lock, re-reads the header and the index root
    /// (another process may have written since we opened) and the index `pages` the change
    /// needs, lets `body` change the index and name the entry blobs to put or delete, then
    /// stores everything, changed index pages and root included, in one atomic change.
    @discardableResult
    func write<T>(pages: some Sequence<Int> = [], _ body: (inout PagedIndex) throws -> (StoreChange, T)) throws -> T {
        try storeCall {
            try backend.withWriteLock {
                try refreshUnderLock()
                try loadPages(pages)
                var next = index
                var (change, result) = try body(&next)
                next.generation = Self.nextGeneration(after: next.generation)
                try sealChanges(of: &next, into: &change)
                try backend.apply(change)
                loadedRoot = change.index
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
        // Usually nobody wrote since we read the root: the pages in memory are still current.
        let sealed = try storeCall { try backend.readIndex() }
        if indexState == .ok, let known = loadedRoot, known == sealed { return }
        let wasDamaged = indexState != .ok
        (index, indexState) = try decodeRoot(sealed)
        // This write is also a repair: a page found bad before must not stay on disk because
        // this write happens not to touch it. Every page is checked; any still bad means the
        // index is rebuilt from the entries and written whole.
        if wasDamaged { try loadAllPages() }
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
            index = try rebuildIndex(generation: index.generation)
            return (StoreChange(), index.count)
        }
    }
}
