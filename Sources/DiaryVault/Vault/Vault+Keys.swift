import DiaryCrypto
import DiaryStore
import Foundation

/// What `changePassphrase(at:)` did, for sync to publish: the key it wraps and the new header
/// as it would be written for each store kind (docs/FORMAT.md §12.4).
public struct PassphraseChange {
    package let vaultID: UUID
    package let vaultKey: SecretBytes
    package let generation: UInt32
    package let headers: [StoreKind: [UInt8]]
}

/// The new header of a passphrase change or key rotation as it would be written for each
/// store kind, for sync to publish (docs/FORMAT.md §12.4). Returned by the change that makes
/// it, so it is never read from a vault that made none.
public struct PublishableHeaders: Sendable {
    package let byStore: [StoreKind: [UInt8]]
}

/// A passphrase proven against a vault's header, and the keys it unwrapped (guarded memory).
public struct CheckedPassphrase {
    let header: VaultHeader
    let ring: KeyRing

    /// What the header says, read without the key.
    public var info: VaultInfo { header.info }
    /// The header's bytes, as sync compares them with the header in force.
    package var encodedHeader: [UInt8] { header.encoded() }
    package var vaultKey: SecretBytes { ring.current.vaultKey }
    package var generation: UInt32 { ring.current.generation }
}

extension Vault {
    /// Changes the passphrase by rewriting the header alone: the vault key is unchanged, so
    /// the cost does not depend on the number of entries. A new salt is drawn; `kdf`, when
    /// given, replaces the cost parameters.
    @discardableResult
    public func changePassphrase(
        current: SecretBytes, new: SecretBytes, kdf newKDF: KDFParameters? = nil
    ) throws -> PublishableHeaders {
        let variants: [StoreKind: [UInt8]]
        (header, keyRing, variants) = try Self.rewrap(backend, current: current, new: new, kdf: newKDF)
        return PublishableHeaders(byStore: variants)
    }

    /// The same, without opening the vault: neither the index nor any entry is read, which
    /// keeps `diary passwd` equally fast for ten entries and a hundred thousand. `checked`
    /// (from `checkPassphrase`) saves deriving the current key a second time, as long as the
    /// header has not changed since.
    @discardableResult
    public static func changePassphrase(
        at directory: URL, checked: CheckedPassphrase? = nil, current: SecretBytes, new: SecretBytes,
        kdf newKDF: KDFParameters? = nil
    ) throws -> PassphraseChange {
        let backend = try storeCall { try StoreLayout.open(at: directory) }
        let (header, ring, variants) = try rewrap(backend, checked: checked, current: current, new: new, kdf: newKDF)
        return PassphraseChange(
            vaultID: header.vaultID, vaultKey: ring.current.vaultKey, generation: ring.current.generation,
            headers: variants)
    }

    /// Checks `passphrase` against the header alone (one key derivation, no index read).
    public static func checkPassphrase(at directory: URL, passphrase: SecretBytes) throws -> CheckedPassphrase {
        let backend = try storeCall { try StoreLayout.open(at: directory) }
        let header = try readHeader(backend)
        return CheckedPassphrase(header: header, ring: try unwrap(header, passphrase: passphrase))
    }

    private static func rewrap(
        _ backend: any VaultStore, checked: CheckedPassphrase? = nil, current: SecretBytes, new: SecretBytes,
        kdf newKDF: KDFParameters?
    ) throws -> (VaultHeader, KeyRing, [StoreKind: [UInt8]]) {
        let newPassphrase = try Passphrase.normalized(new)
        if let newKDF { try newKDF.validate() }
        return try storeCall {
            try backend.withWriteLock {
                let onDisk = try readHeader(backend)
                // The check's keys are good only for the very header they were unwrapped from.
                let ring =
                    try checked.flatMap { $0.header == onDisk ? $0.ring : nil }
                    ?? unwrap(onDisk, passphrase: current)
                var next = onDisk
                next.salt = PassphraseKDF.randomSalt()
                if let newKDF { next.kdf = newKDF }
                let kek = try next.deriveKEK(newPassphrase)
                try next.setSlots(ring.all, kek: kek)
                try backend.apply(StoreChange(header: next.encoded()))
                return (next, ring, try next.variantsForEveryStore(ring: ring, kek: kek))
            }
        }
    }

