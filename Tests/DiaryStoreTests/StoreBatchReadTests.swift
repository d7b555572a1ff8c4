import DiaryTestSupport
import Foundation
import GRDB
import XCTest

@testable import DiaryStore

/// `readEntries` gives what `readEntry` gives for each id, in the order asked, on every store,
/// and refuses the damage `readEntry` refuses.
final class StoreBatchReadTests: XCTestCase {
    private var scratch: StoreScratch!

    override func setUpWithError() throws {
        scratch = try StoreScratch()
    }

    override func tearDown() {
        scratch.cleanUp()
    }

    func testBatchReadGivesEachEntryInTheOrderAsked() {
        scratch.forEachNewStore { store, initial in
            let ids = Array(initial.putEntries.keys) + [UUID()] + Array(initial.putEntries.keys).reversed()
            let expected = ids.map { initial.putEntries[$0] }
            XCTAssertEqual(try store.readEntries(ids), expected, "\(store.kind)")
            try store.withSnapshot { reader in
                XCTAssertEqual(try reader.readEntries(ids), expected, "\(store.kind)")
                XCTAssertEqual(try reader.readEntries([]), [])
            }
        }
    }

    func testBatchReadRefusesWhatIsNotABlobOrTooLarge() throws {
        let directory = scratch.vaultURL()
        let initial = initialChange(entries: 3)
        let store = try StoreLayout.create(.sqlite, at: directory, initial: initial)
        let ids = Array(initial.putEntries.keys)
        let raw = try DatabaseQueue(path: directory.appendingPathComponent("vault.sqlite").path)
        try raw.write { db in
            try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
            try db.execute(sql: "UPDATE entry SET sealed = 'plain' WHERE id = ?", arguments: [SQLiteSchema.key(ids[0])])
            try db.execute(
                sql: "UPDATE entry SET sealed = zeroblob(?) WHERE id = ?",
                arguments: [ReadLimits.entry + 1, SQLiteSchema.key(ids[1])])
        }
        for id in ids.prefix(2) {
            XCTAssertThrowsError(try store.readEntry(id))
            XCTAssertThrowsError(try store.readEntries([ids[2], id])) { error in
                guard case .corrupt? = error as? StoreError else { return XCTFail("\(error)") }
            }
        }
        XCTAssertEqual(try store.readEntries([ids[2]]), [initial.putEntries[ids[2]]])
    }

    /// A batch large enough to be read by several threads gives each entry in the order asked,
    /// and, where several files cannot be read, throws what reading them in order throws first.
    func testALargeFilesBatchIsReadInOrderAndFailsAtItsFirstBadFile() throws {
        var initial = initialChange()
        for i in 0..<300 { initial.putEntries[UUID()] = blob(1 + i * 13 % 900) }
        let store = try StoreLayout.create(.files, at: scratch.vaultURL(), initial: initial)
        let ids = Array(initial.putEntries.keys) + [UUID()]
        XCTAssertEqual(try store.readEntries(ids), ids.map { initial.putEntries[$0] })
        let entries = store.directory.appendingPathComponent(FileStore.entriesName)
        func file(_ at: Int) -> URL { entries.appendingPathComponent(FileStore.fileName(for: ids[at])) }
        // A symbolic link early in the batch, a directory late: the link is what throws.
        try FileManager.default.removeItem(at: file(250))
        try FileManager.default.createDirectory(at: file(250), withIntermediateDirectories: false)
        try FileManager.default.removeItem(at: file(40))
        try FileManager.default.createSymbolicLink(atPath: file(40).path, withDestinationPath: "/etc/hostname")
        let link = StoreError.corrupt(path: file(40).path, detail: "is a symbolic link")
        XCTAssertThrowsStoreError(link) { try store.readEntries(ids) }
        XCTAssertThrowsStoreError(link) { try store.withSnapshot { try $0.readEntries(ids) } }
        XCTAssertThrowsCorrupt { try store.readEntries(ids[41...]) }
    }
}
