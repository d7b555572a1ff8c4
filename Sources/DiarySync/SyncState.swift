import DiaryCrypto
import DiaryStore
import DiaryVault
import Foundation

/// What this machine saw of one machine's log.
struct LogState: Equatable {
    var name: String
    /// The highest record read and taken in (0: none).
    var seen: UInt64 = 0
    /// Per record read, its hash and the file's stat data when read: a later sync re-hashes
    /// only records whose stat data moved, so an old record replaced in a synced folder is
    /// caught without reading every record every time.
    var records: [RecordSeen] = []
}

struct RecordSeen: Equatable {
    var hash: [UInt8]
    var stat: FileStamp
}

/// The stat fields that change when a file is replaced or rewritten.
struct FileStamp: Equatable {
    var size: UInt64
    var inode: UInt64
    var modified: Int64
    var changed: Int64

    static let none = FileStamp(size: 0, inode: 0, modified: 0, changed: 0)
}

/// This machine's sync state, apart from the per-entry pages (docs/FORMAT.md §12.6). Sealed
/// under the state key of the vault key, in `$XDG_STATE_HOME/diary/sync/…`.
struct SyncMain {
    var machine: UUID
    var machineName: String
    var lamport: UInt64 = 0
    /// The last git commit this machine fetched or pushed (empty for a folder).
    var remoteCommit: String = ""
    /// The key change this machine follows: (lamport, machine, seq) of its record.
    var adoptedKeyChange: KeyChangeID?
    /// Every vault key this machine can open records with, by generation.
    var keys: [(generation: UInt32, key: SecretBytes)] = []
    /// The index page tags when sync last looked at the local vault.
    var indexTags: [[UInt8]] = []
    var logs: [UUID: LogState] = [:]
    /// Entries with more than one head.
    var conflicts: Set<UUID> = []
    /// A passphrase change or key rotation made here, to publish at the next sync.
    var pendingKeyChange: KeyChange?
    /// Revisions made here (resolutions) to publish at the next sync.
    var pendingRevisions: [Revision] = []
    /// BLAKE2b-128 of the local vault header as of the last sync (empty before the first):
    /// a header changed since, with no key change waiting, is published (an interrupted
    /// `passwd`).
    var headerDigest: [UInt8] = []
}

/// Orders key changes the same way on every machine, without a clock: a newer key generation
/// first (a rotation is never undone by a passphrase change made before it was seen), then
/// lamport, machine and seq.
struct KeyChangeID: Equatable, Comparable {
    var generation: UInt32
    var lamport: UInt64
    var machine: UUID
    var seq: UInt64

    static func < (a: KeyChangeID, b: KeyChangeID) -> Bool {
        if a.generation != b.generation { return a.generation < b.generation }
        if a.lamport != b.lamport { return a.lamport < b.lamport }
        if a.machine != b.machine { return a.machine.bytes.lexicographicallyPrecedes(b.machine.bytes) }
        return a.seq < b.seq
    }
}

enum StateCodec {
    static let version: UInt8 = 1
    /// The index page tag recorded for a page to look at again next time: 16 bytes (every
    /// tag is stored without a length) that no sealed page has.
    static let unknownTag = [UInt8](repeating: 0xff, count: 16)

    static func encode(_ s: SyncMain) -> [UInt8] {
        var w = ByteWriter()
        w.u8(version)
        w.uuid(s.machine)
        w.string16(s.machineName)
        w.u64(s.lamport)
        w.string16(s.remoteCommit)
        if let k = s.adoptedKeyChange {
            w.u8(1)
            w.u32(k.generation)
            w.u64(k.lamport)
            w.uuid(k.machine)
            w.u64(k.seq)
        } else {
            w.u8(0)
        }
        w.u8(UInt8(s.keys.count))
        for k in s.keys {
            w.u32(k.generation)
            k.key.withUnsafeBytes { w.append(Array($0)) }
        }
        w.u16(UInt16(s.indexTags.count))
        for tag in s.indexTags {
            precondition(tag.count == 16, "an index page tag is 16 bytes")
            w.append(tag)
        }
        w.u32(UInt32(s.logs.count))
        for (machine, log) in s.logs {
            w.uuid(machine)
            w.string16(log.name)
            w.u64(log.seen)
            w.u32(UInt32(log.records.count))
            for r in log.records {
                w.append(r.hash)
                w.u64(r.stat.size)
                w.u64(r.stat.inode)
                w.i64(r.stat.modified)
                w.i64(r.stat.changed)
            }
        }
        w.u32(UInt32(s.conflicts.count))
        for id in s.conflicts { w.uuid(id) }
        var pending = SyncRecord(
            machine: s.machine, seq: 0, previous: [UInt8](repeating: 0, count: 32), lamport: 1,
            machineName: "", revisions: s.pendingRevisions)
        pending.machineName = ""
        var encodedPending = RecordCodec.encode(pending)
        w.u32(UInt32(encodedPending.count))
        w.append(encodedPending)
        secureZero(&encodedPending)
        KeyChange.encode(s.pendingKeyChange, to: &w)
        w.u8(UInt8(s.headerDigest.count))
        w.append(s.headerDigest)
        return w.bytes
    }

