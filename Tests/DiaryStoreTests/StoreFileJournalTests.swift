import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryStore

/// The files store's crash recovery: journals left at each point a writer can die, made by
/// hand, are rolled forward (complete) or discarded (torn), and the result is always the old
/// state or the new one.
final class StoreFileJournalTests: XCTestCase {
    private var scratch: StoreScratch!
    private var directory: URL!
    private var initial: StoreChange!
    private var journalURL: URL { directory.appendingPathComponent("vault.journal") }

    override func setUpWithError() throws {
        scratch = try StoreScratch()
        directory = scratch.vaultURL()
        initial = initialChange(entries: 2)
        _ = try StoreLayout.create(.files, at: directory, initial: initial)
    }

    override func tearDown() {
        scratch.cleanUp()
    }

    /// A change replacing the header and index, adding one entry and deleting another.
    private func pendingChange() -> (StoreChange, UUID, UUID) {
        let added = UUID()
        let removed = initial.putEntries.keys.sorted { $0.uuidString < $1.uuidString }[0]
        let change = StoreChange(header: blob(), index: blob(), putEntries: [added: blob()], deleteEntries: [removed])
        return (change, added, removed)
    }

    private func assertNewState(_ store: any VaultStore, _ change: StoreChange, added: UUID, removed: UUID) throws {
        XCTAssertEqual(try store.readHeader(), change.header)
        XCTAssertEqual(try store.readIndex(), change.index)
        XCTAssertEqual(try store.readEntry(added), change.putEntries[added])
        XCTAssertNil(try store.readEntry(removed))
        XCTAssertFalse(FileManager.default.fileExists(atPath: journalURL.path), "journal removed")
    }

    private func assertOldState(_ store: any VaultStore) throws {
        XCTAssertEqual(try store.readHeader(), initial.header)
        XCTAssertEqual(try store.readIndex(), initial.index)
        XCTAssertEqual(Set(try store.entryIDs()), Set(initial.putEntries.keys))
        XCTAssertFalse(FileManager.default.fileExists(atPath: journalURL.path), "journal removed")
    }

    private func writeJournal(_ bytes: [UInt8]) throws {
        try Data(bytes).write(to: journalURL)
    }

    func testCompleteJournalIsRolledForwardOnOpen() throws {
        let (change, added, removed) = pendingChange()
        // Died right after naming the journal: no file has moved yet.
        try writeJournal(FileJournal(operations: FileStore.operations(for: change)).encoded())
        try assertNewState(try StoreLayout.open(at: directory), change, added: added, removed: removed)
    }

    func testHalfPerformedJournalIsRolledForward() throws {
        let (change, added, removed) = pendingChange()
        try writeJournal(FileJournal(operations: FileStore.operations(for: change)).encoded())
        // Died mid-way: the header and the deletion are done, the index and new entry are not;
        // plus a staged temporary file that never got renamed.
        try Data(change.header!).write(to: directory.appendingPathComponent("vault.header"))
        try FileManager.default.removeItem(
            at: directory.appendingPathComponent("entries/\(FileStore.fileName(for: removed))"))
        try Data([0xAA]).write(to: directory.appendingPathComponent(".tmp-abc"))
        let store = try StoreLayout.open(at: directory)
        try assertNewState(store, change, added: added, removed: removed)
        try store.withWriteLock { try store.apply(StoreChange(index: blob())) }
        XCTAssertFalse(try store.storeFiles().contains { $0.contains(".tmp-") }, "temporaries cleaned")
    }

    func testStagedFilesWithoutAJournalLeaveTheOldState() throws {
        // Died after staging the new blobs, before naming the journal.
        try Data(blob()).write(to: directory.appendingPathComponent(".tmp-0a1b"))
        try Data(blob()).write(to: directory.appendingPathComponent(".tmp-2c3d"))
        try Data(blob()).write(to: directory.appendingPathComponent(".tmp-journal"))
        let store = try StoreLayout.open(at: directory)
        try assertOldState(store)
        try store.withWriteLock { try store.apply(StoreChange(index: blob())) }
        XCTAssertFalse(try store.storeFiles().contains { $0.contains(".tmp-") }, "temporaries cleaned")
    }

    func testFullyPerformedJournalNotYetRemovedGivesTheNewState() throws {
        let (change, added, removed) = pendingChange()
        let store = try StoreLayout.open(at: directory)
        try store.withWriteLock { try store.apply(change) }
        // Died after the last rename, before removing the journal.
        try writeJournal(FileJournal(operations: FileStore.operations(for: change)).encoded())
        try assertNewState(try StoreLayout.open(at: directory), change, added: added, removed: removed)
    }

