import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryStore

/// `apply(inParts:)`: the parts and the change land as one atomic change, or nothing does; the
/// files store's journal of it is the one `apply` writes, and one left at a crash is replayed.
final class StoreApplyInPartsTests: XCTestCase {
    private var scratch: StoreScratch!

    override func setUpWithError() throws { scratch = try StoreScratch() }
    override func tearDown() { scratch.cleanUp() }

    private func parts(_ count: Int, of size: Int) -> [[UUID: [UInt8]]] {
        (0..<count).map { _ in Dictionary(uniqueKeysWithValues: (0..<size).map { _ in (UUID(), blob()) }) }
    }

    func testPartsAndTheChangeLandTogether() throws {
        scratch.forEachNewStore { store, initial in
            let removed = initial.putEntries.keys.sorted { $0.uuidString < $1.uuidString }[0]
            let written = parts(3, of: 40)
            let change = StoreChange(index: blob(), deleteEntries: [removed], putIndexPages: [64: blob()])
            try store.apply(inParts: { put in
                for part in written { try put(part) }
                return change
            })
            for part in written {
                for (id, bytes) in part { XCTAssertEqual(try store.readEntry(id), bytes) }
            }
            XCTAssertNil(try store.readEntry(removed))
            XCTAssertEqual(try store.readIndex(), change.index)
            XCTAssertEqual(try store.readIndexPage(64), change.putIndexPages[64])
            XCTAssertEqual(try store.entryIDs().count, initial.putEntries.count - 1 + 120)
            XCTAssertEqual(try store.auditLayout(), [])
        }
    }

    func testAFailureAfterSomePartsLeavesTheStoreAsItWas() throws {
        struct Stop: Error {}
        scratch.forEachNewStore { store, initial in
            XCTAssertThrowsError(
                try store.apply(inParts: { put in
                    for part in parts(2, of: 70) { try put(part) }
                    throw Stop()
                })
            ) { XCTAssertTrue($0 is Stop) }
            XCTAssertEqual(Set(try store.entryIDs()), Set(initial.putEntries.keys))
            XCTAssertEqual(try store.readIndex(), initial.index)
            XCTAssertEqual(try store.auditLayout(), [])
            let left = try FileManager.default.contentsOfDirectory(atPath: store.directory.path)
            XCTAssertEqual(left.filter { $0.hasPrefix(".tmp-") || $0 == "vault.journal" }, [])
        }
    }

    func testTheFilesJournalIsApplysAndIsReplayedAfterACrash() throws {
        let directory = scratch.vaultURL()
        _ = try StoreLayout.create(.files, at: directory, initial: initialChange(entries: 2))
        let change = StoreChange(index: blob(), putEntries: parts(1, of: 5)[0], putIndexPages: [65: blob()])
        let operations = FileStore.operations(for: change)
        let writer = try PartsJournal(directory: directory)
        try writer.add(operations)
        try writer.seal()
        // Killed here: the journal is named, nothing has moved yet.
        let journal = try Data(contentsOf: directory.appendingPathComponent(FileJournal.fileName))
        XCTAssertEqual([UInt8](journal), FileJournal(operations: operations).encoded())
        let reopened = try StoreLayout.open(at: directory)
        for (id, bytes) in change.putEntries { XCTAssertEqual(try reopened.readEntry(id), bytes) }
        XCTAssertEqual(try reopened.readIndex(), change.index)
        XCTAssertEqual(try reopened.readIndexPage(65), change.putIndexPages[65])
        XCTAssertEqual(try reopened.auditLayout(), [])
    }

    func testTheFilesStoreRefusesAnEntryNamedTwice() throws {
        let store = try StoreLayout.create(.files, at: scratch.vaultURL(), initial: initialChange(entries: 1))
        let id = UUID()
        XCTAssertThrowsError(
            try store.apply(inParts: { put in
                try put([id: blob()])
                return StoreChange(putEntries: [id: blob()])
            }))
        XCTAssertNil(try store.readEntry(id))
    }
}
