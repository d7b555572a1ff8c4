import DiaryCrypto
import DiaryVault
import Foundation

extension DiarySession {
    /// Runs `use` with a key that opens the backup `file`, in this order: the unlock agent's
    /// vault key when it is the one the backup was made under (same vault id, same key
    /// generation, and the backup's index opens with it), with no question; else the
    /// passphrase, as for a vault (the file, else the asker, asked again after a wrong one).
    ///
    /// Why: a backup is wrapped under the passphrase in force when it was made; after a
    /// `passwd` the current one does not open it, and while the vault is unlocked there is
    /// no reason to ask at all for a backup made under the key the agent holds. `use` throws
    /// `VaultError.wrongKey` for a key it cannot use (another store kind needs the
    /// passphrase); a passphrase that opens nothing ends as `AppError.wrongBackupPassphrase`.
    public func withBackupKey<T>(_ file: URL, _ use: (BackupKey) throws -> T) throws -> T {
        if let info = try? Vault.backupKeyInfo(file), let generation = info.keyGeneration,
            case .key(let key, let held, let vaultID) = agent.fetchKey(vaultID: info.vaultID),
            vaultID == info.vaultID, held == generation
        {
            do {
                return try use(.vaultKey(key, generation: generation))
            } catch VaultError.wrongKey {
                // Not the key it was made under after all: the passphrase decides.
            }
        }
        do {
            return try withCurrentPassphrase(.backup(path: file.path)) { try use(.passphrase($0)) }
        } catch VaultError.wrongPassphrase {
            throw AppError.wrongBackupPassphrase(backup: file.path)
        }
    }

    /// How many attachments `sealed` references but does not hold, when the agent holds its
    /// key; nil when it does not (nothing is asked: a backup needs no key).
    public func absentAttachmentsIfUnlocked(_ sealed: SealedVault) -> Int? {
        guard case .key(let key, let generation, let vaultID) = agent.fetchKey(vaultID: sealed.info.id),
            vaultID == sealed.info.id, let vault = try? sealed.open(vaultKey: key, keyGeneration: generation)
        else { return nil }
        return try? vault.absentAttachmentCount()
    }
}
