import DiaryCrypto
import DiaryVault
import Foundation
import XCTest

/// An attachment whose object a vault does not hold: pending (a note, exit 0) on a vault that
/// syncs, damage (exit 65) on one that does not; in an intact backup, one the vault did not
/// hold, so verify passes and restore restores its entry without it. And verify's counts.
final class PendingAttachmentCLITests: XCTestCase {
    func testAPendingAttachmentIsANoteForVerifyBackupAndRestore() throws {
        let net = try SyncMachines(.git, name: "pending-verify")
        let laptop = try net.first(store: "files")
        let desktop = try net.join(store: "sqlite")
        let file = net.scratch.appendingPathComponent("x.bin")
        try Data((0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: file)
        let id = try laptop.ok(["new", "x", "--attach", file.path]).out
        try net.sync(0)
        try desktop.ok(["sync", "--no-attachments"])
        let named = "entry \(id): attachment \"x.bin\""

        let verify = try desktop.run(["verify"])
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
        XCTAssertTrue(verify.stderr.contains("1 attachment pending: `diary sync` fetches it"), verify.stderr)
        XCTAssertTrue(verify.stderr.contains(named), verify.stderr)
        XCTAssertEqual(verify.stdout, "")

        let backup = net.scratch.appendingPathComponent("b.diarybak")
        try desktop.ok(["backup", backup.path])
        let checked = try desktop.run(["verify", backup.path])
        XCTAssertEqual(checked.status, 0, checked.stdout + checked.stderr)
        XCTAssertTrue(
            checked.stderr.contains("1 attachment was not in the vault when it was backed up (pending sync or lost)"),
            checked.stderr)
        let target = net.scratch.appendingPathComponent("restored")
        let restored = try desktop.run(["restore", backup.path, "--to", target.path])
        XCTAssertEqual(restored.status, 0, restored.stderr)
        XCTAssertTrue(restored.stderr.contains(named), restored.stderr)
        XCTAssertTrue(restored.stderr.contains("restored 1 entry"), restored.stderr)
    }

    func testAMissingObjectInAVaultThatDoesNotSyncIsDamageAndCountsSayAttachmentsAndObjects() throws {
        let box = try DiarySandbox(name: "absent-object")
        let pass = try box.initVault(store: "files")
        var passphrase = Array("correct horse".utf8)
        let vault = try Vault.open(at: box.vault, passphrase: try SecretBytes(consuming: &passphrase))
        func input(_ name: String) -> AttachmentInput {
            var done = false
            return AttachmentInput(name: name, mediaType: "application/octet-stream") { buffer in
                if done { return 0 }
                done = true
                buffer.replaceSubrange(0..<4, with: [1, 2, 3, 4])
                return 4
            }
        }
        let first = try vault.add(text: "a", attachments: [input("one"), input("two")])
        _ = try vault.add(text: "b", attachments: [input("three")])
        let ok = try box.ok(["verify"])
        XCTAssertTrue(ok.stderr.contains("ok: 2 entries, 3 attachments (1 stored object), no damage"), ok.stderr)

        let object = first.attachments[0].objectID.uuidString.lowercased()
        try FileManager.default.removeItem(at: box.vault.appendingPathComponent("attachments/\(object)"))
        let result = try box.run(["verify"])
        XCTAssertEqual(result.status, 65, result.stderr)
        XCTAssertTrue(result.stdout.contains("attachment \"three\": its object is not in the vault"), result.stdout)
        XCTAssertTrue(result.stdout.contains("attachment \"one\": its object is not in the vault"), result.stdout)

        // A backup needs no key: locked, it cannot tell; with the agent's key it warns.
        let locked = try box.ok(["backup", box.root.appendingPathComponent("a.diarybak").path])
        XCTAssertFalse(locked.stderr.contains("not in the vault"), locked.stderr)
        try box.ok(["unlock", "--passphrase-file", pass])
        defer { _ = try? box.run(["lock", "--all"]) }
        let unlocked = try box.ok(["backup", box.root.appendingPathComponent("b.diarybak").path])
        XCTAssertTrue(
            unlocked.stderr.contains("3 attachments are not in the vault (pending sync or lost), so not in the backup"),
            unlocked.stderr)
    }

    func testADamagedChecksumIsNotCountedAsADamagedObject() throws {
        let box = try DiarySandbox(name: "checksum-count")
        _ = try box.initVault(store: "files")
        try box.ok(["new", "one"])
        let backup = box.root.appendingPathComponent("b.diarybak")
        try box.ok(["backup", backup.path])
        var bytes = try Data(contentsOf: backup)
        bytes[bytes.count - 1] ^= 1
        try bytes.write(to: backup)
        let result = try box.run(["verify", backup.path])
        XCTAssertEqual(result.status, 65, result.stderr)
        XCTAssertTrue(result.stderr.contains("the backup file is damaged"), result.stderr)
        XCTAssertFalse(result.stderr.contains("1 object"), result.stderr)
    }
}
