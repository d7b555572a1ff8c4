import DiaryCrypto
import DiaryVault
import Foundation
import XCTest

/// `unlock`, `status`, `lock` and `rekey` with a real agent process.
final class AgentCLITests: XCTestCase {
    private var box: DiarySandbox!
    private var pass = ""

    override func setUpWithError() throws {
        box = try DiarySandbox(name: "agent")
        pass = try box.initVault()
        // From here on, only the agent can provide the key.
        box.environment["DIARY_PASSPHRASE_FILE"] = ""
    }

    override func tearDown() { box = nil }

    func testUnlockLetsCommandsRunWithoutAPassphraseUntilLock() throws {
        XCTAssertEqual(try box.run(["new", "x"]).status, 75)
        XCTAssertTrue(try box.ok(["status"]).out.hasPrefix("locked \(box.vault.path)"))
        try box.ok(["unlock", "--passphrase-file", pass, "--timeout", "10m", "--max", "1h"])
        let status = try box.ok(["status"]).out
        XCTAssertTrue(status.hasPrefix("unlocked \(box.vault.path)"), status)
        XCTAssertTrue(status.contains("without use, at most"), status)
        try box.ok(["new", "written while unlocked"])
        XCTAssertEqual(try box.listJSON().count, 1)
        try box.ok(["lock"])
        XCTAssertEqual(try box.run(["list"]).status, 75)
        XCTAssertTrue(try box.ok(["status"]).out.hasPrefix("locked"))
    }

    func testUnlockWithAWrongPassphraseStartsNoAgent() throws {
        let wrong = try box.passphraseFile("wrong")
        XCTAssertEqual(try box.run(["unlock", "--passphrase-file", wrong]).status, 77)
        XCTAssertTrue(try box.ok(["status"]).out.hasPrefix("locked"))
    }

    func testUnlockTwiceReusesTheAgent() throws {
        try box.ok(["unlock", "--passphrase-file", pass])
        // No passphrase source the second time: it must not be needed.
        let again = try box.ok(["unlock"])
        XCTAssertTrue(again.stderr.contains("already unlocked"), again.stderr)
    }

    func testTheAgentForgetsTheKeyAfterTheIdleTimeout() throws {
        try box.ok(["unlock", "--passphrase-file", pass, "--timeout", "2s"])
        try box.ok(["list"])
        sleep(4)
        let result = try box.run(["list"])
        XCTAssertEqual(result.status, 75, result.stderr)
        XCTAssertTrue(try box.ok(["status"]).out.hasPrefix("locked"))
    }

    func testPasswdNeedsTheCurrentPassphraseEvenWhileUnlocked() throws {
        try box.ok(["unlock", "--passphrase-file", pass])
        let newPass = try box.passphraseFile("brand new")
        let result = try box.run(["passwd", "--new-passphrase-file", newPass])
        XCTAssertEqual(result.status, 75, result.stderr)
        try box.ok(["passwd", "--passphrase-file", pass, "--new-passphrase-file", newPass])
        try box.ok(["list"])  // passwd leaves the session as it is
    }

    func testRekeyHandsTheNewKeyToTheAgent() throws {
        try box.ok(["unlock", "--passphrase-file", pass])
        try box.ok(["new", "before rekey"])
        XCTAssertEqual(try box.run(["rekey"]).status, 75, "rekey always needs the passphrase")
        let rekey = try box.ok(["rekey", "--passphrase-file", pass])
        XCTAssertTrue(rekey.stderr.contains("now holds the new key"), rekey.stderr)
        // No passphrase source: only an agent holding the *new* key can open the vault now.
        let list = try box.ok(["list", "--json"])
        XCTAssertFalse(list.stderr.contains("warning"), list.stderr)
        XCTAssertTrue(list.stdout.contains("before rekey"))
        try box.ok(["verify"])
    }

    func testAStaleAgentKeyFallsBackToThePassphraseWithAWarning() throws {
        try box.ok(["unlock", "--passphrase-file", pass])
        try box.ok(["new", "kept"])
        // Rotate the key behind the agent's back (another machine, an old diary).
        var bytes = Array("correct horse".utf8)
        let vault = try Vault.open(at: box.vault, passphrase: try SecretBytes(consuming: &bytes))
        var again = Array("correct horse".utf8)
        try vault.rotateKey(passphrase: try SecretBytes(consuming: &again))

        let locked = try box.run(["list"])
        XCTAssertEqual(locked.status, 75, locked.stderr)
        XCTAssertTrue(locked.stderr.contains("does not open this vault any more"), locked.stderr)
        let opened = try box.ok(["list", "--passphrase-file", pass])
        XCTAssertTrue(opened.stdout.contains("kept"))
    }
}
