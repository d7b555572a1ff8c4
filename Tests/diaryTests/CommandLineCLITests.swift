import Foundation
import XCTest

/// Options every command takes may come before the command (`diary --vault X list`, as
/// `git -C dir log`), and a mistyped command gets a suggestion.
final class CommandLineCLITests: XCTestCase {
    private var box: DiarySandbox!

    override func setUpWithError() throws { box = try DiarySandbox(name: "cmdline") }
    override func tearDown() { box = nil }

    /// A second vault, not the sandbox's default, with one entry titled `title`.
    private func otherVault(_ title: String) throws -> (path: String, pass: String) {
        let path = box.root.appendingPathComponent("other-\(title)").path
        let pass = try box.passphraseFile("other horse")
        try box.ok(["--vault", path, "init", "--new-passphrase-file", pass])
        try box.ok(["--vault", path, "--passphrase-file", pass, "new", title])
        return (path, pass)
    }

    /// Options before the command reach the vault it opens (every spelling and order is
    /// `CommandLineParsingTests`'); of two --vault the last is used.
    func testGlobalOptionsBeforeTheCommandReachTheVault() throws {
        let defaultPass = try box.initVault()
        try box.ok(["new", "In the default vault"])
        let (other, pass) = try otherVault("Elsewhere")
        box.environment["DIARY_PASSPHRASE_FILE"] = ""
        let listed = try box.ok(["--vault", other, "--passphrase-file", pass, "list"]).stdout
        XCTAssertTrue(listed.contains("Elsewhere") && !listed.contains("default vault"), listed)
        let searched = try box.ok(["--passphrase-file", pass, "--vault", other, "search", "elsewhere", "--json"])
        XCTAssertTrue(searched.stdout.contains("Elsewhere"), searched.stdout)

        let missing = box.root.appendingPathComponent("missing").path
        let last = try box.ok(["--vault", missing, "list", "--vault", box.vault.path, "--passphrase-file", defaultPass])
        XCTAssertTrue(last.stdout.contains("default vault"), last.stdout)
        let first = try box.run(["--vault", box.vault.path, "list", "--vault", missing])
        XCTAssertEqual(first.status, 66, "the later --vault, a missing vault, is used: \(first.stderr)")
    }

    func testHelpVersionAndBareOptionsStillBehave() throws {
        let help = try box.ok(["--vault", "/nonexistent", "--help"])
        XCTAssertTrue(help.stdout.contains("EXIT STATUS"), help.stdout)
        XCTAssertEqual(try box.ok(["--version"]).out.isEmpty, false)
        XCTAssertTrue(try box.ok(["--vault", "/nonexistent", "list", "--help"]).stdout.contains("--starred"))
        let onlyOptions = try box.run(["--vault", "/nonexistent"])
        XCTAssertEqual(onlyOptions.status, 64)
        XCTAssertTrue(onlyOptions.stderr.hasPrefix("usage: diary "), onlyOptions.stderr)
        let noValue = try box.run(["--vault"])
        XCTAssertEqual(noValue.status, 64)
        XCTAssertTrue(noValue.stderr.contains("diary: error: missing value for '--vault'"), noValue.stderr)
        XCTAssertTrue(try box.ok(["--vault", "/x", "help", "list"]).stdout.contains("--starred"))
        let rootHelp = try box.ok(["--help"]).stdout
        XCTAssertTrue(rootHelp.contains("USAGE: diary [--vault <path>]"), "the root help says they may come first")
    }

    /// A mistyped command is a usage error (64) with the nearest commands (which ones is
    /// `CommandLineParsingTests`'), or a hint when none is near; the word typed is escaped.
    func testAMistypedCommandGetsASuggestion() throws {
        let typo = try box.run(["lsit"])
        XCTAssertEqual(typo.status, 64)
        XCTAssertEqual(typo.stdout, "")
        XCTAssertEqual(typo.stderr, "diary: error: unknown command 'lsit'. Did you mean 'list'?\n")
        let options = try box.run(["--vault", "/x", "shwo", "--json"])
        XCTAssertEqual(options.status, 64)
        XCTAssertTrue(options.stderr.contains("Did you mean 'show'?"), options.stderr)
        let far = try box.run(["xyzzy"])
        XCTAssertEqual(far.status, 64)
        XCTAssertTrue(far.stderr.hasPrefix("diary: error: unknown command 'xyzzy'\n"), far.stderr)
        XCTAssertTrue(far.stderr.contains("diary --help"), far.stderr)
        // After `help` too: not the top-level help with status 0.
        let helpTypo = try box.run(["help", "lst"])
        XCTAssertEqual(helpTypo.status, 64, helpTypo.stdout)
        XCTAssertEqual(helpTypo.stdout, "")
        XCTAssertEqual(helpTypo.stderr, "diary: error: unknown command 'lst'. Did you mean 'list'?\n")
        XCTAssertEqual(try box.run(["--vault", "/x", "help", "xyzzy"]).status, 64)
        let hostile = try box.run(["l\u{1B}[2Jist"])
        XCTAssertFalse(
            hostile.stderr.contains("\u{1B}"), "the typed word is escaped: \(hostile.stderr.debugDescription)")
    }
}
