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
    let tree: URL
    let vaultID: UUID
    let me: UUID
    /// Only a synced folder gets conflict copies, and only there are they cleaned: in git a
    /// removed file would look like a rewritten remote to the other machines.
    let tidiesCopies: Bool

    struct Found {
        var record: SyncRecord
        var seen: RecordSeen
    }

    struct Outcome {
        var records: [Found] = []
        var findings: [String] = []
        var pending: [String] = []
        var notes: [String] = []
    }

    var logRoot: URL { tree.appendingPathComponent(RemoteLayout.logDirectory) }

    /// `unlock` is asked for a key the ring lacks (another machine rotated the vault key): it
    /// returns it or nil.
    func scan(main: inout SyncMain, ring: inout SyncKeyRing, unlock: (UUID, UInt64, [UInt8]) throws -> SyncKey?) throws -> Outcome {
        var outcome = Outcome()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: logRoot.path)) ?? []
        var present: Set<UUID> = []
        for name in names.sorted() {
            if name.hasPrefix(DurableFile.tempPrefix) { continue }
            guard let machine = RemoteLayout.machineID(fromHex: name) else {
                outcome.notes.append("unexpected entry in the remote, left alone: \(RemoteLayout.logDirectory)/\(name)")
                continue
            }
            present.insert(machine)
        }
        for (machine, log) in main.logs where log.seen > 0 && !present.contains(machine) {
            outcome.findings.append("the log of machine '\(log.name)' is gone (this machine had read \(log.seen) record(s) of it)")
        }
        for machine in present.sorted(by: { $0.bytes.lexicographicallyPrecedes($1.bytes) }) {
            try scanLog(machine, main: &main, ring: &ring, unlock: unlock, into: &outcome)
        }
        tidyOutsideTheLogs(into: &outcome)
        return outcome
    }

    /// Conflict copies of published headers and of the marker: identical ones removed, a lone
    /// copy put back (a header proves itself when the passphrase opens it), anything else
    /// reported. Unknown names at the top are reported too.
    private func tidyOutsideTheLogs(into outcome: inout Outcome) {
        let fm = FileManager.default
        let keys = tree.appendingPathComponent(RemoteLayout.keysDirectory)
        for name in ((try? fm.contentsOfDirectory(atPath: keys.path)) ?? []).sorted()
        where !name.hasPrefix(".") && RemoteLayout.header(fromName: name) == nil {
            let shown = "\(RemoteLayout.keysDirectory)/\(name)"
            guard let original = RemoteLayout.conflictCopyOriginal(name), RemoteLayout.header(fromName: original) != nil else {
                outcome.notes.append("unexpected file in the remote, left alone: \(shown)")
                continue
            }
            tidyCopy(keys.appendingPathComponent(name), of: keys.appendingPathComponent(original), shown: shown, into: &outcome)
        }
        for name in ((try? fm.contentsOfDirectory(atPath: tree.path)) ?? []).sorted() where !name.hasPrefix(".") {
            if [RemoteLayout.marker, RemoteLayout.logDirectory, RemoteLayout.keysDirectory].contains(name) { continue }
            if RemoteLayout.conflictCopyOriginal(name) == RemoteLayout.marker {
                tidyCopy(tree.appendingPathComponent(name), of: tree.appendingPathComponent(RemoteLayout.marker), shown: name,
                         into: &outcome, putBack: false)
            } else {
                outcome.notes.append("unexpected file in the remote, left alone: \(name)")
            }
        }
    }

    private func tidyCopy(_ copy: URL, of original: URL, shown: String, into outcome: inout Outcome, putBack: Bool = true) {
        guard tidiesCopies else {
            outcome.notes.append("unexpected file in the remote, left alone: \(shown)")
            return
        }
        let copyBytes = (try? DurableFile.read(copy, limit: 64 << 10)) ?? nil
        let originalBytes = (try? DurableFile.read(original, limit: 64 << 10)) ?? nil
        if let copyBytes, copyBytes == originalBytes {
            try? FileManager.default.removeItem(at: copy)
            outcome.notes.append("removed a conflict copy identical to its file: \(shown)")
        } else if originalBytes == nil, putBack, (try? FileManager.default.moveItem(at: copy, to: original)) != nil {
            outcome.notes.append("put back a file a sync tool had left only as a conflict copy: \(shown)")
        } else {
            outcome.notes.append("conflict copy that differs from its file, left alone: \(shown)")
        }
    }

    private func scanLog(
        _ machine: UUID, main: inout SyncMain, ring: inout SyncKeyRing,
        unlock: (UUID, UInt64, [UInt8]) throws -> SyncKey?, into outcome: inout Outcome
    ) throws {
        let dir = logRoot.appendingPathComponent(RemoteLayout.hex(machine))
        var log = main.logs[machine] ?? LogState(name: "machine \(RemoteLayout.hex(machine).prefix(8))")
        var seqs = Set<UInt64>()
        var copies: [String] = []
        for name in (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? [] {
            if name.hasPrefix(DurableFile.tempPrefix) { continue }
            if let seq = RemoteLayout.seq(fromName: name) { seqs.insert(seq) } else { copies.append(name) }
        }
        for copy in copies.sorted() {
            try handleCopy(copy, in: dir, machine: machine, ring: ring, seqs: &seqs, into: &outcome)
        }
        // What was read before must still be there, byte for byte.
        for seq in stride(from: UInt64(1), through: log.seen, by: 1) {
            let name = RemoteLayout.recordName(seq)
            let url = dir.appendingPathComponent(name)
            let known = log.records[Int(seq - 1)]
            guard seqs.contains(seq), let stamp = Self.stamp(url) else {
                outcome.findings.append("record \(seq) of machine '\(log.name)' was removed (this machine had read up to \(log.seen))")
                continue
            }
            if stamp == known.stat { continue }
            let bytes = (try? DurableFile.read(url, limit: RecordCodec.maximumFileBytes)) ?? nil
            if let bytes, RecordCodec.hash(bytes) == known.hash {
                log.records[Int(seq - 1)].stat = stamp
            } else {
                outcome.findings.append("record \(seq) of machine '\(log.name)' was replaced or truncated after this machine read it")
            }
        }
        // New records, in order, while each one is there.
        var next = log.seen + 1
        while seqs.contains(next) {
            let path = RemoteLayout.recordPath(machine: machine, seq: next)
            let url = tree.appendingPathComponent(path)
            guard let stamp = Self.stamp(url),
                  let bytes = try? DurableFile.read(url, limit: RecordCodec.maximumFileBytes) else {
                outcome.findings.append("\(path) cannot be read (not a regular file, or too large)")
                break
            }
            // In a synced folder, a record not read before that is only the beginning of one is
            // still being copied (git delivers whole files: there it is an edit).
            if tidiesCopies, RecordCodec.looksIncomplete(bytes) {
                outcome.pending.append("\(path) is still arriving (\(bytes.count) bytes so far)")
                break
            }
            var record: SyncRecord
            do {
                record = try open(bytes, machine: machine, seq: next, ring: &ring, unlock: unlock)
            } catch let error as SyncError {
                throw error
            } catch RecordError.unknownKey {
                outcome.pending.append("\(path) is sealed under a key this machine does not have yet")
                break
            } catch RecordError.unsupportedVersion(let version) {
                outcome.findings.append("\(path) is a record of version \(version), which this diary does not read: upgrade diary on this machine")
                break
            } catch RecordError.otherVault(let other) {
                outcome.findings.append("\(path) belongs to another vault (\(other.uuidString.lowercased()))")
                break
            } catch {
                outcome.findings.append("\(path) is not an authentic record of this vault (\(Self.describe(error))): edited, swapped or damaged")
                break
            }
            let expected = next == 1 ? [UInt8](repeating: 0, count: RecordCodec.hashLength) : log.records[Int(next - 2)].hash
            guard record.previous == expected else {
                outcome.findings.append("\(path) does not follow record \(next - 1) of its machine (a replaced, removed or reordered record)")
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
        if let later = seqs.filter({ $0 > next }).min(), !seqs.contains(next) {
            outcome.pending.append("machine '\(log.name)': record \(next) has not arrived yet (record \(later) has)")
        }
        main.logs[machine] = log
    }

    private func open(
        _ bytes: [UInt8], machine: UUID, seq: UInt64, ring: inout SyncKeyRing,
        unlock: (UUID, UInt64, [UInt8]) throws -> SyncKey?
    ) throws -> SyncRecord {
        do {
            return try RecordCodec.open(bytes, vaultID: vaultID, machine: machine, seq: seq, keys: ring)
        } catch .unknownKey {
            let keyID = try RecordCodec.peek(bytes).keyID
            guard let key = try unlock(machine, seq, keyID), key.id == keyID else { throw RecordError.unknownKey }
            ring.add(key)
            return try RecordCodec.open(bytes, vaultID: vaultID, machine: machine, seq: seq, keys: ring)
        }
    }

    /// A file-sync tool's conflict copy of a record (or anything else that is not a record name).
    private func handleCopy(
        _ name: String, in dir: URL, machine: UUID, ring: SyncKeyRing, seqs: inout Set<UInt64>,
        into outcome: inout Outcome
    ) throws {
        let url = dir.appendingPathComponent(name)
        let shown = "\(RemoteLayout.logDirectory)/\(RemoteLayout.hex(machine))/\(name)"
        guard tidiesCopies else {
            outcome.notes.append("unexpected file in the remote, left alone: \(shown)")
            return
        }
        guard let original = RemoteLayout.conflictCopyOriginal(name), let seq = RemoteLayout.seq(fromName: original) else {
            outcome.notes.append("unexpected file in the remote, left alone: \(shown)")
            return
        }
        let copy = (try? DurableFile.read(url, limit: RecordCodec.maximumFileBytes)) ?? nil
        let originalURL = dir.appendingPathComponent(original)
        let current = (try? DurableFile.read(originalURL, limit: RecordCodec.maximumFileBytes)) ?? nil
        if let copy, let current, copy == current {
            try? FileManager.default.removeItem(at: url)
            outcome.notes.append("removed a conflict copy identical to its record: \(shown)")
            return
        }
        let authentic = copy.map { (try? RecordCodec.open($0, vaultID: vaultID, machine: machine, seq: seq, keys: ring)) != nil } ?? false
        if current == nil, authentic {
            try FileManager.default.moveItem(at: url, to: originalURL)
            seqs.insert(seq)
            outcome.notes.append("put back a record a sync tool had left only as a conflict copy: \(shown)")
        } else if authentic {
            outcome.findings.append("machine \(RemoteLayout.hex(machine).prefix(8)) wrote two different records \(seq) (\(shown)): a copied machine or a forged log")
        } else {
            outcome.notes.append("conflict copy that is not an authentic record, left alone: \(shown)")
        }
    }

    static func describe(_ error: Error) -> String {
        switch error as? RecordError {
        case .notARecord?: return "not a record"
        case .unsupportedVersion(let v)?: return "record version \(v)"
        case .wrongPlace?: return "carries another name"
        case .damaged(let detail)?: return detail
        default: return "\(error)"
        }
    }

    static func stamp(_ url: URL) -> FileStamp? {
        var info = stat()
        guard lstat(url.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return FileStamp(
            size: UInt64(info.st_size), inode: UInt64(info.st_ino),
            modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
            changed: Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec))
    }
}
