import DiaryCrypto
import DiaryStore
import Foundation

/// Whether a vault has a recovery key (`Vault.recoveryStatus`).
public enum RecoveryStatus: Equatable, Sendable {
    /// Never had one (the header is of version 1).
    case none
    /// A key is set: its epoch, and the fingerprint of its public half.
    case active(epoch: UInt32, fingerprint: String)
    /// The key set last was removed.
    case removed(epoch: UInt32)
}

extension VaultHeader {
    /// What the header says of the recovery key (checked or not: the caller knows).
    var recoveryStatus: RecoveryStatus {
        guard let block = recovery else { return .none }
        guard block.hasKey else { return .removed(epoch: block.epoch) }
        return .active(epoch: block.epoch, fingerprint: RecoveryKey.fingerprint(ofPublicKey: block.publicKey))
    }
}

extension RecoveryStatus {
    /// The epoch of the change that set or removed the key (0: never had one).
    public var epoch: UInt32 {
        switch self {
        case .none: return 0
        case .active(let epoch, _), .removed(let epoch): return epoch
        }
    }
}

extension Vault {
    /// Whether the vault has a recovery key, as its (checked) header says.
    public var recoveryStatus: RecoveryStatus { header.recoveryStatus }

    /// What a header's bytes say of the recovery key, unchecked (no key verified its tag);
    /// nil when they are not a header.
    public static func recoveryStatus(ofHeader bytes: [UInt8]) -> RecoveryStatus? {
        (try? VaultHeader.decode(bytes))?.recoveryStatus
    }

    /// Sets `key` as the recovery key: the next epoch, its public half, every generation's
    /// vault key sealed to it. Refuses a vault that has one unless `replace` (the old key then
    /// stops working). The passphrase is needed because each passphrase slot's associated
    /// data holds the recovery block. Header and index root are written in one change.
    /// Returns the new header for every store, for sync to publish as a passphrase change.
    public func setRecoveryKey(
        publicKeyOf key: RecoveryKey, replace: Bool, passphrase: SecretBytes
    ) throws -> PassphraseChange {
        let publicKey = try key.publicKey
        return try changeRecovery(passphrase: passphrase) { current, ring in
            if current?.hasKey == true, !replace { throw VaultError.recoveryKeyExists }
            let epoch = (current?.epoch ?? 0) + 1
            let slots = try ring.all.map { try RecoveryBlock.seal($0, to: publicKey, vaultID: header.vaultID) }
            let tag = try RecoveryBlock.tag(
                vaultID: header.vaultID, epoch: epoch, publicKey: publicKey, keys: ring.current)
            return RecoveryBlock(epoch: epoch, publicKey: publicKey, tag: tag, slots: slots)
        }
    }

    /// Removes the recovery key: the next epoch with no key and no slots, so the key stops
    /// working and a header holding it, put back, is refused.
    public func removeRecoveryKey(passphrase: SecretBytes) throws -> PassphraseChange {
        try changeRecovery(passphrase: passphrase) { current, _ in
            guard let current, current.hasKey else { throw VaultError.noRecoveryKey }
            return RecoveryBlock(epoch: current.epoch + 1, publicKey: RecoveryBlock.noKey, tag: [], slots: [])
        }
    }

    /// Under the write lock: checks the vault as it stands, lets `make` give the new block,
    /// and writes the header (slots sealed again under the passphrase) with an index root
    /// recording the new epoch and key, in one change.
    func changeRecovery(
        passphrase: SecretBytes, _ make: (RecoveryBlock?, KeyRing) throws -> RecoveryBlock
    ) throws -> PassphraseChange {
        try storeCall {
            try backend.withWriteLock {
                try refreshHeaderUnderLock()
                try sealedIndex.refreshUnderLock()
                guard sealedIndex.state == .ok else { throw VaultError.indexNeedsRepair }
                guard header.slots.count == 1 else { throw VaultError.rotationInterrupted }
                try checkRecovery()
                var next = header
                let kek = try next.deriveKEK(try Passphrase.normalized(passphrase))
                let ring: KeyRing
                do { ring = try next.unwrap(kek: kek) } catch { throw VaultError.wrongPassphrase }
                next.recovery = try make(next.recovery, ring)
                try next.setSlots(ring.all, kek: kek)
                try commitHeaderAndRoot(next)
                return PassphraseChange(
                    vaultID: next.vaultID, vaultKey: ring.current.vaultKey, generation: ring.current.generation,
                    headers: try next.variantsForEveryStore(ring: ring, kek: kek))
            }
        }
    }

    /// Under the write lock, the index read under it: writes `next` as the header and an index
    /// root recording its recovery epoch and key, in one atomic change, so no crash leaves the
    /// two apart.
    func commitHeaderAndRoot(_ next: VaultHeader) throws {
        if sealedIndex.index.version != IndexLayout.version { try sealedIndex.ensureAllPages() }
        var index = sealedIndex.index.migrated()
        index.recovery = next.recoveryBinding
        try sealedIndex.commit(index, with: StoreChange(header: next.encoded()), keys: keyRing.current)
        header = next
    }

    /// The checks made on every open and before anything is sealed to the recovery key: the
    /// tag is made with the newest generation's key, and the epoch and key are those the index
    /// root records (a header of version 1 needs a root that never recorded one). With the
    /// index missing or damaged, the tag alone is checked (the rebuilt root takes the header's).
    func checkRecovery(_ header: VaultHeader? = nil, ring: KeyRing? = nil) throws {
        let (header, ring) = (header ?? self.header, ring ?? keyRing)
        if let block = header.recovery {
            guard let keys = ring[header.currentGeneration], block.tagVerifies(vaultID: header.vaultID, keys: keys)
            else { throw VaultError.recoveryKeyMismatch }
        }
        if sealedIndex.state == .ok, sealedIndex.index.recovery != header.recoveryBinding {
            throw VaultError.recoveryKeyMismatch
        }
    }

    /// Checks a header another machine published before it is taken in: its tag is made with
    /// `keys` (the key it wraps), its epoch is not older than the one this vault records, and
    /// an equal epoch names the same key. An older epoch is a header put back, or a machine's
    /// change made before it took in one made here; an equal epoch naming another key, its tag
    /// made with the vault key, is a race of two recovery changes (one machine removed or
    /// replaced the key while the other did): both `recoveryEpochRolledBack`.
    func checkAdopted(_ adopted: VaultHeader, keys: GenerationKeys) throws {
        if let block = adopted.recovery, !block.tagVerifies(vaultID: header.vaultID, keys: keys) {
            throw VaultError.recoveryKeyMismatch
        }
        let known = sealedIndex.state == .ok ? sealedIndex.index.recovery : header.recoveryBinding
        let found = adopted.recoveryBinding
        guard found.epoch >= known.epoch else {
            throw VaultError.recoveryEpochRolledBack(found: found.epoch, known: known.epoch)
        }
        guard found.epoch > known.epoch || found == known else {
            throw VaultError.recoveryEpochRolledBack(found: found.epoch, known: known.epoch)
        }
    }
}
