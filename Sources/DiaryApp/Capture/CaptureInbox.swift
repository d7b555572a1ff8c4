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
/// vault holds and whose entry it holds unchanged, so the next run removes it without a word,
/// as sync does a remote's (§12.11); any other item of a taken number (its entry gone or
/// edited, or other text under that number from a copied key) is a replay, moved aside and said.
public enum CaptureInbox {
    /// At most this many items, or `batchBytes` of them, per `takeIn` change: memory stays
    /// flat however full the inbox is (an item costs what it weighs, read from `fstat`).
    static let batchItems = 64
    static let batchBytes = 64 << 20

    /// Takes in `<directory>/inbox/`. Cheap when there is no inbox: one failed `opendir`.
    /// Never throws: what cannot be taken in now waits, and is said (`captureInboxWaiting`).
    /// An item of a device the vault does not know is judged by its header alone, its body
    /// unread: when the vault `syncs`, it waits (its enrolment may come by sync), said once
    /// (`capturesWaiting`); otherwise nothing can ever enrol its device, and it is moved aside.
    /// `syncs` is asked only then (it reads this machine's sync set-up, which an opening with no
    /// inbox, the usual case, never needs). `onBatch` sees each batch's size (for tests).
    public static func takeIn(
        _ directory: URL, into vault: Vault, syncs: @autoclosure @escaping () -> Bool, events: @escaping AppEventSink,
        onBatch: (Int) -> Void = { _ in }
    ) {
        let inbox = directory.appendingPathComponent(CaptureItem.inboxDirectoryName).path
        var tally = Tally()
        // Said once per device however many batches it took, even when a later batch failed.
        defer { tally.say(events) }
        do {
            guard let names = try CaptureFiles.names(in: inbox) else { return }
            // One command takes an inbox in at a time; another finds it busy and leaves it (it
            // would otherwise see the first one's items as replays before they are removed).
            let lock = open(inbox, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard lock >= 0 else { return }
            defer { close(lock) }
            guard flock(lock, LOCK_EX | LOCK_NB) == 0 else { return }
            var batch = Batch()
            let intake = Intake(inbox: inbox, vault: vault, syncs: syncs, events: events)
            for name in names where CaptureItem.isFileName(name) {
                if let device = try intake.unknownDevice(name) {
                    try intake.unknown(name, device, &tally)
                    continue
                }
                guard let bytes = try read(name, inbox, events) else { continue }
                batch.append(name, bytes)
                if batch.isFull {
                    try take(batch, intake, &tally)
                    onBatch(batch.items.count)
                    batch = Batch()
                }
            }
            if !batch.items.isEmpty {
                try take(batch, intake, &tally)
                onBatch(batch.items.count)
            }
        } catch let CaptureAppError.io(path, detail) {
            events(.captureInboxWaiting(path: path, detail: detail))
        } catch {
            events(.captureInboxWaiting(path: nil, detail: String(describing: error)))
        }
    }

    /// Where a take-in reads and writes, and what it does with an unknown device's item.
    private struct Intake {
        let inbox: String
        let vault: Vault
        let syncs: () -> Bool
        let events: AppEventSink

        /// The device of the item `name` when its header alone shows the vault does not know
        /// it; nil otherwise (an item of this vault's known device, or one the full reading
        /// must judge: not a header, another vault, another item's name).
        func unknownDevice(_ name: String) throws -> UUID? {
            guard let head = try CaptureFiles.readHead(inbox + "/" + name, count: CaptureItem.headerLength),
                let header = CaptureItem.header(head), header.vaultID == vault.id,
                CaptureItem.fileName(deviceID: header.deviceID, counter: header.counter) == name
            else { return nil }
            return try vault.knowsCaptureDevice(header.deviceID) ? nil : header.deviceID
        }

        /// An unknown device's item: it waits when an enrolment may still come by sync, else it
        /// is moved aside (nothing else could ever make it an entry).
        func unknown(_ name: String, _ device: UUID, _ tally: inout Tally) throws {
            if syncs() {
                tally.waiting += 1
            } else {
                try moveAside(name, inbox, .unknownDevice(device), events)
            }
        }
    }

    /// What one take-in did, said at its end: entries taken in by device, items left waiting.
    private struct Tally {
        var added: [(device: String, count: Int)] = []
        var waiting = 0

        mutating func add(_ device: String) {
            if let i = added.firstIndex(where: { $0.device == device }) {
                added[i].count += 1
            } else {
                added.append((device, 1))
            }
        }

        func say(_ events: AppEventSink) {
            for (device, count) in added { events(.capturesTakenIn(device: device, count: count)) }
            if waiting > 0 { events(.capturesWaiting(count: waiting)) }
        }
    }

    /// The items read for one `Vault.takeIn`, by count and bytes.
    private struct Batch {
        var items: [(name: String, bytes: [UInt8])] = []
        var size = 0
        var isFull: Bool { items.count >= CaptureInbox.batchItems || size >= CaptureInbox.batchBytes }

        mutating func append(_ name: String, _ bytes: [UInt8]) {
            items.append((name, bytes))
            size += bytes.count
        }
    }

    /// The bytes of the item `name`, or nil when it is not to be taken in now: gone, changing,
    /// or moved aside unread (not a file, too large) or read (its name is another item's).
    private static func read(_ name: String, _ inbox: String, _ events: AppEventSink) throws -> [UInt8]? {
        switch try CaptureFiles.read(inbox + "/" + name, limit: CaptureItem.maximumBytes) {
        case .gone, .changing: return nil
        case .tooLarge:
            try moveAside(name, inbox, .damaged(device: nil, reason: "larger than any item"), events)
        case .notAFile:
            try moveAside(name, inbox, .damaged(device: nil, reason: "not a regular file"), events)
        case .bytes(let bytes):
            // As a folder remote's (§12.11): a renamed item would take another number's place.
            guard let misnamed = CaptureItem.misnamed(bytes, fileName: name) else { return bytes }
            try moveAside(name, inbox, misnamed, events)
        }
        return nil
    }

    /// Takes one batch in and sorts out its items, counting them in `tally`.
    private static func take(_ batch: Batch, _ intake: Intake, _ tally: inout Tally) throws {
        let (inbox, vault, events) = (intake.inbox, intake.vault, intake.events)
        let outcomes = try vault.takeIn(items: batch.items.map(\.bytes))
        var removed = false
        for ((name, bytes), outcome) in zip(batch.items, outcomes) {
            switch outcome {
            case .added(_, let device, _):
                tally.add(device)
                // The entry is stored: a failed unlink leaves a copy, removed quietly next time.
                unlink(inbox + "/" + name)
                removed = true
            case .replay where try vault.holdsCapturedEntry(of: bytes):
                // An earlier take-in stored it and was stopped before removing it.
                unlink(inbox + "/" + name)
                removed = true
            case .unknownDevice(let device):
                try intake.unknown(name, device, &tally)
            default:
                try moveAside(name, inbox, outcome, events)
            }
        }
        if removed { try CaptureFiles.syncDirectory(inbox) }
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
