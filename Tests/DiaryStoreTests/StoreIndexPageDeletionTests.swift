import DiaryTestSupport
import Foundation
import GRDB
import XCTest

@testable import DiaryStore

/// Index pages of index version 3 in the stores (docs/FORMAT.md §2, §7): u32 page numbers,
/// pages removed in the same atomic change that writes others, and the SQLite schema's
/// upgrade from version 1 (page numbers 0...255) inside the first change that touches pages.
final class StoreIndexPageDeletionTests: XCTestCase {
    private var scratch: StoreScratch!

    override func setUpWithError() throws {
        scratch = try StoreScratch()
    }

    override func tearDown() {
        scratch.cleanUp()
    }

    func testPagesAreRemovedWithTheChangeThatWritesOthers() {
        var initial = initialChange(entries: 1)
        initial.putIndexPages = [0: blob(), 63: blob(), 64: blob()]
        scratch.forEachNewStore(initial: initial) { store, _ in
            let wide = Int(UInt32.max)
            let change = StoreChange(
                index: blob(), putIndexPages: [128: blob(), 129: blob(), wide: blob(9), 63: blob(5)],
                deleteIndexPages: [0, 64, 63, 77])
            try store.withWriteLock { try store.apply(change) }
            let pages = try StoreLayout.open(at: store.directory).readIndexPages()
            XCTAssertEqual(Set(pages.keys), [63, 128, 129, wide], "\(store.kind): a page both put and deleted stays")
            XCTAssertEqual(pages[63], change.putIndexPages[63])
            XCTAssertEqual(try store.readIndexPage(wide), pages[wide])
            XCTAssertEqual(try store.auditLayout(), [], "\(store.kind)")
            if store.kind == .files {
                let names = try FileManager.default.contentsOfDirectory(
                    atPath: store.directory.appendingPathComponent("index").path)
                XCTAssertEqual(Set(names), ["3f", "00000080", "00000081", "ffffffff"])
            }
        }
    }

    func testTheJournalRemovesPagesByTheirNames() {
        let change = StoreChange(putIndexPages: [16: [7]], deleteIndexPages: [16, 100, 3])
        XCTAssertEqual(
            FileStore.operations(for: change).map(\.name), ["index/10", "index/03", "index/00000064"])
        XCTAssertTrue(FileJournal.isValidTarget("index/00000064"))
        XCTAssertFalse(FileJournal.isValidTarget("index/64"), "page 100 has one name")
    }

    /// A vault written before index version 3 has schema version 1: it is read as it is, and
    /// the first change touching pages upgrades it in the same transaction.
    func testASchemaOfVersion1IsReadAndUpgradedByTheFirstChangeOfPages() throws {
        var initial = initialChange(entries: 1)
        initial.putIndexPages = [0: blob(), 63: blob()]
        let store = try StoreLayout.create(.sqlite, at: scratch.vaultURL(), initial: initial)
        let path = store.directory.appendingPathComponent("vault.sqlite").path
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "DROP TABLE index_page")
            try db.execute(sql: SQLiteSchema.legacyIndexPageTableSQL)
            for (page, bytes) in initial.putIndexPages {
                try db.execute(sql: "INSERT INTO index_page VALUES (?, ?)", arguments: [page, Data(bytes)])
            }
            try db.execute(sql: "PRAGMA user_version = 1")
        }
        try queue.close()
        let old = try StoreLayout.open(at: store.directory)
        XCTAssertEqual(try old.auditLayout(), [], "schema 1 is diary's own")
        XCTAssertEqual(try old.readIndexPages(), initial.putIndexPages)
        try old.withWriteLock { try old.apply(StoreChange(putEntries: [UUID(): blob()])) }
        XCTAssertEqual(try version(path), 1, "a change without pages leaves the schema")
        try old.withWriteLock {
            try old.apply(StoreChange(index: blob(), putIndexPages: [300: blob()], deleteIndexPages: [0]))
        }
        XCTAssertEqual(try version(path), 2)
        let upgraded = try StoreLayout.open(at: store.directory)
        XCTAssertEqual(Set(try upgraded.readIndexPages().keys), [63, 300])
        XCTAssertEqual(try upgraded.auditLayout(), [])
    }

    private func version(_ path: String) throws -> Int32 {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { try Int32.fetchOne($0, sql: "PRAGMA user_version") ?? 0 }
    }
}
