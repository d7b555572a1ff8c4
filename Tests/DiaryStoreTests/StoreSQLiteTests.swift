import DiaryTestSupport
import Foundation
import GRDB
import GRDBSQLite
import XCTest

@testable import DiaryStore

/// What only the SQLite store promises: its connection settings, its schema, strict parsing
/// of rows, online backup and vacuum.
final class StoreSQLiteTests: XCTestCase {
    private var scratch: StoreScratch!
    private var directory: URL!
    private var store: SQLiteStore!
    private var initial: StoreChange!
    private var databaseURL: URL { directory.appendingPathComponent("vault.sqlite") }

    override func setUpWithError() throws {
        scratch = try StoreScratch()
        directory = scratch.vaultURL()
        initial = initialChange(entries: 3)
        store = try XCTUnwrap(try StoreLayout.create(.sqlite, at: directory, initial: initial) as? SQLiteStore)
    }

    override func tearDown() {
        store = nil
        scratch.cleanUp()
    }

    /// A second, raw connection to the vault's database, as an attacker or a crafted file would have.
    private func rawQueue() throws -> DatabaseQueue {
        try DatabaseQueue(path: databaseURL.path)
    }

    func testEveryConnectionHasSecureDeleteWALAndFullSync() throws {
        let (secureDelete, journal, synchronous) = try store.inspect { db in
            (
                try Int.fetchOne(db, sql: "PRAGMA secure_delete"),
                try String.fetchOne(db, sql: "PRAGMA journal_mode"),
                try Int.fetchOne(db, sql: "PRAGMA synchronous")
            )
        }
        XCTAssertEqual(secureDelete, 1)
        XCTAssertEqual(journal, "wal")
        XCTAssertEqual(synchronous, 2, "FULL")
    }

    func testNewVaultHasFullAutoVacuum() throws {
        XCTAssertEqual(try store.inspect { try Int.fetchOne($0, sql: "PRAGMA auto_vacuum") }, 1, "FULL")
    }

    func testNewVaultHas16KiBPagesSoTypicalEntriesNeedNoOverflowPage() throws {
        XCTAssertEqual(try store.inspect { try Int.fetchOne($0, sql: "PRAGMA page_size") }, 16384)
    }

    func testOpeningAndReadingAnExistingVaultWritesNothing() throws {
        store = nil  // the last connection closes: the log is checkpointed and removed
        let reopened = try SQLiteStore(openingAt: directory)
        XCTAssertEqual(try reopened.readHeader(), initial.header)
        XCTAssertEqual(try reopened.inspect { try Int.fetchOne($0, sql: "PRAGMA auto_vacuum") }, 1, "still FULL")
        let wal = directory.appendingPathComponent("vault.sqlite-wal")
        let walSize = (try? FileManager.default.attributesOfItem(atPath: wal.path)[.size] as? NSNumber)?.intValue ?? 0
        XCTAssertEqual(walSize, 0, "a reader commits nothing (no transaction, no fsync) when it opens")
    }

    func testEntryTableHasNoRowidAndIdsAreRaw16Bytes() throws {
        let (sql, lengths) = try store.inspect { db in
            (
                try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'entry'") ?? "",
                try Int.fetchAll(db, sql: "SELECT length(id) FROM entry")
            )
        }
        XCTAssertTrue(sql.uppercased().contains("WITHOUT ROWID"), sql)
        XCTAssertEqual(lengths, [16, 16, 16])
    }

    func testEntryRowWithAWrongLengthIdIsDamageNotACrash() throws {
        try rawQueue().write { db in
            try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
            try db.execute(
                sql: "INSERT INTO entry (id, sealed) VALUES (?, ?)",
                arguments: [Data(repeating: 1, count: 15), Data([1])])
        }
        XCTAssertThrowsCorrupt { try store.entryIDs() }
        XCTAssertThrowsCorrupt { try store.forEachEntry { _, _ in } }
        XCTAssertThrowsCorrupt { try StoreLayout.open(at: directory).entryIDs() }
    }

    func testTextWhereABlobBelongsIsDamage() throws {
        let id = try XCTUnwrap(initial.putEntries.keys.first)
        try rawQueue().write { db in
            try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
            try db.execute(sql: "UPDATE entry SET sealed = 'plain' WHERE id = ?", arguments: [SQLiteSchema.key(id)])
            try db.execute(sql: "UPDATE header SET sealed = 42")
        }
        XCTAssertThrowsCorrupt { try store.readEntry(id) }
        XCTAssertThrowsCorrupt { try store.readHeader() }
    }

