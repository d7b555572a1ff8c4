import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryStore

#if canImport(Glibc)
import Glibc
#endif

/// A rotation's batches write into the files the batch before replaced (`SpareFiles`): no
/// file is created or freed per entry, a file another name also holds is never written into,
/// and nothing of the old files stays after the rotation's last change (one not a batch).
final class StoreSpareFilesTests: XCTestCase {
    private var scratch: StoreScratch!

    override func setUpWithError() throws {
        scratch = try StoreScratch()
        // Where the file system cannot exchange names, batches rename as other changes do
        // (`testWithoutTheExchangeABatchRenamesAsBefore`); the rest has nothing to check.
        let a = scratch.root.appendingPathComponent("a").path
        let b = scratch.root.appendingPathComponent("b").path
        XCTAssertTrue(FileManager.default.createFile(atPath: a, contents: Data([1])))
        XCTAssertTrue(FileManager.default.createFile(atPath: b, contents: Data([2])))
        exchanges = try DurableFile.exchange(path: a, with: b) == .exchanged
    }

    private var exchanges = true
    override func tearDown() { scratch.cleanUp() }

    /// A files store of 20 entries, and its ids in two halves (two batches of a rotation).
    private func store() throws -> (FileStore, [UUID], [UUID]) {
        let initial = initialChange(entries: 20)
        let store = try XCTUnwrap(
            try StoreLayout.create(.files, at: scratch.vaultURL(), initial: initial) as? FileStore)
        let ids = initial.putEntries.keys.sorted { $0.uuidString < $1.uuidString }
        return (store, Array(ids.prefix(10)), Array(ids.suffix(10)))
    }

    /// One batch of a rotation: `ids` sealed again, and the index. Not `rotationBatch`, it is
    /// a change that re-seals entries all the same (`rekey --attachments` makes those).
    @discardableResult
    private func batch(_ store: FileStore, _ ids: [UUID], rotationBatch: Bool = true) throws -> [UUID: [UInt8]] {
        let puts = Dictionary(uniqueKeysWithValues: ids.map { ($0, blob(Int.random(in: 30...3000))) })
        var change = StoreChange(index: blob(), putEntries: puts)
        change.reseals = true
        change.rotationBatch = rotationBatch
        try store.apply(inParts: { _ in change })
        return puts
    }

    /// A rotation's last change: the header and the index, not a batch.
    private func finish(_ store: FileStore) throws {
        try store.apply(inParts: { _ in StoreChange(header: blob(64), index: blob()) })
    }

    func testABatchWritesIntoTheFilesTheBatchBeforeReplacedAndTheLastChangeRemovesTheRest() throws {
        try XCTSkipUnless(exchanges, "this file system does not exchange names")
        let (store, first, second) = try store()
        let old = try inodes(first + second, in: store)
        try batch(store, first)
        // The first batch's replaced files (its entries' and the index's), under temporary names.
        let spares = try temporaryFiles(in: store)
        XCTAssertEqual(spares.count, first.count + 1)
        XCTAssertTrue(Set(first.map { old[$0]! }).isSubset(of: Set(spares.values)))
        let written = try batch(store, second)
        let reused = try inodes(second, in: store)
        XCTAssertTrue(
            Set(reused.values).isSubset(of: Set(spares.values)), "the second batch created files instead of reusing")
        for (id, bytes) in written { XCTAssertEqual(try store.readEntry(id), bytes) }
        for name in try temporaryFiles(in: store).keys {
            XCTAssertEqual(try linkCount(store.directory.appendingPathComponent(name)), 1)
        }
        try finish(store)
        XCTAssertEqual(try temporaryFiles(in: store), [:])
        XCTAssertEqual(try store.auditLayout(), [])
        for (id, bytes) in written { XCTAssertEqual(try store.readEntry(id), bytes) }
    }

