import DiaryTestSupport
import Foundation
import GRDB
import XCTest

@testable import DiaryStore

/// The index pages of the `VaultStore` contract, run against every store kind: pages are
/// stored by number, replaced, land atomically with the rest of a change, survive a reopen,
/// and are seen whole by snapshots.
final class StoreConformanceIndexPageTests: XCTestCase {
    private var scratch: StoreScratch!

    override func setUpWithError() throws {
        scratch = try StoreScratch()
    }

    override func tearDown() {
        scratch.cleanUp()
    }

    /// A `diary init` change carrying index pages 0, 1, 63 and 255.
    private func initialWithPages() -> StoreChange {
        var change = initialChange(entries: 2)
        change.putIndexPages = [0: blob(), 1: blob(), 63: blob(100), 255: blob(7)]
        return change
    }

    func testIndexPagesRoundTripAndAbsentPagesAreNil() {
        scratch.forEachNewStore(initial: initialWithPages()) { store, initial in
            for (page, bytes) in initial.putIndexPages {
                XCTAssertEqual(try store.readIndexPage(page), bytes, "\(store.kind): page \(page)")
            }
            XCTAssertNil(try store.readIndexPage(2), "\(store.kind)")
            XCTAssertNil(try store.readIndexPage(254), "\(store.kind)")
            XCTAssertEqual(try store.readIndexPages(), initial.putIndexPages, "\(store.kind)")
            XCTAssertEqual(try store.readIndex(), initial.index, "pages leave the root alone")
            XCTAssertEqual(Set(try store.entryIDs()), Set(initial.putEntries.keys), "pages are not entries")
        }
    }

    func testPagesAreReplacedAddedAndSurviveReopen() {
        scratch.forEachNewStore(initial: initialWithPages()) { store, initial in
            let replaced = blob(60), added = blob(61)
            try store.withWriteLock { try store.apply(StoreChange(putIndexPages: [63: replaced, 64: added])) }
            var expected = initial.putIndexPages
            expected[63] = replaced
            expected[64] = added
            XCTAssertEqual(try store.readIndexPages(), expected, "\(store.kind)")
            let reopened = try StoreLayout.open(at: store.directory)
            XCTAssertEqual(try reopened.readIndexPages(), expected, "\(store.kind): durable across reopen")
            XCTAssertEqual(try reopened.readIndexPage(63), replaced)
            XCTAssertEqual(try reopened.readHeader(), initial.header)
        }
    }

    func testReadIndexPagesReturnsEveryPageOfAFullSet() {
        scratch.forEachNewStore(initial: initialChange()) { store, _ in
            let pages = Dictionary(uniqueKeysWithValues: (0..<64).map { ($0, blob(40 + $0)) })
            try store.withWriteLock { try store.apply(StoreChange(index: blob(), putIndexPages: pages)) }
            XCTAssertEqual(try store.readIndexPages(), pages, "\(store.kind)")
            let reopened = try StoreLayout.open(at: store.directory)
            XCTAssertEqual(try reopened.withSnapshot { try $0.readIndexPages() }, pages, "\(store.kind)")
        }
    }

    func testPagesLandTogetherWithEntriesHeaderAndRoot() {
        scratch.forEachNewStore(initial: initialWithPages()) { store, _ in
            let id = UUID()
            let change = StoreChange(
                header: blob(), index: blob(), putEntries: [id: blob()], putIndexPages: [0: blob(), 9: blob()])
            try store.withWriteLock { try store.apply(change) }
            let reopened = try StoreLayout.open(at: store.directory)
            try reopened.withSnapshot { snapshot in
                XCTAssertEqual(try snapshot.readHeader(), change.header)
                XCTAssertEqual(try snapshot.readIndex(), change.index)
                XCTAssertEqual(try snapshot.readEntry(id), change.putEntries[id])
                XCTAssertEqual(try snapshot.readIndexPage(0), change.putIndexPages[0], "\(store.kind)")
                XCTAssertEqual(try snapshot.readIndexPage(9), change.putIndexPages[9], "\(store.kind)")
            }
        }
    }

