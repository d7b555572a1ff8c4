import Foundation
import XCTest

/// `diary recovery-key create --shares` and `diary reset-passphrase --share-file` as a person
/// runs them: 3 of 5 shares reset a forgotten passphrase, 2 do not, a share of another vault
/// is named, and the shares are written or shown only where they should be.
final class RecoverySharesCLITests: XCTestCase {
    private var box: DiarySandbox!

    override func setUpWithError() throws {
        box = try DiarySandbox(name: "recovery-shares")
    }

    override func tearDown() { box = nil }

    private func share(_ x: Int, of count: Int = 5, in directory: String = "shares") -> String {
        "\(directory)/share-\(x)-of-\(count).txt"
    }

    /// Resets the passphrase with `shares` (relative to the sandbox), nothing else to go on.
    private func reset(_ shares: [String], to passphrase: String = "reset passphrase 4") throws -> DiaryResult {
        try box.run(
            ["reset-passphrase", "--new-passphrase-file", try box.passphraseFile(passphrase)]
                + shares.flatMap { ["--share-file", $0] },
            env: ["DIARY_PASSPHRASE_FILE": ""])
    }

    func testThreeOfFiveSharesResetTheForgottenPassphraseAndTwoDoNot() throws {
        try box.initVault(store: "files", passphrase: "first passphrase 1")
        try box.ok(["new", "Written before the shares"])
        let made = try box.ok(["recovery-key", "create", "--shares", "5", "--threshold", "3", "--output", "shares"])
        XCTAssertEqual(made.stdout, "", "shares never go to stdout")
        XCTAssertTrue(made.stderr.contains("any 3 of the 5 shares"), made.stderr)
        let folder = box.root.appendingPathComponent("shares")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        XCTAssertEqual(names, (1...5).map { "share-\($0)-of-5.txt" })
        XCTAssertEqual(try mode(folder.path), 0o700)
        for name in names { XCTAssertEqual(try mode(folder.appendingPathComponent(name).path), 0o600) }
        XCTAssertTrue(try box.ok(["recovery-key", "status"]).stdout.hasPrefix("active (epoch 1"))
        try box.ok(
            ["passwd", "--new-passphrase-file", try box.passphraseFile("second passphrase 2")],
            env: ["DIARY_PASSPHRASE_FILE": try box.passphraseFile("first passphrase 1")])
        try box.ok(["rekey"], env: ["DIARY_PASSPHRASE_FILE": try box.passphraseFile("second passphrase 2")])

        let asKey = try box.run(
            [
                "reset-passphrase", "--recovery-key-file", share(1),
                "--new-passphrase-file", try box.passphraseFile("never set 5"),
            ], env: ["DIARY_PASSPHRASE_FILE": ""])
        XCTAssertEqual(asKey.status, 67, asKey.stderr)
        XCTAssertTrue(asKey.stderr.contains("is a recovery share, not a whole recovery key"), asKey.stderr)
        XCTAssertTrue(asKey.stderr.contains("--share-file"), asKey.stderr)

        let two = try reset([share(1), share(4)])
        XCTAssertEqual(two.status, 67, two.stderr)
        XCTAssertTrue(two.stderr.contains("3 shares are needed"), two.stderr)
        XCTAssertTrue(two.stderr.contains("nothing was changed"), two.stderr)
        try box.ok(["list"], env: ["DIARY_PASSPHRASE_FILE": try box.passphraseFile("second passphrase 2")])

        let three = try reset([share(5), share(2), share(3)])
        XCTAssertEqual(three.status, 0, three.stderr)
        XCTAssertEqual(three.stdout, "")
        let listed = try box.ok(["list"], env: ["DIARY_PASSPHRASE_FILE": try box.passphraseFile("reset passphrase 4")])
        XCTAssertTrue(listed.stdout.contains("Written before the shares"), listed.stdout)
        let old = try box.run(["list"], env: ["DIARY_PASSPHRASE_FILE": try box.passphraseFile("second passphrase 2")])
        XCTAssertEqual(old.status, 77, old.stderr)
    }

