import Foundation
import XCTest

/// `diary search` end to end: grep's exit status, usage errors, the lines into a pipe, and
/// matches in context on a terminal (the context lines themselves are `SearchContextTests`'). (Which entries the arguments find is DiaryAppTests' `SearchQueryVaultTests`.)
final class SearchCLITests: XCTestCase {
    private var box: DiarySandbox!
    private var walk = "", lake = ""

    override func setUpWithError() throws {
        box = try DiarySandbox(name: "search")
        _ = try box.initVault()
        walk = try box.ok(["new", "Morning walk\nA heron stood in the frost by the lake."]).out
        try box.ok(["new", "Evening\nThe frost came early; no birds at all."])
        lake = try box.ok(["new", "Lake day\nThe lake was frozen. A Héron flew over."]).out
    }

    override func tearDown() { box = nil }

    /// No match is status 1 and no message, as grep's (JSON still an array); an unpaired quote
    /// or no text is a usage error (64).
    func testNoMatchExitsOneAsGrepDoesAndBadTextIsAUsageError() throws {
        let none = try box.run(["search", "heron", "birds"])
        XCTAssertEqual(none.status, 1, none.stderr)
        XCTAssertEqual(none.stdout, "")
        XCTAssertEqual(none.stderr, "", "no match is an answer, not an error")
        let json = try box.run(["search", "kingfisher", "--json"])
        XCTAssertEqual(json.status, 1, json.stderr)
        let array = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [Any]
        XCTAssertEqual(array?.count, 0, "still valid JSON: \(json.stdout)")
        XCTAssertEqual(try box.run(["search", "heron", "--tag", "nosuchtag"]).status, 1, "filters count too")
        let unpaired = try box.run(["search", "\"frozen lake"])
        XCTAssertEqual(unpaired.status, 64, unpaired.stderr)
        XCTAssertTrue(unpaired.stderr.contains("diary: error: an unpaired \""), unpaired.stderr)
        XCTAssertEqual(try box.run(["search", "\"\""]).status, 64)
        let blank = try box.run(["search", "  "])
        XCTAssertEqual(blank.status, 64, blank.stderr)
        XCTAssertTrue(blank.stderr.contains("diary: error: the search text is empty"), blank.stderr)
        XCTAssertEqual(try box.run(["search"]).status, 64)
    }

    func testIntoAPipeOnlyTheEntryLinesAsListPrintsThem() throws {
        let piped = try box.ok(["search", "heron"]).stdout
        let lines = piped.split(separator: "\n")
        XCTAssertEqual(lines.count, 2, piped)
        XCTAssertTrue(
            lines.allSatisfy { $0.hasPrefix(String(lake.prefix(8))) || $0.hasPrefix(String(walk.prefix(8))) }, piped)
        XCTAssertFalse(piped.contains("\u{1B}["), piped)
    }

    /// On a terminal each entry's line is followed by its matching lines (what they hold is
    /// `SearchContextTests`'): marked with colour, plain with NO_COLOR, cut to `COLUMNS` with
    /// control characters escaped; no match is still status 1.
    func testOnATerminalMatchesAreShownInTheirLineEscapedAndCut() throws {
        let coloured = try box.runOnTerminal(["search", "heron", "frost"], colour: true)
        XCTAssertEqual(coloured.status, 0, coloured.shown)
        XCTAssertTrue(coloured.shown.contains("Morning walk"), coloured.shown)
        XCTAssertTrue(
            coloured.shown.contains(
                "    A \u{1B}[1;31mheron\u{1B}[0m stood in the \u{1B}[1;31mfrost\u{1B}[0m by the lake."),
            coloured.shown.debugDescription)
        XCTAssertFalse(coloured.shown.contains("Evening"), coloured.shown)

        let plain = try box.runOnTerminal(["search", "héron"])
        XCTAssertEqual(plain.status, 0, plain.shown)
        XCTAssertTrue(plain.shown.contains("    The lake was frozen. A Héron flew over."), plain.shown)
        XCTAssertTrue(plain.shown.contains("    A heron stood in the frost by the lake."), plain.shown)
        XCTAssertFalse(plain.shown.contains("\u{1B}["), "NO_COLOR: \(plain.shown.debugDescription)")

        let none = try box.runOnTerminal(["search", "kingfisher"], colour: true)
        XCTAssertEqual(none.status, 1, none.shown)

        let long = String(repeating: "filler words ", count: 20)
        try box.ok(["new", "Hostile\n\(long)kingfisher\u{1B}]0;owned\u{07} here \u{1B}[2J and more \(long)"])
        let run = try box.runOnTerminal(["search", "kingfisher"], env: ["COLUMNS": "60"])
        XCTAssertEqual(run.status, 0, run.shown)
        XCTAssertFalse(run.shown.contains("\u{07}"), run.shown.debugDescription)
        XCTAssertFalse(run.shown.contains("\u{1B}]"), run.shown.debugDescription)
        XCTAssertFalse(run.shown.contains("\u{1B}[2J"), run.shown.debugDescription)
        let context = run.lines.first { $0.contains("kingfisher") } ?? ""
        XCTAssertTrue(context.contains(#"kingfisher\e]0;owned\a here \e[2J"#), context.debugDescription)
        XCTAssertTrue(context.hasPrefix("    …") && context.hasSuffix("…"), "cut on both sides: \(context)")
        XCTAssertLessThanOrEqual(context.count, 60 + #"\e\a\e"#.count, context)
    }
}