    /// A hard-linked snapshot of the vault (`cp -al`) shares the entries' files: a spare it
    /// still holds is left alone, and the snapshot keeps every byte it had.
    func testAFileASnapshotAlsoHoldsIsNeverWrittenInto() throws {
        try XCTSkipUnless(exchanges, "this file system does not exchange names")
        let (store, first, second) = try store()
        let snapshot = scratch.root.appendingPathComponent("snapshot")
        try FileManager.default.createDirectory(at: snapshot, withIntermediateDirectories: true)
        var before: [UUID: [UInt8]] = [:]
        for id in first + second {
            before[id] = try store.readEntry(id)
            XCTAssertEqual(link(entryURL(id, in: store).path, snapshot.appendingPathComponent(id.uuidString).path), 0)
        }
        try batch(store, first)
        let written = try batch(store, second)
        try finish(store)
        for (id, bytes) in before {
            let kept = try Data(contentsOf: snapshot.appendingPathComponent(id.uuidString))
            XCTAssertTrue(kept == Data(bytes), "the snapshot's copy of \(id) changed")
        }
        for (id, bytes) in written { XCTAssertEqual(try store.readEntry(id), bytes) }
        XCTAssertEqual(try temporaryFiles(in: store), [:])
    }

    /// Any other change leaves no replaced file behind, and another writer's change (another
    /// process, which knows nothing of the spares) removes them: the next batch makes new files.
    func testOnlyARotationKeepsReplacedFilesAndAnotherWriterRemovesThem() throws {
        try XCTSkipUnless(exchanges, "this file system does not exchange names")
        let (store, first, second) = try store()
        try batch(store, first, rotationBatch: false)
        XCTAssertEqual(try temporaryFiles(in: store), [:])
        try batch(store, first)
        XCTAssertEqual(try temporaryFiles(in: store).count, first.count + 1)
        let other = try XCTUnwrap(try StoreLayout.open(at: store.directory) as? FileStore)
        try other.apply(StoreChange(index: blob(), putEntries: [first[0]: blob()]))
        XCTAssertEqual(try temporaryFiles(in: store), [:])
        let written = try batch(store, second)
        for (id, bytes) in written { XCTAssertEqual(try store.readEntry(id), bytes) }
        try finish(store)
        XCTAssertEqual(try temporaryFiles(in: store), [:])
        XCTAssertEqual(try store.auditLayout(), [])
    }

    /// A spare that is no longer a plain file of ours when the next batch comes (someone with
    /// access to the directory put a link, a FIFO or a directory in its place) is not written
    /// into, and the batch goes on in new files.
    func testASpareReplacedByALinkAFIFOOrADirectoryIsPassedOver() throws {
        try XCTSkipUnless(exchanges, "this file system does not exchange names")
        let (store, first, second) = try store()
        let outside = scratch.root.appendingPathComponent("outside")
        try Data("not the vault's".utf8).write(to: outside)
        try batch(store, first)
        let spares = try temporaryFiles(in: store).keys.sorted().map { store.directory.appendingPathComponent($0) }
        XCTAssertGreaterThanOrEqual(spares.count, 3)
        for (n, spare) in spares.enumerated() {
            try FileManager.default.removeItem(at: spare)
            switch n % 3 {
            case 0: XCTAssertEqual(symlink(outside.path, spare.path), 0)
            case 1: XCTAssertEqual(mkfifo(spare.path, 0o600), 0)
            default: try FileManager.default.createDirectory(at: spare, withIntermediateDirectories: false)
            }
        }
        let written = try batch(store, second)
        for (id, bytes) in written { XCTAssertEqual(try store.readEntry(id), bytes) }
        XCTAssertEqual(try String(contentsOf: outside, encoding: .utf8), "not the vault's")
        try finish(store)
        XCTAssertEqual(try store.auditLayout(), [])
        for (id, bytes) in written { XCTAssertEqual(try store.readEntry(id), bytes) }
    }

    /// A spare this user may not write (left read-only by a copy that kept modes, or owned by
    /// someone else after a `sudo diary`) is passed over, as a rename over it never minded.
    func testASpareThisUserMayNotWriteIsPassedOver() throws {
        try XCTSkipUnless(exchanges, "this file system does not exchange names")
        let (store, first, second) = try store()
        try batch(store, first)
        let spares = try temporaryFiles(in: store)
        for name in spares.keys {
            let path = store.directory.appendingPathComponent(name).path
            // As root a mode does not stop a write, an owner does.
            XCTAssertEqual(geteuid() == 0 ? chown(path, 65534, 65534) : chmod(path, 0o400), 0)
        }
        let written = try batch(store, second)
        for (id, bytes) in written { XCTAssertEqual(try store.readEntry(id), bytes) }
        let entries = try inodes(second, in: store)
        XCTAssertTrue(Set(entries.values).isDisjoint(with: Set(spares.values)), "a spare not ours was written into")
        XCTAssertTrue(Set(try temporaryFiles(in: store).keys).isDisjoint(with: Set(spares.keys)))
        try finish(store)
        XCTAssertEqual(try temporaryFiles(in: store), [:])
    }