    static func decode(_ bytes: [UInt8]) throws -> SyncMain {
        var r = ByteReader(bytes)
        guard try r.u8() == version else { throw FormatError.unsupportedVersion(Int(bytes[0])) }
        var s = SyncMain(machine: try r.uuid(), machineName: try r.string16())
        s.lamport = try r.u64()
        s.remoteCommit = try r.string16()
        if try r.u8() == 1 {
            s.adoptedKeyChange = KeyChangeID(
                generation: try r.u32(), lamport: try r.u64(), machine: try r.uuid(), seq: try r.u64())
        }
        for _ in 0..<Int(try r.u8()) {
            let generation = try r.u32()
            var raw = try r.take(32)
            s.keys.append((generation, try SecretBytes(consuming: &raw)))
        }
        s.indexTags = try (0..<Int(try r.u16())).map { _ in try r.take(16) }
        for _ in 0..<Int(try r.u32()) {
            let machine = try r.uuid()
            var log = LogState(name: try r.string16(), seen: try r.u64())
            for _ in 0..<Int(try r.u32()) {
                log.records.append(
                    RecordSeen(
                        hash: try r.take(RecordCodec.hashLength),
                        stat: FileStamp(
                            size: try r.u64(), inode: try r.u64(), modified: try r.i64(), changed: try r.i64())))
            }
            s.logs[machine] = log
        }
        for _ in 0..<Int(try r.u32()) { s.conflicts.insert(try r.uuid()) }
        var raw = try r.take(Int(try r.u32()))
        defer { secureZero(&raw) }
        let pending = try RecordCodec.decode(raw, machine: s.machine, seq: 0)
        s.pendingRevisions = pending.revisions
        s.pendingKeyChange = try KeyChange.decode(&r)
        // Absent from states written before it existed (nothing to compare with yet).
        s.headerDigest = r.isAtEnd ? [] : try r.take(Int(try r.u8()))
        try r.expectEnd()
        return s
    }

    static func encode(page: [UUID: EntryHeads]) -> [UInt8] {
        var w = ByteWriter()
        w.u8(version)
        w.u32(UInt32(page.count))
        for (id, e) in page {
            w.uuid(id)
            if let shown = e.shown { w.u8(1); w.uuid(shown) } else { w.u8(0) }
            if let tag = e.sealTag { w.u8(1); w.append(tag) } else { w.u8(0) }
            w.append(e.shownDigest)
            w.u32(UInt32(e.awaited.count))
            for a in e.awaited { w.uuid(a) }
            w.u16(UInt16(e.heads.count))
            for h in e.heads {
                w.uuid(h.revision)
                w.u64(h.lamport)
                w.uuid(h.machine)
                w.u8(h.deleted ? 1 : 0)
                w.append(h.digest)
                if let content = h.content {
                    var bytes = SyncedEntryCodec.encode(content)
                    w.u32(UInt32(bytes.count))
                    w.append(bytes)
                    secureZero(&bytes)
                } else {
                    w.u32(0)
                }
            }
        }
        return w.bytes
    }

    static func decodePage(_ bytes: [UInt8]) throws -> [UUID: EntryHeads] {
        var r = ByteReader(bytes)
        guard try r.u8() == version else { throw FormatError.unsupportedVersion(Int(bytes[0])) }
        var page: [UUID: EntryHeads] = [:]
        for _ in 0..<Int(try r.u32()) {
            let id = try r.uuid()
            var e = EntryHeads()
            if try r.u8() == 1 { e.shown = try r.uuid() }
            if try r.u8() == 1 { e.sealTag = try r.take(16) }
            e.shownDigest = try r.take(16)
            for _ in 0..<Int(try r.u32()) { e.awaited.insert(try r.uuid()) }
            for _ in 0..<Int(try r.u16()) {
                var h = Head(
                    revision: try r.uuid(), lamport: try r.u64(), machine: try r.uuid(), content: nil,
                    deleted: try r.u8() == 1, digest: try r.take(16))
                let length = Int(try r.u32())
                if length > 0 {
                    var raw = try r.take(length)
                    defer { secureZero(&raw) }
                    h.content = try SyncedEntryCodec.decode(raw, id: id)
                }
                e.heads.append(h)
            }
            page[id] = e
        }
        try r.expectEnd()
        return page
    }

    /// `count u32 | count × (id[16] | seal tag[16])`, in no particular order.
    static func encode(seen: [UUID: [UInt8]]) -> [UInt8] {
        var w = ByteWriter(capacity: 4 + seen.count * 32)
        w.u32(UInt32(seen.count))
        for (id, tag) in seen {
            w.uuid(id)
            w.append(tag)
        }
        return w.bytes
    }

    /// Read in place: this runs on every sync over a page of up to a few thousand rows.
    static func decodeSeen(_ bytes: [UInt8]) throws -> [UUID: [UInt8]] {
        guard bytes.count >= 4 else { throw FormatError.truncated }
        let count = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        guard bytes.count == 4 + count * 32 else { throw FormatError.invalidField("seen rows") }
        var rows = [UUID: [UInt8]](minimumCapacity: count)
        bytes.withUnsafeBufferPointer { b in
            for i in 0..<count {
                let o = 4 + i * 32
                let id = UUID(
                    uuid: (
                        b[o], b[o + 1], b[o + 2], b[o + 3], b[o + 4], b[o + 5], b[o + 6], b[o + 7],
                        b[o + 8], b[o + 9], b[o + 10], b[o + 11], b[o + 12], b[o + 13], b[o + 14], b[o + 15]
                    ))
                rows[id] = Array(b[(o + 16)..<(o + 32)])
            }
        }
        return rows
    }
}
