import DiaryCrypto
import DiaryStore
import Foundation

/// A vault whose store is open and whose header was read, but which no key has opened yet.
///
/// Why: a command first needs the vault's id (to find the unlock agent that may hold its key)
/// and only then a key. `Vault.inspect` followed by `Vault.open` opened the store twice; this
/// opens it once and keeps it for the key that comes next. Opening a SQLite store is a
/// connection, its pragmas and a schema check; a files store may replay its journal.
public struct SealedVault {
    let backend: any VaultStore
    /// What the header says without any key.
    public let info: VaultInfo

    /// Opens the store in `directory` and reads its header (like `Vault.inspect(at:)`).
    public init(at directory: URL) throws {
        backend = try storeCall { try StoreLayout.open(at: directory) }
        info = try Vault.readHeader(backend).info
    }

    public var directory: URL { backend.directory }

    /// Opens the vault with its passphrase (like `Vault.open(at:passphrase:)`).
    ///
    /// The header is read again: a passphrase typed at a prompt may come long after `init`,
    /// and another process may have changed the header (`passwd`, `rekey`) in between.
    public func open(passphrase: SecretBytes) throws -> Vault {
        let header = try Vault.readHeader(backend)
        let ring = try Vault.unwrap(header, passphrase: passphrase)
        return try Vault(backend: backend, header: header, keyRing: ring)
    }

    /// Opens the vault with a vault key held by the unlock agent (like
    /// `Vault.open(at:vaultKey:keyGeneration:)`, with the same checks).
    ///
    /// The key is checked by opening the index with it, or, when the index is missing or
    /// damaged, by the entries that opened with it while the index was rebuilt in memory (so
    /// that a damaged vault is reported as such, not as locked). With neither, the vault must
    /// be opened with the passphrase, so a wrong key can never seal new entries.
    /// After a failure the same `SealedVault` can still be opened with the passphrase.
    public func open(vaultKey: SecretBytes, keyGeneration: UInt32) throws -> Vault {
        let header = try Vault.readHeader(backend)
        guard header.slots.count == 1 else { throw VaultError.rotationInterrupted }
        guard header.currentGeneration == keyGeneration, vaultKey.count == 32 else { throw VaultError.wrongKey }
        let ring = KeyRing([try GenerationKeys(generation: keyGeneration, vaultKey: vaultKey.slice(0..<32))])
        let vault = try Vault(backend: backend, header: header, keyRing: ring)
        guard vault.indexState == .ok || vault.entryCount > 0 else {
            throw vault.indexState == .missing && vault.entryCount == 0
                ? VaultError.indexUnavailable("missing")
                : VaultError.wrongKey
        }
        return vault
    }
}
