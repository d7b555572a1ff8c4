import DiaryCrypto
import Foundation

/// What opens a backup: the passphrase in force when it was made, or the vault key it was made
/// under (the unlock agent's, when the vault has not been rekeyed since).
public enum BackupKey {
    case passphrase(SecretBytes)
    case vaultKey(SecretBytes, generation: UInt32)
}

/// What a backup's header says without any key: whose backup it is, and under which vault key.
public struct BackupKeyInfo: Equatable, Sendable {
    public let vaultID: UUID
    /// The generation of the vault key the backup was made under; nil when its header holds
    /// more than one (made in the middle of a key rotation): only the passphrase opens it then.
    public let keyGeneration: UInt32?
}

extension Vault {
    /// Reads only the backup's header record (the file may be large).
    public static func backupKeyInfo(_ file: URL) throws -> BackupKeyInfo {
        guard let bytes = try BackupReader(file).headerRecord() else {
            throw VaultError.backupDamaged(path: file.path, detail: "no header record")
        }
        let header: VaultHeader
        do { header = try VaultHeader.decode(bytes) } catch {
            throw VaultError.backupDamaged(path: file.path, detail: "header: \(error)")
        }
        return BackupKeyInfo(
            vaultID: header.vaultID, keyGeneration: header.slots.count == 1 ? header.currentGeneration : nil)
    }

    /// The backup's key ring from a vault key: the header must name exactly that generation,
    /// and the backup's sealed index root must open with it (the key's check, as an agent's key
    /// is checked against a vault's index). Anything else is `wrongKey`: the passphrase is
    /// then the way, and with it any damage is reported as damage.
    static func ring(
        of header: VaultHeader, vaultKey: SecretBytes, generation: UInt32, sealedIndex: [UInt8]?
    ) throws -> KeyRing {
        guard header.slots.count == 1, header.currentGeneration == generation, vaultKey.count == 32,
            let sealedIndex
        else { throw VaultError.wrongKey }
        let ring = KeyRing([try GenerationKeys(generation: generation, vaultKey: vaultKey.slice(0..<32))])
        do {
            _ = try Envelope.open(
                sealedIndex, kind: .index, objectID: Envelope.indexObjectID, vaultID: header.vaultID, keyRing: ring)
        } catch {
            throw VaultError.wrongKey
        }
        return ring
    }
}
