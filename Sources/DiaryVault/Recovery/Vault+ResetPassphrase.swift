import DiaryCrypto
import DiaryStore
import Foundation

extension Vault {
    /// Sets a new passphrase with the recovery key, the old one being forgotten: every recovery
    /// slot is opened with the key (its inside must name this vault and its generation), the
    /// tag and the index root's epoch and key are checked, the index is opened with the keys
    /// found (the proof that they are this vault's), and the header is written with a new salt
    /// and slots under `new`, the recovery block unchanged. The vault key stays the same.
    ///
    /// Returns the new header for every store, for sync to publish as a passphrase change.
    public static func resetPassphrase(
        at directory: URL, recoveryKey: RecoveryKey, new: SecretBytes, kdf newKDF: KDFParameters? = nil
    ) throws -> PassphraseChange {
        let newPassphrase = try Passphrase.normalized(new)
        if let newKDF { try newKDF.validate() }
        let backend = try storeCall { try StoreLayout.open(at: directory) }
        return try storeCall {
            try backend.withWriteLock {
                let onDisk = try readHeader(backend)
                let ring = try openRecoverySlots(onDisk, with: recoveryKey)
                // Opening checks the tag and the root's epoch and key (`checkRecovery`).
                let vault = try Vault(backend: backend, header: onDisk, keyRing: ring)
                guard vault.indexState == .ok || vault.entryCount > 0 else {
                    throw VaultError.indexUnavailable("missing")
                }
                var next = onDisk
                next.salt = PassphraseKDF.randomSalt()
                if let newKDF { next.kdf = newKDF }
                let kek = try next.deriveKEK(newPassphrase)
                try next.setSlots(ring.all, kek: kek)
                try backend.apply(StoreChange(header: next.encoded()))
                return PassphraseChange(
                    vaultID: next.vaultID, vaultKey: ring.current.vaultKey, generation: ring.current.generation,
                    headers: try next.variantsForEveryStore(ring: ring, kek: kek))
            }
        }
    }

    /// Opens the vault at `directory` with its recovery key (every generation's key from the
    /// recovery slots; the tag and the index root's epoch and key checked as at every open),
    /// so that a reset is compared with this machine's witness like any other open.
    public static func open(at directory: URL, recoveryKey: RecoveryKey) throws -> Vault {
        let backend = try storeCall { try StoreLayout.open(at: directory) }
        let header = try readHeader(backend)
        return try Vault(backend: backend, header: header, keyRing: try openRecoverySlots(header, with: recoveryKey))
    }

    /// True when `recoveryKey` is the one the vault at `directory` names (its public half
    /// against the header's; nothing is opened). Throws `noRecoveryKey` when there is none.
    public static func recoveryKeyMatches(at directory: URL, _ recoveryKey: RecoveryKey) throws -> Bool {
        let backend = try storeCall { try StoreLayout.open(at: directory) }
        let header = try readHeader(backend)
        guard let block = header.recovery, block.hasKey else { throw VaultError.noRecoveryKey }
        return constantTimeEquals(try recoveryKey.publicKey, block.publicKey)
    }

    /// The keys of every generation the header holds, from its recovery slots.
    private static func openRecoverySlots(_ header: VaultHeader, with recoveryKey: RecoveryKey) throws -> KeyRing {
        guard let block = header.recovery, block.hasKey else { throw VaultError.noRecoveryKey }
        let pair = try recoveryKey.keyPair()
        guard constantTimeEquals(pair.publicKey, block.publicKey) else { throw VaultError.wrongRecoveryKey }
        return KeyRing(try block.slots.map { try block.open($0, with: pair, vaultID: header.vaultID) })
    }
}
