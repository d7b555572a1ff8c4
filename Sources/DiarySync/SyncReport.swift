import Foundation

/// What one sync did, for the CLI to word.
public struct SyncReport: Equatable, Sendable {
    /// Revisions this machine published.
    public var sent = 0
    /// Entries added, changed and deleted in the local vault from other machines.
    public var added = 0
    public var changed = 0
    public var deleted = 0
    /// Entries in conflict now, and those that became so in this sync.
    public var conflicts: [UUID] = []
    public var newConflicts: [UUID] = []
    /// Records not read yet: a synced folder still delivering, a key not yet known.
    public var pending: [PendingRecord] = []
    /// Things worth a line: conflict copies cleaned up, a passphrase adopted, unknown files.
    public var notes: [SyncNote] = []
    /// This machine published a passphrase change or a key rotation made here.
    public var keyChangePublished = false
    /// The vault key changed here (following another machine's rotation): an unlock session
    /// holds the old one.
    public var keyChanged = false
    /// The machines that have written to the remote, this one included.
    public var machines = 0
}

/// Where a long sync is, for a progress line on a terminal.
public enum SyncProgress: Sendable {
    case reading(records: Int)
    case applying(done: Int, total: Int)
    case publishing
}
