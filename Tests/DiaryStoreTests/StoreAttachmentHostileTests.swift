import DiaryTestSupport
import Foundation
import GRDB
import XCTest

@testable import DiaryStore

#if canImport(Glibc)
import Glibc
#endif

/// An attachment object on a hostile disk: refused before its bytes are read, never followed
/// or waited on, and every foreign piece reported by `auditLayout`.
final class StoreAttachmentHostileTests: XCTestCase {
    private var scratch: StoreScratch!

    override func setUpWithError() throws { scratch = try StoreScratch() }
    override func tearDown() { scratch.cleanUp() }

    private func filesStore() throws -> (any VaultStore, URL) {
        let store = try StoreLayout.create(.files, at: scratch.vaultURL(), initial: initialChange())
        let directory = store.directory.appendingPathComponent(FileStore.attachmentsName)
        try DurableFile.makeDirectory(directory)
        return (store, directory)
    }

    func testASparseFileLargerThanTheLargestObjectIsRefusedUnread() throws {
        let (store, directory) = try filesStore()
        let id = UUID()
        let path = directory.appendingPathComponent(FileStore.fileName(for: id)).path
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: nil))
        XCTAssertEqual(truncate(path, off_t(ReadLimits.attachment + 1)), 0)
        XCTAssertThrowsCorrupt { try store.attachmentLength(id) }
        XCTAssertThrowsCorrupt { try store.readAttachment(id) { _ in XCTFail("a byte was handed out") } }
        XCTAssertEqual(truncate(path, off_t(ReadLimits.attachment)), 0)
        XCTAssertEqual(try store.attachmentLength(id), ReadLimits.attachment, "the limit itself is allowed")
    }

    func testAFIFOALinkOrADirectoryIsRefusedNotFollowedOrWaitedOn() throws {
        let (store, directory) = try filesStore()
        let fifo = UUID()
        XCTAssertEqual(mkfifo(directory.appendingPathComponent(FileStore.fileName(for: fifo)).path, 0o600), 0)
        let link = UUID()
        let target = store.directory.appendingPathComponent("vault.header").path
        XCTAssertEqual(symlink(target, directory.appendingPathComponent(FileStore.fileName(for: link)).path), 0)
        let folder = UUID()
        try DurableFile.makeDirectory(directory.appendingPathComponent(FileStore.fileName(for: folder)))
        for id in [fifo, link, folder] {
            XCTAssertThrowsError(try store.readAttachment(id) { _ in XCTFail("a byte was handed out") })
            XCTAssertThrowsError(try store.attachmentLength(id))
        }
        let findings = try store.auditLayout()
        XCTAssertEqual(findings.count, 3, "\(findings)")
        XCTAssertTrue(findings.allSatisfy { $0.hasPrefix("attachments/") && $0.hasSuffix("not a regular file") })
    }

    func testForeignNamesInAttachmentsAreReportedAndNotObjects() throws {
        let (store, directory) = try filesStore()
        let upper = UUID().uuidString
        for name in [upper, "notes.txt"] {
            XCTAssertTrue(
                FileManager.default.createFile(atPath: directory.appendingPathComponent(name).path, contents: nil))
        }
        XCTAssertEqual(try store.attachmentIDs(), [])
        XCTAssertEqual(try store.auditLayout().count, 2)
        let file = store.directory.appendingPathComponent("attachments-x")
        XCTAssertTrue(FileManager.default.createFile(atPath: file.path, contents: nil))
        XCTAssertTrue(try store.auditLayout().contains { $0.contains("attachments-x") })
    }

    // MARK: - SQLite

    private func sqliteStore() throws -> (any VaultStore, DatabaseQueue) {
        let store = try StoreLayout.create(.sqlite, at: scratch.vaultURL(), initial: initialChange())
        let raw = try DatabaseQueue(path: store.directory.appendingPathComponent(SQLiteStore.databaseName).path)
        return (store, raw)
    }

    private func userVersion(_ raw: DatabaseQueue) throws -> Int32? {
        try raw.read { try Int32.fetchOne($0, sql: "PRAGMA user_version") }
    }

    func testTheTableAppearsWithTheFirstAttachmentAndVersionThree() throws {
        let (store, raw) = try sqliteStore()
        XCTAssertEqual(try userVersion(raw), 2, "a vault without attachments stays at version 2")
        try store.apply(StoreChange(index: blob(), deleteAttachments: [UUID()]))
        XCTAssertEqual(try userVersion(raw), 2, "deleting nothing creates nothing")
        try store.putAttachment(UUID()) { try $0(blob(300)) }
        XCTAssertEqual(try userVersion(raw), 3)
        XCTAssertEqual(try store.auditLayout(), [])
        XCTAssertEqual(try StoreLayout.open(at: store.directory).attachmentIDs().count, 1)
        let rowids = try raw.read { try Int64.fetchAll($0, sql: "SELECT rowid FROM attachment_chunk") }
        XCTAssertFalse(rowids.contains(1), "rowids are random, not 1, 2, 3…")
    }

    func testAVersionOneDatabaseIsUpgradedByItsFirstAttachment() throws {
        let (store, raw) = try sqliteStore()
        try raw.writeWithoutTransaction { db in
            try db.execute(sql: "DROP TABLE index_page")
            try db.execute(sql: SQLiteSchema.legacyIndexPageTableSQL)
            try db.execute(sql: "PRAGMA user_version = 1")
        }
        XCTAssertEqual(try store.auditLayout(), [])
        try store.putAttachment(UUID()) { try $0(blob(300)) }
        XCTAssertEqual(try userVersion(raw), 3)
        XCTAssertEqual(try store.auditLayout(), [])
    }

    func testRowsThatAreNotOneObjectAreDamage() throws {
        let (store, raw) = try sqliteStore()
        let (gap, oversized) = (UUID(), UUID())
        try store.putAttachment(gap) { put in for _ in 0..<3 { try put(blob(100)) } }
        try store.putAttachment(oversized) { try $0(blob(100)) }
        try raw.write { db in
            try db.execute(
                sql: "DELETE FROM attachment_chunk WHERE id = ? AND chunk = 1", arguments: [SQLiteSchema.key(gap)])
            try db.execute(
                sql: "UPDATE attachment_chunk SET sealed = zeroblob(?) WHERE id = ?",
                arguments: [ReadLimits.attachmentRow + 1, SQLiteSchema.key(oversized)])
        }
        for id in [gap, oversized] {
            XCTAssertThrowsCorrupt { try store.attachmentLength(id) }
            XCTAssertThrowsCorrupt { try store.readAttachment(id) { _ in XCTFail("a byte was handed out") } }
        }
    }

    func testATableForAttachmentsInAVersionTwoDatabaseIsReported() throws {
        let (store, raw) = try sqliteStore()
        try raw.writeWithoutTransaction { try $0.execute(sql: SQLiteSchema.attachmentTableSQL) }
        XCTAssertEqual(try store.auditLayout().count, 2, "the table and its index are not version 2's")
    }
}
