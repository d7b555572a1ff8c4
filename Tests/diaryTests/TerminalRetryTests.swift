import Foundation
import XCTest

/// On a pseudo-terminal: three tries at a wrong passphrase (as sudo gives), `passwd` asking
/// again when the repeat does not match, and `new` telling a person what it added on stderr
/// while stdout carries only the id.
final class TerminalRetryTests: XCTestCase {
    private var box: DiarySandbox!

    override func setUpWithError() throws {
        box = try DiarySandbox(name: "retry")
    }

    override func tearDown() { box = nil }

    /// `diary args` on a pty with no passphrase file, so diary asks there.
    private func onTerminal(
        _ args: [String], _ dialogue: [(String, String)], env: [String: String] = [:], stdoutTo: URL? = nil
    ) throws -> (shown: String, status: Int32) {
        let run = try box.runOnTerminal(
            args, answers: dialogue, env: ["DIARY_PASSPHRASE_FILE": ""].merging(env) { $1 }, stdoutTo: stdoutTo)
        return (run.shown, run.status)
    }

    private func occurrences(of text: String, in shown: String) -> Int {
        shown.components(separatedBy: text).count - 1
    }

    // MARK: three tries

    func testAWrongPassphraseAtTheTerminalIsAskedAgain() throws {
        _ = try box.initVault(passphrase: "the right one")
        try box.ok(["new", "Behind three tries"])
        let (shown, status) = try onTerminal(
            ["list"],
            [("Passphrase for", "wrong once"), ("Passphrase for", "wrong twice"), ("Passphrase for", "the right one")])
        XCTAssertEqual(status, 0, shown)
        XCTAssertEqual(occurrences(of: "Sorry, try again.", in: shown), 2, shown)
        XCTAssertTrue(shown.contains("Behind three tries"), shown)
    }

    func testThreeWrongPassphrasesFailWithTheWrongPassphraseStatus() throws {
        _ = try box.initVault(passphrase: "the right one")
        let (shown, status) = try onTerminal(
            ["list"], [("Passphrase for", "one"), ("Passphrase for", "two"), ("Passphrase for", "three")])
        XCTAssertEqual(status, 77, shown)
        XCTAssertEqual(occurrences(of: "Passphrase for", in: shown), 3, shown)
        XCTAssertEqual(occurrences(of: "Sorry, try again.", in: shown), 2, shown)
        XCTAssertTrue(shown.contains("diary: error: wrong passphrase"), shown)
    }

    func testAWrongPassphraseFileFailsAtOnce() throws {
        _ = try box.initVault(passphrase: "the right one")
        let wrong = try box.passphraseFile("not it")
        let (shown, status) = try onTerminal(["list"], [], env: ["DIARY_PASSPHRASE_FILE": wrong])
        XCTAssertEqual(status, 77, shown)
        XCTAssertFalse(shown.contains("try again"), shown)
        XCTAssertFalse(shown.contains("Passphrase for"), "no prompt when a file is given: \(shown)")
    }

    // MARK: passwd

    func testPasswdAsksAgainWhenTheRepeatDoesNotMatch() throws {
        _ = try box.initVault(passphrase: "old passphrase")
        let new = "Heron frost 9 ladder river"
        let (shown, status) = try onTerminal(
            ["passwd"],
            [
                ("Passphrase for", "a typo"), ("Passphrase for", "old passphrase"),
                ("New passphrase: ", new), ("(again): ", new + " typo"),
                ("New passphrase: ", new), ("(again): ", new),
            ])
        XCTAssertEqual(status, 0, shown)
        XCTAssertTrue(shown.contains("do not match; try again"), shown)
        XCTAssertTrue(shown.contains("passphrase changed"), shown)
        try box.ok(["list"], env: ["DIARY_PASSPHRASE_FILE": try box.passphraseFile(new)])
    }

    func testPasswdGivesUpAfterThreeMismatchesAndChangesNothing() throws {
        _ = try box.initVault(passphrase: "old passphrase")
        let new = "Heron frost 9 ladder river"
        let dialogue =
            [("Passphrase for", "old passphrase")]
            + (1...3).flatMap { n in [("New passphrase: ", new), ("(again): ", new + " \(n)")] }
        let (shown, status) = try onTerminal(["passwd"], dialogue)
        XCTAssertEqual(status, 1, shown)
        XCTAssertEqual(occurrences(of: "try again", in: shown), 2, shown)
        XCTAssertTrue(shown.contains("the passphrases do not match; nothing was changed"), shown)
        try box.ok(["list"], env: ["DIARY_PASSPHRASE_FILE": try box.passphraseFile("old passphrase")])
    }

    // MARK: a weak new passphrase

