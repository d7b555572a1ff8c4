import DiaryStore
import Foundation

/// Reads the machine logs of a remote tree, checking each against what this machine saw
/// before (docs/FORMAT.md §12.7):
///
/// - every record this machine read is still there, unchanged (re-hashed when its stat data
///   moved): a removed or replaced record is a finding;
/// - each new record is signed by its log's machine, a member of the chain when it wrote it,
///   opens (this vault, its own name, a key in force), and names the hash of the record
///   before it; what it says its writer had read of other logs matches what this machine read;
/// - a record after a gap, which a synced folder delivers out of order, is pending, not read.
///
/// Conflict copies a file-sync tool made are removed when identical, put back when they are
/// the only copy, and reported otherwise; any other unexpected file is reported.
struct LogScanner {
    let tree: RemoteTree
    let vaultID: UUID
    /// This machine: its own log is read like any other, but never a join to admit.
    let me: UUID
    /// Only a synced folder gets conflict copies, and only there are they cleaned: in git a
    /// removed file would look like a rewritten remote to the other machines.
    let tidiesCopies: Bool

    /// A machine asking to join: the first record of a log whose machine is not a member.
    struct Join {
        var machine: UUID
        var name: String
        var request: JoinRequest
        var path: String
    }

    struct Found {
        var record: SyncRecord
        var seen: RecordSeen
    }

    struct Outcome {
        var records: [Found] = []
        var findings: [RemoteFinding] = []
        var pending: [PendingRecord] = []
        var notes: [SyncNote] = []
        var joins: [Join] = []
    }

    func scan(main: inout SyncMain, ring: SyncKeyRing) throws -> Outcome {
        var outcome = Outcome()
        var present: Set<UUID> = []
        for name in tree.logFolders() {
            if name.hasPrefix(DurableFile.tempPrefix) { continue }
            guard let machine = RemoteLayout.machineID(fromHex: name) else {
                outcome.notes.append(.unexpectedLogEntry(path: "\(RemoteLayout.logDirectory)/\(name)"))
                continue
            }
            present.insert(machine)
        }
        for (machine, log) in main.logs where log.seen > 0 && !present.contains(machine) {
            outcome.findings.append(.logGone(machine: log.name, recordsRead: log.seen))
        }
        for machine in present.sorted(by: { $0.bytes.lexicographicallyPrecedes($1.bytes) }) {
            var log = main.logs[machine] ?? LogState(name: RemoteLayout.placeholderName(machine))
            let context = LogContext(machine: machine, chain: main.chain, ring: ring)
            try scanLog(context, log: &log, into: &outcome)
            main.logs[machine] = log
        }
        checkVectors(of: outcome.records, against: main.logs, chain: main.chain, into: &outcome)
        tidyOutsideTheLogs(into: &outcome)
        refuseUnfollowed(into: &outcome)
        return outcome
    }

    /// Conflict copies of published headers and of the marker: identical ones removed, a lone
    /// copy put back (a header proves itself when the passphrase opens it), anything else
    /// reported. Unknown names at the top are reported too.
    private func tidyOutsideTheLogs(into outcome: inout Outcome) {
        let keys = RemoteLayout.keysDirectory
        for name in tree.list(keys) where !name.hasPrefix(".") && RemoteLayout.header(fromName: name) == nil {
            let shown = "\(keys)/\(name)"
            guard let original = RemoteLayout.conflictCopyOriginal(name), RemoteLayout.header(fromName: original) != nil
            else {
                outcome.notes.append(.unexpectedFile(path: shown))
                continue
            }
            tidyCopy(shown, of: "\(keys)/\(original)", into: &outcome)
        }
        for name in tree.list() where !name.hasPrefix(".") {
            if [
                RemoteLayout.marker, RemoteLayout.logDirectory, RemoteLayout.keysDirectory, RemoteLayout.chainDirectory,
                RemoteLayout.attachmentsDirectory, RemoteLayout.inboxDirectory,
            ]
            .contains(name) {
                continue
            }
            if RemoteLayout.conflictCopyOriginal(name) == RemoteLayout.marker {
                tidyCopy(name, of: RemoteLayout.marker, into: &outcome, putBack: false)
            } else {
                outcome.notes.append(.unexpectedFile(path: name))
            }
        }
    }

    private func tidyCopy(_ copy: String, of original: String, into outcome: inout Outcome, putBack: Bool = true) {
        guard tidiesCopies else {
            outcome.notes.append(.unexpectedFile(path: copy))
            return
        }
        let copyBytes = tree.readIfPossible(copy, limit: RemoteTree.headerLimit)
        let originalBytes = tree.readIfPossible(original, limit: RemoteTree.headerLimit)
        if let copyBytes, copyBytes == originalBytes {
            tree.remove(copy)
            outcome.notes.append(.identicalFileCopyRemoved(path: copy))
        } else if originalBytes == nil, putBack, (try? tree.move(copy, to: original)) != nil {
            outcome.notes.append(.filePutBack(path: copy))
        } else {
            outcome.notes.append(.differingCopyLeft(path: copy))
        }
    }

    private func scanLog(_ context: LogContext, log: inout LogState, into outcome: inout Outcome) throws {
        let machine = context.machine
        let folder = RemoteLayout.hex(machine)
        var seqs = Set<UInt64>()
        var copies: [String] = []
        for name in tree.list("\(RemoteLayout.logDirectory)/\(folder)") where !name.hasPrefix(DurableFile.tempPrefix) {
            if let seq = RemoteLayout.seq(fromName: name) { seqs.insert(seq) } else { copies.append(name) }
        }
        for copy in copies {
            try handleCopy(copy, context: context, seqs: &seqs, into: &outcome)
        }
        checkRecordsRead(machine, log: &log, seqs: seqs, into: &outcome)
        guard let member = context.chain.member(machine) else {
            if machine != me { readJoin(context, log: log, seqs: seqs, into: &outcome) }
            return
        }
        let next = readNewRecords(context, signer: member, log: &log, seqs: seqs, into: &outcome)
        if let later = seqs.filter({ $0 > next }).min(), !seqs.contains(next) {
            outcome.pending.append(.notArrived(machine: log.name, seq: next, laterSeq: later))
        }
    }

