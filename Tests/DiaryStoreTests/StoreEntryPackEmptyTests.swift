import DiaryTestSupport
import Foundation
import Synchronization
import XCTest

@testable import DiaryStore

/// A change that replaces or removes entries empties the segments of the scan copy holding
/// them (zeros in place, docs/FORMAT.md §2.2) instead of removing it, so the next search still
/// reads the rest of the copy and opens only those segments' entry files; a change touching
/// more segments than `emptyLimit`, a deletion of an id the trailer names, or a copy of
/// version 1 removes it whole, as before.
final class StoreEntryPackEmptyTests: XCTestCase {
    private var scratch: StoreScratch!

    override func setUpWithError() throws { scratch = try StoreScratch() }
    override func tearDown() { scratch.cleanUp() }

    private func store() throws -> (FileStore, [UUID: [UInt8]]) {
        let (store, entries) = try scratch.packedFilesStore(entries: EntryPack.minimumEntries + 76)
        _ = try scan(store, among: Array(entries.keys))
        return (store, entries)
    }

    private func pack(_ store: FileStore) throws -> EntryPack {
        guard case .opened(let pack) = EntryPack.open(in: store.directory) else { throw POSIXError(.ENOENT) }
        return pack
    }

    /// The ids of each segment's records, in trailer order.
    private func segmentIDs(_ store: FileStore) throws -> [[UUID]] {
        let pack = try pack(store)
        return try pack.segments.map { segment in
            let bytes = try XCTUnwrap(EntryPack.readAt(pack.fd, segment.offset, segment.length))
            var ids: [UUID] = []
            XCTAssertTrue(bytes.withUnsafeBytes { pack.records(in: $0, of: segment) { id, _ in ids.append(id) } })
            return ids
        }
    }

    /// The segments of at least 12 records, by their index in the trailer (segments end where
    /// a writer's thread ends its share of ids, so some hold only a few).
    private func fullSegments(_ store: FileStore) throws -> [(index: Int, ids: [UUID])] {
        try segmentIDs(store).enumerated().filter { $0.element.count >= 12 }.map { ($0.offset, $0.element) }
    }

