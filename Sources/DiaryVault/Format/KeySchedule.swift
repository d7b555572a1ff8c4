import DiaryCrypto
import DiaryStore
import Foundation

/// The keys of one vault-key generation: the vault key and the subkeys derived from it.
///
/// Entries and the index get separate subkeys (`crypto_kdf_derive_from_key`, see
/// docs/FORMAT.md §4), so a sealed index can never be opened as an entry or the reverse, even
/// before their associated data is compared.
package struct GenerationKeys {
    static let entryContext = try! SubkeyContext("diaryent")
    static let indexContext = try! SubkeyContext("diaryidx")
    static let dedupContext = try! SubkeyContext("diarydup")

    package let generation: UInt32
    let vaultKey: SecretBytes
    let entryKey: SecretBytes
    let indexKey: SecretBytes
    /// `DK_g` (docs/FORMAT.md §4, §7.6): keys the hash by which an identical file already stored
    /// is found, so the hash tells nothing to whoever lacks the vault key.
    package let dedupKey: SecretBytes

    package init(generation: UInt32, vaultKey: SecretBytes) throws {
        self.generation = generation
        self.vaultKey = vaultKey
        entryKey = try vaultKey.deriveSubkey(id: 1, context: Self.entryContext)
        indexKey = try vaultKey.deriveSubkey(id: 1, context: Self.indexContext)
        dedupKey = try vaultKey.deriveSubkey(id: 1, context: Self.dedupContext)
    }

    package func key(for kind: ObjectKind) -> SecretBytes {
        switch kind {
        case .entry: return entryKey
        case .index, .indexPage, .indexDirectory: return indexKey
        }
    }
}

/// Every unwrapped generation of a vault: one normally, two during a key rotation.
package struct KeyRing {
    let byGeneration: [UInt32: GenerationKeys]
    /// The one generation's subkeys when there is one (nearly always), found without hashing:
    /// a search looks a key up for every entry it opens. Unmanaged, so that lending one never
    /// retains it (see `withKey`); `byGeneration`, a constant as long-lived as the ring, holds
    /// them.
    private let only: (generation: UInt32, entry: Unmanaged<SecretBytes>, index: Unmanaged<SecretBytes>)?

    package init(_ keys: [GenerationKeys]) {
        byGeneration = Dictionary(uniqueKeysWithValues: keys.map { ($0.generation, $0) })
        only =
            byGeneration.count == 1
            ? keys.first.map {
                ($0.generation, Unmanaged.passUnretained($0.entryKey), Unmanaged.passUnretained($0.indexKey))
            }
            : nil
    }

    /// Lends `body` the key that opens objects of `kind` sealed under `generation`
    /// (`self[generation]?.key(for: kind)`), or throws when the ring lacks that generation.
    ///
    /// Why lent, and not retained: a search's workers open entries on every core with the same
    /// key, and each retain and release of it passed the key's reference count from core to
    /// core, for every entry. (`_withUnsafeGuaranteedRef` is the standard library's way to use
    /// an unmanaged reference without retaining it; `LentObjects` does the same for a search's
    /// pages and workers.)
    @inline(__always)
    func withKey<R>(for kind: ObjectKind, generation: UInt32, _ body: (SecretBytes) throws -> R) throws -> R {
        if let only, only.generation == generation {
            return try (kind == .entry ? only.entry : only.index)._withUnsafeGuaranteedRef(body)
        }
        guard let keys = byGeneration[generation] else {
            throw FormatError.invalidField("key generation \(generation)")
        }
        return try body(keys.key(for: kind))
    }

    /// The newest generation: every new seal uses it.
    package var current: GenerationKeys { byGeneration[byGeneration.keys.max()!]! }

    package subscript(generation: UInt32) -> GenerationKeys? { byGeneration[generation] }
}

extension VaultHeader {
    /// A new header with one fresh random vault key (generation 1) wrapped under `passphrase`.
    static func create(
        store: StoreKind, kdf: KDFParameters, passphrase: SecretBytes
    ) throws -> (VaultHeader, GenerationKeys) {
        let vaultKey = try SecretBytes(randomCount: 32)
        var header = VaultHeader(
            vaultID: SecureRandom.uuid(), store: store, kdf: kdf,
            salt: PassphraseKDF.randomSalt(), slots: [])
        let kek = try PassphraseKDF.deriveKey(passphrase: passphrase, salt: header.salt, parameters: kdf)
        let keys = try GenerationKeys(generation: 1, vaultKey: vaultKey)
        try header.setSlots([keys], kek: kek)
        return (header, keys)
    }

    /// Derives the key-encryption key for this header's salt and parameters.
    func deriveKEK(_ passphrase: SecretBytes) throws -> SecretBytes {
        try PassphraseKDF.deriveKey(passphrase: passphrase, salt: salt, parameters: kdf)
    }

    /// Opens every slot with `kek`. A failure means the passphrase is wrong (the checksum
    /// already ruled out accidental damage) or someone forged the header.
    func unwrap(kek: SecretBytes) throws -> KeyRing {
        let prefix = authenticatedPrefix
        var keys: [GenerationKeys] = []
        for slot in slots {
            var raw = try XChaCha20Poly1305.open(
                slot.sealedKey, key: kek, nonce: slot.nonce,
                associatedData: Self.slotAssociatedData(prefix: prefix, generation: slot.generation))
            keys.append(try GenerationKeys(generation: slot.generation, vaultKey: SecretBytes(consuming: &raw)))
        }
        return KeyRing(keys)
    }

    /// Replaces the slots with `keys`, each sealed under `kek` with a fresh nonce. A recovery
    /// block is made to fit the same generations first (`RecoveryBlock.fit`): the passphrase
    /// slots' associated data holds its tag.
    /// `taggedUnder`: the generation whose key made the block's tag (the header's newest unless
    /// the block was just taken from another header).
    mutating func setSlots(_ keys: [GenerationKeys], kek: SecretBytes, taggedUnder: UInt32? = nil) throws {
        let sorted = keys.sorted { $0.generation < $1.generation }
        if var block = recovery {
            try block.fit(sorted, vaultID: vaultID, taggedUnder: taggedUnder ?? currentGeneration)
            recovery = block
        }
        let prefix = authenticatedPrefix
        slots = try sorted.map { k in
            let box = try XChaCha20Poly1305.seal(
                secret: k.vaultKey, key: kek,
                associatedData: Self.slotAssociatedData(prefix: prefix, generation: k.generation))
            return KeySlot(generation: k.generation, nonce: box.nonce, sealedKey: box.ciphertext)
        }
    }
}
