import Foundation
import XCTest

/// A backup after `passwd` (issue 22): it opens with the passphrase in force when it was made,
/// asked again at a terminal after a wrong one, with a hint that says so; while the vault is
/// unlocked a backup made under the agent's key needs no passphrase. And restoring twice into
/// one path: the second restore is the user's act, not a rollback.
final class BackupKeyCLITests: XCTestCase {
    private var box: DiarySandbox!

    override func setUpWithError() throws { box = try DiarySandbox(name: "backup-key") }
    override func tearDown() { box = nil }

    private let old = "the passphrase of old"
    private let new = "Heron frost 9 ladder river"

    /// A vault with one entry, a backup of it, then `passwd --no-rekey` to `new` (the vault key
    /// stays: the backup is the agent's key's) and, if asked, a `rekey`; the backup's file.
    private func backupThenPasswd(rekey: Bool = false) throws -> URL {
        _ = try box.initVault(passphrase: old)
        try box.ok(["new", "before the change"])
        let file = box.root.appendingPathComponent("old.diarybak")
        try box.ok(["backup", file.path])
        let newFile = try box.passphraseFile(new)
        try box.ok(["passwd", "--new-passphrase-file", newFile, "--no-rekey"])
        box.environment["DIARY_PASSPHRASE_FILE"] = newFile
        if rekey { try box.ok(["rekey"]) }
        return file
    }

    func testTheCurrentPassphraseOnAnOldBackupFailsWithAHintAboutWhenItWasMade() throws {
        let file = try backupThenPasswd()
        for args in [
            ["verify", file.path], ["restore", file.path, "--to", box.root.appendingPathComponent("r").path],
        ] {
            let result = try box.run(args)
            XCTAssertEqual(result.status, 77, result.stderr)
            XCTAssertTrue(
                result.stderr.contains("diary: error: wrong passphrase for the backup \(file.path)"), result.stderr)
            XCTAssertTrue(
                result.stderr.contains("diary: hint: a backup opens with the passphrase in force when it was made"),
                result.stderr)
        }
        try box.ok(["verify", file.path, "--passphrase-file", try box.passphraseFile(old)])
    }

    func testAtTheTerminalAWrongPassphraseForABackupIsAskedAgain() throws {
        let file = try backupThenPasswd(rekey: true)
        let run = try box.runOnTerminal(
            ["verify", file.path],
            answers: [("Passphrase for backup", new), ("Passphrase for backup", old)],
            env: ["DIARY_PASSPHRASE_FILE": ""])
        XCTAssertEqual(run.status, 0, run.shown)
        XCTAssertTrue(run.shown.contains("the passphrase in force when the backup was made"), run.shown)
        XCTAssertTrue(run.shown.contains("ok: 1 entry, no damage"), run.shown)

        let three = try box.runOnTerminal(
            ["verify", file.path], answers: (1...3).map { ("Passphrase for backup", "wrong \($0)") },
            env: ["DIARY_PASSPHRASE_FILE": ""])
        XCTAssertEqual(three.status, 77, three.shown)
        XCTAssertEqual(three.shown.components(separatedBy: "Passphrase for backup").count - 1, 3, three.shown)
        XCTAssertTrue(three.shown.contains("passphrase in force when it was made"), three.shown)
    }

    func testWhileUnlockedABackupOfTheAgentsKeyNeedsNoPassphrase() throws {
        let file = try backupThenPasswd()
        try box.ok(["unlock"])
        // No passphrase file, no terminal: only the agent's key can open it.
        let noPassphrase = ["DIARY_PASSPHRASE_FILE": ""]
        let verified = try box.run(["verify", file.path], env: noPassphrase)
        XCTAssertEqual(verified.status, 0, verified.stderr)
        let target = box.root.appendingPathComponent("restored")
        let restored = try box.run(["restore", file.path, "--to", target.path], env: noPassphrase)
        XCTAssertEqual(restored.status, 0, restored.stderr)
        try box.ok(["list", "--vault", target.path, "--passphrase-file", try box.passphraseFile(old)])
        // Another store shape seals the header anew: that takes the backup's passphrase.
        let converted = try box.run(
            ["restore", file.path, "--to", box.root.appendingPathComponent("files").path, "--store", "files"],
            env: noPassphrase)
        XCTAssertEqual(converted.status, 75, converted.stderr)
        try box.ok(["lock"])
        XCTAssertEqual(try box.run(["verify", file.path], env: noPassphrase).status, 75)
    }