    func testOutOfRangePageNumbersAreRefusedAndARefusedChangeWritesNothing() {
        scratch.forEachNewStore(initial: initialWithPages()) { store, initial in
            for page in [-1, Int(UInt32.max) + 1, 1 << 40, Int.min, Int.max] {
                XCTAssertThrowsError(try store.readIndexPage(page), "\(store.kind): read \(page)")
                let change = StoreChange(
                    header: blob(), index: blob(), putEntries: [UUID(): blob()],
                    putIndexPages: [0: blob(), page: blob()])
                XCTAssertThrowsError(try store.withWriteLock { try store.apply(change) }, "\(store.kind): put \(page)")
            }
            let reopened = try StoreLayout.open(at: store.directory)
            XCTAssertEqual(try reopened.readHeader(), initial.header, "\(store.kind): old header kept")
            XCTAssertEqual(try reopened.readIndex(), initial.index)
            XCTAssertEqual(Set(try reopened.entryIDs()), Set(initial.putEntries.keys))
            XCTAssertEqual(try reopened.readIndexPages(), initial.putIndexPages, "\(store.kind): old pages kept")
            if store.kind == .files {
                let names = try FileManager.default.contentsOfDirectory(atPath: store.directory.path)
                XCTAssertFalse(names.contains { $0.hasPrefix(".tmp-") || $0 == "vault.journal" }, "\(names)")
            }
        }
    }

