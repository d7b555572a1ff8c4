import DiaryCrypto
import DiaryStore
import DiaryVault
import Foundation

/// The plaintext of a record (docs/FORMAT.md §12, Records), read strictly: one encoding per
/// record, nothing after the last operation.
extension RecordCodec {
    private enum Op: UInt8 {
        case put = 1
        case delete = 2
        // 3 was format 1's key change: key changes are statements now, and a 3 is refused.
        case join = 4
    }

    static func encode(_ record: SyncRecord) -> [UInt8] {
        precondition(record.previous.count == hashLength && record.epochHash.count == hashLength, "hashes are 32 bytes")
        var w = ByteWriter()
        w.u8(plaintextVersion)
        w.append(record.previous)
        w.u64(record.lamport)
        w.u64(record.written)
        w.string16(record.machineName)
        w.u64(record.epochSeq)
        w.append(record.epochHash)
        let vector = record.vector.sorted { $0.machine.precedes($1.machine) }
        w.u16(UInt16(vector.count))
        for mark in vector { writeMark(mark, to: &w) }
        w.u32(UInt32(record.revisions.count + (record.join == nil ? 0 : 1)))
        for revision in record.revisions { write(revision, to: &w) }
        if let join = record.join {
            w.u8(Op.join.rawValue)
            w.append(join.publicKey)
            w.append(join.inviteID)
            w.append(join.proof)
        }
        return w.bytes
    }

    /// The plaintext of record `seq` of `machine`'s log, refused unless it is in the one form
    /// `encode` writes.
    static func decode(_ bytes: [UInt8], machine: UUID, seq: UInt64) throws(RecordError) -> SyncRecord {
        do {
            var r = ByteReader(bytes)
            guard try r.u8() == plaintextVersion else { throw RecordError.undecodable("plaintext version") }
            var record = SyncRecord(
                machine: machine, seq: seq, previous: try r.take(hashLength), lamport: try r.u64(),
                machineName: "")
            guard lamportRange.contains(record.lamport) else { throw RecordError.lamportOutOfRange }
            record.written = try r.u64()
            record.machineName = try r.string16()
            record.epochSeq = try r.u64()
            record.epochHash = try r.take(hashLength)
            record.vector = try readVector(&r, writer: machine)
            let count = try r.u32()
            for _ in 0..<count {
                guard let op = Op(rawValue: try r.u8()) else { throw RecordError.undecodable("operation") }
                if op == .join {
                    guard count == 1, seq == 1 else { throw RecordError.undecodable("join not alone in record 1") }
                    record.join = JoinRequest(
                        publicKey: try r.take(Ed25519.publicKeyByteCount), inviteID: try r.take(8),
                        proof: try r.take(32))
                } else {
                    record.revisions.append(try readRevision(&r, isPut: op == .put))
                }
            }
            try r.expectEnd()
            return record
        } catch let error as RecordError {
            throw error
        } catch {
            throw .undecodable("\(error)")
        }
    }

    static func writeMark(_ mark: LogMark, to w: inout ByteWriter) {
        precondition(mark.hash.count == hashLength, "a log mark's hash is 32 bytes")
        w.uuid(mark.machine)
        w.u64(mark.seq)
        w.append(mark.hash)
    }

    /// `u16 count` marks, sorted by machine id and unique; none for `writer` (records name
    /// the other logs only; statements pass nil).
    static func readVector(_ r: inout ByteReader, writer: UUID?) throws -> [LogMark] {
        let marks = try (0..<Int(try r.u16())).map { _ in
            LogMark(machine: try r.uuid(), seq: try r.u64(), hash: try r.take(hashLength))
        }
        for (a, b) in zip(marks, marks.dropFirst()) where !a.machine.precedes(b.machine) {
            throw RecordError.undecodable("log marks not sorted and unique")
        }
        if let writer, marks.contains(where: { $0.machine == writer }) {
            throw RecordError.undecodable("a log mark for the writer's own log")
        }
        return marks
    }

    static func write(_ revision: Revision, to w: inout ByteWriter) {
        w.u8(revision.content == nil ? Op.delete.rawValue : Op.put.rawValue)
        w.uuid(revision.entry)
        w.uuid(revision.id)
        w.u16(UInt16(revision.parents.count))
        for parent in revision.parents { w.uuid(parent) }
        if let content = revision.content {
            var bytes = SyncedEntryCodec.encode(content)
            w.u32(UInt32(bytes.count))
            w.append(bytes)
            secureZero(&bytes)
        }
    }

    static func readRevision(_ r: inout ByteReader, isPut: Bool) throws -> Revision {
        let entry = try r.uuid()
        let id = try r.uuid()
        let parents = try (0..<Int(try r.u16())).map { _ in try r.uuid() }
        var content: Entry?
        if isPut {
            let length = Int(try r.u32())
            guard length <= SyncedEntryCodec.maximumLength else { throw FormatError.fieldTooLarge }
            var raw = try r.take(length)
            defer { secureZero(&raw) }
            content = try SyncedEntryCodec.decode(raw, id: entry)
        }
        return Revision(entry: entry, id: id, parents: parents, content: content)
    }
}

extension RecordCodec {
    /// The highest lamport a record may carry.
    static var maximumLamport: UInt64 { lamportRange.upperBound }

    /// Revisions alone (`u32 count` then each as a record carries it): what a machine keeps in
    /// its state until its next record.
    static func encodeRevisions(_ revisions: [Revision]) -> [UInt8] {
        var w = ByteWriter()
        w.u32(UInt32(revisions.count))
        for revision in revisions { write(revision, to: &w) }
        return w.bytes
    }

    static func decodeRevisions(_ bytes: [UInt8]) throws -> [Revision] {
        var r = ByteReader(bytes)
        var revisions: [Revision] = []
        for _ in 0..<Int(try r.u32()) {
            let op = try r.u8()
            guard op == 1 || op == 2 else { throw FormatError.invalidField("operation") }
            revisions.append(try readRevision(&r, isPut: op == 1))
        }
        try r.expectEnd()
        return revisions
    }
}

extension SyncKey {
    /// The key id format 1 gave this key (BLAKE2b-128 of the record key): how a state file
    /// sealed by format 1 is recognised.
    var formerID: [UInt8] { recordKey.withUnsafeBytes { BLAKE2b.hash(Array($0), outputCount: 16) } }
}