    /// A scan of `ids` (each lent once, or the test fails), as id → bytes; `accept` is the
    /// caller's answer (whether the bytes are the copy its index records).
    private func scan(
        _ store: FileStore, among ids: [UUID], accept: @escaping @Sendable (UUID, [UInt8]) -> Bool = { _, _ in true },
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> [UUID: [UInt8]] {
        let seen = Mutex<([UUID: [UInt8]], Int)>(([:], 0))
        try store.withSnapshot { reader in
            let scanner = try XCTUnwrap(reader as? EntryScanning)
            try scanner.scanEntries(among: ids.sorted { $0.sortKey < $1.sortKey }, workers: 3) { _, id, sealed in
                let bytes = [UInt8](sealed)
                seen.withLock { if $0.0.updateValue(bytes, forKey: id) != nil { $0.1 += 1 } }
                return accept(id, bytes)
            }
        }
        let (lent, twice) = seen.withLock { $0 }
        XCTAssertEqual(twice, 0, "an entry was lent twice", file: file, line: line)
        return lent
    }

    private func packURL(_ store: FileStore) -> URL { store.directory.appendingPathComponent(EntryPack.fileName) }
    private func hasPack(_ store: FileStore) -> Bool { FileManager.default.fileExists(atPath: packURL(store).path) }
    private func inode(_ store: FileStore) -> UInt64 {
        var info = stat()
        return stat(packURL(store).path, &info) == 0 ? UInt64(info.st_ino) : 0
    }
    private func copyBytes(_ store: FileStore) throws -> [UInt8] { [UInt8](try Data(contentsOf: packURL(store))) }
    private func entryFile(_ store: FileStore, _ id: UUID) -> URL {
        store.directory.appendingPathComponent("entries/" + FileStore.fileName(for: id))
    }

    /// The verify view: the copy's form, and its records that are not their entry's file.
    private func copyCheck(_ store: FileStore) throws -> (problems: [String], stale: [UUID]) {
        try store.withSnapshot { reader in
            var stale: [UUID] = []
            let problems = try XCTUnwrap(reader as? ScanCopyReading).forEachScanCopyRecord { id, sealed in
                if (try? reader.readEntry(id)) != [UInt8](sealed) { stale.append(id) }
            }
            return (problems, stale)
        }
    }

    func testAnEditAndADeleteEmptyTheirSegmentsAndTheCopyStaysInUse() throws {
        let (store, entries) = try store()
        var current = entries
        let full = try fullSegments(store)
        let (edited, deleted, untouched) = (full[0].ids[5], full[1].ids[7], full[2].ids[9])
        let emptied = [full[0].index, full[1].index]
        let before = try copyBytes(store)
        let copy = inode(store)

        try store.apply(StoreChange(putEntries: [edited: [4, 5, 6]]))
        try store.apply(StoreChange(deleteEntries: [deleted]))
        current[edited] = [4, 5, 6]
        current[deleted] = nil
        XCTAssertEqual(inode(store), copy, "emptied in place, not removed")
        let pack = try pack(store)
        XCTAssertEqual(pack.segments.map(\.count).enumerated().filter { $0.element == 0 }.map(\.offset), emptied)
        let bytes = try copyBytes(store)
        for (i, segment) in pack.segments.enumerated() {
            let range = segment.offset..<segment.offset + segment.length
            if emptied.contains(i) {
                XCTAssertTrue(bytes[range].allSatisfy { $0 == 0 }, "segment \(i) is zeros")
            } else {
                XCTAssertEqual(bytes[range], before[range], "segment \(i) as it was")
            }
        }
        for id in [edited, deleted] {
            let idBytes = withUnsafeBytes(of: id.uuid) { Data($0) }
            XCTAssertNil(Data(bytes).range(of: idBytes), "\(id) is nowhere in the copy")
        }
        XCTAssertEqual(try copyCheck(store).problems, [])
        XCTAssertEqual(try copyCheck(store).stale, [])

        // The next scan lends the rest from the same copy and reads the emptied segments' files.
        XCTAssertEqual(try scan(store, among: Array(current.keys)), current)
        XCTAssertEqual(inode(store), copy, "not written again for two segments")
        try Data([9]).write(to: entryFile(store, untouched))
        XCTAssertEqual(try scan(store, among: Array(current.keys))[untouched], entries[untouched], "read from the copy")
    }

    /// The same in a change written in parts (an import's or a sync's); a change in parts that
    /// only adds leaves the copy as it was.
    func testAChangeInPartsEmptiesWhatItReplacesOrRemoves() throws {
        let (store, entries) = try store()
        var current = entries
        let full = try fullSegments(store)
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
            try put([full[0].ids[3]: [2]])
            return StoreChange(deleteEntries: [full[1].ids[3]])
        })
        current[full[0].ids[3]] = [2]
        current[full[1].ids[3]] = nil
        XCTAssertEqual(inode(store), copy)
        XCTAssertEqual(try pack(store).segments.filter { $0.count == 0 }.count, 2)
        XCTAssertEqual(try scan(store, among: Array(current.keys)), current)
        XCTAssertEqual(try copyCheck(store).stale, [])
    }

    /// An edit of a segment's first id empties it (the id stays in `entries/`, so the trailer
    /// shows nothing new); a deletion of it removes the copy, which would keep a deleted id.
    /// So does a change touching more than `emptyLimit` segments, and any change to a copy of
    /// version 1, which has no emptied segments.
    func testADeletedEdgeIdALargeChangeOrAVersion1CopyRemovesTheCopy() throws {
        let (store, entries) = try store()
        var current = entries
        var segments = try segmentIDs(store)
        try store.apply(StoreChange(putEntries: [segments[0][0]: [7]]))
        current[segments[0][0]] = [7]
        XCTAssertTrue(hasPack(store), "an edge id edited")
        try store.apply(StoreChange(deleteEntries: [segments[3].last!]))
        current[segments[3].last!] = nil
        XCTAssertFalse(hasPack(store), "an edge id deleted")
        XCTAssertEqual(try scan(store, among: Array(current.keys)), current)

        segments = try segmentIDs(store)
        let many = segments.filter { !$0.isEmpty }.prefix(EntryPack.emptyLimit + 1).map { $0[0] }
        try store.apply(StoreChange(putEntries: Dictionary(uniqueKeysWithValues: many.map { ($0, [UInt8]([3])) })))
        for id in many { current[id] = [3] }
        XCTAssertFalse(hasPack(store), "\(many.count) segments")
        XCTAssertEqual(try scan(store, among: Array(current.keys)), current)

        // A copy of version 1 (as the previous diary wrote it): read, then removed by an edit.
        var bytes = try copyBytes(store)
        bytes[8] = 1
        try Data(bytes).write(to: packURL(store))
        let inner = try fullSegments(store)[0].ids[2]
        try Data([9]).write(to: entryFile(store, inner))
        XCTAssertEqual(try scan(store, among: Array(current.keys))[inner], current[inner], "version 1 is read")
        try store.apply(StoreChange(putEntries: [inner: [8]]))
        current[inner] = [8]
        XCTAssertFalse(hasPack(store), "version 1 is not emptied")
        XCTAssertEqual(try scan(store, among: Array(current.keys)), current)
        XCTAssertEqual(try copyBytes(store)[8], EntryPack.version, "written again as version 2")
    }

    /// An emptied segment that is not zeros is malformed: `verify` reports it. A search never
    /// reads it (it lends nothing), and the next change in its range writes the zeros again.
    /// In version 1, a count of 0 refuses the copy whole.
    func testAnEmptiedSegmentThatIsNotZerosIsReportedAndZeroedAgain() throws {
        let (store, entries) = try store()
        let full = try fullSegments(store)
        try store.apply(StoreChange(deleteEntries: [full[0].ids[4]]))
        var current = entries
        current[full[0].ids[4]] = nil
        let emptied = try pack(store).segments[full[0].index]
        var bytes = try copyBytes(store)
        bytes[emptied.offset + emptied.length / 2] = 1
        try Data(bytes).write(to: packURL(store))
        XCTAssertEqual(
            try copyCheck(store).problems,
            ["entries.pack: segment \(full[0].index) is malformed (remove it; a search writes it again)"])
        XCTAssertEqual(try scan(store, among: Array(current.keys)), current)
        try store.apply(StoreChange(putEntries: [full[0].ids[5]: [1]]))
        current[full[0].ids[5]] = [1]
        XCTAssertEqual(try copyCheck(store).problems, [], "zeroed again")
        XCTAssertEqual(try scan(store, among: Array(current.keys)), current)

        bytes = try copyBytes(store)
        bytes[8] = 1
        try Data(bytes).write(to: packURL(store))
        XCTAssertEqual(try copyCheck(store).problems.count, 1)
        XCTAssertEqual(try scan(store, among: Array(current.keys)), current)
    }

    /// A crash in the middle of emptying (done before the entry's file changes, and durable
    /// first) leaves any mix of the segment's bytes and zeros, with its count written or not.
    /// Whatever is left, no scan lends an id twice, every record it lends is the entry's bytes
    /// or turned away, and nothing of the entry files is lost; the next change in that
    /// segment's range writes the zeros again.
    func testEmptyingCutShortAnywhereLosesNothing() throws {
        let (store, entries) = try store()
        let good = try copyBytes(store)
        let pack = try pack(store)
        let full = try fullSegments(store)[0]
        let segment = pack.segments[full.index]
        let countAt = pack.trailerOffset + 4 + full.index * EntryPack.trailerRecordLength + 12
        var generator = SeededGenerator(seed: 38)
        for round in 0..<40 {
            var bytes = good
            for at in segment.offset..<segment.offset + segment.length where Bool.random(using: &generator) {
                bytes[at] = 0
            }
            if round % 2 == 0 { bytes.replaceSubrange(countAt..<countAt + 4, with: [0, 0, 0, 0]) }
            try Data(bytes).write(to: packURL(store))
            let lent = try scan(store, among: Array(entries.keys)) { id, bytes in bytes == entries[id] }
            XCTAssertEqual(Set(lent.keys), Set(entries.keys), "round \(round)")
            for id in full.ids { XCTAssertEqual(try store.readEntry(id), entries[id], "round \(round)") }
        }
        // Left with its count 0 and some bytes not zero: the next change in its range zeroes it.
        var bytes = good
        bytes.replaceSubrange(countAt..<countAt + 4, with: [0, 0, 0, 0])
        try Data(bytes).write(to: packURL(store))
        try store.apply(StoreChange(putEntries: [full.ids[3]: [1]]))
        let after = try copyBytes(store)
        XCTAssertTrue(after[segment.offset..<segment.offset + segment.length].allSatisfy { $0 == 0 })
        XCTAssertEqual(try copyCheck(store).problems, [])
    }
}
