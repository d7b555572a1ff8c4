import ArgumentParser
import Foundation
import XCTest

@testable import diary

/// Every command's help, in process (`Diary.helpMessage`, as `--help` prints it): an example,
/// `--vault`, the exit codes, no test-only switch, and no line that 80 columns would wrap.
/// That `--help` reaches stdout with status 0, and the usage errors, are `HelpTests`', through
/// the binary.
final class HelpTextTests: XCTestCase {
    /// The command at `path` ("" for the root, "sync now" for a subcommand of `sync`).
    static func command(_ path: String) throws -> ParsableCommand.Type {
        var command: ParsableCommand.Type = Diary.self
        for name in path.split(separator: " ") {
            command = try XCTUnwrap(
                command.configuration.subcommands.first { $0._commandName == name }, "no command \(path)")
        }
        return command
    }

    static func help(_ path: String, columns: Int? = nil) throws -> String {
        Diary.helpMessage(for: try command(path), columns: columns)
    }

    /// The root's help and every command's, as `--help` prints them.
    private var everyHelp: [String] { [""] + HelpTests.commands + ["audit"] + Self.settingsCommands }

    /// `diary config` and `diary journal`, with their subcommands.
    static let settingsCommands = [
        "config", "config get", "config set", "config unset", "config list",
        "journal", "journal add", "journal list", "journal remove", "journal default",
    ]

    func testEveryCommandHasHelpWithAnExample() throws {
        for command in HelpTests.commands {
            let help = try Self.help(command)
            XCTAssertTrue(help.contains("EXAMPLE"), "\(command) --help has an example")
            XCTAssertTrue(help.contains("--vault"), "\(command) takes --vault")
        }
    }

    /// Each `sync` subcommand explains itself with an example, and says where its output goes
    /// when it prints data (the code, the members, the status).
    func testEverySyncSubcommandHasHelpWithAnExample() throws {
        for command in ["init", "join", "invite", "members", "status", "remove", "stop", "upgrade"] {
            let help = try Self.help("sync \(command)")
            XCTAssertTrue(help.contains("EXAMPLE"), "sync \(command) --help has an example")
            XCTAssertTrue(help.contains("--vault"), "sync \(command) takes --vault")
        }
        for command in ["invite", "members", "status"] {
            XCTAssertTrue(
                try Self.help("sync \(command)").contains("stdout"), "sync \(command) says what goes to stdout")
        }
        for (command, option) in [
            ("join", "--invite"), ("init", "--invite"), ("remove", "--yes"), ("invite", "--name"),
        ] {
            XCTAssertTrue(try Self.help("sync \(command)").contains(option), "sync \(command) --help lists \(option)")
        }
        XCTAssertTrue(try Self.help("passwd").contains("--no-rekey"))
    }

    func testRootHelpListsCommandsAndExitCodesButNotTheAgent() throws {
        let help = try Self.help("")
        for command in HelpTests.commands { XCTAssertTrue(help.contains("  \(command)"), command) }
        for code in ["64", "65", "66", "67", "73", "75", "77"] { XCTAssertTrue(help.contains("  \(code) "), code) }
        XCTAssertFalse(help.contains("  agent "), "the agent subcommand is hidden")
    }

    /// What `diary` alone prints: a short usage, and the id of `show` and `edit` is optional
    /// (the newest entry).
    func testTheShortUsageIsShortAndTheIdOfShowAndEditOptional() {
        let usage = Diary.shortUsage
        XCTAssertTrue(usage.hasPrefix("usage: diary "), usage)
        XCTAssertTrue(usage.contains("diary --help"), usage)
        XCTAssertLessThanOrEqual(usage.split(separator: "\n").count, 12, "a short usage, not the full help")
        XCTAssertTrue(usage.contains("edit [ID]") && usage.contains("show [ID]"), usage)
        XCTAssertFalse(usage.contains("edit ID") || usage.contains("show ID"), usage)
    }

    func testDurationDefaultsAreShownAsTheyAreTyped() throws {
        let help = try Self.help("unlock")
        XCTAssertTrue(help.contains("(default: 15m)"), help)
        XCTAssertTrue(help.contains("(default: 8h)"), help)
        XCTAssertFalse(help.contains("TimeSpan("), help)
    }

    /// Test-only switches are documented in CONTRIBUTING.md, never offered to
    /// a user in `--help` (or the man page, which is made from it).
    func testNoHelpNamesATestOnlySwitch() throws {
        for command in everyHelp {
            let help = try Self.help(command)
            for word in ["DIARY_INSECURE_TEST_KDF", "DIARY_TEST_", "TEST ONLY"] {
                XCTAssertFalse(help.contains(word), "\(command) --help names \(word)")
            }
        }
    }

    /// At 80 columns no help line is wrapped back to column 0 under an indented table or example,
    /// where ArgumentParser cannot keep the indentation.
    func testHelpAtEightyColumnsKeepsItsIndentation() throws {
        for command in everyHelp {
            let help = try Self.help(command, columns: 80)
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
    /// OPTIONS section lists them.
    func testNoHelpLineIsWiderThanEightyColumns() throws {
        let commands =
            [""] + HelpTests.commands + [
                "audit", "conflicts", "resolve", "sync", "sync now", "sync init",
                "sync join", "sync invite", "sync members", "sync status", "sync remove", "sync stop",
                "sync upgrade",
            ] + Self.settingsCommands
        for command in commands {
            let help = try Self.help(command, columns: 80)
            XCTAssertTrue(help.contains("USAGE: diary"), "\(command) --help has a usage line")
            for line in help.split(separator: "\n") where line.count > 80 {
                XCTFail("\(command) --help has a line of \(line.count) columns: \(line)")
            }
        }
    }

    func testCompletionScriptsAreGeneratedFromTheParser() {
        for shell in [CompletionShell.bash, .zsh, .fish] {
            let script = Diary.completionScript(for: shell)
            XCTAssertTrue(script.contains("unlock") && script.contains("passphrase-file"), "\(shell)")
        }
    }

    func testNewAndSearchSayThatArgumentsAreNotPrivate() throws {
        for command in ["new", "search"] {
            let help = try Self.help(command).split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
            XCTAssertTrue(help.contains("/proc/PID/cmdline"), "\(command): \(help)")
            XCTAssertTrue(help.contains("shell keeps it in its history"), "\(command): \(help)")
        }
    }
}
