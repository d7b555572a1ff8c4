import DiarySync
import DiaryVault
import Foundation

extension DiarySession {
    /// True when `vault` syncs on this machine: an attachment object it references but does
    /// not hold is then pending (`diary sync` fetches it), not damage.
    public func syncs(_ vault: Vault) -> Bool {
        SyncLifecycle.syncs(vaultID: vault.id, vaultDirectory: vault.directory, stateDirectory: stateDirectory)
    }
}
