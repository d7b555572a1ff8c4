import Foundation

/// What `Vault.sweepUnreferencedAttachments` did: how many objects it removed, or, when the
/// store holds entries the index lacks (they do not open), those entries, and nothing removed.
public struct AttachmentSweep: Sendable, Equatable {
    public let removed: Int
    /// Entries that do not open: they may reference any object, so every object was kept.
    public let unopened: [UUID]
}