    /// Rotates the vault key: every entry and the index are sealed again under a new random
    /// key of the next generation.
    ///
    /// Crash safety (docs/FORMAT.md §8): the header first gains a second slot holding the new
    /// key, so from then on both generations open; entries are re-sealed in batches, each batch
    /// one atomic change; only when none is left under the old generation does the header drop
    /// the old slot. Interrupted at any point, the vault opens with its passphrase and a second
    /// call finishes the job. Returns the ids of entries that could not be re-sealed because
    /// they were already damaged.
    ///
    /// `beforeRetiring` runs once every entry is under the new key and before the old one is
    /// dropped, with no lock held, and is given the new key's header for every store: sync
    /// records the new key there, so an interruption at any point leaves a vault that both `diary rekey`
    /// and sync can finish from. If the header changed meanwhile (a `passwd` in between), the
    /// rotation stops as interrupted and a second call finishes it.
    ///
    /// `minimumGeneration`: the new key's generation is at least this (a synced vault's key must
    /// be newer than every key the machines have stated; FORMAT.md §8 allows the gap).
    @discardableResult
    public func rotateKey(
        passphrase: SecretBytes, minimumGeneration: UInt32 = 0, batchSize: Int = 256,
        progress: ((_ done: Int, _ total: Int) -> Void)? = nil,
        beforeRetiring: ((PublishableHeaders) throws -> Void)? = nil
    ) throws -> [UUID] {
        try rotateKey(
            passphrase: passphrase, adopting: nil, minimumGeneration: minimumGeneration, batchSize: batchSize,
            progress: progress, beforeRetiring: beforeRetiring)
    }

    /// While a rotation is unfinished: the older generation's key, the one being retired.
    public var retiringKey: (key: SecretBytes, generation: UInt32)? {
        guard rotationInterrupted, let oldest = keyRing.all.first, oldest.generation != keyGeneration else {
            return nil
        }
        return (oldest.vaultKey, oldest.generation)
    }

    /// Rotates to the key another machine rotated to: the same steps, with the new generation
    /// taken from `adopted` (a published header of this vault and store, which `passphrase`
    /// opens) instead of drawn at random, and `adopted` written as the final header.
    ///
    /// The old keys are those this vault is open with (an unlock session's will do): the
    /// passphrase may already be the one set elsewhere, which the local header does not know.
    /// The interim two-slot header is sealed under it, with the adopted header's salt and cost.
    package func rotateKey(
        adopting adopted: [UInt8], passphrase: SecretBytes, progress: ((_ done: Int, _ total: Int) -> Void)? = nil,
        beforeRetiring: ((PublishableHeaders) throws -> Void)? = nil
    ) throws -> [UUID] {
        let target = try VaultHeader.decode(adopted)
        guard target.vaultID == header.vaultID, target.store == header.store, target.slots.count == 1 else {
            throw VaultError.headerDamaged("a published header that does not fit this vault")
        }
        let kek = try target.deriveKEK(try Passphrase.normalized(passphrase))
        let keys: GenerationKeys
        do { keys = try target.unwrap(kek: kek).current } catch { throw VaultError.wrongPassphrase }
        return try rotateKey(
            passphrase: passphrase, adopting: (keys, target, kek), minimumGeneration: 0, batchSize: 256,
            progress: progress, beforeRetiring: beforeRetiring)
    }

    /// What the first half of a rotation leaves for the second: the interim two-slot header,
    /// the key that wraps it, both generations' keys, the entries it could not re-seal, and
    /// the final header sync publishes.
    private struct Rotation {
        let interim: VaultHeader
        let kek: SecretBytes
        let ring: KeyRing
        let damaged: [UUID]
        let headers: PublishableHeaders
    }

    /// A rotation to another machine's key: its keys, its published header, and the key that
    /// header is wrapped with.
    private typealias Adoption = (keys: GenerationKeys, header: VaultHeader, kek: SecretBytes)

    private func rotateKey(
        passphrase: SecretBytes, adopting: Adoption?, minimumGeneration: UInt32, batchSize: Int,
        progress: ((_ done: Int, _ total: Int) -> Void)?, beforeRetiring: ((PublishableHeaders) throws -> Void)?
    ) throws -> [UUID] {
        let rotation = try storeCall {
            try backend.withWriteLock {
                try resealUnderNextKey(
                    passphrase: passphrase, adopting: adopting, minimumGeneration: minimumGeneration,
                    batchSize: batchSize, progress: progress)
            }
        }
        try beforeRetiring?(rotation.headers)
        return try storeCall { try backend.withWriteLock { try retireOldKey(rotation, adopting: adopting) } }
    }

