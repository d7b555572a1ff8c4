import DiaryCrypto
import DiaryVault
import Foundation
import XCTest

/// Exit codes and stream of `verify`, `reindex` and `rekey --attachments` with attachments:
/// the attachments are made in process (the vault API), the commands run as a process.
final class AttachmentIntegrityCLITests: XCTestCase {
    private var box: DiarySandbox!
    private var vault: Vault!
    private var entry: Entry!

    override func setUpWithError() throws {
        box = try DiarySandbox(name: "attachment-integrity")
        _ = try box.initVault(store: "files")
        var passphrase = Array("correct horse".utf8)
        vault = try Vault.open(at: box.vault, passphrase: try SecretBytes(consuming: &passphrase))
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        var offset = 0
        let input = AttachmentInput(name: "scan.pdf", mediaType: "application/pdf") { buffer in
            let n = min(buffer.count, bytes.count - offset)
            buffer.replaceSubrange(0..<n, with: bytes[offset..<offset + n])
            offset += n
            return n
        }
        entry = try vault.add(text: "a letter", attachments: [input])
    }

    override func tearDown() {
        vault = nil
        box = nil
    }

    private var objectFile: URL {
        box.vault.appendingPathComponent("attachments/\(entry.attachments[0].objectID.uuidString.lowercased())")
    }

    func testAFlippedBitInAnAttachmentIsNamedAndVerifyExits65ForTheVaultAndItsBackup() throws {
        XCTAssertTrue(try box.ok(["verify"]).stderr.contains("ok: 1 entry, 1 attachment, no damage"))
        var bytes = [UInt8](try Data(contentsOf: objectFile))
        bytes[40_000] ^= 0x01
        try Data(bytes).write(to: objectFile)
        let result = try box.run(["verify"])
        XCTAssertEqual(result.status, 65, result.stderr)
        let id = entry.id.uuidString.lowercased()
        XCTAssertTrue(
            result.stdout.contains("entry \(id): attachment \"scan.pdf\": chunk 0 does not authenticate"),
            result.stdout)
        let backup = box.root.appendingPathComponent("b.diarybak")
        try box.ok(["backup", backup.path])
        let checked = try box.run(["verify", backup.path])
        XCTAssertEqual(checked.status, 65, checked.stderr)
        XCTAssertTrue(checked.stdout.contains("attachment \"scan.pdf\""), checked.stdout)
    }

    func testReindexRemovesUnreferencedObjectsAndRekeyAttachmentsReencryptsThem() throws {
        let orphan = box.vault.appendingPathComponent("attachments/\(UUID().uuidString.lowercased())")
        try FileManager.default.copyItem(at: objectFile, to: orphan)
        let verify = try box.ok(["verify"])
        XCTAssertTrue(verify.stderr.contains("1 attachment object no entry references"), verify.stderr)
        XCTAssertTrue(try box.ok(["reindex"]).stderr.contains("removed 1 attachment object no entry references"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: orphan.path))
        let rekey = try box.ok(["rekey", "--attachments"])
        XCTAssertTrue(rekey.stderr.contains("re-encrypted 1 attachment"), rekey.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: objectFile.path), "the old object is gone")
        try box.ok(["verify"])
    }
}
