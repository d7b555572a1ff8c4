import Foundation
import XCTest

/// Every command documents itself, with an example; the root help carries the exit codes.
final class HelpTests: XCTestCase {
    static let commands = [
        "init", "unlock", "lock", "status", "new", "list", "show", "edit", "delete", "star", "unstar",
        "tag", "search", "passwd", "rekey", "backup", "verify", "restore", "reindex", "import", "export", "recover",
        "calendar", "stats",
    ]

    func testEveryCommandHasHelpWithAnExample() throws {
        let box = try DiarySandbox(name: "help")
        for command in Self.commands {
            let result = try box.run([command, "--help"])
            XCTAssertEqual(result.status, 0, command)
            XCTAssertTrue(result.stdout.contains("EXAMPLE"), "\(command) --help has an example")
            XCTAssertTrue(result.stdout.contains("--vault"), "\(command) takes --vault")
        }
    }

    func testRootHelpListsCommandsAndExitCodesButNotTheAgent() throws {
        let help = try DiarySandbox(name: "help").run(["--help"]).stdout
        for command in Self.commands { XCTAssertTrue(help.contains("  \(command)"), command) }
        for code in ["64", "65", "66", "67", "73", "75", "77"] { XCTAssertTrue(help.contains("  \(code) "), code) }
        XCTAssertFalse(help.contains("  agent "), "the agent subcommand is hidden")
    }

    func testNoArgumentsPrintsAShortUsageOnStderrAsAUsageError() throws {
        let result = try DiarySandbox(name: "help").run([])
        XCTAssertEqual(result.status, 64)
        XCTAssertEqual(result.stdout, "", "nothing was asked for, so no data")
        XCTAssertTrue(result.stderr.hasPrefix("usage: diary "), result.stderr)
        XCTAssertTrue(result.stderr.contains("diary --help"), result.stderr)
        XCTAssertLessThanOrEqual(result.stderr.split(separator: "\n").count, 12, "a short usage, not the full help")
        // The id of `show` and `edit` is optional (the newest entry), and the usage says so.
        XCTAssertTrue(result.stderr.contains("edit [ID]") && result.stderr.contains("show [ID]"), result.stderr)
        XCTAssertFalse(result.stderr.contains("edit ID") || result.stderr.contains("show ID"), result.stderr)
    }

    func testDurationDefaultsAreShownAsTheyAreTyped() throws {
        let help = try DiarySandbox(name: "help").ok(["unlock", "--help"]).stdout
        XCTAssertTrue(help.contains("(default: 15m)"), help)
        XCTAssertTrue(help.contains("(default: 8h)"), help)
        XCTAssertFalse(help.contains("TimeSpan("), help)
    }

    /// Test-only switches are documented in the README's development section, never offered to
    /// a user in `--help` (or the man page, which is made from it).
    func testNoHelpNamesATestOnlySwitch() throws {
        let box = try DiarySandbox(name: "help")
        for command in [""] + Self.commands + ["import", "export", "audit"] {
            let help = try box.ok(command.isEmpty ? ["--help"] : [command, "--help"]).stdout
            for word in ["DIARY_INSECURE_TEST_KDF", "DIARY_TEST_", "TEST ONLY"] {
                XCTAssertFalse(help.contains(word), "\(command) --help names \(word)")
            }
        }
    }

    /// At 80 columns no help line is wrapped back to column 0 under an indented table or example,
    /// where ArgumentParser cannot keep the indentation.
    func testHelpAtEightyColumnsKeepsItsIndentation() throws {
        let box = try DiarySandbox(name: "help")
        for command in [""] + Self.commands + ["import", "export", "audit"] {
            let help = try box.ok(command.isEmpty ? ["--help"] : [command, "--help"], env: ["COLUMNS": "80"]).stdout
            var previous = ""
            for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
                let wrapped = previous.hasPrefix("  ") && !line.isEmpty && !line.hasPrefix(" ")
                XCTAssertFalse(wrapped, "\(command) --help wraps to column 0: \(previous) / \(line)")
                previous = String(line)
            }
        }
    }

    /// At 80 columns no line of any help is wider than 80 (the terminal would wrap it to column 0),
    /// the usage line included: it names the options as `[<options>]`, as git does, and the
    /// OPTIONS section lists them. A usage error prints the same short usage line.
    func testNoHelpLineIsWiderThanEightyColumns() throws {
        let box = try DiarySandbox(name: "help")
        let commands = [""] + Self.commands + ["audit", "conflicts", "resolve", "sync", "sync now", "sync init",
                                               "sync join", "sync stop"]
        for command in commands {
            let args = command.split(separator: " ").map(String.init) + ["--help"]
            let help = try box.ok(args, env: ["COLUMNS": "80"]).stdout
            XCTAssertTrue(help.contains("USAGE: diary"), "\(command) --help has a usage line")
            for line in help.split(separator: "\n") where line.count > 80 {
                XCTFail("\(command) --help has a line of \(line.count) columns: \(line)")
            }
        }
        for args in [["list", "--on", "garbage"], ["search"], ["init", "--bogus"], ["sync", "join", "--bogus"]] {
            let result = try box.run(args, env: ["COLUMNS": "80"])
            XCTAssertEqual(result.status, 64, "\(args): \(result.stderr)")
            let usage = try XCTUnwrap(result.stderr.split(separator: "\n").first { $0.hasPrefix("Usage: ") }, result.stderr)
            XCTAssertLessThanOrEqual(usage.count, 80, "\(args): \(usage)")
        }
    }

    func testCompletionScriptsAreGeneratedFromTheParser() throws {
        let box = try DiarySandbox(name: "help")
        for shell in ["bash", "zsh", "fish"] {
            let result = try box.run(["--generate-completion-script", shell])
            XCTAssertEqual(result.status, 0, shell)
            XCTAssertTrue(result.stdout.contains("unlock") && result.stdout.contains("passphrase-file"), shell)
        }
    }

    func testNewAndSearchSayThatArgumentsAreNotPrivate() throws {
        let box = try DiarySandbox(name: "help")
        for command in ["new", "search"] {
            let help = try box.ok([command, "--help"]).stdout
                .split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
            XCTAssertTrue(help.contains("/proc/PID/cmdline"), "\(command): \(help)")
            XCTAssertTrue(help.contains("shell keeps it in its history"), "\(command): \(help)")
        }
    }

    func testUnknownOptionIsAUsageError() throws {
        let result = try DiarySandbox(name: "help").run(["list", "--bogus"])
        XCTAssertEqual(result.status, 64)
        XCTAssertTrue(result.stderr.hasPrefix("diary: error: "), result.stderr)
    }

    func testNoPassphraseIsAcceptedAsAnArgument() throws {
        let result = try DiarySandbox(name: "help").run(["list", "--passphrase", "secret"])
        XCTAssertEqual(result.status, 64)
    }
}
