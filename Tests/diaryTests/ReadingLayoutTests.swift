import DiaryExchange
import DiaryTestSupport
import DiaryVault
import Foundation
import XCTest

@testable import diary

/// How `show` and `list` lay an entry out, in process (`EntryFormat.full`, `ListLayout.lines`):
/// the title is the first line that is not blank and is shown once, a long first line is kept
/// whole, and short ids grow until they name one entry. As `show` prints into a pipe: control
/// characters escaped in the header only, no colour. (Which entries the commands pick, and
/// their statuses, are `ReadingTests`', through the binary.)
final class ReadingLayoutTests: VaultTestCase {
    private let plain = Style(enabled: false)

    private func shown(_ entry: Entry, raw: Bool = false) -> String {
        EntryFormat.full(entry, controls: raw ? .raw : .escapedHeader, style: plain)
    }

    private func occurrences(of text: String, in shown: String) -> Int {
        shown.components(separatedBy: text).count - 1
    }

    /// Text that opens with blank lines takes its title from the first line that is not blank,
    /// in `list`, `list --json` and `show` (which prints it once, at the top).
    func testTheTitleIsTheFirstLineThatIsNotBlank() throws {
        let vault = try makeVault(.sqlite)
        let entry = try vault.add(text: "\n  \n\tReal title  \nthe body")
        let summaries = try vault.list()
        XCTAssertEqual(EntryFormat.Record(summaries[0]).title, "Real title")
        let line = try ListLayout.lines(summaries, vault: vault, columns: nil, style: plain)[0]
        XCTAssertTrue(line.contains("Real title"), line)
        let text = shown(entry)
        XCTAssertTrue(text.hasPrefix("Real title\n"), text)
        XCTAssertEqual(occurrences(of: "Real title", in: text), 1, text)
        XCTAssertTrue(text.hasSuffix("\n\nthe body"), text)
        XCTAssertFalse(text.contains("Untitled"), text)
    }

    func testShowPrintsTheTitleOnce() throws {
        let vault = try makeVault(.sqlite)
        let heron = try vault.add(text: "Heron at dawn\n\nIt stood still.", tags: ["birds"])
        for raw in [false, true] {
            let text = shown(heron, raw: raw)
            XCTAssertEqual(occurrences(of: "Heron at dawn", in: text), 1, "raw \(raw): \(text)")
            XCTAssertTrue(text.hasPrefix("Heron at dawn\nid:"), text)
            XCTAssertTrue(text.hasSuffix("#birds\n\nIt stood still."), text)
        }
        let titleOnly = shown(try vault.add(text: "Just a title"))
        XCTAssertEqual(occurrences(of: "Just a title", in: titleOnly), 1, titleOnly)
        XCTAssertFalse(titleOnly.hasSuffix("\n"), "no empty text after the header: \(titleOnly.debugDescription)")
    }

    func testShowKeepsAFirstLineLongerThanTheIndexTitle() throws {
        let vault = try makeVault(.files)
        let long = String(repeating: "word ", count: 60).trimmingCharacters(in: .whitespaces)
        let entry = try vault.add(text: long + "\nbody")
        XCTAssertNotEqual(try vault.list()[0].title, long, "the index keeps a shorter title")
        XCTAssertTrue(shown(try vault.entry(entry.id)).hasPrefix(long + "\nid:"))
    }

    func testShortIdsGrowUntilTheyNameOneEntry() throws {
        let vault = try makeVault(.sqlite)
        let ids = [
            "1b4e28ba-2fa1-4000-8000-000000000001", "1b4e28ba-2fb2-4000-8000-000000000002",
            "7c000000-0000-4000-8000-000000000003",
        ]
        let records = ids.enumerated().map { n, id in
            """
            {"created":"2024-01-0\(n + 1)T10:00:00.000Z","date":"2024-01-0\(n + 1)T10:00:00.000Z","id":"\(id)",\
            "modified":"2024-01-0\(n + 1)T10:00:00.000Z","starred":false,"tags":["t\(n)"],"text":"Entry \(n)"}
            """
        }
        let file = path("ids.json")
        try Data(#"{"entries":[\#(records.joined(separator: ","))],"format":"diary-export","version":1}"#.utf8).write(
            to: file)
        _ = try vault.importEntries(try Importer.read(.diary, from: [file]).entries)
        func listed(_ filter: EntryFilter = EntryFilter()) throws -> [String] {
            try ListLayout.lines(try vault.list(filter), vault: vault, columns: nil, style: plain).map {
                String($0.prefix(14))
            }
        }
        XCTAssertEqual(try listed(), ["7c000000-000  ", "1b4e28ba-2fb  ", "1b4e28ba-2fa  "])
        XCTAssertEqual(try vault.entry(try vault.resolve("1b4e28ba-2fa")).text, "Entry 0", "the short id resolves")
        // Listed alone, the entry is still shown with the digits that tell it from its twin.
        XCTAssertEqual(try listed(EntryFilter(tag: "t0")), ["1b4e28ba-2fa  "])
        // No shared prefix: the usual 8 digits.
        XCTAssertTrue(try listed(EntryFilter(tag: "t2"))[0].hasPrefix("7c000000  "))
    }

