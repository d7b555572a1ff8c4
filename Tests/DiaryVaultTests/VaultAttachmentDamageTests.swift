import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// An entry that does not open keeps its attachment objects: verify does not call them
/// leftovers and reindex (or any sweep) removes none of them.
final class VaultAttachmentDamageTests: VaultTestCase {
    private typealias F = AttachmentFixtures

    private func damage(_ vault: Vault, _ id: UUID) throws -> [UInt8] {
        var sealed: [UInt8] = []
        try vault.backend.withSnapshot { sealed = try $0.readEntry(id)! }
        var flipped = sealed
        flipped[100] ^= 1
        try vault.backend.withWriteLock { try vault.backend.apply(StoreChange(putEntries: [id: flipped])) }
        return sealed
    }

    func testReindexKeepsTheObjectsOfAnEntryThatDoesNotOpen() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind, name: "d-\(kind)")
            let photo = F.bytes(70_000, seed: 5)
            let entry = try vault.add(text: "e", attachments: [F.input(photo, name: "photo.jpg")])
            let object = entry.attachments[0].objectID
            let orphan = try F.orphan(in: vault)
            let good = try damage(vault, entry.id)
            XCTAssertEqual(try vault.verify().unreferencedAttachments, [orphan], "its row names the object")
            try vault.reindex()
            let after = try vault.verify()
            XCTAssertEqual(after.unreferencedAttachments, [], "no row: any object may be the entry's \(after.damaged)")
            XCTAssertEqual(try vault.sweepUnreferencedAttachments(), AttachmentSweep(removed: 0, unopened: [entry.id]))
            XCTAssertEqual(try vault.unreferencedAttachments(), [])
            XCTAssertTrue(try vault.backend.attachmentIDs().contains(object))
            try vault.backend.withWriteLock { try vault.backend.apply(StoreChange(putEntries: [entry.id: good])) }
            try vault.reindex()
            XCTAssertEqual(try F.read(vault, try vault.entry(entry.id).attachments[0]), photo)
            XCTAssertEqual(try vault.sweepUnreferencedAttachments(), AttachmentSweep(removed: 1, unopened: []))
            XCTAssertEqual(try vault.backend.attachmentIDs(), [object])
        }
    }

    func testAnAttachAfterReindexKeepsTheObjectsOfAnEntryThatDoesNotOpen() throws {
        let vault = try makeVault(.files)
        let entry = try vault.add(text: "e", attachments: [F.input(F.bytes(3000, seed: 2), name: "a")])
        let other = try vault.add(text: "o")
        _ = try damage(vault, entry.id)
        try vault.reindex()
        _ = try vault.attach([F.input(F.bytes(10, seed: 9), name: "b")], to: other.id)
        XCTAssertTrue(try vault.backend.attachmentIDs().contains(entry.attachments[0].objectID))
    }
}

/// A backup of a vault that lacks an object it references (pending sync): intact, so the
/// object is absent (the vault did not hold it), not damage; restore restores the entry.
final class VaultAbsentAttachmentBackupTests: VaultTestCase {
    private typealias F = AttachmentFixtures

    func testAnObjectTheVaultLackedIsAbsentFromAnIntactBackupAndRestoreProceeds() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind, name: "a-\(kind)")
            let photo = F.bytes(5000, seed: 8)
            let kept = try vault.add(text: "kept", attachments: [F.input(photo, name: "kept.jpg")])
            let lacking = try vault.add(text: "lacking", attachments: [F.input(F.bytes(900, seed: 1), name: "x.bin")])
            try vault.backend.withWriteLock {
                try vault.backend.apply(StoreChange(deleteAttachments: [lacking.attachments[0].objectID]))
            }
            XCTAssertEqual(try vault.absentAttachmentCount(), 1)
            let file = path("b-\(kind).diarybak")
            _ = try vault.backup(to: file)
            let report = try Vault.verifyBackup(file, passphrase: secret("correct horse"))
            XCTAssertTrue(report.isClean, "\(report.damaged)")
            XCTAssertEqual(report.absentAttachments.map(\.object), [.attachment(entry: lacking.id, name: "x.bin")])
            XCTAssertEqual(report.checkedAttachments, 1)
            XCTAssertEqual(report.checkedAttachmentRecords, 1)
            let restored = try Vault.restoreReporting(
                backup: file, to: path("r-\(kind)"), key: .passphrase(secret("correct horse")))
            XCTAssertEqual(restored.absent.map(\.object), [.attachment(entry: lacking.id, name: "x.bin")])
            XCTAssertEqual(try restored.vault.entry(lacking.id).text, "lacking")
            XCTAssertEqual(try F.read(restored.vault, try restored.vault.entry(kept.id).attachments[0]), photo)
        }
    }

    func testAnObjectAbsentFromADamagedBackupIsDamage() throws {
        let vault = try makeVault(.files)
        let lacking = try vault.add(text: "lacking", attachments: [F.input(F.bytes(900, seed: 1), name: "x.bin")])
        try vault.backend.withWriteLock {
            try vault.backend.apply(StoreChange(deleteAttachments: [lacking.attachments[0].objectID]))
        }
        let file = path("b.diarybak")
        _ = try vault.backup(to: file)
        var bytes = try Data(contentsOf: file)
        bytes[bytes.count - 3] ^= 1  // the end record's checksum
        try bytes.write(to: file)
        let report = try Vault.verifyBackup(file, passphrase: secret("correct horse"))
        XCTAssertEqual(report.absentAttachments, [])
        XCTAssertTrue(report.damaged.contains { $0.object == .attachment(entry: lacking.id, name: "x.bin") })
    }
}
