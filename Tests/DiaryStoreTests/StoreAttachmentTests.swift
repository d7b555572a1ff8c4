import DiaryCrypto
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryStore

/// Attachment objects in both stores (docs/FORMAT.md §2, §7.6): written piece by piece and
/// visible only once whole, streamed back in order, removed atomically with a change, and
/// nothing left of a write that failed.
final class StoreAttachmentTests: XCTestCase {
    private var scratch: StoreScratch!

    override func setUpWithError() throws { scratch = try StoreScratch() }
    override func tearDown() { scratch.cleanUp() }

    /// Pieces shaped like an object's: a 26-byte prefix, then 65553-byte chunks, the last shorter.
    private func pieces(chunks: Int, last: Int = 1000) -> [[UInt8]] {
        [blob(26)] + (0..<chunks).map { $0 == chunks - 1 ? blob(last) : blob(65553) }
    }

    private func read(_ reader: any StoreReader, _ id: UUID) throws -> (bytes: [UInt8]?, pieces: Int) {
        var out: [UInt8] = []
        var count = 0
        let found = try reader.readAttachment(id) { piece in
            XCTAssertLessThanOrEqual(piece.count, 1 << 20)
            out.append(contentsOf: piece)
            count += 1
        }
        return (found ? out : nil, count)
    }

    func testPutThenReadGivesTheBytesBackInOrderAndAfterReopening() {
        scratch.forEachNewStore { store, _ in
            let id = UUID()
            let parts = pieces(chunks: 20)
            try store.putAttachment(id) { chunk in for piece in parts { try chunk(piece) } }
            let whole = Array(parts.joined())
            for reader in [store, try StoreLayout.open(at: store.directory)] {
                XCTAssertEqual(try read(reader, id).bytes, whole, "\(store.kind)")
                XCTAssertEqual(try reader.attachmentLength(id), whole.count)
                XCTAssertEqual(try reader.attachmentIDs(), [id])
                XCTAssertEqual(try reader.withSnapshot { try read($0, id).bytes }, whole)
            }
            XCTAssertNil(try read(store, UUID()).bytes)
            XCTAssertNil(try store.attachmentLength(UUID()))
            XCTAssertEqual(try store.auditLayout(), [], "\(store.kind)")
        }
    }

    func testAStoreWithoutAttachmentsAnswersEmpty() {
        scratch.forEachNewStore { store, _ in
            XCTAssertEqual(try store.attachmentIDs(), [])
            XCTAssertNil(try store.attachmentLength(UUID()))
            XCTAssertNil(try read(store, UUID()).bytes)
        }
    }

    func testDeleteAttachmentsIsPartOfTheChange() {
        scratch.forEachNewStore { store, initial in
            let (a, b, c) = (UUID(), UUID(), UUID())
            for id in [a, b, c] { try store.putAttachment(id) { try $0(blob(600)) } }
            let entry = try XCTUnwrap(initial.putEntries.keys.first)
            try store.apply(StoreChange(index: blob(40), deleteEntries: [entry], deleteAttachments: [a, UUID()]))
            XCTAssertEqual(Set(try store.attachmentIDs()), [b, c])
            XCTAssertNil(try store.readEntry(entry))
            // Alone (one operation in the files store, no journal) and through `apply(inParts:)`.
            try store.apply(StoreChange(deleteAttachments: [b]))
            try store.apply(inParts: { put in
                try put([UUID(): blob()])
                return StoreChange(deleteAttachments: [c])
            })
            XCTAssertEqual(try store.attachmentIDs(), [])
            XCTAssertEqual(try store.auditLayout(), [], "\(store.kind)")
        }
    }

    /// A producer that throws midway (as a full disk or a file that changed while read would)
    /// leaves no object, no rows and no temporary file; in the SQLite store also after more
    /// than one committed batch.
    func testAWriteThatFailsMidwayLeavesNothing() {
        struct Stop: Error {}
        scratch.forEachNewStore { store, _ in
            let before = Set(try FileManager.default.contentsOfDirectory(atPath: store.directory.path))
            let id = UUID()
            let chunk = blob(65553)
            var written = 0
            XCTAssertThrowsError(
                try store.putAttachment(id) { put in
                    try put(blob(26))
                    while written < SQLiteStore.attachmentBatchBytes + (4 << 20) {
                        try put(chunk)
                        written += chunk.count
                    }
                    throw Stop()
                }
            ) { XCTAssertTrue($0 is Stop, "\($0)") }
            XCTAssertEqual(try store.attachmentIDs(), [], "\(store.kind)")
            XCTAssertNil(try store.attachmentLength(id))
            let after = Set(try FileManager.default.contentsOfDirectory(atPath: store.directory.path))
            XCTAssertEqual(after.subtracting(before).filter { $0 != FileStore.attachmentsName }, [])
            XCTAssertFalse(after.contains { $0.hasPrefix(DurableFile.tempPrefix) }, "\(after)")
            XCTAssertEqual(try store.auditLayout(), [], "\(store.kind)")
        }
    }

    func testAnEmptyObjectIsRefused() {
        scratch.forEachNewStore { store, _ in
            XCTAssertThrowsError(try store.putAttachment(UUID()) { _ in }, "\(store.kind)")
            XCTAssertEqual(try store.attachmentIDs(), [])
        }
    }

    func testFilesAreModeSixHundredInASevenHundredDirectory() throws {
        let store = try StoreLayout.create(.files, at: scratch.vaultURL(), initial: initialChange())
        let id = UUID()
        try store.putAttachment(id) { try $0(blob(100)) }
        let directory = store.directory.appendingPathComponent(FileStore.attachmentsName)
        XCTAssertEqual(try mode(of: directory), 0o700)
        XCTAssertEqual(try mode(of: directory.appendingPathComponent(FileStore.fileName(for: id))), 0o600)
        XCTAssertEqual(
            try store.storeFiles().filter { $0.hasPrefix("attachments/") }, [FileStore.attachmentName(for: id)])
    }

    func testTheJournalMayDeleteButNeverPutAnAttachment() {
        let name = FileStore.attachmentName(for: UUID())
        XCTAssertEqual(
            FileJournal.decode(FileJournal(operations: [.delete(name: name)]).encoded()),
            FileJournal(operations: [.delete(name: name)]))
        XCTAssertNil(FileJournal.decode(FileJournal(operations: [.put(name: name, bytes: [1])]).encoded()))
        XCTAssertNil(FileJournal.decode(FileJournal(operations: [.delete(name: "attachments/x")]).encoded()))
        XCTAssertNil(FileJournal.decode(FileJournal(operations: [.delete(name: name.uppercased())]).encoded()))
    }

    func testTheReadLimitIsTheLargestObject() {
        // 26 + Pad(4 GiB) + 17 per chunk (docs/FORMAT.md §9); DiaryVaultTests checks it
        // against the format's own arithmetic.
        XCTAssertEqual(ReadLimits.attachment, 26 + 4_831_838_208 + 17 * 73_728)
    }
}
