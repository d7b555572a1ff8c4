import DiaryApp
import Foundation
import XCTest

@testable import diary

/// What `search` shows under an entry's line on a terminal, in process (`SearchContext.lines`):
/// the matching lines, marked when colour is on, the title only when nothing below it matches,
/// cut to the width in terminal columns, control characters escaped. (That this reaches a
/// terminal, with `COLUMNS` and `NO_COLOR`, is `SearchCLITests`', through the binary.)
final class SearchContextTests: XCTestCase {
    private func context(_ text: String, _ words: [String], colour: Bool = false, width: Int = 80) throws -> [String] {
        SearchContext.lines(
            of: text, terms: try SearchQuery(validating: words).terms, style: Style(enabled: colour), width: width)
    }

    func testMatchesAreShownInTheirLineAndMarkedWhenColourIsOn() throws {
        let walk = "Morning walk\nA heron stood in the frost by the lake."
        XCTAssertEqual(
            try context(walk, ["heron", "frost"], colour: true),
            ["    A \u{1B}[1;31mheron\u{1B}[0m stood in the \u{1B}[1;31mfrost\u{1B}[0m by the lake."])
        // Without colour, and case- and diacritic-insensitive as the search itself.
        XCTAssertEqual(try context(walk, ["héron"]), ["    A heron stood in the frost by the lake."])
        XCTAssertEqual(
            try context("Lake day\nThe lake was frozen. A Héron flew over.", ["héron"]),
            ["    The lake was frozen. A Héron flew over."])
    }

    func testTheTitleIsRepeatedInContextOnlyWhenNothingBelowItMatches() throws {
        let lakes = try context("Lake day\nThe lake was frozen. A Héron flew over.", ["lake"])
        XCTAssertEqual(lakes, ["    The lake was frozen. A Héron flew over."], "the title is on the entry's line")
        XCTAssertEqual(try context("Evening\nThe frost came early; no birds at all.", ["evening"]), ["    Evening"])
    }

    func testWideCharactersCountTwoColumnsWhenTheLineIsCut() throws {
        let korean = String(repeating: "호수에 얼음이 얼었다 ", count: 10)
        let lines = try context("겨울\n\(korean)왜가리가 날았다 \(korean)", ["왜가리"], width: 40)
        let line = try XCTUnwrap(lines.first { $0.contains("왜가리") }, "\(lines)")
        let columns = line.unicodeScalars.reduce(0) { $0 + ((0xAC00...0xD7A3).contains($1.value) ? 2 : 1) }
        XCTAssertLessThanOrEqual(columns, 40, line)
        XCTAssertGreaterThan(columns, 30, "the width is used: \(line)")
    }

    func testTheContextLineIsEscapedAndCutToTheWidth() throws {
        let long = String(repeating: "filler words ", count: 20)
        let text = "Hostile\n\(long)kingfisher\u{1B}]0;owned\u{07} here \u{1B}[2J and more \(long)"
        let line = try XCTUnwrap(try context(text, ["kingfisher"], width: 60).first)
        XCTAssertFalse(line.contains("\u{07}") || line.contains("\u{1B}"), line.debugDescription)
        XCTAssertTrue(line.contains(#"kingfisher\e]0;owned\a here \e[2J"#), line.debugDescription)
        XCTAssertTrue(line.hasPrefix("    …") && line.hasSuffix("…"), "cut on both sides: \(line)")
        XCTAssertLessThanOrEqual(line.count, 60 + #"\e\a\e"#.count, line)
    }
}