    /// What was read before must still be there, byte for byte.
    private func checkRecordsRead(_ machine: UUID, log: inout LogState, seqs: Set<UInt64>, into outcome: inout Outcome)
    {
        for seq in stride(from: UInt64(1), through: log.seen, by: 1) {
            let path = RemoteLayout.recordPath(machine: machine, seq: seq)
            let known = log.records[Int(seq - 1)]
            guard seqs.contains(seq), let stamp = tree.stamp(path) else {
                outcome.findings.append(.recordRemoved(machine: log.name, seq: seq, readUpTo: log.seen))
                continue
            }
            if stamp == known.stat { continue }
            if let bytes = tree.readIfPossible(path, limit: RecordCodec.maximumFileBytes),
                RecordCodec.hash(bytes) == known.hash
            {
                log.records[Int(seq - 1)].stat = stamp
            } else {
                outcome.findings.append(.recordReplaced(machine: log.name, seq: seq))
            }
        }
    }

    /// New records, in order, while each one is there and is accepted. Returns the number of
    /// the first one not read.
    private func readNewRecords(
        _ context: LogContext, signer: Member, log: inout LogState, seqs: Set<UInt64>, into outcome: inout Outcome
    ) -> UInt64 {
        let machine = context.machine
        var next = log.seen + 1
        let cut = context.chain.removal(of: machine)
        while seqs.contains(next) {
            let path = RemoteLayout.recordPath(machine: machine, seq: next)
            if let cut, next > cut.seq {
                outcome.notes.append(.recordsOfRemovedMachineIgnored(machine: log.name, from: next))
                break
            }
            guard let stamp = tree.stamp(path),
                let bytes = tree.readIfPossible(path, limit: RecordCodec.maximumFileBytes)
            else {
                outcome.findings.append(.recordUnreadable(path: path))
                break
            }
            // In a synced folder, a record not read before that is only the beginning of one is
            // still being copied (git delivers whole files: there it is an edit).
            if tidiesCopies, RecordCodec.looksIncomplete(bytes) {
                outcome.pending.append(.stillArriving(path: path, bytes: bytes.count))
                break
            }
            guard
                let record = accept(
                    bytes, at: path, seq: next, context: context, signer: signer, log: log, into: &outcome)
            else { break }
            let seen = RecordSeen(hash: RecordCodec.hash(bytes), stat: stamp)
            if let cut, next == cut.seq, seen.hash != cut.hash {
                outcome.findings.append(.recordOutOfChain(path: path, previousSeq: next - 1))
                break
            }
            log.records.append(seen)
            log.seen = next
            log.name = record.machineName
            log.lamport = record.lamport
            log.written = record.written
            log.epoch = record.join == nil ? record.epochSeq : 0
            log.heard = Int64(Date().timeIntervalSince1970)
            outcome.records.append(Found(record: record, seen: seen))
            next += 1
        }
        return next
    }

    /// A file-sync tool's conflict copy of a record (or anything else that is not a record name).
    private func handleCopy(
        _ name: String, context: LogContext, seqs: inout Set<UInt64>, into outcome: inout Outcome
    ) throws {
        let machine = context.machine
        let folder = "\(RemoteLayout.logDirectory)/\(RemoteLayout.hex(machine))"
        let shown = "\(folder)/\(name)"
        guard tidiesCopies, let original = RemoteLayout.conflictCopyOriginal(name),
            let seq = RemoteLayout.seq(fromName: original)
        else {
            outcome.notes.append(.unexpectedFile(path: shown))
            return
        }
        let originalPath = "\(folder)/\(original)"
        let copy = tree.readIfPossible(shown, limit: RecordCodec.maximumFileBytes)
        let current = tree.readIfPossible(originalPath, limit: RecordCodec.maximumFileBytes)
        if let copy, let current, copy == current {
            tree.remove(shown)
            outcome.notes.append(.identicalRecordCopyRemoved(path: shown))
            return
        }
        let authentic =
            copy.map { bytes in
                guard let member = context.chain.member(machine),
                    RecordCodec.signatureIsValid(bytes, publicKey: member.publicKey)
                else { return false }
                return (try? RecordCodec.open(bytes, vaultID: vaultID, machine: machine, seq: seq, keys: context.ring))
                    != nil
            } ?? false
        if current == nil, authentic {
            try tree.move(shown, to: originalPath)
            seqs.insert(seq)
            outcome.notes.append(.recordPutBack(path: shown))
        } else if authentic {
            outcome.findings.append(.recordWrittenTwice(machine: machine, seq: seq, copy: shown))
        } else {
            outcome.notes.append(.unauthenticRecordCopyLeft(path: shown))
        }
    }

    static func fault(_ error: Error) -> RecordFault {
        switch error as? RecordError {
        case .notARecord?: return .notARecord
        case .unsupportedVersion(let v)?: return .unsupportedVersion(v)
        case .wrongPlace?: return .wrongPlace
        case .badLength?: return .badLength
        case .doesNotAuthenticate?: return .doesNotAuthenticate
        case .badSignature?: return .badSignature
        case .lamportOutOfRange?: return .lamportOutOfRange
        case .undecodable(let detail)?: return .undecodable(detail: detail)
        default: return .other(detail: "\(error)")
        }
    }
}
