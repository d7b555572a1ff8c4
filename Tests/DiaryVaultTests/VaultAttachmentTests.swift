import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// Attaching, reading, detaching and deleting through the vault, in both stores: byte-exact
/// round trips, dedup, names, and objects removed only with their last reference.
final class VaultAttachmentTests: VaultTestCase {
    private func input(_ bytes: [UInt8], name: String, type: String = "application/octet-stream", dedup: Bool = true)
        -> AttachmentInput
    {
        return AttachmentInput.reading(bytes, name: name, type: type, dedup: dedup)
    }

    private func read(_ vault: Vault, _ record: AttachmentRecord) throws -> [UInt8] {
        try vault.plaintext(of: record)
    }

    private func bytes(_ count: Int, seed: UInt8) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 * 31) ^ seed }
    }

    func testAttachReadsBackByteForByteInBothStores() throws {
        for kind in StoreKind.allCases {
            let vault = try makeVault(kind, name: "v-\(kind)")
            let entry = try vault.add(text: "A walk")
            let big = bytes(200_000, seed: 7)
            let small = bytes(1, seed: 3)
            let stored = try vault.attach(
                [input(big, name: "walk.jpg", type: "image/jpeg"), input(small, name: "a")], to: entry.id)
            XCTAssertEqual(stored.attachments.map(\.name), ["walk.jpg", "a"])
            let reopened = try Vault.open(at: vault.directory, passphrase: secret("correct horse"))
            let again = try reopened.entry(entry.id)
            XCTAssertEqual(try read(reopened, again.attachments[0]), big, "\(kind)")
            XCTAssertEqual(try read(reopened, again.attachments[1]), small, "\(kind)")
            XCTAssertEqual(try reopened.list().first?.attachments.map(\.name), ["walk.jpg", "a"])
            XCTAssertEqual(try reopened.unreferencedAttachments(), [])
        }
    }

    func testIdenticalFilesAreStoredOnceUnlessDedupIsOff() throws {
        for kind in StoreKind.allCases {
            let vault = try makeVault(kind, name: "d-\(kind)")
            let photo = bytes(70_000, seed: 9)
            let first = try vault.add(text: "one", attachments: [input(photo, name: "p.jpg")])
            let second = try vault.add(
                text: "two", attachments: [input(photo, name: "same.jpg"), input(photo, name: "twice.jpg")])
            let third = try vault.add(text: "three", attachments: [input(photo, name: "p.jpg", dedup: false)])
            let object = first.attachments[0].objectID
            XCTAssertEqual(second.attachments.map(\.objectID), [object, object])
            XCTAssertNotEqual(third.attachments[0].objectID, object)
            XCTAssertEqual(Set(try vault.backend.attachmentIDs()), [object, third.attachments[0].objectID])
            // The shared object survives until its last reference goes.
            try vault.delete(first.id)
            XCTAssertEqual(try read(vault, try vault.entry(second.id).attachments[1]), photo)
            try vault.detach("SAME.JPG", from: second.id)
            XCTAssertNotNil(try vault.backend.attachmentLength(object))
            try vault.detach("twice.jpg", from: second.id)
            XCTAssertNil(try vault.backend.attachmentLength(object), "\(kind)")
            XCTAssertEqual(try vault.entry(second.id).attachments, [])
        }
    }

    func testRefusalsStoreNothing() throws {
        let vault = try makeVault(.files)
        let entry = try vault.attach([input([1, 2, 3], name: "note.txt")], to: try vault.add(text: "x").id)
        XCTAssertThrowsError(try vault.attach([input([4], name: "other"), input([5], name: "NOTE.TXT")], to: entry.id))
        {
            XCTAssertEqual($0 as? VaultError, .duplicateAttachment("note.txt"), "the name the entry has")
        }
        XCTAssertThrowsError(try vault.attach([input([], name: "empty")], to: entry.id))
        XCTAssertThrowsError(try vault.attach([input([1], name: "a/b")], to: entry.id)) {
            XCTAssertEqual($0 as? VaultError, .invalidAttachmentName("a/b"))
        }
        XCTAssertThrowsError(try vault.detach("missing", from: entry.id)) {
            XCTAssertEqual($0 as? VaultError, .unknownAttachment("missing"))
        }
        XCTAssertEqual(try vault.backend.attachmentIDs(), [entry.attachments[0].objectID])
        XCTAssertEqual(try vault.entry(entry.id).attachments.map(\.name), ["note.txt"])
    }

    func testAFlippedBitIsNeverRead() throws {
        let vault = try makeVault(.files)
        let entry = try vault.add(text: "x", attachments: [input(bytes(5000, seed: 1), name: "f")])
        let file = vault.directory.appendingPathComponent(
            "attachments/\(entry.attachments[0].objectID.uuidString.lowercased())")
        var stored = try Data(contentsOf: file)
        stored[300] ^= 1
        try stored.write(to: file)
        XCTAssertThrowsError(try read(vault, entry.attachments[0])) { XCTAssertTrue($0 is AttachmentError, "\($0)") }
    }

    func testUnreferencedObjectsAreFoundAndRemoved() throws {
        let vault = try makeVault(.sqlite)
        let entry = try vault.add(text: "x", attachments: [input([1, 2], name: "kept")])
        try vault.backend.putAttachment(SecureRandom.uuid()) { chunk in
            try chunk([1, 4, 0] + [UInt8](repeating: 0, count: 23))
        }
        XCTAssertEqual(try vault.unreferencedAttachments().count, 1)
        XCTAssertEqual(try vault.removeUnreferencedAttachments(), 1)
        XCTAssertEqual(try vault.backend.attachmentIDs(), [entry.attachments[0].objectID])
    }

    func testADamagedOrMissingCopyIsNotReusedByDedup() throws {
        for kind in StoreKind.allCases {
            let vault = try makeVault(kind, name: "r-\(kind)")
            let photo = bytes(90_000, seed: 4)
            let first = try vault.add(text: "one", attachments: [input(photo, name: "p.jpg")])
            let object = first.attachments[0].objectID
            // Damage the stored copy: the same file attached again must get a copy of its own.
            if kind == .files {
                let file = vault.directory.appendingPathComponent("attachments/\(object.uuidString.lowercased())")
                var stored = try Data(contentsOf: file)
                stored[500] ^= 1
                try stored.write(to: file)
            } else {
                try vault.backend.apply(StoreChange(deleteAttachments: [object]))
            }
            let second = try vault.add(text: "two", attachments: [input(photo, name: "p.jpg")])
            XCTAssertNotEqual(second.attachments[0].objectID, object, "\(kind)")
            XCTAssertEqual(try read(vault, second.attachments[0]), photo)
        }
    }

    func testTheNextAttachRemovesObjectsAKilledAttachLeft() throws {
        for kind in StoreKind.allCases {
            let vault = try makeVault(kind, name: "k-\(kind)")
            let entry = try vault.add(text: "x", attachments: [input([1, 2], name: "kept")])
            let leftover = SecureRandom.uuid()
            try vault.backend.putAttachment(leftover) { chunk in try chunk([1, 4] + [UInt8](repeating: 0, count: 24)) }
            try vault.attach([input([3], name: "more")], to: entry.id)
            let ids = Set(try vault.backend.attachmentIDs())
            XCTAssertFalse(ids.contains(leftover), "\(kind)")
            XCTAssertEqual(ids, Set(try vault.entry(entry.id).attachments.map(\.objectID)))
        }
    }
}
