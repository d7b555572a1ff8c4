import DiaryStore
import DiaryTestSupport
import DiaryVault
import Foundation
import XCTest

@testable import DiarySync

/// What a sync does about an object held cut short (a fetch killed between the SQLite store's
/// batches) and about a folder planted where an object's file should be.
final class SyncAttachmentRepairTests: VaultTestCase {
    private var machines: SyncTestMachines!
    private var laptop: Vault { machines["laptop"] }
    private var desktop: Vault { machines["desktop"] }

    private func input(_ bytes: [UInt8], name: String) -> AttachmentInput {
        return AttachmentInput.reading(bytes, name: name)
    }

    private func bytes(_ count: Int, seed: UInt8) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 29 &+ $0 >> 9) ^ seed }
    }

    private func plaintext(_ vault: Vault, _ record: AttachmentRecord) throws -> [UInt8] {
        try vault.plaintext(of: record)
    }

    /// Puts into `vault`'s store, under the object's id, the first stored pieces of the object
    /// `laptop` holds (its prefix and first chunk): what a fetch killed after its first batch
    /// leaves in a SQLite store.
    private func plantCutShort(_ record: AttachmentRecord, in vault: Vault) throws {
        var whole: [UInt8] = []
        XCTAssertTrue(try laptop.readStoredAttachment(record.objectID) { whole.append(contentsOf: $0) })
        let store = try StoreLayout.open(at: vault.directory)
        try store.putAttachment(record.objectID) { chunk in
            try chunk(Array(whole[0..<AttachmentObject.prefixLength]))
            try chunk(
                Array(
                    whole[
                        AttachmentObject.prefixLength..<AttachmentObject.prefixLength
                            + AttachmentObject.storedChunkLength]))
        }
    }

    private func checkCutShortObjectIsFetchedAgain(store: StoreKind) throws {
        machines = SyncTestMachines(self)
        try machines.start("laptop", store: .sqlite)
        try machines.join("desktop", invitedBy: "laptop", store: store)
        let content = bytes(200_000, seed: 4)
        let entry = try laptop.add(text: "a long scan", attachments: [input(content, name: "scan.pdf")])
        let record = entry.attachments[0]
        try machines.sync("laptop")
        XCTAssertEqual(try machines.sync("desktop", fetchingAttachments: false).attachmentsPending, 1)
        try plantCutShort(record, in: desktop)
        // A killed fetch into the files store leaves its temporary file in the vault directory.
        let leftover = desktop.directory.appendingPathComponent(DurableFile.tempPrefix + "killed-fetch")
        try Data([1, 2, 3]).write(to: leftover)

        XCTAssertFalse(try desktop.holdsWholeAttachment(record))
        XCTAssertEqual(try desktop.attachmentsMissingFromStore().map(\.objectID), [record.objectID])
        XCTAssertThrowsError(try plaintext(desktop, record)) {
            guard case AttachmentError.damaged(_, .wrongLength) = $0 else { return XCTFail("\($0)") }
        }
        XCTAssertEqual(try machines.sync("desktop", fetchingAttachments: false).attachmentsPending, 1, "not held")

        let report = try machines.sync("desktop")
        XCTAssertEqual(report.attachmentsFetched, 1)
        XCTAssertEqual(report.attachmentsPending, 0)
        XCTAssertEqual(try plaintext(desktop, record), content)
        XCTAssertTrue(try desktop.holdsWholeAttachment(record))
        XCTAssertEqual(try desktop.attachmentsMissingFromStore(), [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: leftover.path), "the fetch removed the leftover")
        XCTAssertEqual(try machines.sync("desktop").attachmentsFetched, 0)
    }

    func testAnObjectCutShortInASQLiteStoreIsFetchedAgainAndReplaced() throws {
        try checkCutShortObjectIsFetchedAgain(store: .sqlite)
    }

    func testAnObjectCutShortInAFilesStoreIsFetchedAgainAndReplaced() throws {
        try checkCutShortObjectIsFetchedAgain(store: .files)
    }

    /// On demand (`open`, `extract` after `sync --no-attachments`), an object held cut short is
    /// fetched again too.
    func testFetchingOnDemandReplacesAnObjectCutShort() throws {
        machines = SyncTestMachines(self)
        try machines.start("laptop", store: .files)
        try machines.join("desktop", invitedBy: "laptop", store: .sqlite)
        let content = bytes(140_000, seed: 9)
        let record = try laptop.add(text: "deferred", attachments: [input(content, name: "d.bin")]).attachments[0]
        try machines.sync("laptop")
        try machines.sync("desktop", fetchingAttachments: false)
        try plantCutShort(record, in: desktop)
        let engine = try SyncEngine(vault: desktop, stateDirectory: machines.state("desktop"))
        XCTAssertEqual(try engine.fetchAttachments([record.objectID]).fetched, [record.objectID])
        XCTAssertEqual(try plaintext(desktop, record), content)
    }

    /// A folder where an object's file should be is planted, as a link there is: the sync
    /// stops and names it, rather than pass it over.
    func testAFolderInPlaceOfARemoteObjectIsRefusedAsPlanted() throws {
        machines = SyncTestMachines(self)
        try machines.start("laptop", store: .sqlite)
        try machines.join("desktop", invitedBy: "laptop", store: .files)
        let record = try laptop.add(text: "f", attachments: [input(bytes(3000, seed: 1), name: "f")]).attachments[0]
        try machines.sync("laptop")
        let shown = RemoteLayout.attachmentPath(machine: try machines.main("laptop").machine, object: record.objectID)
        let file = machines.remoteRoot.appendingPathComponent(shown)
        try FileManager.default.removeItem(at: file)
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)

        XCTAssertThrowsError(try machines.sync("desktop")) {
            XCTAssertEqual($0 as? SyncError, .untrustedRemote([.notAPlainFile(path: shown, kind: .folder)]))
        }
        XCTAssertNil(try desktop.storedAttachmentLength(record.objectID))
    }

    /// A copy removed from the remote is uploaded again by a machine that holds the object at
    /// its next sync (else the others would wait for it forever), and the others fetch it.
    func testACopyRemovedFromTheRemoteIsUploadedAgainByAMachineThatHoldsIt() throws {
        machines = SyncTestMachines(self)
        try machines.start("laptop", store: .files)
        try machines.join("desktop", invitedBy: "laptop", store: .sqlite)
        let content = bytes(50_000, seed: 3)
        let record = try laptop.add(text: "r", attachments: [input(content, name: "r.bin")]).attachments[0]
        XCTAssertEqual(try machines.sync("laptop").attachmentsUploaded, 1)
        XCTAssertEqual(try machines.sync("laptop").attachmentsUploaded, 0, "a copy is there")
        let shown = RemoteLayout.attachmentPath(machine: try machines.main("laptop").machine, object: record.objectID)
        try FileManager.default.removeItem(at: machines.remoteRoot.appendingPathComponent(shown))
        XCTAssertEqual(try machines.sync("desktop").attachmentsPending, 1)

        XCTAssertEqual(try machines.sync("laptop").attachmentsUploaded, 1)
        XCTAssertEqual(try machines.sync("desktop").attachmentsFetched, 1)
        XCTAssertEqual(try plaintext(desktop, record), content)
        XCTAssertEqual(try machines.sync("desktop").attachmentsUploaded, 0, "the laptop's copy is there")
    }
}