    func testPasswdSaysWhyANewPassphraseIsWeakAndAsksAgainBeforeTheRepeat() throws {
        _ = try box.initVault(passphrase: "old passphrase")
        let new = "Heron frost 9 ladder river"
        let (shown, status) = try onTerminal(
            ["passwd"],
            [
                ("Passphrase for", "old passphrase"), ("New passphrase: ", "Password123!"),
                ("New passphrase: ", new), ("(again): ", new),
            ])
        XCTAssertEqual(status, 0, shown)
        XCTAssertTrue(shown.contains("That passphrase is weak: it is one of the most common passphrases"), shown)
        XCTAssertEqual(occurrences(of: "(again): ", in: shown), 1, "the weak one's repeat is not asked for: \(shown)")
        XCTAssertTrue(shown.contains("passphrase changed"), shown)
        try box.ok(["list"], env: ["DIARY_PASSPHRASE_FILE": try box.passphraseFile(new)])
    }

    func testInitAsksAgainAfterAWeakPassphraseAndGivesUpAfterThree() throws {
        let new = "Heron frost 9 ladder river"
        let (shown, status) = try onTerminal(
            ["init"],
            [("New passphrase: ", "a"), ("New passphrase: ", new), ("(again): ", new), ("recovery key now?", "n")])
        XCTAssertEqual(status, 0, shown)
        XCTAssertEqual(occurrences(of: "That passphrase is weak", in: shown), 1, shown)
        try box.ok(["list"], env: ["DIARY_PASSPHRASE_FILE": try box.passphraseFile(new)])

        let other = try DiarySandbox(name: "retry-weak")
        let run = try other.runOnTerminal(
            ["init"],
            answers: [("New passphrase: ", "a"), ("New passphrase: ", "aaaa"), ("New passphrase: ", "abc123")],
            env: ["DIARY_PASSPHRASE_FILE": ""])
        XCTAssertEqual(run.status, 67, run.shown)
        XCTAssertEqual(occurrences(of: "That passphrase is weak", in: run.shown), 2, run.shown)
        XCTAssertTrue(run.shown.contains("diary: error: the new passphrase is weak"), run.shown)
        XCTAssertFalse(run.shown.contains("(again)"), run.shown)
        XCTAssertFalse(FileManager.default.fileExists(atPath: other.vault.path), "nothing was created")
    }

    func testAllowWeakPassphraseAtTheTerminalUsesItWithAWarning() throws {
        let (shown, status) = try onTerminal(
            ["init", "--allow-weak-passphrase"],
            [("New passphrase: ", "abc"), ("(again): ", "abc"), ("recovery key now?", "n")])
        XCTAssertEqual(status, 0, shown)
        XCTAssertFalse(shown.contains("That passphrase is weak"), shown)
        XCTAssertTrue(shown.contains("diary: warning: the new passphrase is weak"), shown)
    }

    // MARK: new says what it did

    func testNewTellsTheTerminalWhatItAddedAndKeepsStdoutForTheID() throws {
        _ = try box.initVault()
        let pass = try box.passphraseFile("correct horse")
        let stdoutFile = box.root.appendingPathComponent("stdout.txt")
        let (shown, status) = try onTerminal(
            ["new", "Walk by the river\nA heron."], [],
            env: ["DIARY_PASSPHRASE_FILE": pass], stdoutTo: stdoutFile)
        XCTAssertEqual(status, 0, shown)
        let id = try String(contentsOf: stdoutFile, encoding: .utf8)
        XCTAssertNotNil(UUID(uuidString: id.trimmingCharacters(in: .newlines)), "stdout is the id alone: \(id)")
        XCTAssertEqual(id.filter { $0 == "\n" }.count, 1, id)
        XCTAssertTrue(shown.contains("diary: added \(id.prefix(8)) \"Walk by the river\""), shown)
        XCTAssertFalse(
            shown.contains(id.trimmingCharacters(in: .newlines)), "the full id is not on the terminal: \(shown)")
    }

    func testNewStaysQuietOnStderrWithoutATerminal() throws {
        _ = try box.initVault()
        let result = try box.ok(["new", "Quiet\nbody"])
        XCTAssertNotNil(UUID(uuidString: result.out), result.stdout)
        XCTAssertEqual(result.stderr, "", "nothing on stderr without a terminal")
    }

    func testTheAddedNoteEscapesControlCharactersInTheTitle() throws {
        _ = try box.initVault()
        let pass = try box.passphraseFile("correct horse")
        let (shown, status) = try onTerminal(
            ["new", "Bell \u{7} and \u{1B}[31mred"], [],
            env: ["DIARY_PASSPHRASE_FILE": pass], stdoutTo: box.root.appendingPathComponent("o"))
        XCTAssertEqual(status, 0, shown)
        XCTAssertFalse(shown.contains("\u{1B}[31m"), shown)
        XCTAssertTrue(shown.contains("\\e[31mred"), shown)
    }
}
