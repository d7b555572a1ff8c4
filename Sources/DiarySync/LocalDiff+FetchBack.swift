import DiaryStore
import DiaryVault
import Foundation

extension LocalDiff {
    /// Entries sync saw in the local vault, gone from it, that nobody deleted here: the vault
    /// went back in time. Each one's preferred head is shown again at `apply` (its text taken
    /// from the state, a resolution not yet published, or the record that brought it). One
    /// whose text cannot be had now (a record not at hand) keeps its row in what sync saw, on
    /// a page looked at again next time, and is said.
    func fetchBack(_ missing: [UUID], main: SyncMain, ring: SyncKeyRing) throws {
        var reader = RecordedRevisions(tree: tree, vaultID: vault.id, logs: main.logs, ring: ring)
        var later: [UUID: [UInt8]] = [:]
        for id in missing {
            guard var heads = try store.entry(id), let tag = heads.sealTag else { continue }
            if let preferred = heads.preferred, !preferred.deleted, preferred.content == nil {
                let pending = main.pendingRevisions.first { $0.id == preferred.revision }?.content
                guard let content = pending ?? reader.content(of: preferred, entry: id),
                    let i = heads.heads.firstIndex(where: { $0.revision == preferred.revision })
                else {
                    later[id] = tag
                    continue
                }
                heads.heads[i].content = content
            }
            heads.sealTag = nil
            heads.shownDigest = Head.deletedDigest
            try store.setEntry(id, heads)
            fetchingBack.insert(id)
        }
        guard !later.isEmpty else { return }
        for (id, tag) in later {
            let page = Vault.indexPage(of: id)
            var seen = try store.seenRows(onIndexPage: page)
            seen[id] = tag
            store.setSeenRows(seen, onIndexPage: page)
            // Its rows then differ from the vault's: `saveState` leaves the page to look at again.
            pagesWritten.insert(page)
        }
        notes.append(.entriesNotFetchedBackYet(count: later.count))
    }
}

extension LocalDiff {
    /// An older copy published beside the newer versions makes a conflict, which needs every
    /// text; the newer ones are no longer in the local vault (the state keeps texts only for
    /// conflicts), so each is read again from the record that brought it, or the revision
    /// waiting to be published. Otherwise the conflict would show them as deleted, and keeping
    /// "both" would lose them.
    func keepTextsOfNewerHeads(_ entries: [UUID], main: SyncMain, ring: SyncKeyRing) throws {
        var reader = RecordedRevisions(tree: tree, vaultID: vault.id, logs: main.logs, ring: ring)
        for id in entries {
            guard var heads = try store.entry(id) else { continue }
            var found = false
            for i in heads.heads.indices where heads.heads[i].content == nil && !heads.heads[i].deleted {
                let head = heads.heads[i]
                let pending = main.pendingRevisions.first { $0.id == head.revision }?.content
                guard let content = pending ?? reader.content(of: head, entry: id) else { continue }
                heads.heads[i].content = content
                found = true
            }
            if found { try store.setEntry(id, heads) }
        }
    }
}

/// Reads again records this machine took in before, for a revision's text: the state keeps
/// texts only while an entry is in conflict, the local vault the one it shows.
struct RecordedRevisions {
    let tree: RemoteTree
    let vaultID: UUID
    let logs: [UUID: LogState]
    let ring: SyncKeyRing
    private var opened: [UUID: [UInt64: SyncRecord]] = [:]

    init(tree: RemoteTree, vaultID: UUID, logs: [UUID: LogState], ring: SyncKeyRing) {
        self.tree = tree
        self.vaultID = vaultID
        self.logs = logs
        self.ring = ring
    }

    /// The text `head` gave `entry`, or nil when the record that holds it is not at hand. The
    /// record is found by the head's lamport (they grow along a log) among those this machine
    /// read, and must be the very file it read (its hash).
    mutating func content(of head: Head, entry: UUID) -> Entry? {
        guard let log = logs[head.machine], log.seen > 0 else { return nil }
        var (low, high) = (UInt64(1), log.seen)
        while low <= high {
            let seq = low + (high - low) / 2
            guard let record = record(head.machine, seq: seq, log: log) else { return nil }
            if record.lamport == head.lamport {
                return record.revisions.first { $0.id == head.revision && $0.entry == entry }?.content
            }
            if record.lamport < head.lamport { low = seq + 1 } else { high = seq - 1 }
        }
        return nil
    }

    private mutating func record(_ machine: UUID, seq: UInt64, log: LogState) -> SyncRecord? {
        if let known = opened[machine]?[seq] { return known }
        let path = RemoteLayout.recordPath(machine: machine, seq: seq)
        guard Int(seq) <= log.records.count,
            let bytes = tree.readIfPossible(path, limit: RecordCodec.maximumFileBytes),
            RecordCodec.hash(bytes) == log.records[Int(seq - 1)].hash,
            let record = try? RecordCodec.open(bytes, vaultID: vaultID, machine: machine, seq: seq, keys: ring)
        else { return nil }
        opened[machine, default: [:]][seq] = record
        return record
    }
}
