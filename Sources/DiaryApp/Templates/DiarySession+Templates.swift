import DiarySync
import DiaryVault
import Foundation

extension DiarySession {
    /// Deletes a template as `delete` deletes entries: noted first as deleted on purpose when
    /// the vault syncs here, so the next sync publishes the deletion rather than taking it for
    /// a vault gone back in time.
    public func deleteTemplate(_ id: UUID, from vault: Vault) throws {
        try SyncDeletions.deleting([id], vault: vault, stateDirectory: stateDirectory) {
            try vault.deleteTemplate(id)
        }
    }
}
