import DiaryCrypto
import DiaryVault
import Foundation

/// One head of an entry: a revision no later revision replaces.
struct Head: Equatable {
    var revision: UUID
    var lamport: UInt64
    var machine: UUID
    /// The text and fields, or nil for a deletion. Kept in the state only while the entry has
    /// more than one head (a conflict needs both texts); otherwise the local vault holds it.
    var content: Entry?
    var deleted: Bool
    /// BLAKE2b-128 of the entry's plaintext (zeros for a deletion): equal contents on two heads
    /// are not a conflict.
    var digest: [UInt8]

    static let deletedDigest = [UInt8](repeating: 0, count: 16)

    static func digest(of entry: Entry?) -> [UInt8] {
        guard let entry else { return deletedDigest }
        var bytes = SyncedEntryCodec.encode(entry)
        defer { secureZero(&bytes) }
        return BLAKE2b.hash(bytes, outputCount: 16)
    }

    /// The order every machine uses to pick the head it shows while an entry is in conflict,
    /// so that all of them show the same one (no clock: lamport, then machine, then revision).
    /// A text beats a deletion: nothing is hidden until someone chooses.
    static func shownFirst(_ a: Head, _ b: Head) -> Bool {
        if a.deleted != b.deleted { return !a.deleted }
        if a.lamport != b.lamport { return a.lamport > b.lamport }
        if a.machine != b.machine { return a.machine.bytes.lexicographicallyPrecedes(b.machine.bytes) == false }
        return a.revision.bytes.lexicographicallyPrecedes(b.revision.bytes) == false
    }
}

/// What a machine knows of one entry's revisions.
struct EntryHeads: Equatable {
    var heads: [Head] = []
    /// Revisions named as parents that have not arrived yet (a synced folder can deliver one
    /// machine's log before another's): when one arrives it is already replaced.
    var awaited: Set<UUID> = []
    /// The head the local vault shows, and the seal tag its copy had when sync last looked
    /// (nil: the entry is not in the local vault).
    var shown: UUID?
    var sealTag: [UInt8]?
    /// The digest of what the local vault shows (`Head.deletedDigest` when it shows nothing).
    var shownDigest: [UInt8] = Head.deletedDigest

    /// More than one distinct content among the heads.
    var isConflict: Bool { Set(heads.map(\.digest)).count > 1 }

    /// The head to show: the only one, or the first in `Head.shownFirst` order.
    var preferred: Head? { heads.sorted(by: Head.shownFirst).first }

    /// Takes in one revision (a second copy of a known head changes nothing).
    mutating func add(_ revision: Revision, lamport: UInt64, machine: UUID) {
        guard !heads.contains(where: { $0.revision == revision.id }) else { return }
        let replaced = Set(heads.map(\.revision)).intersection(revision.parents)
        heads.removeAll { replaced.contains($0.revision) }
        // A parent that is not a head either has not arrived yet or was replaced before (then
        // it never arrives again, and waiting for it costs 16 bytes).
        for parent in revision.parents where !replaced.contains(parent) { awaited.insert(parent) }
        // Arrived after a revision that replaces it: history, not a head.
        if awaited.remove(revision.id) != nil { return }
        heads.append(
            Head(
                revision: revision.id, lamport: lamport, machine: machine, content: revision.content,
                deleted: revision.content == nil, digest: Head.digest(of: revision.content)))
        heads.sort(by: Head.shownFirst)
    }

    /// The parents of a change made to what the local vault shows: every head with the shown
    /// content (two machines that made the same change are both replaced by the next one).
    var parentsOfLocalChange: [UUID] {
        let same = heads.filter { $0.digest == shownDigest }.map(\.revision)
        return same.isEmpty ? heads.map(\.revision) : same
    }

    /// Drops the texts the state does not need: without a conflict the local vault has the
    /// one text there is.
    mutating func compact() {
        guard !isConflict else { return }
        for i in heads.indices { heads[i].content = nil }
    }
}