    func testJournalFoundByASnapshotOfAnOpenStoreIsFinishedFirst() throws {
        let store = try StoreLayout.open(at: directory)
        let (change, added, removed) = pendingChange()
        try writeJournal(FileJournal(operations: FileStore.operations(for: change)).encoded())
        let index = try store.withSnapshot { try $0.readIndex() }
        XCTAssertEqual(index, change.index)
        try assertNewState(store, change, added: added, removed: removed)
    }

    func testJournalIsFinishedOnEnteringTheWriteLock() throws {
        let store = try StoreLayout.open(at: directory)
        let (change, added, removed) = pendingChange()
        try writeJournal(FileJournal(operations: FileStore.operations(for: change)).encoded())
        try store.withWriteLock {
            XCTAssertFalse(FileManager.default.fileExists(atPath: journalURL.path))
        }
        try assertNewState(store, change, added: added, removed: removed)
    }

    func testTornJournalIsDiscardedAndTheOldStateKept() throws {
        let (change, _, _) = pendingChange()
        let full = FileJournal(operations: FileStore.operations(for: change)).encoded()
        for cut in [0, 5, full.count / 2, full.count - 1] {
            try writeJournal(Array(full.prefix(cut)))
            try assertOldState(try StoreLayout.open(at: directory))
        }
    }

    func testJournalWithAFlippedByteIsDiscarded() throws {
        let (change, _, _) = pendingChange()
        var bytes = FileJournal(operations: FileStore.operations(for: change)).encoded()
        bytes[bytes.count / 2] ^= 0x01
        try writeJournal(bytes)
        try assertOldState(try StoreLayout.open(at: directory))
    }

    func testJournalRoundTripsAndRejectsNonCanonicalForms() {
        let operations: [FileJournal.Operation] = [
            .put(name: "vault.header", bytes: [1, 2]), .put(name: "vault.index", bytes: []),
            .delete(name: "entries/" + FileStore.fileName(for: UUID())),
        ]
        let journal = FileJournal(operations: operations)
        XCTAssertEqual(FileJournal.decode(journal.encoded()), journal)
        XCTAssertEqual(FileJournal.decode(FileJournal(operations: []).encoded()), FileJournal(operations: []))
        for name in [
            "../escape", "entries/../../x", "/etc/passwd", "entries/" + UUID().uuidString, "vault.lock",
            "index/FF", "index/100", "index/0", "index/", "index", "index/../vault.header", "index/.tmp-1",
        ] {
            XCTAssertNil(FileJournal.decode(FileJournal(operations: [.delete(name: name)]).encoded()), name)
        }
        let dup = FileJournal(operations: [.delete(name: "vault.index"), .delete(name: "vault.index")])
        XCTAssertNil(FileJournal.decode(dup.encoded()), "duplicate target")
        var trailing = journal.encoded()
        trailing.append(0)
        XCTAssertNil(FileJournal.decode(trailing), "trailing byte")
    }

    func testIndexPageNamesAreJournalTargets() {
        let operations: [FileJournal.Operation] = [
            .put(name: "index/00", bytes: [1]), .put(name: "index/000000ff", bytes: [2]), .delete(name: "index/3a"),
        ]
        XCTAssertEqual(FileJournal.decode(FileJournal(operations: operations).encoded())?.operations, operations)
        let change = StoreChange(index: blob(), putIndexPages: [255: [9], 0: [8], 16: [7]])
        XCTAssertEqual(
            FileStore.operations(for: change).map(\.name), ["vault.index", "index/00", "index/10", "index/000000ff"])
    }

    func testJournalWithIndexPagesIsRolledForwardHalfDone() throws {
        let store = try StoreLayout.open(at: directory)
        try store.withWriteLock { try store.apply(StoreChange(putIndexPages: [0: blob(), 1: blob()])) }
        let (base, added, removed) = pendingChange()
        var change = base
        change.putIndexPages = [0: blob(), 2: blob()]
        try writeJournal(FileJournal(operations: FileStore.operations(for: change)).encoded())
        // Died after renaming page 0, before page 2 and the entries.
        try Data(change.putIndexPages[0]!).write(to: directory.appendingPathComponent("index/00"))
        let reopened = try StoreLayout.open(at: directory)
        try assertNewState(reopened, change, added: added, removed: removed)
        XCTAssertEqual(try reopened.readIndexPage(0), change.putIndexPages[0])
        XCTAssertEqual(try reopened.readIndexPage(2), change.putIndexPages[2])
        XCTAssertEqual(try reopened.readIndexPages().count, 3, "page 1 untouched")
    }

    func testJournalWithIndexPagesIsFinishedAfterIndexDirectoryWasRemoved() throws {
        try FileManager.default.removeItem(at: directory.appendingPathComponent("index"))
        let (base, added, removed) = pendingChange()
        var change = base
        change.putIndexPages = [7: blob()]
        try writeJournal(FileJournal(operations: FileStore.operations(for: change)).encoded())
        let store = try StoreLayout.open(at: directory)
        try assertNewState(store, change, added: added, removed: removed)
        XCTAssertEqual(try store.readIndexPages(), [7: change.putIndexPages[7]!])
    }

