import DiaryTestSupport
import Foundation
import Synchronization
import XCTest

@testable import DiaryStore

/// A change that replaces or removes a few entries scrubs their records in the scan copy
/// (zeros in place, docs/FORMAT.md §2.2) instead of removing it, so the next search still reads
/// the copy and opens only those entries' files; a record at a segment's edge, a larger change,
/// a copy of version 1 or one that cannot be read is removed whole, as before.
final class StoreEntryPackScrubTests: XCTestCase {
    private var scratch: StoreScratch!

    override func setUpWithError() throws { scratch = try StoreScratch() }
    override func tearDown() { scratch.cleanUp() }

    /// One record of the copy as a file offset range (header included), its id when live.
    private struct Placed {
        let id: UUID?
        let range: Range<Int>
        let edge: Bool
    }

    /// Every record of the copy, segment by segment.
    private func placed(_ store: FileStore) throws -> [Placed] {
        guard case .opened(let pack) = EntryPack.open(in: store.directory) else { throw POSIXError(.ENOENT) }
        var all: [Placed] = []
        for segment in pack.segments {
            let bytes = try XCTUnwrap(EntryPack.readAt(pack.fd, segment.offset, segment.length))
            bytes.withUnsafeBytes { raw in
                let records = RecordWalk(raw).compactMap { $0 }
                for (n, record) in records.enumerated() {
                    let id =
                        record.scrubbed
                        ? nil : UUID(uuid: raw.loadUnaligned(fromByteOffset: record.offset, as: uuid_t.self))
                    all.append(
                        Placed(
                            id: id, range: segment.offset + record.offset..<segment.offset + record.body.upperBound,
                            edge: n == 0 || n == records.count - 1))
                }
            }
        }
        return all
    }

    /// Ids of records inside a segment (not its first or last), and of records at an edge.
    private func innerAndEdge(_ store: FileStore) throws -> (inner: [UUID], edge: [UUID]) {
        let all = try placed(store)
        return (all.filter { !$0.edge }.compactMap(\.id), all.filter(\.edge).compactMap(\.id))
    }