    func testAfterARekeyTheAgentsKeyDoesNotOpenAnOlderBackup() throws {
        let file = try backupThenPasswd(rekey: true)
        try box.ok(["unlock"])
        let result = try box.run(["verify", file.path], env: ["DIARY_PASSPHRASE_FILE": ""])
        XCTAssertEqual(result.status, 75, "the agent's newer key is not the backup's: \(result.stderr)")
    }

    /// A backup from before a `rekey`, restored into the vault's own path while it is unlocked:
    /// the agent's newer key opens nothing there, so it is ended (and said so) rather than left
    /// saying "unlocked" while every command warns. An agent whose key is the backup's stays.
    func testARestoreIntoTheVaultsOwnPathEndsAnAgentWhoseKeyIsNotTheRestoredOnes() throws {
        _ = try box.initVault()
        try box.ok(["new", "before the rekey"])
        let file = box.root.appendingPathComponent("before-rekey.diarybak")
        try box.ok(["backup", file.path])
        try box.ok(["rekey"])
        try box.ok(["unlock"])
        defer { _ = try? box.run(["lock", "--all"]) }
        try FileManager.default.removeItem(at: box.vault)
        let restored = try box.ok(["restore", file.path, "--to", box.vault.path])
        XCTAssertTrue(
            restored.stderr.contains(
                "locked \(box.vault.path): its unlock agent held the key of the vault that was there before the restore"
            ),
            restored.stderr)
        XCTAssertTrue(try box.ok(["status"]).stdout.hasPrefix("* locked \(box.vault.path)"))
        let listed = try box.ok(["list"])
        XCTAssertFalse(listed.stderr.contains("unlock agent"), listed.stderr)
        XCTAssertTrue(listed.stdout.contains("before the rekey"), listed.stdout)

        // Unlocked with the restored vault's own key: a second restore of that backup keeps it.
        try box.ok(["unlock"])
        try FileManager.default.removeItem(at: box.vault)
        let again = try box.ok(["restore", file.path, "--to", box.vault.path])
        XCTAssertFalse(again.stderr.contains("locked"), again.stderr)
        XCTAssertTrue(try box.ok(["status"]).stdout.hasPrefix("* unlocked \(box.vault.path)"))
    }

    func testRestoringTwiceIntoOnePathStartsItsRecordAfresh() throws {
        _ = try box.initVault()
        try box.ok(["new", "first"])
        let older = box.root.appendingPathComponent("older.diarybak")
        try box.ok(["backup", older.path])
        try box.ok(["new", "second"])
        let newer = box.root.appendingPathComponent("newer.diarybak")
        try box.ok(["backup", newer.path])

        let target = box.root.appendingPathComponent("salvaged")
        try box.ok(["restore", newer.path, "--to", target.path, "--salvage"])
        XCTAssertEqual(try box.listJSON(["--vault", target.path]).count, 2)
        try FileManager.default.removeItem(at: target)
        let second = try box.ok(["restore", older.path, "--to", target.path, "--salvage"])
        XCTAssertTrue(second.stderr.contains("now starts from it"), second.stderr)
        // The path's record starts from the second restore: no refusal as a rollback.
        let listed = try box.run(["list", "--vault", target.path, "--json"])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        try box.ok(["new", "third", "--vault", target.path])
        XCTAssertEqual(try box.listJSON(["--vault", target.path]).count, 2)
    }
}
