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

/// How `diary resolve` ends a conflict.
public enum ResolveChoice: Sendable {
    /// This machine's version.
    case mine
    /// The other machine's version (the one shown first, when several).
    case theirs
    /// This machine's version stays; the other becomes a new entry.
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
                machineName: main.logs[head.machine]?.name ?? "machine \(RemoteLayout.hex(head.machine).prefix(8))",
                isThisMachine: head.machine == main.machine, isShown: head.digest == heads.shownDigest,
                entry: head.content)
        }
    }

    /// Resolves a conflict here and now: a revision that replaces every head is written to
    /// the local vault at once and published by the next sync, which resolves it on every
    /// machine. Returns the id of the new entry `.both` made, if any.
    @discardableResult
    public func resolve(_ id: UUID, keeping choice: ResolveChoice) throws -> UUID? {
        try setup.lock.withLock(exclusive: true) {
            guard var heads = try store.entry(id), heads.isConflict else {
                throw SyncError.noConflict(id.uuidString.lowercased())
            }
            let ordered = heads.heads.sorted(by: Head.shownFirst)
            let mine = ordered.first { $0.machine == main.machine }
            let theirs = ordered.first { $0.machine != main.machine }
            var kept: Entry?
            var extra: Entry?
            switch choice {
            case .mine:
                guard let mine else {
                    throw SyncError.cannotResolve("no version of this entry was written on this machine; use --keep theirs, both or --edit")
                }
                kept = mine.content
            case .theirs:
                guard let theirs else {
                    throw SyncError.cannotResolve("every version was written on this machine; use --keep mine or --edit")
                }
                kept = theirs.content
            case .both:
                let first = mine ?? ordered[0]
                let second = ordered.first { $0.revision != first.revision && !$0.deleted && $0.digest != first.digest }
                kept = first.content ?? second?.content
                if first.content != nil, let other = second?.content {
                    let now = Date()
                    extra = Entry(id: SecureRandom.uuid(), text: other.text, date: other.date, created: now, modified: now,
                                  starred: other.starred, tags: other.tags, source: nil)
                }
            case .text(let text):
                guard var base = ordered.first(where: { !$0.deleted })?.content else {
                    throw SyncError.cannotResolve("every version is a deletion; use --keep mine")
                }
                base.text = text
                base.modified = Date()
                kept = base
            }
            let revision = Revision(entry: id, id: SecureRandom.uuid(), parents: heads.heads.map(\.revision), content: kept)
            heads.add(revision, lamport: main.lamport + 1, machine: main.machine)
            let expected: [UUID: [UInt8]?] = [id: heads.sealTag]
            let puts = (kept.map { [$0] } ?? []) + (extra.map { [$0] } ?? [])
            let (tags, skipped) = try vault.applySynced(puts: puts, deletes: kept == nil ? [id] : [], expected: expected)
            guard !skipped.contains(id) else {
                throw SyncError.cannotResolve("the entry changed while resolving; run `diary sync`, then resolve again")
            }
            heads.shown = revision.id
            heads.shownDigest = Head.digest(of: kept)
            heads.sealTag = tags[id]
            heads.compact()
            try store.setEntry(id, heads)
            main.pendingRevisions.append(revision)
            main.conflicts.remove(id)
            try store.flushPages()
            try store.writeMain(main)
            return extra?.id
        }
    }
}