    func testAShareOfAnotherVaultIsNamedAsSuch() throws {
        let otherVault = box.root.appendingPathComponent("other-vault").path
        let pass = try box.passphraseFile("other passphrase 5")
        try box.ok(["init", "--store", "files", "--new-passphrase-file", pass], env: ["DIARY_VAULT": otherVault])
        try box.ok(
            ["recovery-key", "create", "--shares", "3", "--threshold", "2", "--output", "theirs"],
            env: ["DIARY_VAULT": otherVault, "DIARY_PASSPHRASE_FILE": pass])
        try box.initVault()
        try box.ok(["recovery-key", "create", "--shares", "3", "--threshold", "2", "--output", "mine"])

        let mixed = try reset([share(1, of: 3, in: "mine"), share(2, of: 3, in: "theirs")])
        XCTAssertEqual(mixed.status, 67, mixed.stderr)
        XCTAssertTrue(mixed.stderr.contains("theirs/share-2-of-3.txt is a share of another vault"), mixed.stderr)
        try box.ok(["list"])  // nothing changed
        // A mistyped share is named too, before any counting.
        let mistyped = box.root.appendingPathComponent("mine/share-2-of-3.txt")
        var text = try String(contentsOf: mistyped, encoding: .utf8)
        let at = text.index(text.endIndex, offsetBy: -4)
        text.replaceSubrange(at...at, with: text[at] == "7" ? "8" : "7")
        try Data(text.utf8).write(to: mistyped)
        let typo = try reset([share(2, of: 3, in: "mine")])
        XCTAssertEqual(typo.status, 67, typo.stderr)
        XCTAssertTrue(typo.stderr.contains("mine/share-2-of-3.txt is mistyped"), typo.stderr)
    }

    /// Shares of a key since replaced pass every check alone and together, and rebuild a key
    /// that is not the vault's: refused, nothing changed.
    func testSharesOfAReplacedKeyAreRefused() throws {
        try box.initVault()
        try box.ok(["recovery-key", "create", "--shares", "3", "--threshold", "2", "--output", "old"])
        try box.ok(["recovery-key", "create", "--replace", "--shares", "3", "--threshold", "2", "--output", "new"])
        let stale = try reset([share(1, of: 3, in: "old"), share(3, of: 3, in: "old")])
        XCTAssertEqual(stale.status, 77, stale.stderr)
        XCTAssertTrue(stale.stderr.contains("not this vault's recovery key; nothing was changed"), stale.stderr)
        let mixed = try reset([share(1, of: 3, in: "old"), share(3, of: 3, in: "new")])
        XCTAssertTrue(mixed.stderr.contains("new/share-3-of-3.txt is of another share set"), mixed.stderr)
        try box.ok(["list"])
        XCTAssertEqual(try reset([share(2, of: 3, in: "new"), share(3, of: 3, in: "new")]).status, 0)
    }

    func testAnExistingDirectoryIsNeverWrittenIntoAndNothingIsSet() throws {
        try box.initVault()
        let folder = box.root.appendingPathComponent("taken")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("keep me".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        let refused = try box.run(["recovery-key", "create", "--shares", "3", "--threshold", "2", "--output", "taken"])
        XCTAssertEqual(refused.status, 73, refused.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["notes.txt"])
        XCTAssertEqual(try box.ok(["recovery-key", "status"]).out, "none")
        // An empty directory is used, and closed to others.
        let empty = box.root.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        try box.ok(["recovery-key", "create", "--shares", "2", "--threshold", "2", "--output", "empty"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: empty.path).count, 2)
        XCTAssertEqual(try mode(empty.path), 0o700)
        // A second split without --replace is refused before the passphrase, and its directory
        // is not left behind.
        let again = try box.run(
            ["recovery-key", "create", "--shares", "2", "--threshold", "2", "--output", "again"],
            env: ["DIARY_PASSPHRASE_FILE": ""])
        XCTAssertEqual(again.status, 1, again.stderr)
        XCTAssertTrue(again.stderr.contains("--replace"), again.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: box.root.appendingPathComponent("again").path))
    }

