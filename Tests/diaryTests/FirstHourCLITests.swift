import Foundation
import XCTest

/// The first hour of a new user (issue 22): `init` in a directory that holds other files,
/// `init` after a mistyped repeat, the wording of parser errors and of a weak passphrase's
/// estimate, and a vault made elsewhere than where diary looks by default.
final class FirstHourCLITests: XCTestCase {
    private var box: DiarySandbox!

    override func setUpWithError() throws { box = try DiarySandbox(name: "first-hour") }
    override func tearDown() { box = nil }

    private func occurrences(of text: String, in shown: String) -> Int {
        shown.components(separatedBy: text).count - 1
    }

    func testInitInADirectoryHoldingOtherFilesNamesThemAndWritesNothing() throws {
        try FileManager.default.createDirectory(at: box.vault, withIntermediateDirectories: true)
        for name in ["install-manifest", "b.txt", "c.txt", "d.txt", "e.txt"] {
            try Data("x".utf8).write(to: box.vault.appendingPathComponent(name))
        }
        let result = try box.run(["init", "--new-passphrase-file", try box.passphraseFile("Heron frost 9 ladder")])
        XCTAssertEqual(result.status, 73, result.stderr)
        XCTAssertTrue(
            result.stderr.contains(
                "diary: error: cannot create a vault in \(box.vault.path): it holds other files "
                    + "('b.txt', 'c.txt', 'd.txt' and 2 more)"), result.stderr)
        XCTAssertTrue(result.stderr.contains("diary: hint: `diary init` needs a new or empty directory"), result.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: box.vault.path).count, 5)

