import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// `Scripts/decrypt-vault.py`, written from docs/FORMAT.md, reads the attachment objects of a
/// backup (records of type 6) and opens each, in a backup of either store; a flipped bit in a
/// piece is refused.
final class AttachmentBackupReaderTests: VaultTestCase {

    private func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try PythonReader.run([PythonReader.script.path] + arguments)
    }

    private func requirePython() throws { try PythonReader.requireSecretstream() }

    private func hex(_ bytes: [UInt8]) -> String { PythonReader.hex(bytes) }

    func testThePythonReaderOpensEveryAttachmentOfABackupAndRefusesAFlippedBit() throws {
        try requirePython()
        forEachStoreKind { kind in
            let vault = try makeVault(kind, name: "py-\(kind)")
            let photo = AttachmentFixtures.bytes(150_000, seed: 4)
            let note = AttachmentFixtures.bytes(10, seed: 8)
            let entry = try vault.add(
                text: "with files",
                attachments: [
                    AttachmentFixtures.input(photo, name: "p.jpg"), AttachmentFixtures.input(note, name: "n"),
                ])
            _ = try vault.add(text: "shared", attachments: [AttachmentFixtures.input(photo, name: "again.jpg")])
            let file = path("py-\(kind).diarybak")
            try vault.backup(to: file)
            let read = try run([file.path, "correct horse"])
            XCTAssertEqual(read.status, 0, "\(kind): \(read.output)")
            for (name, bytes) in [("'p.jpg'", photo), ("'n'", note), ("'again.jpg'", photo)] {
                XCTAssertTrue(
                    read.output.contains("- \(name) opens: H(file) `\(hex(BLAKE2b.hash(bytes)))`"),
                    "\(kind): \(read.output)")
            }
            let reader = try BackupReader(file)
            try reader.scan()
            let pieces = try XCTUnwrap(reader.attachments.objects[entry.attachments[0].objectID])
            var bytes = [UInt8](try Data(contentsOf: file))
            bytes[pieces[2].offset + 7] ^= 0x20
            try Data(bytes).write(to: file)
            let flipped = try run([file.path, "correct horse"])
            XCTAssertNotEqual(flipped.status, 0, "\(kind)")
        }
    }
}
