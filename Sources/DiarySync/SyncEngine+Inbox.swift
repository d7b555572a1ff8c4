import DiaryVault
import Foundation

/// The capture inboxes at a sync (docs/FORMAT.md §12.11): the items are taken in once the
/// remote was read and shown here, so that a device record or a revocation another machine
/// published is in force before any item of that device is looked at; the entries and the
/// device records they change are then published by this very sync, and the remote's items
/// removed only once that record is written.
extension SyncEngine {
    /// How many bytes of items one `Vault.takeIn` is given at most (items are read in full
    /// before they are opened).
    static let inboxBatchBytes = 32 << 20

    /// Takes in the remote's inbox and the vault directory's (`takeInVaultInbox`), then
    /// publishes what they changed here and shows it, as the first part of the sync did for the
    /// local changes; `published` turns false when something is left unpublished. Returns the
    /// remote's items to remove once the sync is saved.
    func takeInInboxes(published: inout Bool, into report: inout SyncReport) throws -> [RemoteInbox.Item] {
        let before = try vault.indexPageTags
        let taken = try takeInRemoteInbox(into: &report)
        try takeInVaultInbox()
        guard try vault.indexPageTags != before else { return taken }
        let touched = try publishOwn(try diff.localChanges(main: main, ring: ring), into: &report)
        published = published && main.pendingRevisions.isEmpty
        try diff.apply(touched, main: &main, report: &report, progress: progress)
        return taken
    }

    /// Takes in the items of the remote's `inbox/` (a folder remote, on a member, when the
    /// marker names this vault). Items refused are moved into `inbox/rejected/` now; items of
    /// devices this vault does not know are left. Returns the items to remove once this sync
    /// has published what they brought: those taken in now, and those taken in before whose
    /// entry is here (a copy another machine had not removed yet, or one a sync that could
    /// not publish left).
    func takeInRemoteInbox(into report: inout SyncReport) throws -> [RemoteInbox.Item] {
        guard git == nil, main.isMember, (try? tree.marker()) == .vault(vault.id) else { return [] }
        let inbox = RemoteInbox(tree: tree)
        let listing = inbox.list()
        report.notes += listing.unexpected.map { .unexpectedFile(path: $0) }
        var taken: [RemoteInbox.Item] = []
        var batch: [(RemoteInbox.Item, [UInt8])] = []
        var size = 0
        for item in listing.items {
            // Its name gives its device: an unknown device's item waits unread (§12.11 step 2).
            if (try? vault.knowsCaptureDevice(item.device)) == false {
                report.inbox.waiting.append(item.path)
                continue
            }
            guard let bytes = read(item, from: inbox, into: &report.inbox) else { continue }
            batch.append((item, bytes))
            size += bytes.count
            if size >= Self.inboxBatchBytes {
                taken += try takeIn(batch, inbox: inbox, into: &report.inbox)
                (batch, size) = ([], 0)
            }
        }
        taken += try takeIn(batch, inbox: inbox, into: &report.inbox)
        return taken
    }

    /// Removes the items taken in, once their entries are in a record on the remote: nothing
    /// this sync was to publish is left waiting (else they stay, and a later sync finds them
    /// taken in and removes them then).
    func removeTakenIn(_ items: [RemoteInbox.Item], published: Bool, into report: inout SyncReport) {
        guard published else { return }
        let inbox = RemoteInbox(tree: tree)
        for item in items where !inbox.remove(item) { report.inbox.leftInPlace.append(item.path) }
    }

    /// `revisions` without the captured entries taken in here, as taken in (never edited), that
    /// another machine published first (its record read by now): their ids and first contents
    /// are the same on every machine, so the copy made here adds nothing, and published beside
    /// the other machine's history (an edit, a deletion made since) it would stand against it
    /// as a conflict. The local vault then shows what that history says (`LocalDiff.apply`).
    func withoutCapturesPublishedElsewhere(_ revisions: [Revision]) throws -> [Revision] {
        try revisions.filter { revision in
            guard revision.parents.isEmpty, let content = revision.content, let source = content.source,
                source.hasPrefix(Vault.captureSource(device: "")), content.created == content.modified,
                diff.wasChangedHere(revision.entry)
            else { return true }
            return try store.entry(revision.entry)?.heads.isEmpty ?? true
        }
    }

    /// An item's bytes, or nil when it is not to be taken in now: gone, larger than any item
    /// (moved aside unread), or named as another item than its header says (moved aside).
    private func read(_ item: RemoteInbox.Item, from inbox: RemoteInbox, into intake: inout InboxIntake) -> [UInt8]? {
        guard let stamp = tree.stamp(item.path) else { return nil }
        guard stamp.size <= UInt64(CaptureItem.maximumBytes) else {
            moveAside(item, .damaged(device: nil, reason: "larger than any item"), inbox: inbox, into: &intake)
            return nil
        }
        guard let bytes = inbox.read(item, limit: CaptureItem.maximumBytes) else { return nil }
        // The vault directory's rule (`CaptureItem.misnamed`): the same items refused, for the same reason.
        if let refusal = CaptureItem.misnamed(bytes, fileName: item.name) {
            moveAside(item, refusal, inbox: inbox, into: &intake)
            return nil
        }
        return bytes
    }

    /// Takes one batch in and sorts out its items. Returns those to remove after publishing.
    private func takeIn(
        _ batch: [(RemoteInbox.Item, [UInt8])], inbox: RemoteInbox, into intake: inout InboxIntake
    ) throws -> [RemoteInbox.Item] {
        guard !batch.isEmpty else { return [] }
        let outcomes = try vault.takeIn(items: batch.map(\.1))
        var taken: [RemoteInbox.Item] = []
        for ((item, bytes), outcome) in zip(batch, outcomes) {
            switch outcome {
            case .added(_, let device, _):
                intake.takenIn[device, default: 0] += 1
                taken.append(item)
            case .replay where try vault.holdsCapturedEntry(of: bytes):
                taken.append(item)
            case .unknownDevice:
                intake.waiting.append(item.path)
            default:
                moveAside(item, outcome, inbox: inbox, into: &intake)
            }
        }
        return taken
    }

    private func moveAside(
        _ item: RemoteInbox.Item, _ outcome: CaptureOutcome, inbox: RemoteInbox, into intake: inout InboxIntake
    ) {
        if let path = inbox.moveAside(item) {
            intake.movedAside.append(MovedAsideItem(outcome: outcome, path: path))
        } else {
            intake.leftInPlace.append(item.path)
        }
    }
}
