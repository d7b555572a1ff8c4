import DiaryApp
import DiaryStore
import DiaryTestSupport
import DiaryVault
import Foundation
import XCTest

/// `rekey --attachments` as DiaryApp runs it: rotate, then seal the attachments again; a run
/// whose rotation is done but whose attachments are not is continued without rotating again.
final class AttachmentRekeyFlowTests: SessionTestCase {
    private func vaultWithAttachment() throws -> (Vault, UUID) {
        let vault = try makeVault(.files)
        var given = false
        let input = AttachmentInput(name: "scan.pdf", mediaType: "application/pdf") { buffer in
            guard !given else { return 0 }
            given = true
            for i in 0..<buffer.count { buffer[i] = UInt8(truncatingIfNeeded: i) }
            return buffer.count
        }
        let entry = try vault.add(text: "a letter", attachments: [input])
        return (vault, entry.attachments[0].objectID)
    }

    private func objects(_ vault: Vault) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: vault.directory.appendingPathComponent("attachments").path)
    }

    func testARunRotatesThenResealsAndARerunAfterTheRotationDoesNotRotateAgain() throws {
        let (vault, old) = try vaultWithAttachment()
        let before = vault.keyGeneration
        let changes = KeyChanges(session(vault.directory, asker: ScriptedAsker(["correct horse"])))
        let (rotation, resealed) = try changes.rotateKeyAndAttachments()
        XCTAssertNotNil(rotation)
        XCTAssertEqual(resealed.resealed, 1)
        let after = try Vault.open(at: vault.directory, passphrase: secret("correct horse"))
        XCTAssertEqual(after.keyGeneration, before + 1)
        XCTAssertFalse(try objects(after).contains(old.uuidString.lowercased()))
        let marker = environment.stateDirectory.appendingPathComponent(
            "reseal-attachments-\(vault.id.uuidString.lowercased())")
        XCTAssertFalse(FileManager.default.fileExists(atPath: marker.path), "a finished run leaves no marker")

        // As an interrupted run leaves it: the key rotated, the marker written, objects left.
        let (second, _) = try vaultWithAttachmentIn(after)
        try after.rotateKey(passphrase: secret("correct horse"))
        try Data("\(after.keyGeneration)\n".utf8).write(to: marker)
        let (again, done) = try KeyChanges(session(vault.directory, asker: ScriptedAsker(["correct horse"])))
            .rotateKeyAndAttachments()
        XCTAssertNil(again, "not rotated a second time")
        XCTAssertEqual(done.resealed, 2)
        XCTAssertTrue(events.contains(.continuingAttachmentReseal))
        let last = try Vault.open(at: vault.directory, passphrase: secret("correct horse"))
        XCTAssertEqual(last.keyGeneration, after.keyGeneration)
        XCTAssertFalse(try objects(last).contains(second.uuidString.lowercased()))
    }

    private func vaultWithAttachmentIn(_ vault: Vault) throws -> (UUID, Entry) {
        var given = false
        let input = AttachmentInput(name: "b.bin", mediaType: "application/octet-stream", dedup: false) { buffer in
            guard !given else { return 0 }
            given = true
            buffer[0] = 42
            return 1
        }
        let entry = try vault.add(text: "another", attachments: [input])
        return (entry.attachments[0].objectID, entry)
    }
}
