import Foundation
import XCTest

/// Issue 22's reading and jrnl habits, through the binary: dates before 1582 read back as
/// typed; `list` shows the time of day, a heading without its `#`s and an inline tag once;
/// `--reverse` for list, `show -n` and export; export's filters and `-o`; `new` joins its words
/// and takes jrnl's `yesterday 9pm: text`; `delete` takes several ids. (The layout itself is
/// `ReadingLayoutTests`', in process; the dates are DiaryAppTests'.)
final class ReadingHabitsTests: XCTestCase {
    private var box: DiarySandbox!

    override func setUpWithError() throws {
        box = try DiarySandbox(name: "habits")
        _ = try box.initVault()
    }

    override func tearDown() { box = nil }

    private func titles(_ args: [String]) throws -> [String] {
        try box.listJSON(args).compactMap { $0["title"] as? String }
    }

    // MARK: One calendar (item 15)

    func testEarlyDatesRoundTripThroughNewListAndShow() throws {
        for (date, shown) in [
            ("0001-01-01", "Jan 1, 1"), ("1000-06-01", "Jun 1, 1000"), ("1582-10-10", "Oct 10, 1582"),
        ] {
            let id = try box.ok(["new", "On \(date)", "--date", date]).out
            XCTAssertEqual(try titles(["--on", date]), ["On \(date)"], date)
            XCTAssertEqual(try titles(["--on", shown]), ["On \(date)"], "what list prints reads back: \(shown)")
            let line = try XCTUnwrap(
                try box.ok(["list"]).stdout.split(separator: "\n").first { $0.contains("On \(date)") })
            XCTAssertTrue(line.contains("  \(shown) "), String(line))
            XCTAssertTrue(try box.ok(["show", id]).stdout.contains("date:     \(shown)\n"), date)
            let json = try box.listJSON(["--on", date])
            XCTAssertEqual(json.first?["date"] as? String, "\(date)T00:00:00Z", date)
        }
    }

    // MARK: list (item 9)

