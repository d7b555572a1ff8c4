import DiaryTestSupport
import Foundation
import Synchronization
import XCTest

@testable import DiaryStore

/// `EntryScanning.scanEntries(among:)`: every named entry the snapshot holds is lent once with
/// its bytes; one not held is not lent; the files store reads nothing else (it opens files by
/// name and never lists `entries/`), and refuses what `forEachEntry` refuses.
final class StoreScanAmongTests: XCTestCase {
    private var scratch: StoreScratch!

    override func setUpWithError() throws { scratch = try StoreScratch() }
    override func tearDown() { scratch.cleanUp() }

    /// What was lent, as id → bytes (an id lent twice fails the test).
    private func scan(_ store: any VaultStore, among ids: [UUID], workers: Int = 3) throws -> [UUID: [UInt8]] {
        let seen = Mutex<([UUID: [UInt8]], [UUID])>(([:], []))
        try store.withSnapshot { reader in
            let scanner = try XCTUnwrap(reader as? EntryScanning)
            try scanner.scanEntries(among: ids, workers: workers) { _, id, sealed in
                seen.withLock { state in
                    if state.0.updateValue([UInt8](sealed), forKey: id) != nil { state.1.append(id) }
                }
                return true
            }
        }
        let (entries, twice) = seen.withLock { $0 }
        XCTAssertEqual(twice, [], "an entry was handed over twice")
        return entries
    }

    private func entryFile(_ store: any VaultStore, _ id: UUID) -> URL {
        store.directory.appendingPathComponent(FileStore.entriesName).appendingPathComponent(
            FileStore.fileName(for: id))
    }

    func testTheNamedEntriesAreLentAndAnIdNotStoredIsNot() {
        // More than one worker's share, of many sizes, some larger than a worker's first
        // buffer (64 KiB); half of them named, in id order, with ids the store does not hold.
        var initial = initialChange()
        for i in 0..<300 {
            let size = i % 50 == 0 ? 66_000 + i : 1 + (i * 41) % 2000
            initial.putEntries[UUID()] = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ i) }
        }
        let named = initial.putEntries.keys.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        let absent = (0..<70).map { _ in UUID() }
        let ids = (named + absent).sorted { $0.sortKey < $1.sortKey }
        scratch.forEachNewStore(initial: initial) { store, initial in
            for workers in [1, 2, 3] {
                let lent = try scan(store, among: ids, workers: workers)
                for id in named { XCTAssertEqual(lent[id], initial.putEntries[id]) }
                for id in absent { XCTAssertNil(lent[id]) }
                // Other entries, if any (the SQLite store lends its whole table), as stored.
                for (id, bytes) in lent { XCTAssertEqual(bytes, initial.putEntries[id]) }
                if store.kind == .files { XCTAssertEqual(Set(lent.keys), Set(named)) }
            }
            XCTAssertEqual(try scan(store, among: []).count, store.kind == .files ? 0 : 300)
        }
    }

    /// The files store opens the named files only: a file `ids` does not name is never read,
    /// even one that could not be read (a directory), and a named file removed is not lent.
    func testTheFilesStoreReadsOnlyTheNamedFiles() throws {
        let initial = initialChange(entries: 4)
        let store = try StoreLayout.create(.files, at: scratch.vaultURL(), initial: initial)
        let ids = initial.putEntries.keys.sorted { $0.sortKey < $1.sortKey }
        let unnamed = UUID()
        try FileManager.default.createDirectory(at: entryFile(store, unnamed), withIntermediateDirectories: false)
        try FileManager.default.removeItem(at: entryFile(store, ids[1]))
        let lent = try scan(store, among: ids)
        XCTAssertEqual(Set(lent.keys), [ids[0], ids[2], ids[3]])
        // Listing `entries/` (every file) meets the directory and refuses it.
        XCTAssertThrowsCorrupt { try store.forEachEntry { _, _ in } }
    }

    /// A named file that cannot be an entry stops the scan as `forEachEntry` stops: a directory,
    /// a symbolic link, a file over the read limit.
    func testTheFilesStoreRefusesANamedFileAsForEachEntryDoes() throws {
        let initial = initialChange(entries: 3)
        let store = try StoreLayout.create(.files, at: scratch.vaultURL(), initial: initial)
        let ids = initial.putEntries.keys.sorted { $0.sortKey < $1.sortKey }
        let file = entryFile(store, ids[1])
        try FileManager.default.removeItem(at: file)
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
        XCTAssertThrowsCorrupt { try scan(store, among: ids) }
        XCTAssertEqual(try scan(store, among: [ids[0], ids[2]]).count, 2)
        try FileManager.default.removeItem(at: file)
        try FileManager.default.createSymbolicLink(atPath: file.path, withDestinationPath: "/etc/hostname")
        let link = StoreError.corrupt(path: file.path, detail: "is a symbolic link")
        XCTAssertThrowsStoreError(link) { try scan(store, among: ids) }
        try FileManager.default.removeItem(at: file)
        XCTAssertTrue(FileManager.default.createFile(atPath: file.path, contents: nil))
        XCTAssertEqual(truncate(file.path, off_t(ReadLimits.entry + 1)), 0)
        let larger = StoreError.corrupt(path: file.path, detail: "is larger than \(ReadLimits.entry) bytes")
        XCTAssertThrowsStoreError(larger) { try scan(store, among: ids) }
    }

    /// No `entries/` at all (removed behind the store's back): nothing is lent, nothing fails.
    func testAFilesStoreWithoutItsEntriesDirectoryLendsNothing() throws {
        let initial = initialChange(entries: 2)
        let store = try StoreLayout.create(.files, at: scratch.vaultURL(), initial: initial)
        try FileManager.default.removeItem(at: store.directory.appendingPathComponent(FileStore.entriesName))
        XCTAssertEqual(try scan(store, among: Array(initial.putEntries.keys)), [:])
    }
}