    /// Under the write lock: writes the interim header holding both keys (unless an earlier
    /// run did), then re-seals every entry under the next key.
    private func resealUnderNextKey(
        passphrase: SecretBytes, adopting: Adoption?, minimumGeneration: UInt32, batchSize: Int,
        progress: ((Int, Int) -> Void)?
    ) throws -> Rotation {
        var onDisk = try Self.readHeader(backend)
        let kek: SecretBytes
        var ring: KeyRing
        if let adopting {
            kek = adopting.kek
            ring = keyRing
            onDisk.salt = adopting.header.salt
            onDisk.kdf = adopting.header.kdf
            if onDisk.slots.count == 2 { onDisk.slots.removeLast() }
        } else {
            // The pages opening the vault read are read again below: the derivation's memory
            // (64 MiB and up) then does not come on top of an index that grows with the diary.
            sealedIndex.dropReadPages()
            kek = try onDisk.deriveKEK(try Passphrase.normalized(passphrase))
            do { ring = try onDisk.unwrap(kek: kek) } catch { throw VaultError.wrongPassphrase }
        }
        // Re-sealing would bless whatever entries are left under a damaged index.
        try sealedIndex.load()
        guard sealedIndex.state == .ok else { throw VaultError.indexNeedsRepair }
        if let adopting, adopting.keys.generation <= onDisk.slots.map(\.generation).min()! {
            throw VaultError.headerDamaged("a published key older than this vault's")
        }
        // Before anything is sealed to the recovery key: the block must be this vault's.
        if let adopting {
            try checkAdopted(adopting.header, keys: adopting.keys)
            onDisk.recovery = adopting.header.recovery
        } else {
            try checkRecovery(onDisk, ring: ring)
        }
        if onDisk.slots.count == 1 {
            let next =
                try adopting?.keys
                ?? GenerationKeys(
                    generation: max(onDisk.currentGeneration + 1, minimumGeneration),
                    vaultKey: SecretBytes(randomCount: 32))
            ring = KeyRing(ring.all.filter { $0.generation != next.generation } + [next])
            try onDisk.setSlots(ring.all, kek: kek, taggedUnder: adopting?.keys.generation)
            // A recovery block taken from another machine goes with the root recording it.
            if onDisk.recoveryBinding != sealedIndex.index.recovery {
                try commitHeaderAndRoot(onDisk)
            } else {
                try backend.apply(StoreChange(header: onDisk.encoded()))
            }
        }
        header = onDisk
        keyRing = ring
        try sealedIndex.load()
        try sealedIndex.ensureAllPages()
        let damaged = try resealAll(batchSize: batchSize, progress: progress)
        var final = onDisk
        try final.setSlots([ring.current], kek: kek)
        let headers = try final.variantsForEveryStore(ring: KeyRing([ring.current]), kek: kek)
        return Rotation(
            interim: onDisk, kek: kek, ring: ring, damaged: damaged, headers: PublishableHeaders(byStore: headers))
    }

    /// Under the write lock: every readable entry is now under the new generation, so the old
    /// key is dropped and every index page sealed under the new one too. The header must still
    /// be the interim one this rotation wrote, or its `kek` would undo a passphrase change.
    private func retireOldKey(_ rotation: Rotation, adopting: Adoption?) throws -> [UUID] {
        guard try Self.readHeader(backend) == rotation.interim else { throw VaultError.rotationInterrupted }
        try sealedIndex.load()
        guard sealedIndex.state == .ok else { throw VaultError.indexNeedsRepair }
        try sealedIndex.ensureAllPages()
        var final = rotation.interim
        try final.setSlots([rotation.ring.current], kek: rotation.kek)
        if let adopting { final = adopting.header }
        var next = sealedIndex.index.migrated()
        next.markAllDirty()
        next.recovery = final.recoveryBinding
        try sealedIndex.commit(next, with: StoreChange(header: final.encoded()), keys: rotation.ring.current)
        header = final
        keyRing = KeyRing([rotation.ring.current])
        try backend.compact()
        return rotation.damaged
    }

