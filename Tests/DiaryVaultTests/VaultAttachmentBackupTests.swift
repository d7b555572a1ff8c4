import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// Attachments through backup (records of type 6), verify and restore, in both stores.
final class VaultAttachmentBackupTests: VaultTestCase {
    private typealias F = AttachmentFixtures
    private let big = F.bytes(200_000, seed: 7)
    private let small = F.bytes(1, seed: 3)

    /// A vault with a shared (dedup) object, a small one and one stored with dedup off.
    private func filledVault(_ kind: StoreKind, name: String) throws -> (Vault, [Entry]) {
        let vault = try makeVault(kind, name: name)
        let a = try vault.add(text: "a", attachments: [F.input(big, name: "walk.jpg"), F.input(small, name: "n")])
        let b = try vault.add(text: "b", attachments: [F.input(big, name: "same.jpg")])
        let c = try vault.add(text: "c", attachments: [F.input(big, name: "own.jpg", dedup: false)])
        _ = try vault.add(text: "no attachments")
        XCTAssertEqual(a.attachments[0].objectID, b.attachments[0].objectID, "dedup shares the object")
        return (vault, [a, b, c])
    }

    private func pieces(_ file: URL, _ object: UUID) throws -> [Int] {
        let reader = try BackupReader(file)
        try reader.scan()
        return reader.attachments.objects[object]?.map(\.length) ?? []
    }

    func testBackupRestoreRoundTripsAttachmentsByteExactIntoBothStores() throws {
        forEachStoreKind { kind in
            let (vault, entries) = try filledVault(kind, name: "v-\(kind)")
            let file = path("b-\(kind).diarybak")
            XCTAssertEqual(try vault.backup(to: file), [])
            let shared = entries[0].attachments[0].objectID
            // Pad(200,000) = 212,992: three whole chunks and one of 16,384 bytes, each + 17.
            XCTAssertEqual(try pieces(file, shared), [26, 65553, 65553, 65553, 16384 + 17])
            let report = try Vault.verifyBackup(file, passphrase: secret("correct horse"))
            XCTAssertTrue(report.isClean, "\(report.damaged)")
            XCTAssertEqual(report.checkedAttachments, 3)
            for target in StoreKind.allCases {
                let restored = try Vault.restore(
                    backup: file, to: path("r-\(kind)-\(target)"), passphrase: secret("correct horse"), store: target)
                XCTAssertEqual(Set(try restored.backend.attachmentIDs()), Set(try vault.backend.attachmentIDs()))
                for entry in entries {
                    let again = try restored.entry(entry.id)
                    XCTAssertEqual(again, entry)
                    for record in again.attachments {
                        XCTAssertEqual(try F.read(restored, record), record.length == 1 ? small : big)
                        XCTAssertEqual(
                            try F.stored(restored, record.objectID), try F.stored(vault, record.objectID),
                            "stored bytes exactly as in the vault")
                    }
                }
                XCTAssertTrue(try restored.verify().isClean)
            }
        }
    }

    func testUnreferencedObjectsAreBackedUpButNotRestoredAndVerifyNotesThem() throws {
        forEachStoreKind { kind in
            let (vault, _) = try filledVault(kind, name: "u-\(kind)")
            let orphan = try F.orphan(in: vault)
            let live = try vault.verify()
            XCTAssertTrue(live.isClean, "an unreferenced object is not damage")
            XCTAssertEqual(live.unreferencedAttachments, [orphan])
            XCTAssertEqual(live.checkedAttachments, 3)
            let file = path("u-\(kind).diarybak")
            try vault.backup(to: file)
            let report = try Vault.verifyBackup(file, passphrase: secret("correct horse"))
            XCTAssertTrue(report.isClean)
            XCTAssertEqual(report.unreferencedAttachments, [orphan])
            let restored = try Vault.restore(backup: file, to: path("ru-\(kind)"), passphrase: secret("correct horse"))
            XCTAssertFalse(try restored.backend.attachmentIDs().contains(orphan))
            XCTAssertEqual(try restored.verify().unreferencedAttachments, [])
            XCTAssertEqual(try vault.removeUnreferencedAttachments(), 1)
        }
    }

    /// Byte offsets in the backup file of each piece of `object`.
    private func pieceOffsets(_ file: URL, _ object: UUID) throws -> [Int] {
        let reader = try BackupReader(file)
        try reader.scan()
        return reader.attachments.objects[object]!.map(\.offset)
    }