    func testTornJournalWithIndexPagesKeepsTheOldPages() throws {
        let store = try StoreLayout.open(at: directory)
        let old = [0: blob(), 1: blob()]
        try store.withWriteLock { try store.apply(StoreChange(putIndexPages: old)) }
        var (change, _, _) = pendingChange()
        change.putIndexPages = [0: blob(), 1: blob()]
        let full = FileJournal(operations: FileStore.operations(for: change)).encoded()
        try writeJournal(Array(full.prefix(full.count - 3)))
        let reopened = try StoreLayout.open(at: directory)
        try assertOldState(reopened)
        XCTAssertEqual(try reopened.readIndexPages(), old)
    }

    func testLeftoverIndexPagesOfAnInterruptedCreateAreRemovedAndForeignNamesRefused() throws {
        let fresh = scratch.vaultURL()
        try FileManager.default.createDirectory(
            at: fresh.appendingPathComponent("index"), withIntermediateDirectories: true)
        for name in ["vault.lock", "vault.index", "index/00", "index/3f", "index/.tmp-9"] {
            try Data([1]).write(to: fresh.appendingPathComponent(name))
        }
        XCTAssertThrowsStoreError(.noVault(path: fresh.path)) { try StoreLayout.detect(at: fresh) }
        let store = try StoreLayout.create(.files, at: fresh, initial: initialChange())
        XCTAssertEqual(try store.readIndexPages(), [:], "an earlier create's pages are gone")
        XCTAssertEqual(try store.storeFiles(), ["vault.header", "vault.index", "vault.lock"])

        let foreign = scratch.vaultURL()
        try FileManager.default.createDirectory(
            at: foreign.appendingPathComponent("index"), withIntermediateDirectories: true)
        try Data([1]).write(to: foreign.appendingPathComponent("index/notes.txt"))
        XCTAssertThrowsStoreError(.notAVault(path: foreign.path)) { try StoreLayout.detect(at: foreign) }
        XCTAssertThrowsStoreError(.notAVault(path: foreign.path)) {
            try StoreLayout.create(.files, at: foreign, initial: initialChange())
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: foreign.appendingPathComponent("index/notes.txt").path))
    }

    func testMissingHeaderWithEntriesIsDamageNotAnEmptyDirectory() throws {
        try FileManager.default.removeItem(at: directory.appendingPathComponent("vault.header"))
        XCTAssertThrowsCorrupt { try StoreLayout.detect(at: directory) }
        XCTAssertThrowsCorrupt { try StoreLayout.create(.files, at: directory, initial: initialChange()) }
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("entries").path).count,
            2)
    }

    func testLeftoversOfAnInterruptedCreateCountAsNoVault() throws {
        let fresh = scratch.vaultURL()
        try FileManager.default.createDirectory(
            at: fresh.appendingPathComponent("entries"), withIntermediateDirectories: true)
        for name in ["vault.lock", "vault.index", ".tmp-1234", "entries/.tmp-5678"] {
            try Data([1]).write(to: fresh.appendingPathComponent(name))
        }
        XCTAssertThrowsStoreError(.noVault(path: fresh.path)) { try StoreLayout.detect(at: fresh) }
        let change = initialChange()
        let store = try StoreLayout.create(.files, at: fresh, initial: change)
        XCTAssertEqual(try store.readIndex(), change.index)
        XCTAssertEqual(try store.storeFiles(), ["vault.header", "vault.index", "vault.lock"])
    }

    func testSymbolicLinkOrDirectoryInPlaceOfAnEntryIsDamage() throws {
        let store = try StoreLayout.open(at: directory)
        let linked = UUID(), dir = UUID()
        let entries = directory.appendingPathComponent("entries")
        try FileManager.default.createSymbolicLink(
            atPath: entries.appendingPathComponent(FileStore.fileName(for: linked)).path,
            withDestinationPath: directory.appendingPathComponent("vault.header").path)
        try FileManager.default.createDirectory(
            at: entries.appendingPathComponent(FileStore.fileName(for: dir)), withIntermediateDirectories: false)
        XCTAssertThrowsCorrupt { try store.readEntry(linked) }
        XCTAssertThrowsCorrupt { try store.readEntry(dir) }
    }

    func testMissingHeaderFileOfAnOpenStoreIsReportedAsDamage() throws {
        let store = try StoreLayout.open(at: directory)
        try FileManager.default.removeItem(at: directory.appendingPathComponent("vault.header"))
        XCTAssertThrowsCorrupt { try store.readHeader() }
    }
}
