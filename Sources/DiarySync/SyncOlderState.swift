import DiaryStore
import DiaryVault
import Foundation

/// An older state of the local vault accepted here (`reindex --accept-older`, a backup
/// restored in place), told to sync.
///
/// Why: a row whose copy differs from what sync last saw is normally an edit, published as
/// replacing the version it was made from. After an older state was accepted such a row may
/// be an old copy put back: published so, it would silently undo newer edits on every
/// machine. At the next sync such rows are published beside the current version instead (a
/// conflict when their content differs, nothing when it is the same), and the report says so.
public enum SyncOlderState {
    /// The marker's name in the sync state directory. It holds nothing: only its presence
    /// tells, and it is removed by the next sync that saved its state.
    static let markerName = "accepted-older"

    /// Tells sync that the local vault was put back to an older state (a no-op when the vault
    /// does not sync here).
    public static func noteAccepted(vaultID: UUID, vaultDirectory: URL, stateDirectory: URL) throws {
        let setup = SyncSetup(stateDirectory: stateDirectory, vaultID: vaultID, vaultDirectory: vaultDirectory)
        guard try setup.remote() != nil else { return }
        try setup.lock.withLock(exclusive: true) {
            try DurableFile.write([], to: setup.directory.appendingPathComponent(markerName))
        }
    }

    static func isNoted(in directory: URL) -> Bool {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent(markerName).path)
    }

    static func clear(in directory: URL) throws {
        let url = directory.appendingPathComponent(markerName)
        if isNoted(in: directory) { try FileManager.default.removeItem(at: url) }
    }
}