    func testAFlippedBitInABackupLosesOnlyThatAttachmentOnSalvage() throws {
        forEachStoreKind { kind in
            let (vault, entries) = try filledVault(kind, name: "s-\(kind)")
            let file = path("s-\(kind).diarybak")
            try vault.backup(to: file)
            let shared = entries[0].attachments[0].objectID
            var bytes = [UInt8](try Data(contentsOf: file))
            bytes[try pieceOffsets(file, shared)[2] + 1000] ^= 0x01
            try Data(bytes).write(to: file)
            let report = try Vault.verifyBackup(file, passphrase: secret("correct horse"))
            let named = report.damaged.filter { if case .attachment = $0.object { return true } else { return false } }
            XCTAssertEqual(
                Set(named.map(\.object)),
                [
                    .attachment(entry: entries[0].id, name: "walk.jpg"),
                    .attachment(entry: entries[1].id, name: "same.jpg"),
                ])
            XCTAssertTrue(named.allSatisfy { $0.reason.contains("chunk 1 does not authenticate") }, "\(named)")
            XCTAssertThrowsError(
                try Vault.restore(backup: file, to: path("refused-\(kind)"), passphrase: secret("correct horse")))
            XCTAssertFalse(FileManager.default.fileExists(atPath: path("refused-\(kind)").path))
            let salvage = try Vault.salvage(backup: file, to: path("x-\(kind)"), passphrase: secret("correct horse"))
            XCTAssertTrue(salvage.lost.contains { $0.object == .attachment(entry: entries[0].id, name: "walk.jpg") })
            XCTAssertFalse(salvage.lost.contains { $0.object.entryID != nil }, "no entry is lost")
            let restored = salvage.vault
            for entry in entries { XCTAssertEqual(try restored.entry(entry.id), entry) }
            XCTAssertEqual(try F.read(restored, entries[0].attachments[1]), small)
            XCTAssertEqual(try F.read(restored, entries[2].attachments[0]), big)
            XCTAssertThrowsVaultError(
                .attachmentMissing(shared), try F.read(restored, entries[0].attachments[0]))
            let after = try restored.verify()
            XCTAssertTrue(
                after.absentAttachments.contains { $0.object == .attachment(entry: entries[1].id, name: "same.jpg") })
        }
    }

    func testPiecesOutOfOrderDamageTheObjectOnly() throws {
        let (vault, entries) = try filledVault(.sqlite, name: "o")
        let file = path("o.diarybak")
        try vault.backup(to: file)
        let own = entries[2].attachments[0].objectID
        let offsets = try pieceOffsets(file, own)
        var bytes = [UInt8](try Data(contentsOf: file))
        // Swap whole records 1 and 2 (both full chunks): each still authenticates as a record.
        let (one, two) = (offsets[1] - 25, offsets[2] - 25)
        let length = two - one
        let first = Array(bytes[one..<two])
        bytes.replaceSubrange(one..<two, with: bytes[two..<(two + length)])
        bytes.replaceSubrange(two..<(two + length), with: first)
        try Data(bytes).write(to: file)
        let reader = try BackupReader(file)
        try reader.scan()
        XCTAssertNotNil(reader.attachments.damaged[own])
        let report = try Vault.verifyBackup(file, passphrase: secret("correct horse"))
        let named = report.damaged.filter { if case .attachment = $0.object { return true } else { return false } }
        XCTAssertEqual(named.map(\.object), [.attachment(entry: entries[2].id, name: "own.jpg")])
    }

    func testVerifyNamesEntryAndAttachmentOfAFlippedBitInBothStores() throws {
        forEachStoreKind { kind in
            let (vault, entries) = try filledVault(kind, name: "f-\(kind)")
            let own = entries[2].attachments[0]
            try F.flipBit(vault, own.objectID, at: 30_000)
            let report = try vault.verify()
            XCTAssertEqual(report.damaged.map(\.object), [.attachment(entry: entries[2].id, name: "own.jpg")])
            XCTAssertEqual(report.damaged.first?.reason, "chunk 0 does not authenticate (changed, moved or swapped)")
            XCTAssertEqual(report.checkedAttachments, 3)
            try vault.backend.withWriteLock {
                try vault.backend.apply(StoreChange(deleteAttachments: [entries[0].attachments[1].objectID]))
            }
            // Absent, not damaged: the caller, knowing whether the vault syncs, says which.
            let again = try vault.verify()
            XCTAssertEqual(again.absentAttachments.map(\.object), [.attachment(entry: entries[0].id, name: "n")])
            XCTAssertFalse(again.damaged.contains { $0.reason.contains("not in the vault") })
        }
    }
}
