import DiaryStore
import Foundation

/// A version 1 index: one sealed object with every entry's row (vaults written before index
/// pages). Read so such a vault can be upgraded in place; never written by `diary`.
struct LegacyIndex: Equatable {
    var generation: UInt64
    var rows: [UUID: LegacyIndexRow]
}

/// A version 1 row: the summary plus the BLAKE2b-256 of the sealed entry as stored.
struct LegacyIndexRow: Equatable {
    var summary: EntrySummary
    var sealedHash: [UInt8]
}

/// The plaintext of a version 1 sealed index (docs/FORMAT.md §7.3):
/// `version u8 | generation u64 | count u32 | rows…`, each row
/// `id 16 | date i64 | created i64 | modified i64 | flags u8 | size u32 | sealed hash 32 |
/// title (u16 + UTF-8) | tag count u8 | tags (u16 + UTF-8)… | source (u16 + UTF-8, empty = none)`.
enum LegacyIndexCodec {
    static let version: UInt8 = 1

    /// Only tests write this version (to check the upgrade).
    static func encode(_ index: LegacyIndex) -> [UInt8] {
        var w = ByteWriter(capacity: 64 + index.rows.count * 128)
        w.u8(version)
        w.u64(index.generation)
        w.u32(UInt32(index.rows.count))
        // Sorted by id so the same index always encodes to the same bytes. The order of the
        // canonical uppercase strings is the order of the 16 bytes read as a big-endian number
        // (hex digits and dashes sit at fixed places; ASCII puts 0-9 before A-F); comparing
        // those saves formatting two strings per comparison (seconds at 100,000 entries).
        let ordered = index.rows.values.map { (key: $0.summary.id.sortKey, row: $0) }.sorted { $0.key < $1.key }
        for (_, row) in ordered {
            let s = row.summary
            w.uuid(s.id)
            w.i64(s.date.millisecondsSince1970)
            w.i64(s.created.millisecondsSince1970)
            w.i64(s.modified.millisecondsSince1970)
            w.u8(s.starred ? EntryCodec.starredFlag : 0)
            w.u32(UInt32(s.size))
            w.append(row.sealedHash)
            w.string16(s.title)
            w.u8(UInt8(s.tags.count))
            for tag in s.tags { w.string16(tag) }
            w.string16(s.source ?? "")
        }
        return w.bytes
    }

    static func decode(_ bytes: [UInt8]) throws -> LegacyIndex {
        var r = ByteReader(bytes)
        guard try r.u8() == version else { throw FormatError.unsupportedVersion(Int(bytes[0])) }
        let generation = try r.u64()
        let count = Int(try r.u32())
        // Each row takes at least 82 bytes: a count that cannot fit is a lie, refuse it
        // before reserving memory for it.
        guard count <= r.remaining / 82 else { throw FormatError.invalidField("row count") }
        var rows: [UUID: LegacyIndexRow] = [:]
        rows.reserveCapacity(count)
        for _ in 0..<count {
            let id = try r.uuid()
            let date = try r.time()
            let created = try r.time()
            let modified = try r.time()
            let flags = try r.u8()
            guard flags & ~EntryCodec.starredFlag == 0 else { throw FormatError.invalidField("flags") }
            let size = Int(try r.u32())
            let hash = try r.take(32)
            let title = try r.string16()
            let tagCount = Int(try r.u8())
            var tags: [String] = []
            for _ in 0..<tagCount { tags.append(try r.string16()) }
            let source = try r.string16()
            let summary = EntrySummary(
                id: id, title: title, date: date, created: created, modified: modified,
                starred: flags & EntryCodec.starredFlag != 0, tags: tags, size: size,
                source: source.isEmpty ? nil : source)
            guard rows.updateValue(LegacyIndexRow(summary: summary, sealedHash: hash), forKey: id) == nil else {
                throw FormatError.invalidField("duplicate id")
            }
        }
        try r.expectEnd()
        return LegacyIndex(generation: generation, rows: rows)
    }
}

extension Entry {
    var summary: EntrySummary {
        EntrySummary(id: id, title: title, date: date, created: created, modified: modified,
                     starred: starred, tags: tags, size: text.utf8.count, source: source)
    }
}
