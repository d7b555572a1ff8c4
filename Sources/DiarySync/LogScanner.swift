import DiaryStore
import Foundation

/// Reads the machine logs of a remote tree, checking each against what this machine saw
/// before (docs/FORMAT.md §12.7):
///
/// - every record this machine read is still there, unchanged (re-hashed when its stat data
///   moved): a removed or replaced record is a finding;
/// - each new record opens (authentic, this vault, its own name) and names the hash of the
///   record before it;
/// - a record after a gap, which a synced folder delivers out of order, is pending, not read.
///
/// Conflict copies a file-sync tool made are removed when identical, put back when they are
/// the only copy, and reported otherwise; any other unexpected file is reported.
struct LogScanner {
    let tree: RemoteTree
    let vaultID: UUID
    /// Only a synced folder gets conflict copies, and only there are they cleaned: in git a
    /// removed file would look like a rewritten remote to the other machines.
    let tidiesCopies: Bool

    /// Asked for a key the ring lacks (another machine rotated the vault key), with the
    /// machine, the record's number and the key id: the key, or nil.
    typealias Unlock = (UUID, UInt64, [UInt8]) throws -> SyncKey?

    struct Found {
        var record: SyncRecord
        var seen: RecordSeen
    }

    struct Outcome {
        var records: [Found] = []
        var findings: [RemoteFinding] = []
        var pending: [PendingRecord] = []
        var notes: [SyncNote] = []
    }

    func scan(main: inout SyncMain, ring: inout SyncKeyRing, unlock: Unlock) throws -> Outcome {
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
            try scanLog(machine, log: &log, ring: &ring, unlock: unlock, into: &outcome)
            main.logs[machine] = log
        }
        tidyOutsideTheLogs(into: &outcome)
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
            if [RemoteLayout.marker, RemoteLayout.logDirectory, RemoteLayout.keysDirectory].contains(name) { continue }
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

    private func scanLog(
        _ machine: UUID, log: inout LogState, ring: inout SyncKeyRing, unlock: Unlock, into outcome: inout Outcome
    ) throws {
        let folder = RemoteLayout.hex(machine)
        var seqs = Set<UInt64>()
        var copies: [String] = []
        for name in tree.list("\(RemoteLayout.logDirectory)/\(folder)") where !name.hasPrefix(DurableFile.tempPrefix) {
            if let seq = RemoteLayout.seq(fromName: name) { seqs.insert(seq) } else { copies.append(name) }
        }
        for copy in copies {
            try handleCopy(copy, machine: machine, ring: ring, seqs: &seqs, into: &outcome)
        }
        checkRecordsRead(machine, log: &log, seqs: seqs, into: &outcome)
        let next = try readNewRecords(machine, log: &log, seqs: seqs, ring: &ring, unlock: unlock, into: &outcome)
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

    /// New records, in order, while each one is there and opens. Returns the number of the
    /// first one not read.
    private func readNewRecords(
        _ machine: UUID, log: inout LogState, seqs: Set<UInt64>, ring: inout SyncKeyRing, unlock: Unlock,
        into outcome: inout Outcome
    ) throws -> UInt64 {
        var next = log.seen + 1
        while seqs.contains(next) {
            let path = RemoteLayout.recordPath(machine: machine, seq: next)
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
                var record = try open(
                    bytes, at: path, machine: machine, seq: next, ring: &ring, unlock: unlock, into: &outcome)
            else {
                break
            }
            let expected =
                next == 1 ? [UInt8](repeating: 0, count: RecordCodec.hashLength) : log.records[Int(next - 2)].hash
            guard record.previous == expected else {
                outcome.findings.append(.recordOutOfChain(path: path, previousSeq: next - 1))
                break
            }
            record.machine = machine
            let seen = RecordSeen(hash: RecordCodec.hash(bytes), stat: stamp)
            log.records.append(seen)
            log.seen = next
            log.name = record.machineName
            outcome.records.append(Found(record: record, seen: seen))
            next += 1
        }
        return next
    }

    /// The record, or nil with what kept it from being read in `outcome`.
    private func open(
        _ bytes: [UInt8], at path: String, machine: UUID, seq: UInt64, ring: inout SyncKeyRing, unlock: Unlock,
        into outcome: inout Outcome
    ) throws -> SyncRecord? {
        do {
            return try open(bytes, machine: machine, seq: seq, ring: &ring, unlock: unlock)
        } catch let error as SyncError {
            throw error
        } catch RecordError.unknownKey {
            outcome.pending.append(.unknownKey(path: path))
        } catch RecordError.unsupportedVersion(let version) {
            outcome.findings.append(.recordOfNewerVersion(path: path, version: version))
        } catch RecordError.otherVault(let other) {
            outcome.findings.append(.recordOfOtherVault(path: path, vault: other))
        } catch {
            outcome.findings.append(.recordNotAuthentic(path: path, fault: Self.fault(error)))
        }
        return nil
    }

    private func open(
        _ bytes: [UInt8], machine: UUID, seq: UInt64, ring: inout SyncKeyRing, unlock: Unlock
    ) throws -> SyncRecord {
        do {
            return try RecordCodec.open(bytes, vaultID: vaultID, machine: machine, seq: seq, keys: ring)
        } catch .unknownKey {
            let keyID = try RecordCodec.peek(bytes).keyID
            guard let key = try unlock(machine, seq, keyID), key.id == keyID else { throw RecordError.unknownKey }
            try ring.add(key)
            return try RecordCodec.open(bytes, vaultID: vaultID, machine: machine, seq: seq, keys: ring)
        }
    }

    /// A file-sync tool's conflict copy of a record (or anything else that is not a record name).
    private func handleCopy(
        _ name: String, machine: UUID, ring: SyncKeyRing, seqs: inout Set<UInt64>, into outcome: inout Outcome
    ) throws {
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
            copy.map { (try? RecordCodec.open($0, vaultID: vaultID, machine: machine, seq: seq, keys: ring)) != nil }
            ?? false
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
        case .undecodable(let detail)?: return .undecodable(detail: detail)
        default: return .other(detail: "\(error)")
        }
    }
}
