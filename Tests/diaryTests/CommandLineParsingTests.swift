import ArgumentParser
import Foundation
import XCTest

@testable import diary

/// What main.swift does with the command line before a command runs, in process
/// (`CommandLineArguments.prepare`, then `Diary.parseAsRoot`): options every command takes may
/// come before it, the last of two wins, and a mistyped command gets a suggestion. (That the
/// options reach the vault, and the statuses and messages, are `CommandLineCLITests`'.)
final class CommandLineParsingTests: XCTestCase {
    private func prepare(_ arguments: [String]) -> CommandLineArguments.Prepared {
        CommandLineArguments.prepare(arguments, commands: Diary.commandNames, suggested: Diary.suggestedCommandNames)
    }

    /// The command `arguments` run, as main.swift parses it.
    private func parsed(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws
        -> ParsableCommand
    {
        guard case .parse(let prepared) = prepare(arguments) else {
            XCTFail("\(arguments) was not parsed: \(prepare(arguments))", file: file, line: line)
            throw CancellationError()
        }
        return try Diary.parseAsRoot(prepared)
    }

    func testGlobalOptionsWorkBeforeTheCommand() throws {
        for args in [
            ["--vault", "/v", "--passphrase-file", "/p", "list"],
            ["--vault=/v", "--passphrase-file=/p", "list"],
            ["--vault", "/v", "list", "--passphrase-file", "/p"],
            ["list", "--vault", "/v", "--passphrase-file", "/p"],
        ] {
            let list = try XCTUnwrap(try parsed(args) as? List, "\(args)")
            XCTAssertEqual(list.global.vault, "/v", "\(args)")
            XCTAssertEqual(list.global.passphraseFile, "/p", "\(args)")
        }
        let search = try XCTUnwrap(
            try parsed(["--passphrase-file", "/p", "--vault", "/v", "search", "elsewhere", "--json"]) as? Search)
        XCTAssertEqual([search.global.vault, search.global.passphraseFile], ["/v", "/p"])
        XCTAssertTrue(search.filters.json)
    }

    /// `-j NAME` / `--journal NAME` comes before or after the command, as `--vault` does.
    func testTheJournalOptionWorksBeforeAndAfterTheCommand() throws {
        for args in [
            ["-j", "work", "list"], ["--journal", "work", "list"], ["--journal=work", "list"],
            ["list", "-j", "work"], ["-j", "work", "--passphrase-file", "/p", "list"],
        ] {
            XCTAssertEqual((try parsed(args) as? List)?.global.journal, "work", "\(args)")
        }
        XCTAssertEqual(
            (try parsed(["-j", "work", "sync", "join", "git@example.org:d.git", "--invite", "x"]) as? SyncJoin)?.global
                .journal, "work")
        XCTAssertEqual(prepare(["-j"]), .missingValue(option: "-j"))
    }

    func testTheJournalsNameMayBeJoinedToDashJ() throws {
        for args in [["-jwork", "list"], ["list", "-jwork"], ["-jwork", "--vault=/v", "list"]] {
            XCTAssertEqual((try parsed(args) as? List)?.global.journal, "work", "\(args)")
        }
        XCTAssertEqual((try parsed(["-jwork", "config", "list"]) as? ConfigList)?.global.journal, "work")
    }

    func testAGlobalOptionGivenTwiceTakesTheLastWhereverItIs() throws {
        for (args, vault) in [
            (["--vault", "/missing", "list", "--vault", "/v"], "/v"),
            (["--vault", "/v", "list", "--vault", "/missing"], "/missing"),
            (["--vault", "/v", "--vault", "/missing", "list"], "/missing"),
        ] {
            XCTAssertEqual((try parsed(args) as? List)?.global.vault, vault, "\(args)")
        }
    }

    func testOnlyOptionsOrAMissingValueAreNotACommand() {
        XCTAssertEqual(prepare(["--vault", "/nonexistent"]), .noCommand)
        XCTAssertEqual(prepare(["--vault"]), .missingValue(option: "--vault"))
    }

    func testAMistypedCommandGetsASuggestion() {
        XCTAssertEqual(prepare(["lsit"]), .unknownCommand("lsit", suggestions: ["list"]))
        for (typed, meant) in [
            ("shwo", "show"), ("serch", "search"), ("UNLOCK", "unlock"), ("bakup", "backup"), ("strar", "star"),
            ("sycn", "sync"),
        ] {
            XCTAssertEqual(
                prepare(["--vault", "/x", typed, "--json"]), .unknownCommand(typed, suggestions: [meant]), typed)
        }
        // Two equally close commands are both offered.
        guard case .unknownCommand(_, let both) = prepare(["stat"]) else { return XCTFail("stat") }
        XCTAssertEqual(CommandLineArguments.didYouMean(both), "Did you mean 'star' or 'stats'?")
        XCTAssertEqual(prepare(["xyzzy"]), .unknownCommand("xyzzy", suggestions: []))
        XCTAssertEqual(prepare(["help", "lst"]), .unknownCommand("lst", suggestions: ["list"]))
        XCTAssertEqual(prepare(["help", "list"]), .parse(["help", "list"]))
        XCTAssertEqual(prepare(["help", "--help"]), .parse(["help", "--help"]))
        guard case .unknownCommand(_, let agent) = prepare(["agnt"]) else { return XCTFail("agnt") }
        XCTAssertFalse(agent.contains("agent"), "the hidden agent is never suggested")
    }
}
