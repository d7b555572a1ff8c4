import DiaryCrypto
import DiaryStore
import DiaryVault
import Foundation

/// This machine's `state` file (docs/FORMAT.md §12.6), version 2. Version 1 (sync format 1)
/// is recognised to say so; it is not read.
enum StateCodec {
    static let version: UInt8 = 2
    /// The index page tag recorded for a page to look at again next time: 16 bytes (every
    /// tag is stored without a length) that no sealed page has.
    static let unknownTag = [UInt8](repeating: 0xff, count: 16)

    static func encode(_ s: SyncMain) -> [UInt8] {
        var w = ByteWriter()
        w.u8(version)
        w.uuid(s.machine)
        w.string16(s.machineName)
        s.signingKey.withUnsafeBytes { w.append(Array($0)) }
        w.u64(s.lamport)
        w.string16(s.remoteCommit)
        encode(s.chain, into: &w)
        w.u16(UInt16(s.recordKeys.count))
        for k in s.recordKeys { encode(k, into: &w) }
        w.u16(UInt16(s.indexTags.count))
        for tag in s.indexTags {
            precondition(tag.count == 16, "an index page tag is 16 bytes")
            w.append(tag)
        }
        w.u32(UInt32(s.logs.count))
        for (machine, log) in s.logs.sorted(by: { $0.key.bytes.lexicographicallyPrecedes($1.key.bytes) }) {
            w.uuid(machine)
            encode(log, into: &w)
        }
        w.u32(UInt32(s.conflicts.count))
        for id in s.conflicts { w.uuid(id) }
        var pending = RecordCodec.encodeRevisions(s.pendingRevisions)
        w.u32(UInt32(pending.count))
        w.append(pending)
        secureZero(&pending)
        encode(s.pendingChange, into: &w)
        w.u8(UInt8(s.invites.count))
        for invite in s.invites {
            w.append(invite.id)
            invite.secret.withUnsafeBytes { w.append(Array($0)) }
            w.append(invite.head)
            w.string16(invite.name)
            w.i64(invite.created)
        }
        w.u8(UInt8(s.headerDigest.count))
        w.append(s.headerDigest)
        w.u32(s.forkGeneration)
        return w.bytes
    }

    static func decode(_ bytes: [UInt8]) throws -> SyncMain {
        var r = ByteReader(bytes)
        let v = try r.u8()
        if v == 1 { throw SyncError.stateOfFormat1 }
        guard v == version else { throw FormatError.unsupportedVersion(Int(v)) }
        let machine = try r.uuid()
        let name = try r.string16()
        var raw = try r.take(64)
        var s = SyncMain(machine: machine, machineName: name, signingKey: try SecretBytes(consuming: &raw))
        s.lamport = try r.u64()
        s.remoteCommit = try r.string16()
        s.chain = try decodeChain(&r)
        s.recordKeys = try (0..<Int(try r.u16())).map { _ in try decodeKey(&r) }
        s.indexTags = try (0..<Int(try r.u16())).map { _ in try r.take(16) }
        for _ in 0..<Int(try r.u32()) { s.logs[try r.uuid()] = try decodeLog(&r) }
        for _ in 0..<Int(try r.u32()) { s.conflicts.insert(try r.uuid()) }
        var pending = try r.take(Int(try r.u32()))
        defer { secureZero(&pending) }
        s.pendingRevisions = try RecordCodec.decodeRevisions(pending)
        s.pendingChange = try decodePendingChange(&r)
        for _ in 0..<Int(try r.u8()) {
            let id = try r.take(8)
            var secret = try r.take(16)
            s.invites.append(
                Invite(
                    id: id, secret: try SecretBytes(consuming: &secret), head: try r.take(32), name: try r.string16(),
                    created: try r.i64()))
        }
        s.headerDigest = try r.take(Int(try r.u8()))
        s.forkGeneration = try r.u32()
        try r.expectEnd()
        return s
    }

    private static func encode(_ k: RetiredKey, into w: inout ByteWriter) {
        w.u32(k.generation)
        w.append(k.keyID)
        k.recordKey.withUnsafeBytes { w.append(Array($0)) }
    }

    private static func decodeKey(_ r: inout ByteReader) throws -> RetiredKey {
        let generation = try r.u32()
        let id = try r.take(32)
        var raw = try r.take(32)
        return RetiredKey(generation: generation, keyID: id, recordKey: try SecretBytes(consuming: &raw))
    }

    private static func encode(_ log: LogState, into w: inout ByteWriter) {
        w.string16(log.name)
        w.u64(log.seen)
        w.u64(log.lamport)
        w.u64(log.written)
        w.i64(log.heard)
        w.u64(log.epoch)
        w.u32(UInt32(log.records.count))
        for r in log.records {
            w.append(r.hash)
            w.u64(r.stat.size)
            w.u64(r.stat.inode)
            w.i64(r.stat.modified)
            w.i64(r.stat.changed)
        }
    }

    private static func decodeLog(_ r: inout ByteReader) throws -> LogState {
        var log = LogState(name: try r.string16(), seen: try r.u64())
        log.lamport = try r.u64()
        log.written = try r.u64()
        log.heard = try r.i64()
        log.epoch = try r.u64()
        for _ in 0..<Int(try r.u32()) {
            log.records.append(
                RecordSeen(
                    hash: try r.take(RecordCodec.hashLength),
                    stat: FileStamp(size: try r.u64(), inode: try r.u64(), modified: try r.i64(), changed: try r.i64()))
            )
        }
        return log
    }

    private static func encode(_ change: PendingChange?, into w: inout ByteWriter) {
        guard let change else { return w.u8(0) }
        w.u8(change.kind.rawValue)
        w.u8(UInt8(change.headers.count))
        for (store, header) in change.headers.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            w.string16(store.rawValue)
            w.u16(UInt16(header.count))
            w.append(header)
        }
        w.u8(UInt8(change.retired.count))
        for k in change.retired { encode(k, into: &w) }
        if let removing = change.removing { w.u8(1); w.uuid(removing) } else { w.u8(0) }
        w.u8(change.newPassphrase ? 1 : 0)
    }

    private static func decodePendingChange(_ r: inout ByteReader) throws -> PendingChange? {
        let raw = try r.u8()
        guard raw != 0 else { return nil }
        guard let kind = StatementKind(rawValue: raw) else { throw FormatError.invalidField("pending change") }
        var headers: [StoreKind: [UInt8]] = [:]
        for _ in 0..<Int(try r.u8()) {
            guard let store = StoreKind(rawValue: try r.string16()) else { throw FormatError.invalidField("store") }
            headers[store] = try r.take(Int(try r.u16()))
        }
        let retired = try (0..<Int(try r.u8())).map { _ in try decodeKey(&r) }
        let removing = try r.u8() == 1 ? try r.uuid() : nil
        var change = PendingChange(kind: kind, headers: headers, retired: retired, removing: removing)
        change.newPassphrase = try r.u8() == 1
        return change
    }
}
