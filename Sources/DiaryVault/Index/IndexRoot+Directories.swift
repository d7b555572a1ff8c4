import DiaryCrypto
import DiaryStore
import Foundation

/// The root of version 5 (docs/FORMAT.md §7), which names directories, not pages:
/// `version u8 = 5 | generation u64 | recovery epoch u32 | recovery public key 32 |
/// directory count u32 | count × (directory u32 | pages u32 | rows u64 | newest date i64 |
/// newest created i64 | tag 16)`, in head order. The recovery fields are always present: zero
/// (the key too) when the vault never had a recovery key.
extension IndexRoot {
    static let directoryRecordLength = 4 + 4 + 8 + 8 + 8 + tagLength
    /// At most 256 directories (all of depth 8) partition the heads; a count above is a lie.
    static let maximumDirectories = 256

    func encodedWithDirectories(_ directories: [(number: Int, record: DirectoryRecord)]) -> [UInt8] {
        var w = ByteWriter(capacity: 49 + directories.count * Self.directoryRecordLength)
        w.u8(IndexDirectory.rootVersion)
        w.u64(generation)
        w.u32(recovery.epoch)
        w.append(recovery.epoch > 0 ? recovery.publicKey : [UInt8](repeating: 0, count: SealedBox.publicKeyByteCount))
        w.u32(UInt32(directories.count))
        for (number, record) in directories {
            w.u32(UInt32(number))
            w.u32(UInt32(record.pages))
            w.u64(UInt64(record.rows))
            w.i64(record.newest.date)
            w.i64(record.newest.created)
            w.append(record.tag)
        }
        return w.bytes
    }

    /// The rest of a version-5 root (its version byte read): the directories, which must
    /// partition the heads exactly, each with counts it could hold. Its pages are read from
    /// the directories (`IndexDirectory.decode`).
    static func decodeWithDirectories(_ r: inout ByteReader) throws -> IndexRoot {
        var root = IndexRoot(version: IndexLayout.version, generation: try r.u64(), pages: [])
        root.recovery = RecoveryBinding(epoch: try r.u32(), publicKey: try r.take(SealedBox.publicKeyByteCount))
        if root.recovery.epoch == 0 {
            guard root.recovery.publicKey.allSatisfy({ $0 == 0 }) else {
                throw FormatError.invalidField("recovery public key")
            }
            root.recovery = .none
        }
        let count = Int(try r.u32())
        guard (1...maximumDirectories).contains(count), r.remaining == count * directoryRecordLength else {
            throw FormatError.invalidField("directory count")
        }
        var directories: [(number: Int, record: DirectoryRecord)] = []
        directories.reserveCapacity(count)
        var nextHead = 0
        var pages = 0
        for _ in 0..<count {
            let number = Int(try r.u32())
            guard IndexDirectory.isDirectoryNumber(number) else { throw FormatError.invalidField("directory number") }
            let heads = IndexDirectory.heads(of: number)
            guard heads.lowerBound == nextHead else { throw FormatError.invalidField("directories") }
            nextHead = heads.upperBound
            let record = try decodeDirectoryRecord(&r, heads: heads.count)
            pages += record.pages
            directories.append((number, record))
        }
        // Every index starts with the 64 pages of depth 6, and pages only ever split.
        guard nextHead == IndexLayout.headCount, pages >= IndexLayout.legacyPageCount else {
            throw FormatError.invalidField("directories")
        }
        try r.expectEnd()
        root.directories = directories
        return root
    }

    /// One directory record, refused when it claims more pages than its heads can hold, more
    /// rows than so many pages can, or a newest key a page could not have.
    private static func decodeDirectoryRecord(_ r: inout ByteReader, heads: Int) throws -> DirectoryRecord {
        let pages = Int(try r.u32())
        guard (1...heads).contains(pages) else { throw FormatError.invalidField("directory page count") }
        let rows = try r.u64()
        guard rows <= UInt64(pages * (LengthPadding.maximumLength / IndexPage.minimumRowLength)) else {
            throw FormatError.invalidField("directory rows")
        }
        let newest = ListKey(date: try r.i64(), created: try r.i64())
        let range = Date.storableMilliseconds
        guard
            rows == 0
                ? newest == ListKey(date: 0, created: 0)
                : (range.lowerBound...range.upperBound + IndexLayout.dayShownLead).contains(newest.date)
                    && range.contains(newest.created)
        else {
            throw FormatError.invalidField("directory newest row")
        }
        return DirectoryRecord(pages: pages, rows: Int(rows), newest: newest, tag: try r.take(tagLength))
    }
}
