import DiaryApp
import DiaryStore
import DiarySync
import DiaryTestSupport
import DiaryVault
import Foundation
import XCTest

/// `open` and `extract` of an attachment a sync deferred fetch it first, from the remote as the
/// last sync left it (or again, when it is held cut short); a vault that does not sync, or
/// holds the object, needs nothing.
final class PendingAttachmentTests: VaultTestCase {
    func testADeferredAttachmentIsFetchedOnDemandOnlyWhenMissingAndSynced() throws {
        let remote = RemoteLocation.folder(path("remote").path)
        try FileManager.default.createDirectory(at: path("remote"), withIntermediateDirectories: true)
        let laptop = try makeVault(.sqlite, name: "laptop")
        _ = try SyncLifecycle.initialize(
            vault: laptop, remote: remote, machineName: "laptop", passphrase: secret("correct horse"),
            stateDirectory: path("state-laptop"))
        let code = try SyncMembership.invite(vault: laptop, stateDirectory: path("state-laptop"), name: "desktop")
        let (desktop, _) = try SyncLifecycle.join(
            remote: remote, to: path("desktop"), store: .files, machineName: "desktop",
            passphrase: secret("correct horse"), invite: try InviteCode(text: code),
            stateDirectory: path("state-desktop"))
        let content = [UInt8](repeating: 7, count: 9000)
        var done = false
        let entry = try laptop.add(
            text: "a photo",
            attachments: [
                AttachmentInput(name: "p.jpg", mediaType: "image/jpeg") { buffer in
                    guard !done else { return 0 }
                    done = true
                    buffer.replaceSubrange(0..<content.count, with: content)
                    return content.count
                }
            ])
        _ = try SyncEngine(vault: laptop, stateDirectory: path("state-laptop")).sync()
        let deferring = try SyncEngine(vault: desktop, stateDirectory: path("state-desktop"))
        deferring.fetchesAttachments = false
        XCTAssertEqual(try deferring.sync().attachmentsPending, 1)

        let record = entry.attachments[0]
        XCTAssertNil(try PendingAttachment.fetchIfNeeded(record, of: laptop, stateDirectory: path("state-laptop")))
        let fetched = try PendingAttachment.fetchIfNeeded(record, of: desktop, stateDirectory: path("state-desktop"))
        XCTAssertEqual(fetched?.fetched, [record.objectID])
        var read: [UInt8] = []
        try desktop.readAttachment(record) { read.append(contentsOf: $0) }
        XCTAssertEqual(read, content)
        XCTAssertNil(try PendingAttachment.fetchIfNeeded(record, of: desktop, stateDirectory: path("state-desktop")))

        // Held cut short (a fetch killed part way): fetched again, replacing it.
        var whole: [UInt8] = []
        XCTAssertTrue(try desktop.readStoredAttachment(record.objectID) { whole.append(contentsOf: $0) })
        try StoreLayout.open(at: desktop.directory).putAttachment(record.objectID) { try $0(Array(whole.prefix(26))) }
        XCTAssertThrowsError(try desktop.readAttachment(record) { _ in })
        let again = try PendingAttachment.fetchIfNeeded(record, of: desktop, stateDirectory: path("state-desktop"))
        XCTAssertEqual(again?.fetched, [record.objectID])
        read = []
        try desktop.readAttachment(record) { read.append(contentsOf: $0) }
        XCTAssertEqual(read, content)

        let alone = try makeVault(.files, name: "alone")
        XCTAssertNil(try PendingAttachment.fetchIfNeeded(record, of: alone, stateDirectory: path("state-alone")))
    }
}