        let one = box.root.appendingPathComponent("one")
        try FileManager.default.createDirectory(at: one, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: one.appendingPathComponent("install-manifest"))
        let named = try box.run([
            "init", "--vault", one.path, "--new-passphrase-file", try box.passphraseFile("Heron frost 9 ladder"),
        ])
        XCTAssertTrue(named.stderr.contains("it holds other files ('install-manifest')"), named.stderr)
    }

    /// A vault path that is a symbolic link to an empty directory: the vault is made there, as
    /// every command follows the link to open it, without a warning about the link's own mode.
    func testInitThroughASymbolicLinkMakesTheVaultWhereItLeads() throws {
        let target = box.root.appendingPathComponent("d3")
        let link = box.root.appendingPathComponent("link")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let file = try box.passphraseFile("Heron frost 9 ladder")
        let made = try box.run(["--vault", link.path, "init", "--new-passphrase-file", file])
        XCTAssertEqual(made.status, 0, made.stderr)
        XCTAssertTrue(
            made.stderr.contains("created a sqlite vault at \(target.path) (through \(link.path))"), made.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: target.appendingPathComponent("vault.sqlite").path))
        try box.ok(["--vault", link.path, "new", "through the link"], env: ["DIARY_PASSPHRASE_FILE": file])
        let listed = try box.ok(["--vault", link.path, "list"], env: ["DIARY_PASSPHRASE_FILE": file])
        XCTAssertTrue(listed.stdout.contains("through the link"), listed.stdout)
        XCTAssertFalse(listed.stderr.contains("mode 0777"), listed.stderr)
    }

    func testInitAsksAgainAfterAMistypedRepeatAsPasswdDoes() throws {
        let new = "Heron frost 9 ladder river"
        let run = try box.runOnTerminal(
            ["init"],
            answers: [
                ("New passphrase: ", new), ("(again): ", new + " typo"), ("New passphrase: ", new), ("(again): ", new),
                ("recovery key now?", "n"),
            ],
            env: ["DIARY_PASSPHRASE_FILE": ""])
        XCTAssertEqual(run.status, 0, run.shown)
        XCTAssertTrue(run.shown.contains("do not match; try again"), run.shown)
        XCTAssertTrue(run.shown.contains("created a sqlite vault"), run.shown)
        try box.ok(["list"], env: ["DIARY_PASSPHRASE_FILE": try box.passphraseFile(new)])

        let other = try DiarySandbox(name: "first-hour-mismatch")
        let dialogue = (1...3).flatMap { n in [("New passphrase: ", new), ("(again): ", new + " \(n)")] }
        let gaveUp = try other.runOnTerminal(["init"], answers: dialogue, env: ["DIARY_PASSPHRASE_FILE": ""])
        XCTAssertEqual(gaveUp.status, 1, gaveUp.shown)
        XCTAssertEqual(occurrences(of: "try again", in: gaveUp.shown), 2, gaveUp.shown)
        XCTAssertFalse(FileManager.default.fileExists(atPath: other.vault.path), "nothing was created")
    }

    func testAWeakPassphraseEstimateSaysBitOrBitsAndWhatIsNeeded() throws {
        // A common word twice is worth the doubling alone: one bit.
        let one = try box.run(["init", "--new-passphrase-file", try box.passphraseFile("passwordpassword")])
        XCTAssertEqual(one.status, 67, one.stderr)
        XCTAssertTrue(
            one.stderr.contains("a short sequence repeated (estimated strength 1 bit, at least 50 needed)"),
            one.stderr)
        let seven = try box.run(["init", "--new-passphrase-file", try box.passphraseFile("Tr0ub!e")])
        XCTAssertTrue(seven.stderr.contains("only 7 characters (estimated strength 45 bits,"), seven.stderr)
        XCTAssertFalse(seven.stderr.contains("about"), seven.stderr)
    }

    func testParserErrorsAreWordedLikeDiarysOwn() throws {
        let unknown = try box.run(["list", "--bogus"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.hasPrefix("diary: error: unknown option '--bogus'\n"), unknown.stderr)
        let missing = try box.run(["new", "--date"])
        XCTAssertEqual(missing.status, 64)
        XCTAssertTrue(missing.stderr.hasPrefix("diary: error: missing value for '--date <date>'"), missing.stderr)
        let command = try box.run(["lsit"])
        XCTAssertTrue(command.stderr.hasPrefix("diary: error: unknown command 'lsit'"), command.stderr)
    }

    func testNoVaultAtTheDefaultPlacePointsToVaultOptionsBeforeInit() throws {
        let defaultPlace = box.root.appendingPathComponent("data/diary").path
        let result = try box.run(["list"], env: ["DIARY_VAULT": ""])
        XCTAssertEqual(result.status, 66, result.stderr)
        XCTAssertTrue(result.stderr.contains("no vault at \(defaultPlace)"), result.stderr)
        XCTAssertTrue(
            result.stderr.contains(
                "diary: hint: for a vault elsewhere, pass --vault DIR or set DIARY_VAULT=DIR; "
                    + "to start a new vault here, `diary init`"), result.stderr)
        // A place the user named is theirs: init there is the likely next step.
        let named = try box.run(["list"])
        XCTAssertTrue(named.stderr.contains("diary: hint: create one with `diary init`"), named.stderr)
    }

    func testARestoreElsewhereSaysHowToUseTheRestoredVault() throws {
        try box.initVault()
        try box.ok(["new", "kept"])
        let file = box.root.appendingPathComponent("b.diarybak")
        try box.ok(["backup", file.path])
        let target = box.root.appendingPathComponent("my diary")
        let restored = try box.ok(["restore", file.path, "--to", target.path])
        XCTAssertTrue(
            restored.stderr.contains("to use this one, pass --vault '\(target.path)' to each command"),
            restored.stderr)
        XCTAssertTrue(restored.stderr.contains("export DIARY_VAULT='\(target.path)'"), restored.stderr)
        try box.ok(["list", "--vault", target.path])
        // Restored where diary looks already: nothing to say.
        let again = box.root.appendingPathComponent("again")
        let quiet = try box.ok(["restore", file.path, "--to", again.path], env: ["DIARY_VAULT": again.path])
        XCTAssertFalse(quiet.stderr.contains("DIARY_VAULT"), quiet.stderr)
    }
}
