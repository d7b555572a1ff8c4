import DiaryCrypto
import DiaryVault
import Foundation

/// One version of an entry in conflict.
public struct ConflictVersion: Sendable {
    public let revision: UUID
    /// The machine that wrote it, by the name it gave itself.
    public let machineName: String
    public let isThisMachine: Bool
    /// The version shown in the local vault while the conflict lasts.
    public let isShown: Bool
    /// The text and fields, or nil for a deletion.
    public let entry: Entry?
}

/// An entry changed on two machines that had not seen each other's change.
public struct Conflict: Sendable {
    public let id: UUID
    public let versions: [ConflictVersion]
}

/// How a resolution ends a conflict.
public enum ResolveChoice: Sendable {
    /// This machine's version.
    case mine
    /// The other machine's version; refused when other machines wrote more than one.
    case theirs
    /// This machine's version stays (or the first shown); every other version becomes a
    /// new entry, so nothing is dropped however many machines took part.
    case both
    /// A text written from both (in the editor); the other fields are those shown.
    case text(String)
}

extension SyncEngine {
    /// The entries in conflict, each with every version.
    public func conflicts() throws -> [Conflict] {
        try main.conflicts.sorted { $0.uuidString < $1.uuidString }.compactMap { id in
            guard let heads = try store.entry(id), heads.isConflict else { return nil }
            return Conflict(id: id, versions: versions(of: heads))
        }
    }

    private func versions(of heads: EntryHeads) -> [ConflictVersion] {
        heads.heads.sorted(by: Head.shownFirst).map { head in
            ConflictVersion(
                revision: head.revision,
                machineName: machineName(of: head.machine),
                isThisMachine: head.machine == main.machine, isShown: head.digest == heads.shownDigest,
                entry: head.content)
        }
    }

    /// Resolves a conflict here and now: a revision that replaces every head is written to
    /// the local vault at once and published by the next sync, which resolves it on every
    /// machine. Returns the ids of the new entries `.both` made.
    @discardableResult
    public func resolve(_ id: UUID, keeping choice: ResolveChoice) throws -> [UUID] {
        try setup.lock.withLock(exclusive: true) {
            guard var heads = try store.entry(id), heads.isConflict else { throw SyncError.noConflict(id) }
            let (kept, extras) = try outcome(of: choice, among: heads)
            let revision = Revision(
                entry: id, id: SecureRandom.uuid(), parents: heads.heads.map(\.revision), content: kept)
            heads.add(revision, lamport: main.lamport + 1, machine: main.machine)
            let expected: [UUID: [UInt8]?] = [id: heads.sealTag]
            let puts = (kept.map { [$0] } ?? []) + extras
            let (tags, skipped) = try vault.applySynced(
                puts: puts, deletes: kept == nil ? [id] : [], expected: expected)
            guard !skipped.contains(id) else { throw SyncError.cannotResolve(.entryChangedMeanwhile) }
            heads.shown = revision.id
            heads.shownDigest = Head.digest(of: kept)
            heads.sealTag = tags[id]
            heads.compact()
            try store.setEntry(id, heads)
            main.pendingRevisions.append(revision)
            main.conflicts.remove(id)
            try store.flushPages()
            try store.writeMain(main)
            return extras.map(\.id)
        }
    }

    /// What a choice keeps: the entry's new content (nil: deleted) and the new entries `.both`
    /// makes of the other versions.
    private func outcome(of choice: ResolveChoice, among heads: EntryHeads) throws -> (kept: Entry?, extras: [Entry]) {
        let ordered = heads.heads.sorted(by: Head.shownFirst)
        // A capture device's record has no text to edit, and a second copy of it is no entry.
        if heads.heads.contains(where: { $0.content?.captureDevice != nil }) {
            switch choice {
            case .both, .text: throw SyncError.cannotResolve(.captureDeviceRecord)
            case .mine, .theirs: break
            }
        }
        let mine = ordered.first { $0.machine == main.machine }
        // One head per distinct content: the same change made twice is one version.
        var seenDigests = Set<[UInt8]>()
        let distinct = ordered.filter { seenDigests.insert($0.digest).inserted }
        let others = distinct.filter { $0.machine != main.machine && $0.digest != mine?.digest }
        let theirs = others.first
        var kept: Entry?
        var extras: [Entry] = []
        switch choice {
        case .mine:
            guard let mine else { throw SyncError.cannotResolve(.noVersionFromThisMachine) }
            kept = mine.content
        case .theirs:
            guard let theirs else { throw SyncError.cannotResolve(.noVersionFromOtherMachines) }
            guard others.count == 1 else {
                throw SyncError.cannotResolve(
                    .severalOtherVersions(machines: others.map { machineName(of: $0.machine) }))
            }
            kept = theirs.content
        case .both:
            // The first text kept stays this entry; every other text becomes a new one.
            let texts = ([mine].compactMap { $0 } + distinct.filter { $0.digest != mine?.digest }).compactMap(\.content)
            kept = texts.first
            let now = Date()
            extras = texts.dropFirst().map { other in
                Entry(
                    id: SecureRandom.uuid(), text: other.text, date: other.date, created: now, modified: now,
                    starred: other.starred, tags: other.tags, source: nil, attachments: other.attachments)
            }
        case .text(let text):
            guard var base = ordered.first(where: { !$0.deleted })?.content else {
                throw SyncError.cannotResolve(.everyVersionDeleted)
            }
            base.text = text
            base.modified = Date()
            kept = base
        }
        return (kept, extras)
    }

    private func machineName(of machine: UUID) -> String {
        main.logs[machine]?.name ?? RemoteLayout.placeholderName(machine)
    }
}
