import DiaryTestSupport
import Foundation
import GRDB
import XCTest

@testable import DiaryStore

/// `auditLayout` finds nothing in what a store writes itself, through creates, puts, deletes,
/// index pages and compaction, and finds what anyone else adds.
final class StoreLayoutAuditTests: XCTestCase {
    private var scratch: StoreScratch!

    override func setUpWithError() throws { scratch = try StoreScratch() }
    override func tearDown() { scratch.cleanUp() }

    func testAStoresOwnWritesLeaveNoFindings() throws {
        scratch.forEachNewStore { store, initial in
            XCTAssertEqual(try store.auditLayout(), [])
            let id = UUID()
            try store.apply(
                StoreChange(index: blob(), putEntries: [id: blob()], putIndexPages: [0: blob(), 63: blob()]))
            try store.apply(StoreChange(deleteEntries: [id, initial.putEntries.keys.first!]))
            try store.compact()
            XCTAssertEqual(try store.auditLayout(), [], "\(store.kind)")
        }
    }

    func testTheSchemaTheStoreCreatesIsExactlyTheExpectedOne() throws {
        let schemas = try SQLiteSchemaAudit.expected.get()
        XCTAssertEqual(Set(schemas.keys), [1, 2, 3])
        let expected = try XCTUnwrap(schemas[SQLiteSchema.version])
        XCTAssertEqual(
            Set(expected.map(\.name)).isSuperset(of: ["header", "sealed_index", "entry", "index_page"]), true)
        let withAttachments = try XCTUnwrap(schemas[SQLiteSchema.attachmentVersion])
        XCTAssertEqual(
            Set(withAttachments.map(\.name)).subtracting(expected.map(\.name)),
            ["attachment_chunk", "attachment_chunk_key"])
        XCTAssertFalse(expected.contains { $0.type == "trigger" || $0.type == "view" })
    }

    func testSQLWhiteSpaceIsNotADifference() {
        XCTAssertEqual(SQLiteSchemaAudit.normalised("CREATE  TABLE\n  x (\ta )"), "CREATE TABLE x ( a )")
    }

    func testAnAddedTriggerIsFound() throws {
        let directory = scratch.vaultURL()
        let store = try StoreLayout.create(.sqlite, at: directory, initial: initialChange(entries: 1))
        try DatabaseQueue(path: directory.appendingPathComponent("vault.sqlite").path).write {
            try $0.execute(sql: "CREATE TRIGGER t AFTER INSERT ON entry BEGIN SELECT 1; END")
        }
        XCTAssertEqual(try store.auditLayout(), ["unexpected trigger 't' on 'entry' in the database"])
    }

    func testAFilesVaultsSubdirectoryAndLinkAreFound() throws {
        let directory = scratch.vaultURL()
        let store = try StoreLayout.create(.files, at: directory, initial: initialChange(entries: 1))
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("extra"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(
            atPath: directory.appendingPathComponent("entries/0000").path, withDestinationPath: "/")
        XCTAssertEqual(
            try store.auditLayout(),
            [
                "unexpected directory 'extra' in the vault directory",
                "unexpected symbolic link '0000' in entries/ (not an entry file name)",
            ])
    }
}
