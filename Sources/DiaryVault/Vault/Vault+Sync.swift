import DiaryCrypto
import DiaryStore
import Foundation

/// What DiarySync needs from a vault, and nothing more: a cheap way to find the entries that
/// changed since it last looked, a batch write that keeps every field of the entries it is
/// given, and the headers it publishes and adopts. The sync engine never reads the index or
/// a store directly.
extension Vault {
    /// One tag per *sync bucket* (the ids sharing their first six bits, `indexPage(of:)`): a
    /// digest of the tags the root records for the pages covering the bucket. A bucket whose
    /// tag is unchanged holds the same rows, so comparing 64 tags finds what a change touched
    /// without reading any page (the cost of a sync then follows the changes, not the diary).
    /// Buckets, not pages, because pages split as the diary grows (`IndexLayout`).
    package var indexPageTags: [[UInt8]] {
        get throws {
            try sealedIndex.ensureAllDirectories()
            return bucketTags(sealedIndex.index)
        }
    }

    private func bucketTags(_ index: PagedIndex) -> [[UInt8]] {
        var material = [[UInt8]](repeating: [], count: Self.indexPageCount)
        for number in index.numbers {
            let bucket = IndexLayout.heads(ofPage: number, version: index.version).lowerBound >> 10
            var w = ByteWriter(capacity: 4 + IndexRoot.tagLength)
            w.u32(UInt32(number))
            w.append(index.records[number]!.tag)
            material[bucket] += w.bytes
        }
        return material.map { BLAKE2b.hash($0, outputCount: IndexRoot.tagLength) }
    }

    /// The id and seal tag of every row in the sync buckets `buckets`.
    package func sealTags(onPages buckets: some Sequence<Int>) throws -> [UUID: [UInt8]] {
        let buckets = Set(buckets)
        try sealedIndex.ensureDirectories(overlapping: buckets.map { $0 << 10..<($0 + 1) << 10 })
        let index = sealedIndex.index
        let numbers = index.records.keys.filter {
            buckets.contains(IndexLayout.heads(ofPage: $0, version: index.version).lowerBound >> 10)
        }
        try sealedIndex.ensurePages(numbers)
        var tags: [UUID: [UInt8]] = [:]
        for page in sealedIndex.index.pages.values {
            for i in 0..<page.count where buckets.contains(Self.indexPage(of: page.id(ofRowAt: i))) {
                tags[page.id(ofRowAt: i)] = page.sealTag(ofRowAt: i).bytes
            }
        }
        return tags
    }

    /// The sync bucket an entry's row lives in: the first six bits of its id.
    package static func indexPage(of id: UUID) -> Int { IndexLayout.head(of: id) >> 10 }
    package static var indexPageCount: Int { IndexLayout.legacyPageCount }

    /// Writes entries exactly as given (ids, dates, star, tags, source) and deletes others, in
    /// one atomic change. An entry whose seal tag is no longer `expected[id]` (nil: absent)
    /// was changed by another command since the caller looked: it is left alone and returned
    /// in `skipped`, so a concurrent edit is never overwritten. Returns the new seal tags.
    package func applySynced(
        puts: [Entry], deletes: [UUID], expected: [UUID: [UInt8]?]
    ) throws -> (tags: [UUID: [UInt8]], skipped: Set<UUID>) {
        // A capture device's record has no text (its plaintext's own checks ran when it was read).
        for entry in puts where entry.captureDevice == nil {
            try Self.validate(text: entry.text, tags: entry.tags, source: entry.source)
        }
        let ids = puts.map(\.id) + deletes
        // Which objects other entries still reference is known only with every page read:
        // read them all when a row replaced or deleted had attachments as last seen.
        try? sealedIndex.ensurePages(holding: ids)
        let hadAttachments = ids.contains { !(sealedIndex.index.rowIfRead($0)?.summary.attachments.isEmpty ?? true) }
        return try write(ids: ids, allPages: hadAttachments) { index in
            var change = StoreChange()
            var tags: [UUID: [UInt8]] = [:]
            var skipped = Set<UUID>()
            // The objects of the rows replaced or deleted: those no row references afterwards go.
            var dropped = Set<UUID>()
            func unchanged(_ id: UUID) -> Bool {
                guard let wanted = expected[id] else { return true }
                return index[id]?.sealTag == wanted
            }
            for entry in puts {
                guard unchanged(entry.id) else { skipped.insert(entry.id); continue }
                dropped.formUnion(index[entry.id]?.summary.attachments.map(\.objectID) ?? [])
                let sealed = try sealEntry(entry)
                change.putEntries[entry.id] = sealed
                let tag = IndexRow.tag(of: sealed)
                index[entry.id] = IndexRow(summary: entry.summary, sealTag: tag)
                tags[entry.id] = tag
            }
            for id in deletes where index[id] != nil {
                guard unchanged(id) else { skipped.insert(id); continue }
                dropped.formUnion(index[id]?.summary.attachments.map(\.objectID) ?? [])
                index[id] = nil
                change.deleteEntries.insert(id)
            }
            // Without every page (attachments added since we looked), the objects stay:
            // unreferenced, removed by a later write that sees the whole index.
            if index.allPagesLoaded { change.deleteAttachments = Self.unreferenced(dropped, in: index) }
            return (change, (tags, skipped))
        }
    }

