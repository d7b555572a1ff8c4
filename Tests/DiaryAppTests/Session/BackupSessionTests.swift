import DiaryApp
import DiaryTestSupport
import DiaryVault
import Foundation
import XCTest

/// Opening a backup through the session (the agent's key first, then the passphrase, asked
/// again after a wrong one), and a restore starting its path's record afresh.
final class BackupSessionTests: SessionTestCase {
    private func backedUp() throws -> (Vault, URL) {
        let vault = try makeVault(.sqlite)
        _ = try vault.add(text: "one")
        let file = path("s.diarybak")
        try vault.backup(to: file)
        return (vault, file)
    }

    func testTheAgentsKeyOpensABackupMadeUnderItWithoutAskingAnything() throws {
        let (vault, file) = try backedUp()
        let asker = ScriptedAsker(["never asked"])
        let agent = FakeAgent { .key(vault.vaultKey, generation: vault.keyGeneration, vaultID: vault.id) }
        let report = try session(path("elsewhere"), asker: asker, agent: agent).withBackupKey(file) {
            try Vault.verifyBackup(file, key: $0)
        }
        XCTAssertTrue(report.isClean)
        XCTAssertTrue(asker.asked.isEmpty)
    }

    func testAKeyItCannotUseFallsThroughToThePassphrase() throws {
        let (vault, file) = try backedUp()
        let asker = ScriptedAsker(["correct horse"])
        let agent = FakeAgent { .key(vault.vaultKey, generation: vault.keyGeneration, vaultID: vault.id) }
        // Another store: the key cannot seal the header anew.
        let restored = try session(path("target"), asker: asker, agent: agent).withBackupKey(file) {
            try Vault.restore(backup: file, to: self.path("target"), key: $0, store: .files)
        }
        XCTAssertEqual(restored.store, .files)
        XCTAssertEqual(asker.asked.map(\.reason), [.backup(path: file.path)])
    }

    func testAWrongPassphraseIsAskedAgainThenEndsAsTheBackupsOwnError() throws {
        let (_, file) = try backedUp()
        let asker = ScriptedAsker(["a newer passphrase", "correct horse"])
        XCTAssertTrue(
            try session(path("x"), asker: asker).withBackupKey(file) { try Vault.verifyBackup(file, key: $0) }.isClean)
        XCTAssertEqual(asker.asked.map(\.attempt), [1, 2])

        let wrong = ScriptedAsker(["one", "two", "three", "never asked"])
        XCTAssertThrowsError(
            try session(path("x"), asker: wrong).withBackupKey(file) { try Vault.verifyBackup(file, key: $0) }
        ) {
            XCTAssertEqual($0 as? AppError, .wrongBackupPassphrase(backup: file.path))
        }
        XCTAssertEqual(wrong.asked.count, DiarySession.passphraseTries)
    }

    func testASecondRestoreIntoOnePathStartsItsRecordAfresh() throws {
        let vault = try makeVault(.files)
        _ = try vault.add(text: "one")
        let older = path("older.diarybak")
        try vault.backup(to: older)
        _ = try vault.add(text: "two")
        let newer = path("newer.diarybak")
        try vault.backup(to: newer)
        let target = path("restored")
        let file = try passphraseFile("correct horse")

        let first = session(target, passphraseFile: file)
        try first.restored(try Vault.restore(backup: newer, to: target, passphrase: secret("correct horse")))
        try first.finish()
        try FileManager.default.removeItem(at: target)
        events = []
        let second = session(target, passphraseFile: file)
        try second.restored(try Vault.restore(backup: older, to: target, passphrase: secret("correct horse")))
        try second.finish()
        XCTAssertTrue(
            events.contains { if case .restoredOlderThanSeen = $0 { return true } else { return false } }, "\(events)")

        events = []
        let reader = session(target, passphraseFile: file)
        XCTAssertEqual(try reader.open().entryCount, 1, "not refused as rolled back")
        try reader.finish()
        XCTAssertEqual(events, [])
    }
}
