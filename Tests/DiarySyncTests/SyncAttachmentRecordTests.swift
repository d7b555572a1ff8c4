import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import DiaryVault
import Foundation
import XCTest

@testable import DiarySync

/// An entry's attachment records (docs/FORMAT.md §7.6) travel in its sync puts as its
/// version-3 plaintext, and a conflict resolved by keeping both keeps each side's records.
/// (The objects themselves are not synced by this; only the records that name them.)
final class SyncAttachmentRecordTests: VaultTestCase {
    private var machines: SyncTestMachines!
    private var laptop: Vault { machines["laptop"] }
    private var desktop: Vault { machines["desktop"] }

    private func record(_ name: String) throws -> AttachmentRecord {
        AttachmentRecord(
            objectID: SecureRandom.uuid(), streamKey: try SecretBytes(randomCount: 32), length: 2048,
            storedHash: (0..<32).map { _ in UInt8.random(in: 0...255) }, generation: 1,
            dedupHash: (0..<32).map { _ in UInt8.random(in: 0...255) }, added: Date(timeIntervalSince1970: 1e9),
            name: name, mediaType: "image/jpeg")
    }

    /// Writes `text` and `attachments` to the entry as it is on `vault`, as a local change.
    @discardableResult
    private func change(_ vault: Vault, _ id: UUID, text: String, attachments: [AttachmentRecord]) throws -> Entry {
        var entry = try vault.entry(id)
        entry.text = text
        entry.attachments = attachments
        entry.modified = Date()
        _ = try vault.applySynced(puts: [entry], deletes: [], expected: [:])
        return entry
    }

    func testRecordsTravelWithTheirEntryAndKeepingBothKeepsEachSidesRecords() throws {
        machines = SyncTestMachines(self)
        let ids = try machines.start("laptop", entries: ["shared"])
        try machines.join("desktop", invitedBy: "laptop")
        let first = try change(laptop, ids[0], text: "shared, with a photo", attachments: [try record("a.jpg")])
        _ = try machines.sync("laptop")
        XCTAssertEqual(try machines.sync("desktop").changed, 1)
        XCTAssertEqual(try desktop.entry(ids[0]).attachments, first.attachments)
        XCTAssertEqual(try desktop.list().first?.attachments, first.attachments.map(AttachmentSummary.init))

        let fromDesktop = try change(desktop, ids[0], text: "desktop's", attachments: [try record("b.jpg")])
        let fromLaptop = try change(
            laptop, ids[0], text: "laptop's", attachments: first.attachments + [try record("c.jpg")])
        _ = try machines.sync("laptop")
        XCTAssertEqual(try machines.sync("desktop").newConflicts, [ids[0]])
        let engine = try SyncEngine(vault: desktop, stateDirectory: machines.state("desktop"))
        let extras = try engine.resolve(ids[0], keeping: .both)
        XCTAssertEqual(try desktop.entry(ids[0]).attachments, fromDesktop.attachments)
        XCTAssertEqual(extras.count, 1)
        XCTAssertEqual(try desktop.entry(XCTUnwrap(extras.first)).attachments, fromLaptop.attachments)
    }
}
