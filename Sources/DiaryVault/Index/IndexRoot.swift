import DiaryCrypto
import DiaryStore
import Foundation

/// The decrypted root of the index: the write counter and the page directory, which names
/// every page and records, for each, its row count, the list key of its newest row and the
/// tag of its sealed copy. The tag binds each page to this root (an older page put back is
/// refused); the newest key lets `list -n 10` read only the pages that can hold the newest
/// entries. Pages are kept in head order (`IndexLayout.heads`).
package struct IndexRoot: Equatable {
    static let tagLength = 16
    static let legacyRecordLength = 4 + 8 + 8 + tagLength
    static let recordLength = 4 + legacyRecordLength

    /// The byte that marks a version-3 root carrying the recovery key's epoch and public key.
    static let recoveryVersion: UInt8 = 4

    /// The page layout's version (`IndexLayout`); a root read as version 4 has layout 3.
    var version: UInt8
    var generation: UInt64
    var pages: [(number: Int, record: PageRecord)]
    /// The recovery key's epoch and public key (docs/FORMAT.md §7): written (as version 4) only
    /// once the epoch is above 0, so a vault that never had a recovery key keeps version 3.
    var recovery: RecoveryBinding = .none
    /// Version 5: the directories naming the pages (`IndexDirectory`), in head order; nil for a
    /// root of an earlier version, which names the pages itself. A decoded root of version 5
    /// has no pages until its directories are read (`SealedIndex`).
    var directories: [(number: Int, record: DirectoryRecord)]?

    package static func == (a: IndexRoot, b: IndexRoot) -> Bool {
        a.version == b.version && a.generation == b.generation && a.pages.elementsEqual(b.pages, by: ==)
            && a.recovery == b.recovery && (a.directories == nil) == (b.directories == nil)
            && a.directories.map { $0.elementsEqual(b.directories!, by: ==) } ?? true
    }

    /// Version 3: `version u8 = 3 | generation u64 | page count u32 |
    /// page count × (page u32 | rows u32 | newest date i64 | newest created i64 | tag 16)`,
    /// in head order. Version 2 (tests build old vaults with it): `version u8 = 2 |
    /// generation u64 | page count u16 = 64 | 64 × (rows u32 | newest date i64 |
    /// newest created i64 | tag 16)`. Version 4: version 3 with `recovery epoch u32 |
    /// recovery public key 32` after the generation.
    package func encoded() -> [UInt8] {
        if let directories { return encodedWithDirectories(directories) }
        var w = ByteWriter(capacity: 49 + pages.count * Self.recordLength)
        let carriesRecovery = recovery.epoch > 0 && version == IndexLayout.version
        w.u8(carriesRecovery ? Self.recoveryVersion : version)
        w.u64(generation)
        if carriesRecovery {
            w.u32(recovery.epoch)
            w.append(recovery.publicKey)
        }
        if version == IndexLayout.legacyVersion { w.u16(UInt16(pages.count)) } else { w.u32(UInt32(pages.count)) }
        for (number, record) in pages {
            if version == IndexLayout.legacyVersion {
                Self.encode(record: record, into: &w)
            } else {
                Self.encode(page: number, record: record, into: &w)
            }
        }
        return w.bytes
    }

    /// One page record of version 3: `page u32 | rows u32 | newest date i64 | newest created i64 | tag 16`.
    static func encode(page: Int, record: PageRecord, into w: inout ByteWriter) {
        w.u32(UInt32(page))
        encode(record: record, into: &w)
    }

    private static func encode(record: PageRecord, into w: inout ByteWriter) {
        w.u32(UInt32(record.rows))
        w.i64(record.newest.date)
        w.i64(record.newest.created)
        w.append(record.tag)
    }

    /// Decodes a root of either version, refusing any directory that is not an exact
    /// partition of the ids: pages in head order, each starting where the one before ended,
    /// the first at head 0 and the last ending at the last head (no gap, no overlap), every
    /// depth within bounds, every count possible.
    package static func decode(_ bytes: [UInt8]) throws -> IndexRoot {
        var r = ByteReader(bytes)
        let stored = try r.u8()
        if stored == IndexDirectory.rootVersion { return try decodeWithDirectories(&r) }
        guard stored == IndexLayout.version || stored == IndexLayout.legacyVersion || stored == recoveryVersion else {
            throw FormatError.unsupportedVersion(Int(stored))
        }
        let version = stored == recoveryVersion ? IndexLayout.version : stored
        var root = IndexRoot(version: version, generation: try r.u64(), pages: [])
        if stored == recoveryVersion {
            root.recovery = RecoveryBinding(epoch: try r.u32(), publicKey: try r.take(SealedBox.publicKeyByteCount))
            guard root.recovery.epoch > 0 else { throw FormatError.invalidField("recovery epoch") }
        }
        let legacy = version == IndexLayout.legacyVersion
        let count = legacy ? Int(try r.u16()) : Int(try r.u32())
        let allowed = legacy ? IndexLayout.legacyPageCount...IndexLayout.legacyPageCount : 64...IndexLayout.headCount
        guard allowed.contains(count), r.remaining == count * (legacy ? legacyRecordLength : recordLength) else {
            throw FormatError.invalidField("page count")
        }
        root.pages.reserveCapacity(count)
        var nextHead = 0
        for position in 0..<count {
            guard !legacy else {
                nextHead = IndexLayout.heads(ofPage: position, version: version).upperBound
                root.pages.append((position, try decodeRecord(&r, version: version)))
                continue
            }
            root.pages.append(try decodePage(&r, startingAt: &nextHead))
        }
        guard nextHead == IndexLayout.headCount else { throw FormatError.invalidField("page directory") }
        try r.expectEnd()
        return root
    }

    /// One page record of version 3 whose page must start at `nextHead`; moves `nextHead` to
    /// where the page ends.
    static func decodePage(_ r: inout ByteReader, startingAt nextHead: inout Int) throws -> (
        number: Int, record: PageRecord
    ) {
        let number = Int(try r.u32())
        guard IndexLayout.isPageNumber(number) else { throw FormatError.invalidField("page number") }
        let heads = IndexLayout.heads(ofPage: number, version: IndexLayout.version)
        guard heads.lowerBound == nextHead else { throw FormatError.invalidField("page directory") }
        nextHead = heads.upperBound
        return (number, try decodeRecord(&r, version: IndexLayout.version))
    }

    static func decodeRecord(_ r: inout ByteReader, version: UInt8) throws -> PageRecord {
        let rows = Int(try r.u32())
        // A row takes at least `IndexPage.minimumRowLength` bytes of a page that can be at
        // most the largest padded object: a larger count is a lie.
        guard rows <= LengthPadding.maximumLength / IndexPage.minimumRowLength else {
            throw FormatError.invalidField("row count")
        }
        let newest = ListKey(date: try r.i64(), created: try r.i64())
        let range = Date.storableMilliseconds
        // Version 3 moves a calendar day's date `dayShownLead` later (`IndexPage.newestKey`).
        let lead = version == IndexLayout.version ? IndexLayout.dayShownLead : 0
        guard
            rows == 0
                ? newest == ListKey(date: 0, created: 0)
                : (range.lowerBound...range.upperBound + lead).contains(newest.date) && range.contains(newest.created)
        else {
            throw FormatError.invalidField("newest row")
        }
        return PageRecord(rows: rows, newest: newest, tag: try r.take(tagLength))
    }
}