    func testListShowsTheTimeAHeadingAndAnInlineTagOnce() throws {
        try box.ok(["new", "# Trip to the coast\n\nbody", "--date", "2024-03-02T21:15"])
        try box.ok(["new", "Ran 5k #habit", "--date", "2024-03-01T07:05"])
        try box.ok(["new", "A whole day", "--date", "2024-02-29", "--tag", "walk"])
        let lines = try box.ok(["list"]).stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 3, "\(lines)")
        XCTAssertTrue(lines[0].hasSuffix("  Mar 2, 2024   9:15 PM    Trip to the coast"), lines[0])
        XCTAssertFalse(lines[0].contains("#"), lines[0])
        XCTAssertTrue(lines[1].hasSuffix("  Mar 1, 2024   7:05 AM    Ran 5k #habit"), lines[1])
        XCTAssertTrue(
            lines[2].contains("Feb 29, 2024             A whole day  #walk"), "no time for a day: \(lines[2])")
        let titleColumns = Set(
            zip(lines, ["Trip", "Ran", "A whole"]).map {
                $0.distance(from: $0.startIndex, to: $0.range(of: $1)!.lowerBound)
            })
        XCTAssertEqual(titleColumns.count, 1, "the titles line up: \(lines)")
        XCTAssertEqual(try titles([]).first, "# Trip to the coast", "--json keeps the stored title")
        XCTAssertTrue(try box.ok(["show", "-n", "1"]).stdout.hasPrefix("Trip to the coast\n"))
    }

    func testReverseReadsOldestFirst() throws {
        for (n, date) in ["2024-01-01", "2024-02-01", "2024-03-01"].enumerated() {
            try box.ok(["new", "Entry \(n + 1)\n\nbody \(n + 1)", "--date", date])
        }
        XCTAssertEqual(try titles(["--reverse"]), ["Entry 1", "Entry 2", "Entry 3"])
        XCTAssertEqual(try titles(["--reverse", "-n", "2"]), ["Entry 2", "Entry 3"], "-n still picks the newest")
        let shown = try box.ok(["show", "-n", "2", "--reverse"]).stdout
        XCTAssertLessThan(shown.range(of: "body 2")!.lowerBound, shown.range(of: "body 3")!.lowerBound, shown)
        XCTAssertFalse(shown.contains("body 1"), shown)
        XCTAssertEqual(try box.run(["show", "1234", "--reverse"]).status, 64)
        let markdown = try box.ok(["export", "--format", "markdown", "--reverse", "--yes"]).stdout
        XCTAssertLessThan(markdown.range(of: "## Entry 1")!.lowerBound, markdown.range(of: "## Entry 3")!.lowerBound)
    }

    // MARK: export (item 5)

    func testExportTakesListsFiltersAndWritesToOutput() throws {
        try box.ok(["new", "Old #work", "--date", "2023-05-01"])
        try box.ok(["new", "Starred", "--date", "2024-05-01", "--star"])
        try box.ok(["new", "Future", "--date", "2999-01-01"])
        let cwd = box.root.appendingPathComponent("cwd")
        try FileManager.default.createDirectory(at: cwd, withIntermediateDirectories: true)
        func exported(_ args: [String]) throws -> [String] {
            let json = try box.ok(["export", "--yes"] + args).stdout
            let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
            return (object?["entries"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
        }
        // issue 22: `--to today` wrote a plaintext file named `today`; it is a date now.
        XCTAssertEqual(try exported(["--to", "today"]), ["Starred", "Old #work"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: "today"))
        XCTAssertEqual(try exported(["--from", "2024-01-01", "--to", "2024-12-31"]), ["Starred"])
        XCTAssertEqual(try exported(["--on", "2023-05-01"]), ["Old #work"])
        XCTAssertEqual(try exported(["--tag", "work"]), ["Old #work"])
        XCTAssertEqual(try exported(["--starred"]), ["Starred"])

        let file = box.root.appendingPathComponent("out.json").path
        let old = try box.run(["export", "--to", file, "--yes"])
        XCTAssertEqual(old.status, 64, old.stderr)
        XCTAssertTrue(old.stderr.contains("-o/--output"), old.stderr)
        XCTAssertEqual(old.stderr.split(separator: "\n").count, 2, old.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: file), "nothing written")
        try box.ok(["export", "-o", file, "--on", "2024-05-01", "--yes"])
        XCTAssertTrue(try String(contentsOfFile: file, encoding: .utf8).contains("Starred"))
        try box.ok(["export", "--output", file + "2", "--yes"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: file + "2"))
    }

    // MARK: new and delete (item 10)

    func testNewJoinsItsWordsAndTakesJrnlsDatedText() throws {
        try box.ok(["new", "Saw", "a", "heron", "by", "the", "canal"])
        XCTAssertEqual(try titles([]), ["Saw a heron by the canal"])
        try box.ok(["new", "Feb 22 2024 9pm: Dinner with Ana"])
        let dated = try XCTUnwrap(try box.listJSON(["--on", "2024-02-22"]).first)
        XCTAssertEqual(dated["title"] as? String, "Dinner with Ana")
        XCTAssertTrue((dated["date"] as? String)?.hasPrefix("2024-02-22T21:00:00") == true, "\(dated)")
        try box.ok(["new", "Note to self: buy milk"])
        XCTAssertTrue(try titles([]).contains("Note to self: buy milk"))
        try box.ok(["new", "2024-01-01: stays", "--date", "2023-06-01"])
        XCTAssertEqual(try titles(["--on", "2023-06-01"]), ["2024-01-01: stays"], "with --date the text is as typed")
    }

    func testDeleteTakesSeveralIdsAndDeletesNoneWhenOneIsMissing() throws {
        let ids = try ["One", "Two", "Three"].map { try box.ok(["new", $0]).out }
        let missing = try box.run(["delete", ids[0], "ffff0000", "--yes"])
        XCTAssertNotEqual(missing.status, 0)
        XCTAssertTrue(missing.stderr.contains("'ffff0000'"), missing.stderr)
        XCTAssertEqual(try titles([]).count, 3, "nothing deleted")
        let terminal = try box.runOnTerminal(
            ["delete", String(ids[0].prefix(8)), String(ids[1].prefix(8))], answers: [("[y/N]", "y")])
        XCTAssertEqual(terminal.status, 0, terminal.shown)
        XCTAssertTrue(terminal.shown.contains("“One”") && terminal.shown.contains("“Two”"), terminal.shown)
        XCTAssertEqual(terminal.shown.components(separatedBy: "[y/N]").count - 1, 1, "asked once: \(terminal.shown)")
        XCTAssertEqual(try titles([]), ["Three"])
        try box.ok(["delete", ids[2], "--yes"])
        XCTAssertEqual(try titles([]), [])
    }
}