    /// Re-seals, in batches, every entry not yet under the current generation. Every entry is
    /// listed, and read once, in its batch: one that an interrupted run already re-sealed is
    /// left as it is (`resealBatch`).
    private func resealAll(batchSize: Int, progress: ((Int, Int) -> Void)?) throws -> [UUID] {
        var pending = try storeCall { try backend.entryIDs() }
        let total = pending.count
        // In key order, which is also the order of their index pages (a page holds the ids of
        // one prefix): a batch rewrites only the few pages its ids share instead of about the
        // whole index, so a batch of bounded size keeps a rotation linear in the number of
        // entries and its memory (each entry sealed, opened and sealed again) flat; and the
        // SQLite store reads the batch leaf after leaf. 1/16 of the entries per batch, between
        // `batchSize` and `resealBatchLimit`: a crash loses at most one batch of work.
        pending.sort { $0.precedesInKeyOrder($1) }
        let batchSize = max(batchSize, min(total / 16, Self.resealBatchLimit), 1)
        var damaged: [UUID] = []
        var done = 0
        progress?(0, pending.count)
        for start in stride(from: 0, to: pending.count, by: batchSize) {
            let batch = pending[start..<min(start + batchSize, pending.count)]
            var puts: [UUID: [UInt8]] = [:]
            var next = sealedIndex.index.migrated()  // every page is in memory (`rotate`)
            for (id, outcome) in try resealBatch(batch) {
                switch outcome {
                case .damaged: damaged.append(id)
                case .current: break
                case .failed(let error): throw error
                case .resealed(let sealed, let row):
                    puts[id] = sealed
                    next[id] = row
                }
            }
            if !puts.isEmpty {
                var change = StoreChange(putEntries: puts)
                change.reseals = true
                change.rotationBatch = true
                try sealedIndex.commit(next, with: change, keys: keyRing.current)
            }
            done += batch.count
            progress?(done, pending.count)
        }
        return damaged
    }

    /// The most entries a rotation re-seals in one change (unless asked for more): about
    /// 7 MiB of sealed entries at a typical size, held three times over while a batch runs.
    static let resealBatchLimit = 4096

    private enum Reseal {
        case resealed([UInt8], IndexRow)
        /// Already under the current generation (an interrupted run re-sealed it): left as it is.
        case current
        /// Fails to open, or is not the copy the index recorded: left as it is.
        case damaged
        case failed(any Error)
    }

    /// The batch read in one snapshot, then each entry opened and sealed again on every core.
    private func resealBatch(_ batch: ArraySlice<UUID>) throws -> [(UUID, Reseal)] {
        let stored = try storeCall { try backend.withSnapshot { try $0.readEntries(batch) } }
        let target = keyRing.current.generation
        var candidates: [(UUID, [UInt8])] = []
        var outcomes: [(UUID, Reseal?)] = []
        for (id, sealed) in zip(batch, stored) {
            if let sealed, (try? Envelope.peek(sealed, expecting: .entry).generation) == target {
                outcomes.append((id, .current))
                continue
            }
            // An entry that is not the one the index recorded (an older copy put back) is not
            // blessed with a fresh seal: it stays as it is.
            guard let sealed, try sealedIndex.recordsSeal(sealed, of: id) else {
                outcomes.append((id, .damaged))
                continue
            }
            candidates.append((id, sealed))
            outcomes.append((id, nil))
        }
        let (vaultID, ring) = (header.vaultID, keyRing)
        let resealed = ParallelBatch.map(candidates) { id, sealed -> Reseal in
            guard let entry = try? SealedEntry.open(sealed, id: id, vaultID: vaultID, keyRing: ring) else {
                return .damaged
            }
            do {
                let fresh = try SealedEntry.seal(entry, vaultID: vaultID, keys: ring.current)
                return .resealed(fresh, IndexRow(summary: entry.summary, sealTag: IndexRow.tag(of: fresh)))
            } catch {
                return .failed(error)
            }
        }
        // In the batch's order, the damaged among them where they stood.
        var fresh = resealed.makeIterator()
        return outcomes.map { id, outcome in (id, outcome ?? fresh.next()!) }
    }
}

extension KeyRing {
    /// Every generation, oldest first.
    var all: [GenerationKeys] { byGeneration.values.sorted { $0.generation < $1.generation } }
}

extension VaultHeader {
    /// This header as it would be written for each store kind: same vault id, salt, cost and
    /// keys. Each slot's associated data names the store, so the slots are sealed again.
    func variantsForEveryStore(ring: KeyRing, kek: SecretBytes) throws -> [StoreKind: [UInt8]] {
        var variants: [StoreKind: [UInt8]] = [:]
        for kind in StoreKind.allCases {
            var copy = self
            copy.store = kind
            try copy.setSlots(ring.all, kek: kek)
            variants[kind] = copy.encoded()
        }
        return variants
    }
}
