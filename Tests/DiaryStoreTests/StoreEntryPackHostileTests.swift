import DiaryTestSupport
import Foundation
import Synchronization
import XCTest

@testable import DiaryStore

/// The scan copy against what a hostile or careless hand leaves in the vault directory (from
/// an independent review): it can cost time, never an answer, a crash, an unbounded read, a
/// blocked write, or a copy never written.
final class StoreEntryPackHostileTests: PackTestCase {
    /// A files store of `count` entries, without a copy yet.
    private func filesStore(entries count: Int = EntryPack.minimumEntries + 76) throws -> (FileStore, [UUID: [UInt8]]) {
        try scratch.packedFilesStore(entries: count)
    }

    /// Bytes this process has read so far (`/proc/self/io`).
    private func bytesRead() throws -> Int {
        let text = try String(contentsOfFile: "/proc/self/io", encoding: .utf8)
        let line = try XCTUnwrap(text.split(separator: "\n").first { $0.hasPrefix("rchar:") })
        return try XCTUnwrap(Int(line.split(separator: " ").last ?? ""))
    }

    /// A file in `entries/` under an entry's name that the scan is not asked for and that
    /// cannot be read (a directory): the copy is written without it, and nothing fails.
    func testAnUnreadableFileTheScanIsNotAskedForIsLeftOut() throws {
        let (store, entries) = try filesStore()
        let stray = store.directory.appendingPathComponent(FileStore.entriesName)
            .appendingPathComponent(FileStore.fileName(for: UUID()))
        try FileManager.default.createDirectory(at: stray, withIntermediateDirectories: false)
        XCTAssertEqual(try scan(store, among: Array(entries.keys)), entries)
        XCTAssertTrue(FileManager.default.fileExists(atPath: packURL(store).path))
    }

    /// A filtered large scan reads only the segments holding its ids: the others are made
    /// malformed, and a scan that read one would find it and write the copy again.
    func testAScanReadsOnlyTheSegmentsItNeeds() throws {
        let (store, entries) = try filesStore(entries: 4000)
        let ids = Array(entries.keys).sorted { $0.sortKey < $1.sortKey }
        _ = try scan(store, among: ids)
        let firstQuarter = Array(ids.prefix(EntryPack.minimumEntries))
        let lastKey = try XCTUnwrap(firstQuarter.last).sortKey
        guard case .opened(let pack) = EntryPack.open(in: store.directory) else { return XCTFail("copy refused") }
        var bytes = [UInt8](try Data(contentsOf: packURL(store)))
        let beyond = pack.segments.filter { lastKey < $0.first }
        XCTAssertGreaterThan(beyond.count, pack.segments.count / 2)
        for segment in beyond { bytes[segment.offset + 16] ^= 0xFF }  // the first record's length
        try Data(bytes).write(to: packURL(store))
        let lent = try scan(store, among: firstQuarter)
        XCTAssertEqual(lent.count, firstQuarter.count)
        for id in firstQuarter { XCTAssertEqual(lent[id], entries[id]) }
        XCTAssertEqual([UInt8](try Data(contentsOf: packURL(store))), bytes, "a malformed segment was read")
        // The whole scan does read them, and writes the copy again.
        XCTAssertEqual(try scan(store, among: ids), entries)
        XCTAssertNotEqual([UInt8](try Data(contentsOf: packURL(store))), bytes)
    }

    /// A sparse copy of terabytes of holes that passes every check of its trailer: a scan reads
    /// one segment per thread at most, then the files, and writes a real copy over it.
    func testASparseCopyOfHolesCostsOneSegment() throws {
        let (store, entries) = try filesStore()
        let segments = 1 << 16
        let length = EntryPack.maximumSegmentLength
        let end = EntryPack.headerLength + segments * length
        let table = (0..<segments).map { i in
            EntryPack.Segment(
                offset: EntryPack.headerLength + i * length, length: length, count: 1, first: (0, UInt64(2 * i)),
                last: (0, UInt64(2 * i + 1)))
        }
        let handle = try FileHandle(
            forWritingTo: { () -> URL in
                FileManager.default.createFile(atPath: packURL(store).path, contents: nil)
                return packURL(store)
            }())
        try handle.write(contentsOf: Data(EntryPack.magic + [EntryPack.version]))
        try handle.seek(toOffset: UInt64(end))
        try handle.write(contentsOf: Data(EntryPackWriter.trailer(table, at: end)))
        try handle.close()
        guard case .opened = EntryPack.open(in: store.directory) else { return XCTFail("the trailer is refused") }
        let before = try bytesRead()
        XCTAssertEqual(try scan(store, among: Array(entries.keys)), entries)
        XCTAssertLessThan(try bytesRead() - before, 8 * length, "read holes")
        guard case .opened(let rewritten) = EntryPack.open(in: store.directory) else { return XCTFail("no copy") }
        XCTAssertEqual(rewritten.segments.reduce(0) { $0 + $1.count }, entries.count)
    }

    /// A directory where the copy goes blocks no change and no journal replay; searches go on.
    func testADirectoryNamedAsTheCopyBlocksNothing() throws {
        let (store, entries) = try filesStore()
        try FileManager.default.createDirectory(at: packURL(store), withIntermediateDirectories: false)
        XCTAssertEqual(try scan(store, among: Array(entries.keys)), entries)
        let ids = Array(entries.keys)
        try store.apply(StoreChange(deleteEntries: [ids[0]]))
        let journal = FileJournal(operations: [
            .put(name: FileStore.entriesName + "/" + FileStore.fileName(for: ids[1]), bytes: [7]),
            .put(name: FileStore.indexName, bytes: blob(32)),
        ])
        try Data(journal.encoded()).write(to: store.directory.appendingPathComponent(FileJournal.fileName))
        let reopened = try StoreLayout.open(at: store.directory)
        XCTAssertEqual(try reopened.readEntry(ids[1]), [7])
        // Nor is a copy written only to be thrown away: no writer starts.
        XCTAssertNil(EntryPackWriter(in: store.directory))
    }

    /// A directory under a temporary name (no leftover of ours) blocks no change either.
    func testADirectoryUnderATemporaryNameBlocksNothing() throws {
        let (store, entries) = try filesStore()
        let stray = store.directory.appendingPathComponent("\(EntryPackWriter.tempPrefix)1-x")
        try FileManager.default.createDirectory(at: stray, withIntermediateDirectories: false)
        try store.apply(StoreChange(deleteEntries: [try XCTUnwrap(entries.keys.first)]))
        try store.apply(inParts: { put in
            try put([UUID(): [1]])
            return StoreChange()
        })
    }

    /// A copy left half-written by a search that was killed is removed by the next search that
    /// writes one; one whose process lives (another search, now) is not.
    func testACopyAbandonedByAKilledSearchIsRemovedByTheNext() throws {
        let (store, entries) = try filesStore()
        let dead = store.directory.appendingPathComponent("\(EntryPackWriter.tempPrefix)999999999-abc")
        let alive = store.directory.appendingPathComponent("\(EntryPackWriter.tempPrefix)\(getpid())-abc")
        for url in [dead, alive] {
            XCTAssertTrue(FileManager.default.createFile(atPath: url.path, contents: Data([1])))
        }
        XCTAssertEqual(try scan(store, among: Array(entries.keys)), entries)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dead.path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: alive.path))
    }
}