    /// The entry with this id as stored, or nil when there is none (no error for a missing
    /// id: sync asks about ids it learnt from elsewhere).
    package func storedEntry(_ id: UUID) throws -> Entry? {
        try sealedIndex.ensurePages(holding: [id])
        guard sealedIndex.index[id] != nil else { return nil }
        return try storedObject(id)
    }

    /// The header bytes as stored now.
    package var encodedHeader: [UInt8] { header.encoded() }

    /// The vault id and key generation a published header names, read without any key.
    package static func describeHeader(_ encoded: [UInt8]) throws -> (
        vaultID: UUID, store: StoreKind, generation: UInt32
    ) {
        let header = try decodeForeignHeader(encoded)
        return (header.vaultID, header.store, header.currentGeneration)
    }

    /// The vault key (and generation) a published header wraps under `passphrase`.
    package static func unwrapHeader(_ encoded: [UInt8], passphrase: SecretBytes) throws -> (
        key: SecretBytes, generation: UInt32
    ) {
        let header = try decodeForeignHeader(encoded)
        let ring = try unwrap(header, passphrase: passphrase)
        return (ring.current.vaultKey, ring.current.generation)
    }

    /// Replaces this vault's header with one another machine published (a passphrase change):
    /// it must name this vault and this store and wrap the key this vault is open with, which
    /// the caller proved by the sealed record that carried it. Its recovery block must pass
    /// `checkAdopted` (an older epoch is a header put back); header and index root are written
    /// together when the block is new.
    package func adoptHeader(_ encoded: [UInt8]) throws {
        let adopted = try Self.decodeForeignHeader(encoded)
        guard adopted.vaultID == header.vaultID, adopted.store == header.store,
            adopted.slots.count == 1, adopted.currentGeneration == keyRing.current.generation
        else {
            throw VaultError.headerDamaged("a published header that does not fit this vault")
        }
        try storeCall {
            try backend.withWriteLock {
                try sealedIndex.refreshUnderLock()
                try checkAdopted(adopted, keys: keyRing.current)
                if sealedIndex.state == .ok, adopted.recoveryBinding != sealedIndex.index.recovery {
                    try commitHeaderAndRoot(adopted)
                } else {
                    try backend.apply(StoreChange(header: adopted.encoded()))
                }
            }
        }
        header = adopted
    }

