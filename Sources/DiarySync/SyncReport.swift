import DiaryVault
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
    /// Attachment objects this machine uploaded to the remote, and fetched from it into the
    /// local store.
    public var attachmentsUploaded = 0
    public var attachmentsFetched = 0
    /// Objects that entries here reference and the local store does not hold yet: not on the
    /// remote yet (a synced folder still delivering), deferred (`fetchesAttachments` off), or
    /// only in copies that were refused. Every sync that fetches tries them again.
    public var attachmentsPending = 0
    /// Copies on the remote that were not taken: not the object their record names.
    public var attachmentsRefused: [RefusedAttachment] = []
    /// Objects not uploaded because the copy in the local store is not the object its record
    /// names (damage here, which a verify of the vault names).
    public var attachmentsDamagedHere: [UUID] = []
    /// What was taken in from a folder remote's capture inbox, and what was set aside there.
    public var inbox = InboxIntake()
}

/// A copy of an attachment object on the remote that was not taken into the local store.
public struct RefusedAttachment: Equatable, Sendable {
    public var object: UUID
    /// The copy's path, relative to the remote tree.
    public var path: String
    /// How it differs from what its record names (its length, or its hash).
    public var reason: AttachmentDamage
}

/// What fetching attachment objects from the remote did.
public struct AttachmentFetch: Equatable, Sendable {
    /// Objects now in the local store.
    public var fetched: Set<UUID> = []
    /// Objects still missing: not on the remote (yet), or only in copies refused.
    public var pending: Set<UUID> = []
    public var refused: [RefusedAttachment] = []
}

/// Where a long sync is, for a progress line on a terminal.
public enum SyncProgress: Sendable {
    case reading(records: Int)
    case applying(done: Int, total: Int)
    /// Fetching the attachment objects entries here reference and the local store lacks.
    case fetchingAttachments(count: Int)
    case publishing
}

/// What a sync did with a folder remote's capture inbox (docs/FORMAT.md §12.11).
public struct InboxIntake: Equatable, Sendable {
    /// Entries taken in, by the name of the device that captured them.
    public var takenIn: [String: Int] = [:]
    /// Items moved into `inbox/rejected/` by this sync (each is reported this once).
    public var movedAside: [MovedAsideItem] = []
    /// Items of devices this vault does not know (yet: a device enrolled on a machine whose
    /// record has not arrived), left in the inbox for a later sync; their paths.
    public var waiting: [String] = []
    /// Items moved aside or taken in whose file could not then be moved or removed: the next
    /// sync tries again. Their paths.
    public var leftInPlace: [String] = []

    public init() {}

    /// Nothing taken in, set aside, waiting or left.
    public var isEmpty: Bool { self == InboxIntake() }
}

/// An item of the remote's inbox that was not taken in, and where it is now.
public struct MovedAsideItem: Equatable, Sendable {
    /// Why: `.replay`, `.revoked`, `.otherVault` or `.damaged`.
    public var outcome: CaptureOutcome
    /// Where it was moved, relative to the remote.
    public var path: String
}