    /// On a terminal a line that would wrap has its title cut with `…`, in terminal columns
    /// (Hangul counts two); the tags stay while the title keeps 16 columns, else the title
    /// alone is cut. `room` is what is left after id, date and star (34 at 60 columns in the C
    /// locale: 8 + 2 + 12 + 2 + 2 = 26 before the title).
    func testLongTitlesAreCutToTheRoomLeft() {
        let long = String(repeating: "abcdefghij", count: 10)
        let korean = String(repeating: "가", count: 40)
        XCTAssertEqual(ListLayout.fit(title: long, tags: "#walk", columns: 34).title, long.prefix(26) + "…")
        XCTAssertEqual(ListLayout.fit(title: long, tags: "#walk", columns: 34).tags, "#walk")
        XCTAssertEqual(
            ListLayout.fit(title: korean, tags: "", columns: 34).title, korean.prefix(16) + "…", "double width")
        XCTAssertTrue(ListLayout.fit(title: "Short", tags: "#x", columns: 34) == ("Short", "#x"))
        // Too narrow to keep the tags and a useful part of the title: the title wins.
        XCTAssertTrue(ListLayout.fit(title: long, tags: "#walk", columns: 4) == ("abc…", ""))
    }

    /// Into a pipe (no width) nothing is cut.
    func testWithoutAWidthNothingIsCut() throws {
        let vault = try makeVault(.sqlite)
        let long = String(repeating: "abcdefghij", count: 10)
        _ = try vault.add(text: long, tags: ["walk"])
        let line = try ListLayout.lines(try vault.list(), vault: vault, columns: nil, style: plain)[0]
        XCTAssertTrue(line.hasSuffix("  " + long + "  #walk"), line)
    }

    /// A Markdown heading is shown without its `#`s (issue 22), in `list` and `show`; a `#tag`
    /// or a `#` alone is no heading.
    func testAHeadingIsShownWithoutItsMarks() throws {
        XCTAssertEqual(EntryFormat.displayTitle("# Trip"), "Trip")
        XCTAssertEqual(EntryFormat.displayTitle("###   Trip  "), "Trip")
        XCTAssertEqual(EntryFormat.displayTitle("#habit day"), "#habit day")
        XCTAssertEqual(EntryFormat.displayTitle("#"), "#")
        XCTAssertEqual(EntryFormat.displayTitle("# "), "# ")
        XCTAssertEqual(EntryFormat.displayTitle("####### seven"), "####### seven", "Markdown has six levels")
        let vault = try makeVault(.sqlite)
        let entry = try vault.add(text: "## Trip to the coast\n\nbody")
        XCTAssertTrue(shown(entry).hasPrefix("Trip to the coast\n"), shown(entry))
        XCTAssertTrue(shown(entry, raw: true).hasPrefix("Trip to the coast\n"), "a heading is no control character")
        let line = try ListLayout.lines(try vault.list(), vault: vault, columns: nil, style: plain)[0]
        XCTAssertTrue(line.hasSuffix("  Trip to the coast"), line)
    }

    /// A tag written in the title is not repeated after it (issue 22: `… #habit  #habit`),
    /// unless the title is cut before it on a terminal.
    func testATagInTheTitleIsShownOnce() throws {
        let vault = try makeVault(.sqlite)
        let title = "Ran 5k by the river with friends #Habit"
        _ = try vault.add(text: title, tags: ["habit", "running"])
        let summary = try vault.list()[0]
        let line = try ListLayout.lines([summary], vault: vault, columns: nil, style: plain)[0]
        XCTAssertTrue(line.hasSuffix("  \(title)  #running"), line)
        XCTAssertTrue(ListLayout.titleAndTags(summary, room: 60) == (title, "#running"))
        let cut = ListLayout.titleAndTags(summary, room: 40)
        XCTAssertEqual(cut.tags, "#habit #running", "the cut title lost #Habit: \(cut)")
        XCTAssertEqual(cut.title, String(title.prefix(22)) + "…")
    }
}
