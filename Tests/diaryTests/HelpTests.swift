import Foundation
import XCTest

@testable import diary

/// Help and usage errors through the binary: what reaches stdout or stderr, and the status.
/// What every command's help says is `HelpTextTests`', in process.
final class HelpTests: XCTestCase {
    static let commands = [
        "init", "unlock", "lock", "status", "new", "list", "show", "edit", "delete", "star", "unstar",
        "tag", "search", "passwd", "rekey", "backup", "verify", "restore", "reindex", "import", "export", "recover",
        "calendar", "stats",
    ]

    /// `--help` (the root's, a command's, a subcommand's) prints to stdout what the parser
    /// renders (`HelpTextTests` reads that in process) and exits 0; so does a completion script.
    func testHelpAndCompletionScriptsGoToStdoutWithStatus0() throws {
        let box = try DiarySandbox(name: "help")
        for command in ["", "show", "sync join", "sync invite"] {
            let args = command.split(separator: " ").map(String.init) + ["--help"]
            let result = try box.run(args, env: ["COLUMNS": "80"])
            XCTAssertEqual(result.status, 0, "\(args): \(result.stderr)")
            XCTAssertEqual(result.stderr, "", "\(args)")
            let rendered = try HelpTextTests.help(command, columns: 80)
            XCTAssertEqual(result.out, rendered.trimmingCharacters(in: .newlines), "\(args)")
        }
        for shell in ["bash", "zsh", "fish"] {
            let result = try box.run(["--generate-completion-script", shell])
            XCTAssertEqual(result.status, 0, shell)
            XCTAssertTrue(result.stdout.contains("unlock") && result.stdout.contains("passphrase-file"), shell)
            for word in ["invite", "members", "no-rekey"] {
                XCTAssertTrue(result.stdout.contains(word), "\(shell): \(word)")
            }
        }
    }

    /// Usage errors are 64 on stderr: no command at all (the short usage, nothing on stdout),
    /// an unknown option, a passphrase as an argument; the usage line they print fits 80 columns.
    func testUsageErrorsExit64OnStderr() throws {
        let box = try DiarySandbox(name: "help")
        let bare = try box.run([])
        XCTAssertEqual(bare.status, 64)
        XCTAssertEqual(bare.stdout, "", "nothing was asked for, so no data")
        XCTAssertEqual(bare.stderr, Diary.shortUsage + "\n")

        let unknown = try box.run(["list", "--bogus"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.hasPrefix("diary: error: "), unknown.stderr)
        XCTAssertEqual(try box.run(["list", "--passphrase", "secret"]).status, 64)
        // (A date diary does not understand is two lines without a usage: `BadInputTests`.)
        for args in [["search"], ["init", "--bogus"], ["sync", "join", "--bogus"]] {
            let result = try box.run(args, env: ["COLUMNS": "80"])
            XCTAssertEqual(result.status, 64, "\(args): \(result.stderr)")
            let usage = try XCTUnwrap(
                result.stderr.split(separator: "\n").first { $0.hasPrefix("Usage: ") }, result.stderr)
            XCTAssertLessThanOrEqual(usage.count, 80, "\(args): \(usage)")
        }
    }
}
