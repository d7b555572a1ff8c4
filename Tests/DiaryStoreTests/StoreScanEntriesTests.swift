import DiaryTestSupport
import Foundation
import GRDB
import Synchronization
import XCTest

@testable import DiaryStore

/// `EntryScanning.scanEntries` lends every entry of the snapshot once, with the bytes
/// `forEachEntry` gives, from several threads; and refuses what `forEachEntry` refuses.
final class StoreScanEntriesTests: XCTestCase {
    private var scratch: StoreScratch!

    override func setUpWithError() throws { scratch = try StoreScratch() }
    override func tearDown() { scratch.cleanUp() }

    /// Every entry, as id → bytes, and the workers that handed them over.
    private func scan(_ store: any VaultStore, workers: Int = 3) throws -> ([UUID: [UInt8]], Set<Int>) {
        let seen = Mutex<([UUID: [UInt8]], Set<Int>, [UUID])>(([:], [], []))
        try store.withSnapshot { reader in
            let scanner = try XCTUnwrap(reader as? EntryScanning)
            try scanner.scanEntries(workers: workers) { w, id, sealed in
                seen.withLock { state in
                    if state.0.updateValue([UInt8](sealed), forKey: id) != nil { state.2.append(id) }
                    state.1.insert(w)
                }
                return true
            }
        }
        let (entries, workersSeen, twice) = seen.withLock { $0 }
        XCTAssertEqual(twice, [], "an entry was handed over twice")
        return (entries, workersSeen)
    }

    private func everyEntry(_ store: any VaultStore) throws -> [UUID: [UInt8]] {
        var entries = [UUID: [UInt8]]()
        try store.forEachEntry { id, sealed in entries[id] = sealed }
        return entries
    }

