import DiaryVault
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A captured item that was refused and moved aside: why, and where it went.
public struct CaptureRejection: Equatable, Sendable {
    /// Why (never `.added`).
    public let outcome: CaptureOutcome
    /// Where the item is now, relative to the directory the inbox is in (`inbox/rejected/…`).
    public let path: String

    public init(outcome: CaptureOutcome, path: String) {
        self.outcome = outcome
        self.path = path
    }
}

/// Takes a capture inbox in (docs/FORMAT.md §13.3): every item in `inbox/` becomes an entry of
/// the vault (`Vault.takeIn`), then its file is removed; an item that is refused is moved into
/// `inbox/rejected/`, said once, and not looked at again.
///
/// Why remove only after the commit: a crash between the two leaves an item whose counter the
/// vault holds, so the next run moves it aside as a replay and stores nothing twice.
public enum CaptureInbox {
    /// Items read per `takeIn` call, by bytes: memory stays flat however full the inbox is.
    static let batchBytes = 32 << 20

    /// Takes in `<directory>/inbox/`. Cheap when there is no inbox: one failed `opendir`.
    /// Never throws: what cannot be taken in now waits, and is said (`captureInboxWaiting`).
    public static func takeIn(_ directory: URL, into vault: Vault, events: AppEventSink) {
        let inbox = directory.appendingPathComponent(CaptureItem.inboxDirectoryName).path
        do {
            guard let names = try CaptureFiles.names(in: inbox) else { return }
            // One command takes an inbox in at a time; another finds it busy and leaves it (it
            // would otherwise see the first one's items as replays before they are removed).
            let lock = open(inbox, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard lock >= 0 else { return }
            defer { close(lock) }
            guard flock(lock, LOCK_EX | LOCK_NB) == 0 else { return }
            var batch: [(name: String, bytes: [UInt8])] = []
            var size = 0
            for name in names where CaptureItem.isFileName(name) {
                switch try CaptureFiles.read(inbox + "/" + name, limit: CaptureItem.maximumBytes) {
                case .gone: continue
                case .tooLarge:
                    try moveAside(name, inbox, .damaged(device: nil, reason: "larger than any item"), events)
                case .notAFile: try moveAside(name, inbox, .damaged(device: nil, reason: "not a regular file"), events)
                case .bytes(let bytes):
                    batch.append((name, bytes))
                    size += bytes.count
                    if size >= batchBytes {
                        try take(batch, inbox, vault, events)
                        (batch, size) = ([], 0)
                    }
                }
            }
            if !batch.isEmpty { try take(batch, inbox, vault, events) }
        } catch {
            events(.captureInboxWaiting(reason: "\(error)"))
        }
    }

    private static func take(
        _ batch: [(name: String, bytes: [UInt8])], _ inbox: String, _ vault: Vault, _ events: AppEventSink
    ) throws {
        let outcomes = try vault.takeIn(items: batch.map(\.bytes))
        var added: [String: Int] = [:]
        var order: [String] = []
        for ((name, _), outcome) in zip(batch, outcomes) {
            if case .added(_, let device, _) = outcome {
                if added[device] == nil { order.append(device) }
                added[device, default: 0] += 1
                // The entry is stored: a failed unlink leaves a replay, moved aside next time.
                unlink(inbox + "/" + name)
            } else {
                try moveAside(name, inbox, outcome, events)
            }
        }
        if !added.isEmpty { try CaptureFiles.syncDirectory(inbox) }
        for device in order { events(.capturesTakenIn(device: device, count: added[device]!)) }
    }

    /// Renames `name` into `inbox/rejected/` (made 0700 when missing) and says so.
    private static func moveAside(_ name: String, _ inbox: String, _ outcome: CaptureOutcome, _ events: AppEventSink)
        throws
    {
        let rejected = inbox + "/" + CaptureItem.rejectedDirectoryName
        try CaptureFiles.makeDirectory(rejected)
        guard rename(inbox + "/" + name, rejected + "/" + name) == 0 else {
            if errno == ENOENT { return }  // taken by another command meanwhile
            throw CaptureAppError.io(path: inbox + "/" + name, detail: String(cString: strerror(errno)))
        }
        try CaptureFiles.syncDirectory(rejected)
        try CaptureFiles.syncDirectory(inbox)
        let path = CaptureItem.inboxDirectoryName + "/" + CaptureItem.rejectedDirectoryName + "/" + name
        events(.captureMovedAside(CaptureRejection(outcome: outcome, path: path)))
    }
}
