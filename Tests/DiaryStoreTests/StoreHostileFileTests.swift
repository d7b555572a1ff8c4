import DiaryTestSupport
import Foundation
import GRDB
import XCTest

@testable import DiaryStore

/// Files and rows far larger than anything `diary` writes are refused as damage, naming the
/// file, before they are read: the size comes from `fstat` (or SQL's `length()`), not from
/// reading. The files are sparse (`truncate`), so a terabyte costs no disk.
final class StoreHostileFileTests: XCTestCase {
    private var scratch: StoreScratch!

    override func setUpWithError() throws { scratch = try StoreScratch() }
    override func tearDown() { scratch.cleanUp() }

    private func filesVault() throws -> (URL, UUID) {
        let dir = scratch.vaultURL()
        let initial = initialChange(entries: 1)
        _ = try StoreLayout.create(.files, at: dir, initial: initial)
        return (dir, initial.putEntries.keys.first!)
    }

    private func sparse(_ url: URL, size: off_t) throws {
        let fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        XCTAssertEqual(ftruncate(fd, size), 0)
    }

    private func assertRefused<T>(
        _ url: URL, limit: Int, file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> T
    ) {
        XCTAssertThrowsStoreError(
            .corrupt(path: url.path, detail: "is larger than \(limit) bytes"), file: file, line: line, body)
    }

    /// A sparse 1 TiB journal made every command abort trying to allocate it.
    func testSparseTerabyteJournalIsRefusedAsDamageNotAllocated() throws {
        let (dir, _) = try filesVault()
        let journal = dir.appendingPathComponent(FileJournal.fileName)
        try sparse(journal, size: 1 << 40)
        assertRefused(journal, limit: ReadLimits.journal) { try StoreLayout.open(at: dir) }
    }

    func testOversizedHeaderFileIsRefusedBeforeReading() throws {
        let (dir, _) = try filesVault()
        let header = dir.appendingPathComponent(FileStore.headerName)
        try sparse(header, size: 1 << 20)
        assertRefused(header, limit: ReadLimits.header) { try StoreLayout.open(at: dir) }
    }

    func testOversizedEntryFileIsRefusedBeforeReading() throws {
        let (dir, id) = try filesVault()
        let store = try StoreLayout.open(at: dir)
        let entry = dir.appendingPathComponent(FileStore.entriesName).appendingPathComponent(
            FileStore.fileName(for: id))
        try sparse(entry, size: 20 << 20)
        assertRefused(entry, limit: ReadLimits.entry) { try store.readEntry(id) }
        assertRefused(entry, limit: ReadLimits.entry) { try store.forEachEntry { _, _ in } }
    }

    func testOversizedIndexFilesAreRefusedBeforeReading() throws {
        let (dir, _) = try filesVault()
        let store = try StoreLayout.open(at: dir)
        let index = dir.appendingPathComponent(FileStore.indexName)
        try sparse(index, size: 1 << 40)
        assertRefused(index, limit: ReadLimits.index) { try store.readIndex() }
        let page = dir.appendingPathComponent(FileStore.indexPageName(7))
        try sparse(page, size: 1 << 40)
        assertRefused(page, limit: ReadLimits.index) { try store.readIndexPage(7) }
    }

    /// SQLite rows are measured with `length()` before the blob is fetched.
    func testOversizedSQLiteRowsAreRefusedBeforeTheyAreRead() throws {
        let dir = scratch.vaultURL()
        let initial = initialChange(entries: 1)
        let id = initial.putEntries.keys.first!
        _ = try StoreLayout.create(.sqlite, at: dir, initial: initial)
        let path = dir.appendingPathComponent(SQLiteStore.databaseName).path
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(
                sql: "UPDATE entry SET sealed = zeroblob(?) WHERE id = ?",
                arguments: [ReadLimits.entry + 1, SQLiteSchema.key(id)])
        }
        try queue.close()
        let store = try StoreLayout.open(at: dir)
        let what = "entry \(id.uuidString.lowercased())"
        XCTAssertThrowsStoreError(.corrupt(path: path, detail: "\(what) is larger than \(ReadLimits.entry) bytes")) {
            try store.readEntry(id)
        }
        XCTAssertThrowsStoreError(.corrupt(path: path, detail: "\(what) is larger than \(ReadLimits.entry) bytes")) {
            try store.forEachEntry { _, _ in }
        }
        let queue2 = try DatabaseQueue(path: path)
        try queue2.write { db in
            try db.execute(sql: "UPDATE header SET sealed = zeroblob(?)", arguments: [ReadLimits.header + 1])
        }
        try queue2.close()
        XCTAssertThrowsStoreError(
            .corrupt(path: path, detail: "the header is larger than \(ReadLimits.header) bytes")
        ) { try store.readHeader() }
    }

    /// An index page row that is not a blob is damage, named; an empty blob is an empty page
    /// (the read steps SQLite's statement itself, so these are its checks, not GRDB's).
    func testSQLiteIndexPageRowsAreCheckedAsTheyAreRead() throws {
        let dir = scratch.vaultURL()
        var initial = initialChange(entries: 1)
        initial.putIndexPages = [3: [1, 2, 3], 7: [9]]
        _ = try StoreLayout.create(.sqlite, at: dir, initial: initial)
        let path = dir.appendingPathComponent(SQLiteStore.databaseName).path
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
            try db.execute(sql: "UPDATE index_page SET sealed = 'plain' WHERE page = 7")
            try db.execute(sql: "UPDATE index_page SET sealed = zeroblob(0) WHERE page = 3")
        }
        try queue.close()
        let store = try StoreLayout.open(at: dir)
        XCTAssertThrowsStoreError(.corrupt(path: path, detail: "index page 7 is not a blob")) {
            try store.readIndexPage(7)
        }
        XCTAssertEqual(try store.readIndexPage(3), [])
        XCTAssertNil(try store.readIndexPage(5))
    }
}
