import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// `rekey --attachments` (`Vault.resealAttachments` after `rotateKey`), in both stores.
final class VaultAttachmentRekeyTests: VaultTestCase {
    private typealias F = AttachmentFixtures
    private let big = F.bytes(150_000, seed: 5)
    private let other = F.bytes(70_000, seed: 9)

    private struct Interrupted: Error {}

    private func filledVault(_ kind: StoreKind, name: String) throws -> (Vault, [UUID]) {
        let vault = try makeVault(kind, name: name)
        let a = try vault.add(text: "a", attachments: [F.input(big, name: "p.jpg"), F.input(other, name: "o")])
        let b = try vault.add(text: "b", attachments: [F.input(big, name: "shared.jpg")])
        let c = try vault.add(text: "c", attachments: [F.input(other, name: "own", dedup: false)])
        return (vault, [a.id, b.id, c.id])
    }

    private func records(_ vault: Vault, _ ids: [UUID]) throws -> [AttachmentRecord] {
        try ids.flatMap { try vault.entry($0).attachments }
    }

    private func assertReadsBack(_ vault: Vault, _ ids: [UUID], file: StaticString = #filePath, line: UInt = #line)
        throws
    {
        for record in try records(vault, ids) {
            XCTAssertEqual(try F.read(vault, record), record.length == 150_000 ? big : other, file: file, line: line)
        }
    }

    func testRekeyAttachmentsResealsEveryObjectUnderNewKeysInBothStores() throws {
        forEachStoreKind { kind in
            let (vault, ids) = try filledVault(kind, name: "k-\(kind)")
            let before = try records(vault, ids)
            let oldObjects = Set(try vault.backend.attachmentIDs())
            XCTAssertEqual(oldObjects.count, 3)
            try vault.rotateKey(passphrase: secret("correct horse"))
            XCTAssertEqual(try vault.attachmentsBelowCurrentGeneration().count, 3)
            let outcome = try vault.resealAttachments()
            XCTAssertEqual(outcome, AttachmentResealOutcome(resealed: 3, failed: []))
            let now = Set(try vault.backend.attachmentIDs())
            XCTAssertEqual(now.count, 3)
            XCTAssertTrue(now.isDisjoint(with: oldObjects), "no object id from before remains")
            let after = try records(vault, ids)
            XCTAssertEqual(after[0].objectID, after[2].objectID, "a shared object stays shared")
            XCTAssertTrue(after.allSatisfy { $0.generation == vault.keyGeneration })
            XCTAssertEqual(after.map(\.name), before.map(\.name))
            XCTAssertEqual(after[3].dedupHash, [UInt8](repeating: 0, count: 32), "dedup stays off where it was")
            XCTAssertNotEqual(after[0].dedupHash, before[0].dedupHash, "the new generation's dedup hash")
            try assertReadsBack(vault, ids)
            // The old keys open nothing stored any more.
            for old in before {
                for record in after {
                    let opener = try AttachmentOpener(
                        vaultID: vault.id, objectID: record.objectID, key: old.streamKey, length: record.length,
                        storedHash: record.storedHash)
                    XCTAssertThrowsError(try opener.feed(try F.stored(vault, record.objectID)) { _ in })
                }
            }
            XCTAssertTrue(try vault.verify().isClean)
            XCTAssertEqual(try vault.resealAttachments().resealed, 0, "nothing left below the generation")
        }
    }

    func testAnInterruptedResealIsFinishedByARerun() throws {
        forEachStoreKind { kind in
            let (vault, ids) = try filledVault(kind, name: "i-\(kind)")
            let oldObjects = Set(try vault.backend.attachmentIDs())
            try vault.rotateKey(passphrase: secret("correct horse"))
            XCTAssertThrowsError(try vault.resealAttachments(afterEach: { throw Interrupted() }))
            let reopened = try Vault.open(at: vault.directory, passphrase: secret("correct horse"))
            XCTAssertEqual(try reopened.attachmentsBelowCurrentGeneration().count, 2, "one object was done")
            try assertReadsBack(reopened, ids)
            XCTAssertEqual(try reopened.resealAttachments().resealed, 2)
            XCTAssertTrue(Set(try reopened.backend.attachmentIDs()).isDisjoint(with: oldObjects))
            try assertReadsBack(reopened, ids)
            XCTAssertTrue(try reopened.verify().isClean)
        }
    }

    func testPlainRekeyLeavesObjectsUntouched() throws {
        forEachStoreKind { kind in
            let (vault, ids) = try filledVault(kind, name: "p-\(kind)")
            let objects = try vault.backend.attachmentIDs().sorted { $0.sortKey < $1.sortKey }
            let stored = try objects.map { try F.stored(vault, $0) }
            try vault.rotateKey(passphrase: secret("correct horse"))
            XCTAssertEqual(try vault.backend.attachmentIDs().sorted { $0.sortKey < $1.sortKey }, objects)
            XCTAssertEqual(try objects.map { try F.stored(vault, $0) }, stored)
            try assertReadsBack(vault, ids)
        }
    }

    func testADamagedObjectIsLeftAndNamedWhileTheOthersAreResealed() throws {
        let (vault, ids) = try filledVault(.files, name: "d")
        let own = try vault.entry(ids[2]).attachments[0]
        try F.flipBit(vault, own.objectID, at: 100)
        try vault.rotateKey(passphrase: secret("correct horse"))
        let outcome = try vault.resealAttachments()
        XCTAssertEqual(outcome.resealed, 2)
        XCTAssertEqual(outcome.failed.map(\.object), [.attachment(entry: ids[2], name: "own")])
        XCTAssertEqual(try vault.unreferencedAttachments(), [], "nothing half-made is left")
    }

    /// The SQLite store commits a large object in parts while the old one is read: both on
    /// one connection. The file is generated and compared by hash as it streams (the test
    /// holds no 67 MiB array).
    func testAnObjectLargerThanOneSQLiteBatchIsResealed() throws {
        let vault = try makeVault(.sqlite, name: "large")
        let size = (64 << 20) + (3 << 20)  // one SQLite batch (64 MiB) and some
        var produced = 0
        let expected = BLAKE2b.Hasher()
        let input = AttachmentInput(name: "video", mediaType: "video/mp4") { buffer in
            let n = min(buffer.count, size - produced)
            let value = UInt8(truncatingIfNeeded: produced >> 16 &* 7)
            buffer.withUnsafeMutableBytes { _ = memset($0.baseAddress!, Int32(value), n) }
            buffer.withUnsafeBytes { expected.update(UnsafeRawBufferPointer(rebasing: $0[..<n])) }
            produced += n
            return n
        }
        let entry = try vault.add(text: "large", attachments: [input])
        try vault.rotateKey(passphrase: secret("correct horse"))
        XCTAssertEqual(try vault.resealAttachments().resealed, 1)
        let record = try vault.entry(entry.id).attachments[0]
        XCTAssertNotEqual(record.objectID, entry.attachments[0].objectID)
        let found = BLAKE2b.Hasher()
        try vault.readAttachment(record) { found.update($0) }
        XCTAssertEqual(found.finish(), expected.finish())
    }
}