    /// A directory where an entry file should be is not exchanged away under a temporary name:
    /// the batch fails, as a rename over it always did, and the directory stays where it was.
    func testADirectoryInAnEntrysPlaceStaysWhereItIs() throws {
        let (store, first, _) = try store()
        let url = entryURL(first[3], in: store)
        try FileManager.default.removeItem(at: url)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        try Data("precious".utf8).write(to: url.appendingPathComponent("note"))
        XCTAssertThrowsError(try batch(store, first))
        XCTAssertEqual(try String(contentsOf: url.appendingPathComponent("note"), encoding: .utf8), "precious")
        let names = try FileManager.default.contentsOfDirectory(atPath: store.directory.path)
        for name in names where name.hasPrefix(DurableFile.tempPrefix) {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(
                atPath: store.directory.appendingPathComponent(name).path, isDirectory: &isDirectory)
            XCTAssertFalse(isDirectory.boolValue, "\(name) holds a directory")
        }
    }

    /// A change with nothing to write after the batches removes what they kept all the same.
    func testAnEmptyChangeAfterTheBatchesRemovesTheSpares() throws {
        let (store, first, _) = try store()
        try batch(store, first)
        try store.apply(inParts: { _ in StoreChange() })
        XCTAssertEqual(try temporaryFiles(in: store), [:])
    }

    /// Without the exchange (a file system that lacks it), a batch renames over each file and
    /// keeps nothing; every entry is written all the same.
    func testWithoutTheExchangeABatchRenamesAsBefore() throws {
        #if os(Linux)
        let was = exchangeWorks.load(ordering: .relaxed)
        exchangeWorks.store(false, ordering: .relaxed)
        defer { exchangeWorks.store(was, ordering: .relaxed) }
        #endif
        let (store, first, second) = try store()
        let old = try inodes(first + second, in: store)
        var written = try batch(store, first)
        XCTAssertEqual(try temporaryFiles(in: store), [:])
        written.merge(try batch(store, second)) { _, new in new }
        for (id, bytes) in written {
            XCTAssertEqual(try store.readEntry(id), bytes)
            XCTAssertNotEqual(try inode(entryURL(id, in: store)), old[id])
        }
        try finish(store)
        XCTAssertEqual(try temporaryFiles(in: store), [:])
        XCTAssertEqual(try store.auditLayout(), [])
    }

    private func entryURL(_ id: UUID, in store: FileStore) -> URL {
        store.directory.appendingPathComponent(FileStore.entriesName + "/" + FileStore.fileName(for: id))
    }

    private func inodes(_ ids: [UUID], in store: FileStore) throws -> [UUID: UInt64] {
        try Dictionary(uniqueKeysWithValues: ids.map { ($0, try inode(entryURL($0, in: store))) })
    }

    /// The `.tmp-` files in the vault directory, with their inodes.
    private func temporaryFiles(in store: FileStore) throws -> [String: UInt64] {
        let names = try FileManager.default.contentsOfDirectory(atPath: store.directory.path)
        return try Dictionary(
            uniqueKeysWithValues: names.filter { $0.hasPrefix(DurableFile.tempPrefix) }.map {
                ($0, try inode(store.directory.appendingPathComponent($0)))
            })
    }

    private func inode(_ url: URL) throws -> UInt64 {
        var info = stat()
        guard lstat(url.path, &info) == 0 else { throw POSIXError(.ENOENT) }
        return UInt64(info.st_ino)
    }

    private func linkCount(_ url: URL) throws -> Int {
        var info = stat()
        guard lstat(url.path, &info) == 0 else { throw POSIXError(.ENOENT) }
        return Int(info.st_nlink)
    }
}