    func testMissingHeaderRowIsDamageAndMissingIndexIsNil() throws {
        try rawQueue().write { db in
            try db.execute(sql: "DELETE FROM header")
            try db.execute(sql: "DELETE FROM sealed_index")
        }
        XCTAssertThrowsCorrupt { try store.readHeader() }
        XCTAssertNil(try store.readIndex())
    }

    func testForeignOrGarbageDatabaseIsRefused() throws {
        let foreign = scratch.vaultURL()
        try FileManager.default.createDirectory(at: foreign, withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: foreign.appendingPathComponent("vault.sqlite").path)
        try queue.write { try $0.execute(sql: "CREATE TABLE notes (body TEXT)") }
        try queue.close()
        XCTAssertThrowsStoreError(.notAVault(path: foreign.appendingPathComponent("vault.sqlite").path)) {
            try StoreLayout.open(at: foreign)
        }
        let garbage = scratch.vaultURL()
        try FileManager.default.createDirectory(at: garbage, withIntermediateDirectories: true)
        try Data(repeating: 0x5A, count: 4096).write(to: garbage.appendingPathComponent("vault.sqlite"))
        XCTAssertThrowsCorrupt { try StoreLayout.open(at: garbage) }
    }

    func testUnknownSchemaVersionIsRefused() throws {
        try rawQueue().writeWithoutTransaction { try $0.execute(sql: "PRAGMA user_version = 99") }
        XCTAssertThrowsCorrupt { try StoreLayout.open(at: directory) }
    }

    func testDeletedCiphertextLeavesNoTraceInTheDatabaseFiles() throws {
        let marker = blob(2048)
        let id = UUID()
        try store.apply(StoreChange(putEntries: [id: marker]))
        XCTAssertTrue(try databaseFilesContain(marker), "the marker is findable while it exists")
        try store.apply(StoreChange(deleteEntries: [id]))
        XCTAssertFalse(try databaseFilesContain(marker), "secure_delete and the log truncation wipe it")
    }

    func testVacuumKeepsContentAndEmptiesTheLog() throws {
        let replaced = try XCTUnwrap(initial.putEntries.keys.first)
        let old = try XCTUnwrap(initial.putEntries[replaced])
        let fresh = blob(64)
        try store.apply(StoreChange(putEntries: [replaced: fresh]))
        try store.compact()
        XCTAssertEqual(try store.readEntry(replaced), fresh)
        XCTAssertEqual(Set(try store.entryIDs()), Set(initial.putEntries.keys))
        let wal = directory.appendingPathComponent("vault.sqlite-wal")
        let walSize = (try? FileManager.default.attributesOfItem(atPath: wal.path)[.size] as? NSNumber)?.intValue ?? 0
        XCTAssertEqual(walSize, 0)
        XCTAssertFalse(try databaseFilesContain(old), "replaced ciphertext is gone after vacuum")
    }

    /// SQLite takes its process-wide settings only before the process's first connection: a
    /// test that opened a raw connection earlier in this process leaves the library's default,
    /// and then memory statistics are kept. Either way they must be what
    /// `SQLiteProcessSetup.applied` says.
    func testMemoryStatisticsAreKeptOnlyWithoutTheProcessSetup() throws {
        _ = try store.entryIDs()  // some allocation through SQLite
        var used: sqlite3_int64 = 0
        var highest: sqlite3_int64 = 0
        XCTAssertEqual(sqlite3_status64(SQLITE_STATUS_MEMORY_USED, &used, &highest, 0), SQLITE_OK)
        XCTAssertEqual(highest == 0, SQLiteProcessSetup.applied)
    }

    /// What the scan's threads rely on, each with a connection of its own: GRDB opens a
    /// connection without SQLite's per-call mutex (`SQLITE_OPEN_NOMUTEX`), so no connection is
    /// ever to be used by two threads at once.
    func testTheStoresConnectionHasNoPerCallMutex() throws {
        XCTAssertTrue(try store.inspect { db in sqlite3_db_mutex(db.sqliteConnection) == nil })
    }

    private func databaseFilesContain(_ needle: [UInt8]) throws -> Bool {
        let probe = Data(needle.prefix(64))
        for suffix in ["", "-wal", "-shm"] {
            guard let data = FileManager.default.contents(atPath: databaseURL.path + suffix) else { continue }
            if data.range(of: probe) != nil { return true }
        }
        return false
    }
}
