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
}