    /// Creates the local vault of a machine joining a synced vault: the published header for
    /// `store` becomes its header, so it opens with the same passphrase and key.
    package static func create(at directory: URL, adopting encoded: [UInt8], passphrase: SecretBytes) throws -> Vault {
        let header = try decodeForeignHeader(encoded)
        let ring = try unwrap(header, passphrase: passphrase)
        if let block = header.recovery, !block.tagVerifies(vaultID: header.vaultID, keys: ring.current) {
            throw VaultError.recoveryKeyMismatch
        }
        var initial = StoreChange(header: header.encoded())
        var empty = PagedIndex(generation: 1)
        empty.recovery = header.recoveryBinding
        try SealedIndex.seal(&empty, into: &initial, vaultID: header.vaultID, keys: ring.current)
        let backend = try storeCall { try StoreLayout.create(header.store, at: directory, initial: initial) }
        return try Vault(backend: backend, header: header, keyRing: ring)
    }

    static func decodeForeignHeader(_ encoded: [UInt8]) throws -> VaultHeader {
        let header: VaultHeader
        do {
            header = try VaultHeader.decode(encoded)
        } catch {
            throw VaultError.headerDamaged("published header: \(error)")
        }
        do { try header.kdf.validate() } catch { throw VaultError.headerDamaged("\(error)") }
        return header
    }
}

/// Entries as sync records carry them: the plaintext of a sealed entry (docs/FORMAT.md §7).
package enum SyncedEntryCodec {
    /// The longest plaintext a sync record's put may carry (docs/FORMAT.md §12.2): the text, 70 000
    /// bytes for the other fields of version 1, and the largest attachment records (§7.6).
    package static let maximumLength = Vault.maximumTextBytes + 70_000 + AttachmentCodec.maximumLength

    package static func encode(_ entry: Entry) -> [UInt8] { EntryCodec.encode(entry) }

    package static func decode(_ bytes: [UInt8], id: UUID) throws -> Entry {
        try EntryCodec.decode(bytes, id: id, textLimit: Vault.maximumTextBytes)
    }
}

extension Vault {
    /// The header of the vault at `directory` as it would be written for each store kind, with
    /// the key it wraps, proven by `passphrase` (one key derivation): what `diary sync init`
    /// publishes so that a machine joining with either store can open the vault.
    package static func publishableHeaders(at directory: URL, passphrase: SecretBytes) throws -> PassphraseChange {
        let backend = try storeCall { try StoreLayout.open(at: directory) }
        let header = try readHeader(backend)
        let kek = try header.deriveKEK(try Passphrase.normalized(passphrase))
        let ring: KeyRing
        do { ring = try header.unwrap(kek: kek) } catch { throw VaultError.wrongPassphrase }
        return PassphraseChange(
            vaultID: header.vaultID, vaultKey: ring.current.vaultKey, generation: ring.current.generation,
            headers: try header.variantsForEveryStore(ring: ring, kek: kek))
    }
}

extension Vault {
    /// The key generation a published header names (nil when it does not parse).
    package static func describeHeaderGeneration(_ encoded: [UInt8]) -> UInt32? {
        try? describeHeader(encoded).generation
    }

    /// True when this vault's header wraps the same key generation with the same salt and
    /// cost as `encoded`: the same passphrase opens both, so there is nothing to adopt. (A
    /// machine that finished with `rekey` the rotation it was following publishes such a
    /// header.)
    package func wrapsLike(_ encoded: [UInt8]) -> Bool {
        guard let other = try? Self.decodeForeignHeader(encoded) else { return false }
        return other.salt == header.salt && other.kdf == header.kdf
            && other.slots.map(\.generation) == header.slots.map(\.generation)
    }
}

extension Vault {
    /// True when a published header's key derivation costs at least what this vault's does in
    /// both passes and memory: a synced header never makes the passphrase cheaper to guess.
    /// True when two published headers wrap their keys alike: one salt and cost, so one
    /// passphrase setting (a rotation keeps the passphrase's salt; `passwd` draws a new one).
    package static func wrapAlike(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard let x = try? decodeForeignHeader(a), let y = try? decodeForeignHeader(b) else { return false }
        return x.salt == y.salt && x.kdf == y.kdf
    }

    package func costsNoLess(_ encoded: [UInt8]) -> Bool {
        guard let other = try? Self.decodeForeignHeader(encoded) else { return false }
        return other.kdf.opsLimit >= header.kdf.opsLimit && other.kdf.memLimit >= header.kdf.memLimit
    }
}
