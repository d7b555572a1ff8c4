import DiarySync
import DiaryVault
import Foundation

/// An attachment whose object a sync has not fetched yet (pending: docs/FORMAT.md §12.7, after
/// `sync --no-attachments` or while a synced folder still delivers it) is fetched from the
/// remote before `open` or `extract` reads it.
public enum PendingAttachment {
    /// Fetches `record`'s object into the local store when the store lacks it (or holds it cut
    /// short: a fetch was killed) and `vault` syncs on this machine, from the remote as the
    /// last sync left it (`SyncEngine.fetchAttachments`). Returns what the fetch did, or nil when there was nothing to do
    /// (the object is stored whole, or the vault does not sync here).
    @discardableResult
    public static func fetchIfNeeded(_ record: AttachmentRecord, of vault: Vault, stateDirectory: URL) throws
        -> AttachmentFetch?
    {
        guard try !vault.holdsWholeAttachment(record),
            try SyncLifecycle.remote(vaultID: vault.id, vaultDirectory: vault.directory, stateDirectory: stateDirectory)
                != nil
        else { return nil }
        return try SyncEngine(vault: vault, stateDirectory: stateDirectory).fetchAttachments([record.objectID])
    }
}