    /// A scan of `ids` (each lent once, or the test fails), as id → bytes.
    private func scan(_ store: FileStore, among ids: [UUID], file: StaticString = #filePath, line: UInt = #line) throws
        -> [UUID: [UInt8]]
    {
        let seen = Mutex<([UUID: [UInt8]], Int)>(([:], 0))
        try store.withSnapshot { reader in
            let scanner = try XCTUnwrap(reader as? EntryScanning)
            try scanner.scanEntries(among: ids.sorted { $0.sortKey < $1.sortKey }, workers: 3) { _, id, sealed in
                seen.withLock { if $0.0.updateValue([UInt8](sealed), forKey: id) != nil { $0.1 += 1 } }
                return true
            }
        }
        let (lent, twice) = seen.withLock { $0 }
        XCTAssertEqual(twice, 0, "an entry was lent twice", file: file, line: line)
        return lent
    }

    private func packURL(_ store: FileStore) -> URL { store.directory.appendingPathComponent(EntryPack.fileName) }
    private func inode(_ store: FileStore) -> UInt64 {
        var info = stat()
        return stat(packURL(store).path, &info) == 0 ? UInt64(info.st_ino) : 0
    }
    private func copyBytes(_ store: FileStore) throws -> [UInt8] { [UInt8](try Data(contentsOf: packURL(store))) }

    /// The verify view: the copy's form, and its live records that are not their entry's file.
    private func copyCheck(_ store: FileStore) throws -> (problems: [String], stale: [UUID]) {
        try store.withSnapshot { reader in
            var stale: [UUID] = []
            let problems = try XCTUnwrap(reader as? ScanCopyReading).forEachScanCopyRecord { id, sealed in
                if (try? reader.readEntry(id)) != [UInt8](sealed) { stale.append(id) }
            }
            return (problems, stale)
        }
    }

    func testAnEditAndADeleteScrubTheirRecordsInPlaceAndTheCopyStaysInUse() throws {
        let (store, entries) = try scratch.packedFilesStore(entries: EntryPack.minimumEntries + 76)
        var current = entries
        _ = try scan(store, among: Array(entries.keys))
        let before = try placed(store)
        let (inner, _) = try innerAndEdge(store)
        let (edited, deleted) = (inner[0], inner[1])
        let copy = inode(store)

        try store.apply(StoreChange(putEntries: [edited: [4, 5, 6]]))
        try store.apply(StoreChange(deleteEntries: [deleted]))
        current[edited] = [4, 5, 6]
        current[deleted] = nil
        XCTAssertEqual(inode(store), copy, "scrubbed in place, not removed")
        let bytes = try copyBytes(store)
        for id in [edited, deleted] {
            let range = try XCTUnwrap(before.first { $0.id == id }?.range)
            let word = (UInt32(range.count - EntryPack.recordHeaderLength) | EntryPack.scrubbedFlag).bigEndian
            let expected =
                [UInt8](repeating: 0, count: 16) + withUnsafeBytes(of: word) { [UInt8]($0) }
                + [UInt8](repeating: 0, count: range.count - EntryPack.recordHeaderLength)
            XCTAssertEqual(Array(bytes[range]), expected, "\(id): only the length word is left")
        }
        XCTAssertEqual(try placed(store).map(\.range), before.map(\.range), "every other record where it was")
        XCTAssertEqual(try copyCheck(store).problems, [])
        XCTAssertEqual(try copyCheck(store).stale, [])

        // The next scan lends from the same copy and reads the two entries' files.
        XCTAssertEqual(try scan(store, among: Array(current.keys)), current)
        XCTAssertEqual(inode(store), copy, "not written again for two entries")
        try Data([9]).write(to: store.directory.appendingPathComponent("entries/" + FileStore.fileName(for: inner[2])))
        XCTAssertEqual(try scan(store, among: Array(current.keys))[inner[2]], entries[inner[2]], "read from the copy")
    }

    /// The same in a change written in parts (an import's or a sync's), and a change in parts
    /// that only adds scrubs nothing.
    func testAChangeInPartsScrubsWhatItReplacesOrRemoves() throws {
        let (store, entries) = try scratch.packedFilesStore(entries: EntryPack.minimumEntries + 76)
        var current = entries
        _ = try scan(store, among: Array(entries.keys))
        let (inner, _) = try innerAndEdge(store)
        let copy = inode(store)
        let unchanged = try copyBytes(store)
        let new = UUID()
        try store.apply(inParts: { put in
            try put([new: [1]])
            return StoreChange()
        })
        current[new] = [1]
        XCTAssertEqual(try copyBytes(store), unchanged, "an add leaves the copy as it was")
        try store.apply(inParts: { put in
            try put([inner[0]: [2]])
            return StoreChange(deleteEntries: [inner[1]])
        })
        current[inner[0]] = [2]
        current[inner[1]] = nil
        XCTAssertEqual(inode(store), copy)
        XCTAssertFalse(try placed(store).contains { $0.id == inner[0] || $0.id == inner[1] })
        XCTAssertEqual(try scan(store, among: Array(current.keys)), current)
        XCTAssertEqual(try copyCheck(store).stale, [])
    }

    /// The trailer names a segment's first and last ids, so their records are never scrubbed:
    /// the copy goes. So it does for a change of more entries than `scrubLimit`, and for a
    /// copy of version 1, which has no scrubbed records.
    func testAnEdgeRecordALargeChangeOrAVersion1CopyRemovesTheCopy() throws {
        let (store, entries) = try scratch.packedFilesStore(entries: EntryPack.minimumEntries + 76)
        var current = entries
        _ = try scan(store, among: Array(entries.keys))
        let edge = try innerAndEdge(store).edge[3]
        try store.apply(StoreChange(putEntries: [edge: [7]]))
        current[edge] = [7]
        XCTAssertFalse(FileManager.default.fileExists(atPath: packURL(store).path), "an edge record")
        XCTAssertEqual(try scan(store, among: Array(current.keys)), current)

        let many = Array(try innerAndEdge(store).inner.prefix(EntryPack.scrubLimit + 1))
        try store.apply(StoreChange(deleteEntries: Set(many)))
        for id in many { current[id] = nil }
        XCTAssertFalse(FileManager.default.fileExists(atPath: packURL(store).path), "\(many.count) entries")
        XCTAssertEqual(try scan(store, among: Array(current.keys)), current)

        // A copy of version 1 (as the previous diary wrote it): read, then removed by an edit.
        var bytes = try copyBytes(store)
        bytes[8] = 1
        try Data(bytes).write(to: packURL(store))
        let inner = try innerAndEdge(store).inner[0]
        try Data([9]).write(to: store.directory.appendingPathComponent("entries/" + FileStore.fileName(for: inner)))
        XCTAssertEqual(try scan(store, among: Array(current.keys))[inner], current[inner], "version 1 is read")
        try store.apply(StoreChange(putEntries: [inner: [8]]))
        current[inner] = [8]
        XCTAssertFalse(FileManager.default.fileExists(atPath: packURL(store).path), "version 1 is not scrubbed")
        XCTAssertEqual(try scan(store, among: Array(current.keys)), current)
        XCTAssertEqual(try copyBytes(store)[8], EntryPack.version, "written again as version 2")
    }

    /// Scrubbed records a reader must refuse: one that is not zeros, one at a segment's edge,
    /// one in a copy of version 1. Each makes its segment malformed: `verify` reports it, and a
    /// scan lends every entry once, from its file, and writes the copy again.
    func testAScrubbedRecordThatBreaksTheRulesMakesItsSegmentMalformed() throws {
        let (store, entries) = try scratch.packedFilesStore(entries: EntryPack.minimumEntries + 76)
        _ = try scan(store, among: Array(entries.keys))
        let (inner, _) = try innerAndEdge(store)
        try store.apply(StoreChange(deleteEntries: [inner[0]]))
        var current = entries
        current[inner[0]] = nil
        let good = try copyBytes(store)
        let all = try placed(store)
        let scrubbed = try XCTUnwrap(all.first { $0.id == nil })
        let first = try XCTUnwrap(all.first { $0.edge })
        // The segment's first record scrubbed as a writer would scrub an inner one.
        var flagged = good
        for at in first.range where !(16..<20).contains(at - first.range.lowerBound) { flagged[at] = 0 }
        flagged[first.range.lowerBound + 16] |= 0x80
        var version1 = good
        version1[8] = 1
        let cases: [(String, [UInt8])] = [
            ("a byte of its id", good.with(scrubbed.range.lowerBound + 3, 1)),
            ("a byte of its body", good.with(scrubbed.range.upperBound - 1, 1)),
            ("at a segment's edge", flagged),
            ("in version 1", version1),
        ]
        for (name, bytes) in cases {
            try Data(bytes).write(to: packURL(store))
            XCTAssertEqual(try copyCheck(store).problems.count, 1, name)
            XCTAssertEqual(try scan(store, among: Array(current.keys)), current, name)
            XCTAssertEqual(try copyCheck(store).problems, [], "\(name): written again")
        }
    }

    /// A crash in the middle of a scrub (it is written before the entry's file changes, and made
    /// durable first) leaves the record partly zeroed, or flagged with its bytes, at any point.
    /// Whatever is left, no scan lends an id twice, and a record it lends is either the entry's
    /// bytes or is turned away by the caller; nothing of the entry's file is lost.
    func testAScrubCutShortAnywhereLosesNothing() throws {
        let (store, entries) = try scratch.packedFilesStore(entries: EntryPack.minimumEntries + 76)
        _ = try scan(store, among: Array(entries.keys))
        let good = try copyBytes(store)
        let target = try XCTUnwrap(try placed(store).first { !$0.edge })
        let id = try XCTUnwrap(target.id)
        try store.apply(StoreChange(putEntries: [id: [3, 3]]))
        XCTAssertEqual(try store.readEntry(id), [3, 3])
        let scrubbed = try copyBytes(store)
        var generator = SeededGenerator(seed: 38)
        for round in 0..<40 {
            // Some bytes of the scrub written, the others not (pages are written in any order).
            var bytes = good
            for at in target.range where Bool.random(using: &generator) || round == 0 { bytes[at] = scrubbed[at] }
            try Data(bytes).write(to: packURL(store))
            // The crash came before the edit: the entry's file holds its earlier bytes.
            try Data(entries[id]!).write(
                to: store.directory.appendingPathComponent("entries/" + FileStore.fileName(for: id)))
            let lent = Mutex<[UUID: [UInt8]]>([:])
            try store.withSnapshot { reader in
                try XCTUnwrap(reader as? EntryScanning).scanEntries(
                    among: entries.keys.sorted { $0.sortKey < $1.sortKey }, workers: 3
                ) { _, lentID, sealed in
                    let bytes = [UInt8](sealed)
                    lent.withLock { XCTAssertNil($0.updateValue(bytes, forKey: lentID), "round \(round): lent twice") }
                    return bytes == entries[lentID]
                }
            }
            XCTAssertEqual(Set(lent.withLock { $0 }.keys), Set(entries.keys), "round \(round)")
            XCTAssertEqual(try store.readEntry(id), entries[id], "round \(round)")
        }
    }
}

extension Array where Element == UInt8 {
    /// A copy with the byte at `i` set to `value`.
    fileprivate func with(_ i: Int, _ value: UInt8) -> [UInt8] {
        var copy = self
        copy[i] = value
        return copy
    }
}
