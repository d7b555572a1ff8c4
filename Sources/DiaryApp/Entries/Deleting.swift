import DiarySync
import DiaryVault
import Foundation

extension DiarySession {
    /// Deletes entries on purpose: the one way a command deletes. A synced vault tells sync
    /// first, so that its next sync deletes them on every machine; an entry gone from the vault
    /// any other way (an older copy put back) is fetched back by sync instead.
    public func delete(_ ids: [UUID], from vault: Vault) throws {
        try SyncDeletions.deleting(ids, vault: vault, stateDirectory: stateDirectory) {
            for id in ids { try vault.delete(id) }
        }
    }

}
