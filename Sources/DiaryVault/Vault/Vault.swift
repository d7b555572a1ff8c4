import DiaryCrypto
import DiaryStore
import Foundation

/// How the sealed index looked when the vault was opened.
public enum IndexState: Sendable, Equatable {
    /// Present and authentic.
    case ok
    /// Absent: listing works from an index rebuilt in memory; `reindex()` writes it back.
    case missing
    /// Present but it failed to open: treated like `missing`.
    case damaged
}

/// What can be read from a vault's header without any key.
public struct VaultInfo: Sendable, Equatable {
    public let id: UUID
    public let formatVersion: Int
    public let store: StoreKind
    public let kdf: KDFParameters
    /// Two generations while a key rotation is unfinished.
    public let keyGenerations: [UInt32]
    /// Whether the header names a recovery key, unchecked (no key has verified its tag yet):
    /// enough to refuse a second key before asking for the passphrase.
    public let recovery: RecoveryStatus
}

/// An open, unlocked vault: sealed entries, the sealed index, and the keys to both.
///
/// Every write runs under the store's cross-process lock and re-reads the index inside it, so
/// two `diary` processes writing at once both keep their entries.
public final class Vault {
    /// The largest entry text accepted, in UTF-8 bytes (documented in docs/FORMAT.md and the
    /// bad-input table in docs/GUIDE.md).
    public static let maximumTextBytes = 8 << 20
    /// Entries may carry at most this many tags (the format stores the count in one byte).
    public static let maximumTags = 255

    let backend: any VaultStore
    var header: VaultHeader {
        didSet { sealedIndex.headerRecovery = header.recoveryBinding }
    }
    var keyRing: KeyRing {
        didSet { sealedIndex.keyRing = keyRing }
    }
    /// The sealed index: its only reader and writer.
    let sealedIndex: SealedIndex

    init(backend: any VaultStore, header: VaultHeader, keyRing: KeyRing) throws {
        self.backend = backend
        self.header = header
        self.keyRing = keyRing
        sealedIndex = try SealedIndex(
            backend: backend, vaultID: header.vaultID, keyRing: keyRing, headerRecovery: header.recoveryBinding)
        try checkRecovery()
    }

    public var id: UUID { header.vaultID }
    public var store: StoreKind { header.store }
    public var directory: URL { backend.directory }
    /// The newest generation's vault key, to hand to the unlock agent.
    public var vaultKey: SecretBytes { keyRing.current.vaultKey }
    public var keyGeneration: UInt32 { keyRing.current.generation }
    public var kdf: KDFParameters { header.kdf }
    /// True while the header holds two key generations: `rotateKey` should be run again.
    public var rotationInterrupted: Bool { header.slots.count > 1 }
    /// How the index looked when last read.
    public var indexState: IndexState { sealedIndex.state }
    /// The index's write counter as last read or written.
    public var indexGeneration: UInt64 { sealedIndex.index.generation }
    /// The number of entries, as the index records it.
    public var entryCount: Int { sealedIndex.count }

    // MARK: Creating and opening

    /// Reads the header of the vault at `directory` without any key.
    public static func inspect(at directory: URL) throws -> VaultInfo {
        let backend = try storeCall { try StoreLayout.open(at: directory) }
        return try readHeader(backend).info
    }

    /// Creates a new vault in `directory` (missing or empty) with a random vault key wrapped
    /// under `passphrase`.
    public static func create(
        at directory: URL, store: StoreKind = .sqlite, passphrase: SecretBytes, kdf: KDFParameters = .moderate
    ) throws -> Vault {
        let normalized = try Passphrase.normalized(passphrase)
        try kdf.validate()
        let (header, keys) = try VaultHeader.create(store: store, kdf: kdf, passphrase: normalized)
        let ring = KeyRing([keys])
        var initial = StoreChange(header: header.encoded())
        var empty = PagedIndex(generation: 1)
        try SealedIndex.seal(&empty, into: &initial, vaultID: header.vaultID, keys: keys)
        let backend = try storeCall { try StoreLayout.create(store, at: directory, initial: initial) }
        return try Vault(backend: backend, header: header, keyRing: ring)
    }

    /// Opens the vault at `directory` with its passphrase.
    public static func open(at directory: URL, passphrase: SecretBytes) throws -> Vault {
        try SealedVault(at: directory).open(passphrase: passphrase)
    }

    /// Opens the vault with a vault key held by the unlock agent (see `SealedVault.open`).
    public static func open(at directory: URL, vaultKey: SecretBytes, keyGeneration: UInt32) throws -> Vault {
        try SealedVault(at: directory).open(vaultKey: vaultKey, keyGeneration: keyGeneration)
    }

    static func readHeader(_ backend: any VaultStore) throws -> VaultHeader {
        let bytes = try storeCall { try backend.readHeader() }
        let header: VaultHeader
        do {
            header = try VaultHeader.decode(bytes)
        } catch .notAHeader {
            throw VaultError.notAVault(path: backend.directory.path)
        } catch .unsupportedVersion(let v) {
            throw VaultError.unsupportedVersion(found: v, supported: Int(VaultHeader.currentVersion))
        } catch .damaged(let detail) {
            throw VaultError.headerDamaged(detail)
        }
        guard header.store == backend.kind else { throw VaultError.headerDamaged("store kind mismatch") }
        // Refuse out-of-bounds KDF costs before anything is derived (docs/FORMAT.md §9).
        do { try header.kdf.validate() } catch { throw VaultError.headerDamaged("\(error)") }
        return header
    }

    static func unwrap(_ header: VaultHeader, passphrase: SecretBytes) throws -> KeyRing {
        let kek = try header.deriveKEK(try Passphrase.normalized(passphrase))
        do {
            return try header.unwrap(kek: kek)
        } catch CryptoError.authenticationFailed {
            // The checksum matched, so the header is intact: the passphrase is wrong.
            throw VaultError.wrongPassphrase
        }
    }
}

extension VaultHeader {
    /// What this header says without any key.
    var info: VaultInfo {
        VaultInfo(
            id: vaultID, formatVersion: Int(version), store: store, kdf: kdf,
            keyGenerations: slots.map(\.generation), recovery: recoveryStatus)
    }
}
