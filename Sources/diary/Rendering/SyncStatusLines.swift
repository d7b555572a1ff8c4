import DiaryApp
import DiarySync
import Foundation

/// The lines of `sync members` and `sync status` (stdout: data).
enum SyncStatusLines {
    /// A member not heard from for this long is marked stale.
    static let staleDays = 14

    static func members(_ status: SyncStatusReport) -> [String] {
        status.members.map { m in
            var line = "\(Printable.escaped(m.name))\t\(m.fingerprint)"
            if m.isThisMachine { line += "\tthis machine" }
            if m.removed { line += "\tremoved" }
            return line
        }
    }

    static func status(_ status: SyncStatusReport, now: Date) -> [String] {
        var lines = ["remote: \(Printable.escaped(status.remote))"]
        if status.awaitingAdmission { lines.append("this machine waits to be admitted by the member who invited it") }
        if status.removed { lines.append("this machine was removed from the members: it writes nothing more") }
        if status.keyChangeWaiting { lines.append("a key change made here goes out with the next sync") }
        if status.invitesOutstanding > 0 { lines.append("invites not used yet: \(status.invitesOutstanding)") }
        if status.attachmentsPending > 0 {
            lines.append("attachments pending: \(status.attachmentsPending) (the next sync fetches them)")
        }
        for m in status.members {
            var fields = [Printable.escaped(m.name), m.fingerprint]
            if m.isThisMachine {
                fields.append("this machine")
            } else {
                fields.append("\(m.recordsRead) record(s) read")
                fields.append("written " + (m.lastWritten.map(DateOutput.iso) ?? "never"))
                fields.append("heard " + (m.lastHeard.map(DateOutput.iso) ?? "never"))
                if isStale(m, now: now) { fields.append("stale") }
            }
            if m.removed { fields.append("removed") }
            lines.append(fields.joined(separator: "\t"))
        }
        return lines
    }

    /// Another current member this machine last heard from over `staleDays` ago (one never
    /// heard from has written nothing yet: not stale).
    static func isStale(_ m: SyncMemberInfo, now: Date) -> Bool {
        guard !m.isThisMachine, !m.removed, let last = m.lastHeard else { return false }
        return now.timeIntervalSince(last) > Double(staleDays) * 86_400
    }
}
