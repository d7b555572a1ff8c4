import DiaryCrypto
import DiaryStore
import DiaryVault
import Foundation

/// The per-entry heads files and the `seen-NN` files (docs/FORMAT.md §12.6).
extension StateCodec {
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