    func testEveryEntryIsLentOnceWithItsBytesFromSeveralWorkers() {
        // More entries than one worker's share or one SQLite batch, of many sizes: empty,
        // small, and larger than a files worker's first buffer (64 KiB).
        var initial = initialChange()
        for i in 0..<700 {
            let size = i == 0 ? 0 : i % 97 == 0 ? 70_000 + i : 1 + (i * 37) % 3000
            initial.putEntries[UUID()] = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ i) }
        }
        scratch.forEachNewStore(initial: initial) { store, initial in
            let (entries, workers) = try scan(store)
            XCTAssertEqual(entries, initial.putEntries)
            XCTAssertEqual(entries, try everyEntry(store))
            XCTAssertTrue(workers.isSubset(of: [0, 1, 2]), "\(workers)")
            let (alone, one) = try scan(store, workers: 1)
            XCTAssertEqual(alone, initial.putEntries)
            XCTAssertEqual(one, [0])
        }
    }

    /// A scan reads with a page cache of a few pages (`SQLiteReader.scanCacheKiB`) and gives the
    /// snapshot's connection its own size back, so the command's later reads keep theirs.
    func testASQLiteScanGivesTheConnectionItsCacheSizeBack() throws {
        let store = try StoreLayout.create(.sqlite, at: scratch.vaultURL(), initial: initialChange(entries: 40))
        let sqlite = try XCTUnwrap(store as? SQLiteStore)
        let before = try sqlite.inspect { try Int.fetchOne($0, sql: "PRAGMA cache_size") }
        let (entries, _) = try scan(store, workers: 2)
        XCTAssertEqual(entries.count, 40)
        XCTAssertEqual(try sqlite.inspect { try Int.fetchOne($0, sql: "PRAGMA cache_size") }, before)
        XCTAssertNotEqual(before, -SQLiteReader.scanCacheKiB)
    }

    func testAnEmptyStoreLendsNothing() {
        scratch.forEachNewStore(initial: initialChange()) { store, _ in
            XCTAssertEqual(try scan(store).0, [:])
        }
    }

    func testSQLiteRowsAreRefusedAsForEachEntryRefusesThem() throws {
        let dir = scratch.vaultURL()
        let initial = initialChange(entries: 3)
        let ids = Array(initial.putEntries.keys)
        let store = try StoreLayout.create(.sqlite, at: dir, initial: initial)
        let path = dir.appendingPathComponent(SQLiteStore.databaseName).path
        let what = "entry \(ids[0].uuidString.lowercased())"
        func tamper(_ sql: String, _ arguments: StatementArguments) throws {
            let queue = try DatabaseQueue(path: path)
            try queue.write { db in
                try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
                try db.execute(sql: sql, arguments: arguments)
            }
            try queue.close()
        }
        try tamper(
            "UPDATE entry SET sealed = zeroblob(?) WHERE id = ?", [ReadLimits.entry + 1, SQLiteSchema.key(ids[0])])
        let larger = StoreError.corrupt(path: path, detail: "\(what) is larger than \(ReadLimits.entry) bytes")
        XCTAssertThrowsStoreError(larger) { try store.forEachEntry { _, _ in } }
        XCTAssertThrowsStoreError(larger) { try scan(store) }
        try tamper("UPDATE entry SET sealed = 'plain' WHERE id = ?", [SQLiteSchema.key(ids[0])])
        let notBlob = StoreError.corrupt(path: path, detail: "\(what) is not a blob")
        XCTAssertThrowsStoreError(notBlob) { try store.forEachEntry { _, _ in } }
        XCTAssertThrowsStoreError(notBlob) { try scan(store) }
        // Neither a blob nor within the limit: not a blob, first.
        try tamper(
            "UPDATE entry SET sealed = printf('%.*c', ?, 'x') WHERE id = ?",
            [ReadLimits.entry + 1, SQLiteSchema.key(ids[0])])
        XCTAssertThrowsStoreError(notBlob) { try store.forEachEntry { _, _ in } }
        XCTAssertThrowsStoreError(notBlob) { try scan(store) }
        try tamper("UPDATE entry SET id = ? WHERE id = ?", [Data(repeating: 7, count: 15), SQLiteSchema.key(ids[1])])
        XCTAssertThrowsCorrupt { try store.forEachEntry { _, _ in } }
        XCTAssertThrowsCorrupt { try scan(store) }
    }

    /// The SQLite scan splits the table by key into one range per worker: a damaged key falls
    /// in one of them, whatever its type or length, and is refused there.
    func testDamagedSQLiteKeysAreRefusedInWhicheverRangeTheyFall() throws {
        for bad in ["text id".databaseValue, Data([0xF0] + [UInt8](repeating: 1, count: 16)).databaseValue] {
            let dir = scratch.vaultURL()
            let initial = initialChange(entries: 4)
            let store = try StoreLayout.create(.sqlite, at: dir, initial: initial)
            let queue = try DatabaseQueue(path: dir.appendingPathComponent(SQLiteStore.databaseName).path)
            try queue.write { db in
                try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
                try db.execute(
                    sql: "UPDATE entry SET id = ? WHERE id = ?",
                    arguments: [bad, SQLiteSchema.key(initial.putEntries.keys.first!)])
            }
            try queue.close()
            XCTAssertThrowsCorrupt { try store.forEachEntry { _, _ in } }
            for workers in [1, 2, 3] { XCTAssertThrowsCorrupt { try scan(store, workers: workers) } }
        }
    }

    func testEntryFilesAreRefusedAsForEachEntryRefusesThem() throws {
        let dir = scratch.vaultURL()
        let initial = initialChange(entries: 3)
        let id = try XCTUnwrap(initial.putEntries.keys.first)
        let store = try StoreLayout.create(.files, at: dir, initial: initial)
        let file = dir.appendingPathComponent(FileStore.entriesName).appendingPathComponent(FileStore.fileName(for: id))
        // A sparse file over the limit: refused by size, never read whole.
        let fd = open(file.path, O_WRONLY | O_TRUNC)
        XCTAssertGreaterThanOrEqual(fd, 0)
        XCTAssertEqual(ftruncate(fd, off_t(ReadLimits.entry + 1)), 0)
        close(fd)
        let larger = StoreError.corrupt(path: file.path, detail: "is larger than \(ReadLimits.entry) bytes")
        XCTAssertThrowsStoreError(larger) { try store.forEachEntry { _, _ in } }
        XCTAssertThrowsStoreError(larger) { try scan(store) }
        // A directory, then a symbolic link, where the file should be.
        try FileManager.default.removeItem(at: file)
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
        XCTAssertThrowsCorrupt { try store.forEachEntry { _, _ in } }
        XCTAssertThrowsCorrupt { try scan(store) }
        try FileManager.default.removeItem(at: file)
        try FileManager.default.createSymbolicLink(atPath: file.path, withDestinationPath: "/etc/hostname")
        let link = StoreError.corrupt(path: file.path, detail: "is a symbolic link")
        XCTAssertThrowsStoreError(link) { try store.forEachEntry { _, _ in } }
        XCTAssertThrowsStoreError(link) { try scan(store) }
        // Gone: not an entry, as in `forEachEntry`.
        try FileManager.default.removeItem(at: file)
        XCTAssertEqual(try scan(store).0.count, 2)
    }
}
