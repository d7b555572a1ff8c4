import ArgumentParser
import DiaryApp
import Foundation
import XCTest

@testable import diary

/// Issue 22's command-line parts, in process: `new`'s words (`NewTextArguments`), export's
/// filters and `-o`, `delete`'s ids, a refused date's two lines (`InputWording`), and options
/// of another command (`MisplacedOption`). (Through the binary: `ReadingHabitsTests`,
/// `BadInputTests`.)
final class ReadingArgumentsTests: XCTestCase {
    private let now = ISO8601DateFormatter().date(from: "2026-03-11T15:30:00Z")!
    private let utc = LocaleCalendar(localeIdentifier: "en_US_POSIX", timeZone: TimeZone(identifier: "UTC")!)

    func testNewJoinsWordsAndTakesADateBeforeTheFirstColon() throws {
        let words = NewTextArguments(words: ["Saw", "a", "heron"], date: nil, now: now, context: utc)
        XCTAssertEqual(words.text, "Saw a heron")
        XCTAssertNil(words.date)
        XCTAssertEqual(NewTextArguments(words: [], date: nil, now: now, context: utc).text, nil, "stdin or the editor")

        let dated = NewTextArguments(
            words: ["yesterday", "9pm:", "Saw", "a", "heron"], date: nil, now: now, context: utc)
        XCTAssertEqual(dated.text, "Saw a heron")
        XCTAssertEqual(dated.date?.start(in: utc.calendar), ISO8601DateFormatter().date(from: "2026-03-10T21:00:00Z"))

        let given = DateInput(.day(year: 2020, month: 1, day: 1))
        let withDate = NewTextArguments(words: ["yesterday: text"], date: given, now: now, context: utc)
        XCTAssertEqual(withDate.text, "yesterday: text", "--date given: the text is as typed")
        XCTAssertEqual(withDate.date, given)
        XCTAssertEqual(
            NewTextArguments(words: ["Note to self: buy milk"], date: nil, now: now, context: utc).text,
            "Note to self: buy milk")
        XCTAssertEqual(try New.parse(["Saw", "a", "heron", "--tag", "birds"]).words, ["Saw", "a", "heron"])
    }

    func testExportTakesListsFiltersAndOutput() throws {
        let export = try Export.parse([
            "--on", "2024-05-01", "--tag", "#work", "--starred", "-o", "x.json", "--reverse",
        ])
        XCTAssertEqual(export.output, "x.json")
        XCTAssertTrue(export.reverse && export.filters.starred)
        XCTAssertEqual(export.filters.filter.tag, "work")
        XCTAssertNotNil(export.filters.filter.from)
        XCTAssertEqual(try Export.parse(["--output", "y.md"]).output, "y.md")
        XCTAssertThrowsError(try Export.parse(["--on", "2024-05-01", "--from", "2024-01-01"]))
        XCTAssertThrowsError(try Export.parse(["--to", "notes.json"]), "a path is no date")
    }

    func testDeleteTakesSeveralIds() throws {
        XCTAssertEqual(try Delete.parse(["1b4e", "7c2d", "--yes"]).ids, ["1b4e", "7c2d"])
        XCTAssertThrowsError(try Delete.parse(["--yes"]))
    }

    func testARefusedDateIsTwoLinesAndPointsExportsPathsToOutput() {
        let typo = DateInput.UnknownDate(option: "--date", text: "yesterdy", suggestion: "yesterday")
        let report = InputWording.report(typo, command: "new")
        XCTAssertEqual(report.message, "--date 'yesterdy' is not a date diary understands. Did you mean 'yesterday'?")
        XCTAssertEqual(report.code, .usage)
        XCTAssertNotNil(report.hint)
        let path = DateInput.UnknownDate(option: "--to", text: "out.md", suggestion: nil)
        XCTAssertTrue(InputWording.report(path, command: "export").hint?.contains("-o/--output") == true)
        XCTAssertFalse(InputWording.report(path, command: "list").hint?.contains("-o/--output") == true)
        XCTAssertThrowsError(try DateInput.argument(for: "--on")("yesterdy")) { error in
            XCTAssertEqual((error as? DateInput.UnknownDate)?.suggestion, "yesterday")
        }
    }

    func testAnOptionOfAnotherCommandIsFound() {
        let tree = CommandTree.diary
        let reverse = MisplacedOption.find(in: ["new", "--reverse", "text"], tree: tree)
        XCTAssertEqual(reverse?.owners, ["list", "show", "read", "export"])
        XCTAssertEqual(MisplacedOption.find(in: ["show", "--year", "2026"], tree: tree)?.value, "2026")
        XCTAssertEqual(MisplacedOption.find(in: ["show", "--year=2026"], tree: tree)?.value, "2026")
        XCTAssertTrue(
            MisplacedOption.find(in: ["show", "--year", "2026"], tree: tree)!.report.hint!.contains("2026-12-31"))
        XCTAssertEqual(MisplacedOption.find(in: ["sync", "join", "x", "--reverse"], tree: tree)?.command, "sync join")
        XCTAssertNil(
            MisplacedOption.find(in: ["list", "--reverse", "--vault", "/v"], tree: tree), "its own and global")
        XCTAssertNil(MisplacedOption.find(in: ["search", "--", "--year"], tree: tree), "after -- it is text")
        XCTAssertNil(MisplacedOption.find(in: ["help", "list", "--vault", "/v"], tree: tree))
        XCTAssertNil(MisplacedOption.find(in: ["list", "--bogus"], tree: tree), "left to ArgumentParser")
    }
}