    func testCreateWithAnOutOfRangePageIsRefusedAndLeavesNoVault() throws {
        for kind in StoreKind.allCases {
            var initial = initialChange()
            initial.putIndexPages = [Int(UInt32.max) + 1: blob()]
            let directory = scratch.vaultURL()
            XCTAssertThrowsError(try StoreLayout.create(kind, at: directory, initial: initial), "\(kind)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: directory.path), "\(kind): nothing was made")
            XCTAssertNoThrow(try StoreLayout.create(kind, at: directory, initial: initialWithPages()), "\(kind)")
        }
    }

    func testSnapshotKeepsItsPagesWhileAnotherStoreWritesPages() {
        scratch.forEachNewStore(initial: initialWithPages()) { store, initial in
            let directory = store.directory
            let newPage = blob()
            let writer: BackgroundTask = try store.withSnapshot { snapshot in
                XCTAssertEqual(try snapshot.readIndexPages(), initial.putIndexPages)
                let task = BackgroundTask {
                    let second = try StoreLayout.open(at: directory)
                    try second.withWriteLock { try second.apply(StoreChange(putIndexPages: [0: newPage, 5: newPage])) }
                }
                Thread.sleep(forTimeInterval: 0.3)
                XCTAssertEqual(try snapshot.readIndexPages(), initial.putIndexPages, "\(store.kind)")
                XCTAssertEqual(try snapshot.readIndexPage(0), initial.putIndexPages[0], "\(store.kind)")
                XCTAssertNil(try snapshot.readIndexPage(5), "\(store.kind)")
                return task
            }
            try writer.wait()
            XCTAssertEqual(try store.readIndexPage(0), newPage, "\(store.kind): the write landed after the snapshot")
            XCTAssertEqual(try store.readIndexPage(5), newPage)
        }
    }

    func testReadersSeeRootAndPagesOfOneChangeTogether() {
        scratch.forEachNewStore(initial: initialWithPages()) { store, _ in
            let directory = store.directory
            let pages = [0, 17, 255]
            let stop = Counter()
            let reader = BackgroundTask {
                let mine = try StoreLayout.open(at: directory)
                while stop.value == 0 {
                    try mine.withSnapshot { snapshot in
                        // Every blob of one change carries the same round number.
                        guard let root = try snapshot.readIndex(), root.count == 1 else { return }
                        let all = try snapshot.readIndexPages()
                        for page in pages {
                            let one = try snapshot.readIndexPage(page)
                            if all[page] != root || one != root {
                                throw StoreError.corrupt(path: "page \(page)", detail: "mixed state")
                            }
                        }
                    }
                }
            }
            for round in 0..<25 {
                let value = [UInt8(round)]
                let change = StoreChange(
                    index: value, putIndexPages: Dictionary(uniqueKeysWithValues: pages.map { ($0, value) }))
                try store.withWriteLock { try store.apply(change) }
            }
            stop.increment()
            try reader.wait(timeout: 60)
        }
    }

    // MARK: - Pages removed by someone

    /// A files vault whose `index/` was removed reads as having no pages (the vault reports
    /// its index as damaged), and a write of pages, as `reindex` makes, recreates the directory.
    func testARemovedIndexDirectoryReadsAsNoPagesAndAWriteOfPagesRecreatesIt() {
        let previous = umask(0)
        defer { umask(previous) }
        scratch.forEachNewStore(initial: initialWithPages()) { store, _ in
            guard store.kind == .files else { return }
            try FileManager.default.removeItem(at: store.directory.appendingPathComponent("index"))
            let damaged = try StoreLayout.open(at: store.directory)
            XCTAssertEqual(try damaged.readIndexPages(), [:])
            XCTAssertNil(try damaged.readIndexPage(0))
            let pages = [3: blob(), 200: blob()]
            try damaged.withWriteLock { try damaged.apply(StoreChange(putIndexPages: pages)) }
            XCTAssertEqual(try StoreLayout.open(at: store.directory).readIndexPages(), pages)
            XCTAssertEqual(try mode(of: store.directory.appendingPathComponent("index")), 0o700)
            XCTAssertEqual(try mode(of: store.directory.appendingPathComponent("index/000000c8")), 0o600)
        }
    }

    /// The `index_page` table is part of the one schema: a database without it is damaged.
    func testASQLiteVaultWithoutItsPageTableIsDamage() throws {
        scratch.forEachNewStore(initial: initialWithPages()) { store, _ in
            guard store.kind == .sqlite else { return }
            let queue = try DatabaseQueue(path: store.directory.appendingPathComponent("vault.sqlite").path)
            try queue.write { try $0.execute(sql: "DROP TABLE index_page") }
            try queue.close()
            XCTAssertThrowsCorrupt { try StoreLayout.open(at: store.directory).readIndexPage(0) }
            XCTAssertThrowsCorrupt { try StoreLayout.open(at: store.directory).readIndexPages() }
        }
    }

    // MARK: - On disk

    func testPageFilesAre0600InA0700DirectoryAndListedAsStoreFiles() throws {
        let previous = umask(0)
        defer { umask(previous) }
        scratch.forEachNewStore(initial: initialWithPages()) { store, initial in
            try store.withWriteLock { try store.apply(StoreChange(putIndexPages: [10: blob()])) }
            let files = try store.storeFiles()
            for name in files {
                XCTAssertEqual(
                    try mode(of: store.directory.appendingPathComponent(name)), 0o600, "\(store.kind): \(name)")
            }
            guard store.kind == .files else { return }
            XCTAssertEqual(try mode(of: store.directory.appendingPathComponent("index")), 0o700)
            let pageFiles = files.filter { $0.hasPrefix("index/") }
            XCTAssertEqual(pageFiles, ["index/00", "index/000000ff", "index/01", "index/0a", "index/3f"])
            XCTAssertEqual(pageFiles.count, initial.putIndexPages.count + 1)
            let times = try FileManager.default.attributesOfItem(
                atPath: store.directory.appendingPathComponent("index/0a").path)
            let modified = try XCTUnwrap(times[.modificationDate] as? Date)
            XCTAssertTrue(DurableFile.hiddenTimeWindow.contains(Int(modified.timeIntervalSince1970)), "hidden mtime")
        }
    }

    func testBadPageNamesAreIgnoredAndBadPageRowsAreDamage() throws {
        scratch.forEachNewStore(initial: initialWithPages()) { store, initial in
            switch store.kind {
            case .files:
                let index = store.directory.appendingPathComponent("index")
                // A page has one name: two digits below 64, eight from 64 (`ff` and `0000003f` are not).
                for name in ["0A", "FF", "a", "100", "zz", ".tmp-77", "README", "-1", "ff", "0000003f", "000000FF"] {
                    try Data([1, 2]).write(to: index.appendingPathComponent(name))
                }
                XCTAssertEqual(try store.readIndexPages(), initial.putIndexPages)
                XCTAssertNil(try store.readIndexPage(10), "0A is not page 10")
                let linked = index.appendingPathComponent("02")
                try FileManager.default.createSymbolicLink(
                    atPath: linked.path,
                    withDestinationPath: store.directory.appendingPathComponent("vault.header").path)
                XCTAssertThrowsCorrupt { try store.readIndexPage(2) }
                XCTAssertThrowsCorrupt { try store.readIndexPages() }
            case .sqlite:
                let database = store.directory.appendingPathComponent("vault.sqlite").path
                // (A page number that is not an integer cannot be stored: the column is the rowid.)
                for (page, sealed) in [
                    ((Int64(UInt32.max) + 1).databaseValue, Data([1]).databaseValue),
                    (8.databaseValue, "plain".databaseValue),
                ] {
                    let queue = try DatabaseQueue(path: database)
                    try queue.write { db in
                        try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
                        try db.execute(sql: "DELETE FROM index_page WHERE page NOT IN (0, 1, 63, 255)")
                        try db.execute(
                            sql: "INSERT INTO index_page (page, sealed) VALUES (?, ?)", arguments: [page, sealed])
                    }
                    try queue.close()
                    XCTAssertThrowsCorrupt("\(page) \(sealed)") { try store.readIndexPages() }
                }
                XCTAssertThrowsCorrupt { try store.readIndexPage(8) }
                XCTAssertEqual(try store.readIndexPage(0), initial.putIndexPages[0], "other rows stay readable")
            }
        }
    }
}
