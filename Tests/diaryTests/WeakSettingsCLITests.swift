import Foundation
import XCTest

/// Weak settings are named on stderr, not left for `diary audit` to find: passphrase files open
/// to others, weak new passphrases, a weak key derivation cost, loose vault modes.
final class WeakSettingsCLITests: XCTestCase {
    private var box: DiarySandbox!

    override func setUpWithError() throws { box = try DiarySandbox(name: "weak") }
    override func tearDown() { box = nil }

    func testAPassphraseFileOpenToOthersIsUsedWithAWarningAndAChmodHint() throws {
        let pass = try box.initVault()
        let quiet = try box.ok(["list"])
        XCTAssertFalse(quiet.stderr.contains("passphrase file"), quiet.stderr)

        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: pass)
        // Through $DIARY_PASSPHRASE_FILE (the sandbox's default) and through the option.
        for args in [["list"], ["list", "--passphrase-file", pass]] {
            let result = try box.ok(args)
            XCTAssertEqual(result.stdout, "", "stdout carries data only")
            XCTAssertTrue(
                result.stderr.contains(
                    "diary: warning: passphrase file \(pass) is open to group or others (mode 0644)"), result.stderr)
            XCTAssertTrue(result.stderr.contains("diary: hint: chmod 600 \(pass)"), result.stderr)
        }

        let newPass = try box.passphraseFile("a new and longer passphrase")
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: newPass)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: pass)
        let passwd = try box.ok(["passwd", "--new-passphrase-file", newPass])
        XCTAssertTrue(passwd.stderr.contains("diary: warning: passphrase file \(newPass) is open"), passwd.stderr)
        XCTAssertFalse(passwd.stderr.contains("passphrase file \(pass)"), passwd.stderr)
    }

    func testWeakNewPassphrasesAreRefusedAtInitAndNothingIsWritten() throws {
        let cases = [
            "a": "only 1 character",
            "Tr0ub!e": "only 7 characters",
            "aaaaaaaaaaaaaaaaaaaa": "a short sequence repeated",
            "abcdefghijklmnopqrstu": "mostly repeated or in sequence",
            "123456789012": "mostly repeated or in sequence",
            "Password123!": "one of the most common passphrases",
            "letmein": "one of the most common passphrases",
            "password password": "one of the most common passphrases",
            "xyzxyzxyzxyzxyzxyz": "a short sequence repeated",
        ]
        for (passphrase, reason) in cases {
            let result = try box.run(["init", "--new-passphrase-file", try box.passphraseFile(passphrase)])
            XCTAssertEqual(result.status, 67, "\(passphrase): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("diary: error: the new passphrase is weak: "), result.stderr)
            XCTAssertTrue(result.stderr.contains(reason), "\(passphrase): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("--allow-weak-passphrase"), result.stderr)
            if passphrase.count > 1 {
                XCTAssertFalse(result.stderr.contains(passphrase), "\(passphrase) was printed: \(result.stderr)")
            }
            XCTAssertFalse(FileManager.default.fileExists(atPath: box.vault.path), passphrase)
        }
        let insisted = try box.ok(
            ["init", "--allow-weak-passphrase", "--new-passphrase-file", try box.passphraseFile("a")])
        XCTAssertTrue(insisted.stderr.contains("diary: warning: the new passphrase is weak"), insisted.stderr)
        try box.ok(["list", "--passphrase-file", try box.passphraseFile("a")])
    }

    func testPasswdRefusesAOneCharacterPassphraseAndKeepsTheOldOne() throws {
        let pass = try box.initVault()
        let result = try box.run(["passwd", "--new-passphrase-file", try box.passphraseFile("a")])
        XCTAssertEqual(result.status, 67, result.stderr)
        XCTAssertTrue(result.stderr.contains("the new passphrase is weak: only 1 character"), result.stderr)
        try box.ok(["list", "--passphrase-file", pass])
    }

    func testLooseModesAreWarnedOnEveryCommandThatOpensTheVault() throws {
        _ = try box.initVault(store: "files")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: box.vault.path)
        let header = box.vault.appendingPathComponent("vault.header").path
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: header)
        let result = try box.ok(["new", "a line"])
        XCTAssertEqual(result.stdout.split(separator: "\n").count, 1, "stdout holds only the new id")
        XCTAssertTrue(
            result.stderr.contains(
                "diary: warning: \(box.vault.path) has mode 0755, wider than 0700; run `chmod 700 \(box.vault.path)`"),
            result.stderr)
        XCTAssertTrue(result.stderr.contains("diary: warning: \(header) has mode 0644, wider than 0600"), result.stderr)
        XCTAssertFalse(result.stderr.contains("key derivation"), "the test-only cost is not repeated")
        XCTAssertTrue(try box.ok(["list"]).stderr.contains("has mode 0755"))
    }

    func testAKeyDerivationCostBelowTheDefaultIsWarnedOnEveryCommand() throws {
        // The real `interactive` preset, not the test-only cost (whose warning is left to `init`).
        let pass = try box.passphraseFile("correct horse")
        try box.ok(
            ["init", "--kdf", "interactive", "--new-passphrase-file", pass], env: ["DIARY_INSECURE_TEST_KDF": ""])
        let result = try box.ok(["list", "--passphrase-file", pass], env: ["DIARY_INSECURE_TEST_KDF": ""])
        XCTAssertEqual(result.stdout, "")
        XCTAssertTrue(result.stderr.contains("diary: warning: key derivation"), result.stderr)
        XCTAssertTrue(result.stderr.contains("run `diary passwd --kdf moderate`"), result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
    }
}
