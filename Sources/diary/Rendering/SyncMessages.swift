import DiaryApp
import DiarySync
import DiaryVault
import Foundation

/// What a sync prints: on stderr, one line per kind of change, then anything worth a note,
/// anything pending, and conflicts.
enum SyncMessages {
    static func print(_ report: SyncReport) {
        let moved = movedSummary(report)
        if !moved.isEmpty {
            Output.note(moved.joined(separator: ", "))
        } else if report.notes.isEmpty, report.inbox.isEmpty {
            Output.note("up to date")
        }
        for note in report.notes { Output.note(Printable.escaped(SyncFindingText.note(note))) }
        inboxLines(report.inbox)
        for record in report.pending { Output.note("pending: \(Printable.escaped(SyncFindingText.pending(record)))") }
        attachmentLines(report)
        for id in report.newConflicts {
            Output.warning("entry \(EntryFormat.shortID(id)) was changed on two machines: a conflict")
        }
        if !report.conflicts.isEmpty {
            Output.hint(
                "\(report.conflicts.count) conflict(s): `diary conflicts` shows them, `diary resolve ID --keep mine|theirs|both` ends one"
            )
        }
    }

    /// What moved, one phrase per kind of change.
    private static func movedSummary(_ report: SyncReport) -> [String] {
        var moved: [String] = []
        if report.sent > 0 { moved.append("sent \(report.sent) change(s)") }
        if report.keyChangePublished { moved.append("published the new passphrase or key") }
        if report.added > 0 { moved.append("added \(report.added)") }
        if report.changed > 0 { moved.append("changed \(report.changed)") }
        if report.deleted > 0 { moved.append("deleted \(report.deleted)") }
        if report.keyChanged { moved.append("took in the new vault key") }
        if report.attachmentsUploaded > 0 { moved.append("uploaded \(report.attachmentsUploaded) attachment(s)") }
        if report.attachmentsFetched > 0 { moved.append("fetched \(report.attachmentsFetched) attachment(s)") }
        return moved
    }

    /// What the remote's capture inbox gave: entries taken in per device, items set aside (each
    /// said once, at the move), items that wait for their device's record.
    private static func inboxLines(_ inbox: InboxIntake) {
        for (device, count) in inbox.takenIn.sorted(by: { $0.key < $1.key }) {
            CaptureWords.say(.capturesTakenIn(device: device, count: count))
        }
        for moved in inbox.movedAside {
            Output.warning(
                "moved aside \(Printable.escaped(CaptureWords.describe(moved.outcome))) on the remote: "
                    + Printable.escaped(moved.path))
        }
        if !inbox.waiting.isEmpty {
            Output.note(
                "\(inbox.waiting.count) captured item(s) in the remote's inbox are from a device this vault does not "
                    + "know yet; a later sync takes them in once its enrolment arrives (or move them out of "
                    + "the remote's inbox/)")
        }
        for path in inbox.leftInPlace {
            Output.warning(
                "could not move or remove \(Printable.escaped(path)) on the remote; the next sync tries again")
        }
    }

    /// Why a copy of an attachment on the remote was refused.
    static func words(_ reason: AttachmentDamage) -> String {
        switch reason {
        case .wrongLength(let expected, let actual): return "it is \(actual) bytes, not \(expected)"
        default: return "its bytes are not the ones its entry names"
        }
    }

    /// Attachments not here yet, and copies refused (on the remote) or not uploaded (here).
    private static func attachmentLines(_ report: SyncReport) {
        for refused in report.attachmentsRefused {
            Output.warning(
                "attachment copy \(Printable.escaped(refused.path)) on the remote refused: \(words(refused.reason))")
        }
        for object in report.attachmentsDamagedHere {
            Output.warning(
                "attachment object \(object.uuidString.lowercased()) is damaged here and was not uploaded: run `diary verify`"
            )
        }
        if report.attachmentsPending > 0 {
            Output.note(
                "\(report.attachmentsPending) attachment(s) pending: not fetched yet (the next sync tries again)")
        }
    }
}

/// The progress of a long sync, on stderr when it is a terminal.
final class SyncProgressLine {
    private let applying = Progress("applying")

    func update(_ step: SyncProgress) {
        if case .applying(let done, let total) = step, total >= 100 { applying.update(done, total) }
    }

    func finish() { applying.finish() }
}
