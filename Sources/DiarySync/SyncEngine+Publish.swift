import DiaryCrypto
import DiaryStore
import DiaryVault
import Foundation

extension SyncEngine {
    /// Writes this machine's next record(s): its local changes, resolutions and any key change.
    /// Returns the entries they touched.
    func publishOwn(_ revisions: [Revision], into report: inout SyncReport) throws -> Set<UUID> {
        let keyChange = main.pendingKeyChange
        guard !revisions.isEmpty || keyChange != nil else { return [] }
        let batches = Self.batches(of: revisions)
        try tree.makeFolder(RemoteLayout.logDirectory + "/" + RemoteLayout.hex(main.machine))
        try tree.makeFolder(RemoteLayout.keysDirectory)
        var touched = Set<UUID>()
        for (n, batch) in batches.enumerated() {
            let record = try publish(batch, keyChange: n == batches.count - 1 ? keyChange : nil)
            touched.formUnion(try ingest(record))
            for revision in batch where diff.wasChangedHere(revision.entry) || main.pendingRevisions.contains(revision)
            {
                var heads = try store.entry(revision.entry) ?? EntryHeads()
                heads.shown = revision.id
                try store.setEntry(revision.entry, heads)
            }
            report.sent += batch.count
        }
        if keyChange != nil { report.keyChangePublished = true }
        main.pendingRevisions = []
        main.pendingKeyChange = nil
        return touched
    }

    /// Seals and writes one record of this machine's log (and the headers of its key change),
    /// and counts it as read.
    private func publish(_ batch: [Revision], keyChange: KeyChange?) throws -> SyncRecord {
        var log = main.logs[main.machine] ?? LogState(name: main.machineName)
        let seq = log.seen + 1
        main.lamport += 1
        let record = SyncRecord(
            machine: main.machine, seq: seq,
            previous: log.records.last?.hash ?? [UInt8](repeating: 0, count: RecordCodec.hashLength),
            lamport: main.lamport, machineName: main.machineName, written: UInt64(max(0, Date().timeIntervalSince1970)),
            revisions: batch)
        // Transitional: the state holds no signing key of this machine yet (the engine's move to
        // format 2 adds it); a throwaway key keeps records well-formed meanwhile.
        let sealed = try RecordCodec.seal(
            record, vaultID: vault.id, key: ring.current, signingKey: try SigningKeyPair.generate().secretKey)
        for (kind, header) in keyChange?.headers ?? [:] {
            try tree.write(header, to: RemoteLayout.headerPath(machine: main.machine, seq: seq, store: kind))
        }
        let path = RemoteLayout.recordPath(machine: main.machine, seq: seq)
        try tree.write(sealed, to: path)
        log.records.append(RecordSeen(hash: RecordCodec.hash(sealed), stat: tree.stamp(path) ?? .none))
        log.seen = seq
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
