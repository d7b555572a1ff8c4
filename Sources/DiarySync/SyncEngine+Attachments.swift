import DiaryVault
import Foundation

/// Attachment objects in a sync (docs/FORMAT.md §12.1, §12.8): uploaded before the record
/// that references them, fetched after the entries that reference them are applied.
///
/// An entry is applied whether or not its objects have arrived (a file-sync tool may deliver
/// the record first; `fetchesAttachments` may be off): its missing objects are **pending**.
/// Which ones are pending is derived, never stored: the objects that index rows reference and
/// the local store lacks. So every sync that fetches tries them again, and an object lost
/// here (a salvaged backup restored) comes back from the remote too.
extension SyncEngine {
    var remoteAttachments: RemoteAttachments {
        RemoteAttachments(tree: tree, vault: vault, me: main.machine, inFolder: git == nil)
    }

    /// Uploads the objects the puts of `batch` reference, before the record that carries them.
    func uploadAttachments(of batch: [Revision], into report: inout SyncReport) throws {
        let records = batch.compactMap(\.content).flatMap(\.attachments)
        guard !records.isEmpty else { return }
        let (uploaded, damaged) = try remoteAttachments.upload(records)
        report.attachmentsUploaded += uploaded
        report.attachmentsDamagedHere += damaged
    }

    /// Uploads again the objects entries here reference, the local store holds whole, and no
    /// machine folder holds at their stored length (a copy removed from the remote): else the
    /// other machines would wait for them forever, as an object is otherwise uploaded only
    /// before the record that names it. Costs a listing of `attachments/` and a pass over the
    /// index rows; an entry is opened only for such an object. A copy there of the right
    /// length but damaged is not found so (docs/FORMAT.md §12.7).
    func uploadMissingCopies(into report: inout SyncReport) throws {
        let onRemote = remoteAttachments.copies()
        let known = Set(report.attachmentsDamagedHere)
        let missing = try vault.heldAttachments { object, length in
            guard !known.contains(object), let expected = AttachmentObject.storedLength(for: length) else {
                return false
            }
            return !(onRemote[object] ?? []).contains { tree.stamp($0)?.size == expected }
        }
        guard !missing.isEmpty else { return }
        let (uploaded, damaged) = try remoteAttachments.upload(missing)
        report.attachmentsUploaded += uploaded
        report.attachmentsDamagedHere += damaged
    }

    /// Fetches the pending objects (unless `fetchesAttachments` is off), and counts those
    /// still pending.
    func fetchPendingAttachments(into report: inout SyncReport) throws {
        let missing = try vault.attachmentsMissingFromStore()
        guard fetchesAttachments, !missing.isEmpty else {
            report.attachmentsPending = missing.count
            return
        }
        progress(.fetchingAttachments(count: missing.count))
        let fetch = try remoteAttachments.fetch(missing)
        report.attachmentsFetched += fetch.fetched.count
        report.attachmentsPending = fetch.pending.count
        report.attachmentsRefused += fetch.refused
    }

    /// Fetches the objects `ids` that entries here reference and the local store lacks, from
    /// the remote as this machine last synced with it (a synced folder as it is now; for git,
    /// the clone as of the last sync: the host is not asked), as a sync does. For `open` or
    /// `extract` of an attachment a sync deferred. Ids stored already, or referenced by no
    /// entry here, are left out of the result.
    public func fetchAttachments(_ ids: Set<UUID>) throws -> AttachmentFetch {
        try setup.lock.withLock(exclusive: true) {
            try remoteAttachments.fetch(try vault.attachmentsMissingFromStore().filter { ids.contains($0.objectID) })
        }
    }
}