    func testBadCountsAreUsageErrorsAndWithoutATerminalNothingIsMade() throws {
        try box.initVault()
        for args in [
            ["--shares", "5"], ["--threshold", "2"], ["--shares", "5", "--threshold", "1"],
            ["--shares", "3", "--threshold", "4"], ["--shares", "17", "--threshold", "2"],
        ] {
            let result = try box.run(["recovery-key", "create", "--output", "x"] + args)
            XCTAssertEqual(result.status, 64, "\(args): \(result.stderr)")
        }
        let noTerminal = try box.run(["recovery-key", "create", "--shares", "3", "--threshold", "2"])
        XCTAssertEqual(noTerminal.status, 64, noTerminal.stderr)
        XCTAssertEqual(try box.ok(["recovery-key", "status"]).out, "none")
        let both = try box.run(["reset-passphrase", "--recovery-key-file", "k", "--share-file", "s"])
        XCTAssertEqual(both.status, 64, both.stderr)
    }

    /// On the terminal the shares come one at a time, the screen cleared between them, never
    /// on stdout; typed back from the screen, two of them reset the passphrase.
    func testOnTheTerminalEachShareIsShownAloneAndTypedBackResets() throws {
        try box.initVault(passphrase: "terminal passphrase 6")
        let stdout = box.root.appendingPathComponent("stdout.txt")
        let shown = try box.runOnTerminal(
            ["recovery-key", "create", "--shares", "3", "--threshold", "2"],
            answers: [("show the next share", ""), ("show the next share", ""), ("clear the screen.", "")],
            stdoutTo: stdout)
        XCTAssertEqual(shown.status, 0, shown.shown)
        XCTAssertEqual(try String(contentsOf: stdout, encoding: .utf8), "")
        let screens = shown.shown.components(separatedBy: "\u{1B}[3J").filter { $0.contains("Recovery share") }
        XCTAssertEqual(screens.count, 3, shown.shown)
        let texts = screens.compactMap { screen in
            screen.components(separatedBy: .newlines).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
                .first { $0.count == 114 && $0.split(separator: "-").count == 17 }
        }
        XCTAssertEqual(texts.count, 3, "one share per screen: \(screens)")
        XCTAssertEqual(Set(texts).count, 3)
        for (index, text) in texts.enumerated() {
            XCTAssertTrue(screens[index].contains("Recovery share \(index + 1) of 3"), screens[index])
            try Data((text.lowercased() + "\n").utf8).write(to: box.root.appendingPathComponent("typed-\(index).txt"))
        }
        let reset = try reset(["typed-2.txt", "typed-0.txt"])
        XCTAssertEqual(reset.status, 0, reset.stderr)
        try box.ok(["list"], env: ["DIARY_PASSPHRASE_FILE": try box.passphraseFile("reset passphrase 4")])
    }

    /// Interrupted while a share is on screen, nothing is set: the shares shown so far
    /// rebuild nothing, and the vault keeps no key.
    func testInterruptedOnTheTerminalNothingIsSet() throws {
        try box.initVault()
        let shown = try box.runOnTerminal(
            ["recovery-key", "create", "--shares", "3", "--threshold", "2"],
            answers: [("show the next share", "\u{03}")])
        XCTAssertNotEqual(shown.status, 0, shown.shown)
        XCTAssertTrue(shown.shown.contains("Recovery share 1 of 3"), shown.shown)
        // Interrupted, the share does not stay on the screen: it is cleared after it was shown.
        let shareShown = try XCTUnwrap(shown.shown.range(of: "Recovery share 1 of 3"))
        let lastClear = try XCTUnwrap(shown.shown.range(of: "\u{1B}[3J", options: .backwards))
        XCTAssertGreaterThan(lastClear.lowerBound, shareShown.upperBound, shown.shown)
        XCTAssertEqual(try box.ok(["recovery-key", "status"]).out, "none")
    }

    private func mode(_ path: String) throws -> Int {
        try XCTUnwrap((FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue)
    }
}
