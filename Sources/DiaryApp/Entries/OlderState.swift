import DiarySync
import DiaryVault
import Foundation

extension DiarySession {
    /// The user accepts the vault as it is although it is older than a copy this machine saw
    /// (`reindex --accept-older`). A synced vault tells sync first, so that its next sync
    /// publishes the older copies beside the newer versions rather than over them (and fetches
    /// back what the older state lacks, as every sync does).
    public func acceptOlderState(of vault: Vault) throws {
        try SyncOlderState.noteAccepted(
            vaultID: vault.id, vaultDirectory: vault.directory, stateDirectory: stateDirectory)
    }

    /// A vault this session restored from a backup: this machine's record of its path starts
    /// afresh from it (`EntrySetGuard.restored`), and when it was restored where a vault of the
    /// same id syncs, sync is told that an older state was put back. Told whether or not this
    /// machine's record saw a newer copy: without the record (another machine, a record lost)
    /// a backup is still older.
    public func restored(_ vault: Vault) throws {
        entrySet.restored(vault)
        try acceptOlderState(of: vault)
    }
}
