import DiaryStore
import DiaryVault
import Foundation

extension SyncEngine {
    /// Writes this machine's next record(s): its local changes and resolutions, under the key
    /// the chain puts in force. Until the chain names this machine a member, or while it has
    /// not followed the newest key, they wait (as resolutions do) for a later sync. Returns the
    /// entries they touched.
    func publishOwn(_ revisions: [Revision], into report: inout SyncReport) throws -> Set<UUID> {
        // `revisions` begins with those kept from before (`LocalDiff.localChanges`).
        let all = try withoutCapturesPublishedElsewhere(revisions)
        guard !all.isEmpty else { return [] }
        guard main.isMember, let head = main.chain.head, head.keyID == ring.current.id else {
            main.pendingRevisions = all
            return []
        }
        try tree.makeFolder(RemoteLayout.logDirectory + "/" + RemoteLayout.hex(main.machine))
        var touched = Set<UUID>()
        for batch in Self.batches(of: all) {
            try uploadAttachments(of: batch, into: &report)
            let record = try publish(batch, epoch: head)
            touched.formUnion(try ingest(record))
            for revision in batch where diff.wasChangedHere(revision.entry) || main.pendingRevisions.contains(revision)
            {
                var heads = try store.entry(revision.entry) ?? EntryHeads()
                heads.shown = revision.id
                try store.setEntry(revision.entry, heads)
            }
            report.sent += batch.count
        }
        main.pendingRevisions = []
        return touched
    }

    /// Seals, signs and writes one record of this machine's log, and counts it as read.
    func publish(_ batch: [Revision], epoch: AcceptedStatement, join: JoinRequest? = nil) throws -> SyncRecord {
        var log = main.logs[main.machine] ?? LogState(name: main.machineName)
        let seq = log.seen + 1
        guard main.lamport < RecordCodec.maximumLamport else { throw SyncError.lamportExhausted }
        main.lamport += 1
        let record = SyncRecord(
            machine: main.machine, seq: seq,
            previous: log.records.last?.hash ?? [UInt8](repeating: 0, count: RecordCodec.hashLength),
            lamport: main.lamport, machineName: main.machineName, written: UInt64(max(0, Date().timeIntervalSince1970)),
            epochSeq: epoch.seq, epochHash: epoch.hash,
            vector: main.marks(except: main.machine), revisions: batch, join: join)
        // A join is sealed under the key the chain names (this vault may hold a newer one of its
        // own, stated once it is admitted); every other record under the key in force here.
        let key = join == nil ? ring.current : ring[epoch.keyID] ?? ring.current
        let sealed = try RecordCodec.seal(record, vaultID: vault.id, key: key, signingKey: main.signingKey)
        let path = RemoteLayout.recordPath(machine: main.machine, seq: seq)
        try tree.write(sealed, to: path)
        log.records.append(RecordSeen(hash: RecordCodec.hash(sealed), stat: tree.stamp(path) ?? .none))
        log.seen = seq
        log.lamport = main.lamport
        log.written = record.written
        log.epoch = join == nil ? epoch.seq : 0
        log.name = main.machineName
        main.logs[main.machine] = log
        return record
    }

    /// Revisions cut into records of about `RecordCodec.batchBytes` of text each (at least one
    /// record, which may be empty).
    static func batches(of revisions: [Revision]) -> [[Revision]] {
        var batches: [[Revision]] = [[]]
        var size = 0
        for revision in revisions {
            let cost = (revision.content?.text.utf8.count ?? 0) + 200
            if size + cost > RecordCodec.batchBytes, !batches[batches.count - 1].isEmpty {
                batches.append([])
                size = 0
            }
            batches[batches.count - 1].append(revision)
            size += cost
        }
        return batches
    }
}
