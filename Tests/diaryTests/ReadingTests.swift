import Foundation
import XCTest

/// Reading as jrnl users expect: `show` and `edit` default to the newest entry, `show` takes
/// several ids or `-n`, `list --on` and `--on-this-day` pick days, the title is shown once,
/// list columns line up and short ids grow until they name one entry.
final class ReadingTests: XCTestCase {
    private var box: DiarySandbox!

    override func setUpWithError() throws {
        box = try DiarySandbox(name: "read")
        _ = try box.initVault()
    }

    override func tearDown() { box = nil }

    /// Writes three entries, oldest first, and returns their ids in that order.
    private func threeEntries() throws -> [String] {
        [
            try box.ok(["new", "Oldest\n\nfirst body", "--date", "2024-01-01T09:00"]).out,
            try box.ok(["new", "Middle\n\nsecond body", "--date", "2024-02-01T09:00"]).out,
            try box.ok(["new", "Newest\n\nthird body", "--date", "2024-03-01T09:00"]).out,
        ]
    }

    // MARK: show

    func testShowWithoutAnIdShowsTheNewestEntry() throws {
        let ids = try threeEntries()
        let shown = try box.ok(["show"]).stdout
        XCTAssertTrue(shown.hasPrefix("Newest\n"), shown)
        XCTAssertTrue(shown.contains(ids[2]) && shown.contains("third body"), shown)
        XCTAssertFalse(shown.contains("Middle"), shown)
    }

    func testShowTakesSeveralIdsAndShowsEachInTurn() throws {
        let ids = try threeEntries()
        let shown = try box.ok(["show", String(ids[0].prefix(8)), ids[2]]).stdout
        let first = try XCTUnwrap(shown.range(of: "first body")), third = try XCTUnwrap(shown.range(of: "third body"))
        XCTAssertLessThan(first.lowerBound, third.lowerBound, "in the order given: \(shown)")
        XCTAssertFalse(shown.contains("second body"), shown)
        XCTAssertTrue(shown.contains("first body\n\nNewest\n"), "one blank line between entries: \(shown)")
    }

    func testShowNamingOneEntryTwiceShowsItOnce() throws {
        let ids = try threeEntries()
        let shown = try box.ok(["show", String(ids[0].prefix(4)), String(ids[0].prefix(8)), ids[2]]).stdout
        XCTAssertEqual(shown.components(separatedBy: "first body").count - 1, 1, shown)
        XCTAssertTrue(shown.contains("third body"), shown)
    }

    /// Text that opens with blank lines takes its title from the first line that is not blank,
    /// in `list`, `list --json` and `show` (which prints it once, at the top).
    func testTheTitleIsTheFirstLineThatIsNotBlank() throws {
        let id = try box.ok(["new", "\n  \n\tReal title  \nthe body"]).out
        XCTAssertEqual(try box.listJSON().first?["title"] as? String, "Real title")
        XCTAssertTrue(try box.ok(["list"]).stdout.contains("Real title"))
        let shown = try box.ok(["show", id]).stdout
        XCTAssertTrue(shown.hasPrefix("Real title\n"), shown)
        XCTAssertEqual(shown.components(separatedBy: "Real title").count - 1, 1, shown)
        XCTAssertTrue(shown.hasSuffix("\n\nthe body\n"), shown)
        XCTAssertFalse(shown.contains("Untitled"), shown)
    }

    func testShowNShowsTheNewestNInFull() throws {
        _ = try threeEntries()
        let shown = try box.ok(["show", "-n", "2"]).stdout
        XCTAssertTrue(shown.contains("third body") && shown.contains("second body"), shown)
        XCTAssertFalse(shown.contains("first body"), shown)
        XCTAssertLessThan(shown.range(of: "third body")!.lowerBound, shown.range(of: "second body")!.lowerBound)
        XCTAssertEqual(try box.run(["show", "-n", "0"]).status, 64)
        XCTAssertEqual(try box.run(["show", "-n", "2", "abcd"]).status, 64, "ids or -n, not both")
    }

    func testShowJSONIsAnObjectForOneEntryAndAnArrayForSeveral() throws {
        let ids = try threeEntries()
        let one = try JSONSerialization.jsonObject(with: Data(box.ok(["show", "--json"]).stdout.utf8))
        XCTAssertEqual((one as? [String: Any])?["id"] as? String, ids[2])
        let several = try JSONSerialization.jsonObject(with: Data(box.ok(["show", "-n", "3", "--json"]).stdout.utf8))
        XCTAssertEqual((several as? [[String: Any]])?.compactMap { $0["id"] as? String }, ids.reversed())
        let two = try JSONSerialization.jsonObject(with: Data(box.ok(["show", ids[0], ids[1], "--json"]).stdout.utf8))
        XCTAssertEqual((two as? [[String: Any]])?.count, 2)
    }

    func testShowKeepsTheIdRules() throws {
        let ids = try threeEntries()
        let unknown = try box.run(["show", ids[0], "00000000-0000-4000-8000-000000000000"])
        XCTAssertEqual(unknown.status, 1, unknown.stderr)
        XCTAssertTrue(unknown.stderr.contains("no entry matches"), unknown.stderr)
        XCTAssertEqual(unknown.stdout, "", "nothing is shown when one id is wrong")
        XCTAssertEqual(try box.run(["show", "zz"]).status, 64)
    }

    func testShowAndEditWithoutEntriesSayThereAreNone() throws {
        for args in [["show"], ["edit"], ["show", "-n", "2"]] {
            let result = try box.run(args)
            XCTAssertEqual(result.status, 1, "\(args): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("diary: error: the vault has no entries yet"), result.stderr)
            XCTAssertEqual(result.stdout, "")
        }
    }

    func testShowPrintsTheTitleOnce() throws {
        let id = try box.ok(["new", "Heron at dawn\n\nIt stood still.", "--tag", "birds"]).out
        for args in [["show", id], ["show", "--raw", id]] {
            let shown = try box.ok(args).stdout
            XCTAssertEqual(shown.components(separatedBy: "Heron at dawn").count - 1, 1, "\(args): \(shown)")
            XCTAssertTrue(shown.hasPrefix("Heron at dawn\nid:"), shown)
            XCTAssertTrue(shown.hasSuffix("#birds\n\nIt stood still.\n"), shown)
        }
        let titleOnly = try box.ok(["show", try box.ok(["new", "Just a title"]).out]).stdout
        XCTAssertEqual(titleOnly.components(separatedBy: "Just a title").count - 1, 1, titleOnly)
        XCTAssertFalse(titleOnly.hasSuffix("\n\n"), "no empty text after the header: \(titleOnly.debugDescription)")
    }

    func testShowKeepsAFirstLineLongerThanTheIndexTitle() throws {
        let long = String(repeating: "word ", count: 60).trimmingCharacters(in: .whitespaces)
        let id = try box.ok(["new", long + "\nbody"]).out
        XCTAssertTrue(try box.ok(["show", id]).stdout.hasPrefix(long + "\nid:"))
    }

    // MARK: edit

    func testEditWithoutAnIdEditsTheNewest() throws {
        let ids = try threeEntries()
        let editor = try box.script(#"printf 'Edited newest\n' > "$1""#)
        let result = try box.ok(["edit"], env: ["EDITOR": editor])
        XCTAssertTrue(result.stderr.contains("saved \(ids[2].prefix(8))"), result.stderr)
        XCTAssertTrue(try box.ok(["show", ids[2]]).stdout.hasPrefix("Edited newest"))
        XCTAssertTrue(try box.ok(["show", ids[1]]).stdout.hasPrefix("Middle"), "the others are untouched")
        XCTAssertEqual(try box.run(["edit", "beef"], env: ["EDITOR": editor]).status, 1, "an unknown id still fails")
    }

    // MARK: list --on, --on-this-day

    func testListOnShowsOneDayInTheUsersTimeZone() throws {
        try box.ok(["new", "Late on the first", "--date", "2024-03-01T23:30Z"])
        try box.ok(["new", "Second", "--date", "2024-03-02T12:00Z"])
        try box.ok(["new", "Third", "--date", "2024-03-03T12:00Z"])
        func titles(_ day: String, _ tz: String) throws -> [String] {
            try box.listJSON(["--on", day], env: ["TZ": tz]).compactMap { $0["title"] as? String }
        }
        XCTAssertEqual(try titles("2024-03-01", "UTC"), ["Late on the first"])
        // 23:30 UTC is already March 2 in Seoul.
        XCTAssertEqual(try titles("2024-03-02", "Asia/Seoul"), ["Second", "Late on the first"])
        XCTAssertEqual(try titles("2024-03-01", "Asia/Seoul"), [])
        XCTAssertEqual(try titles("2024-03-03T08:00", "UTC"), ["Third"], "a time names its day")
        let both = try box.run(["list", "--on", "2024-03-01", "--from", "2024-01-01"])
        XCTAssertEqual(both.status, 64, both.stderr)
        XCTAssertEqual(try box.run(["list", "--on", "March"]).status, 64)
    }

    func testListOnThisDayShowsTodaysDateInEarlierYears() throws {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let today = utc.dateComponents([.year, .month, .day], from: Date())
        let (month, day) = (today.month!, today.day!)
        let other = utc.date(byAdding: .day, value: 1, to: Date())!
        let otherDay = utc.dateComponents([.month, .day], from: other)
        func date(_ year: Int, _ m: Int, _ d: Int) -> String { String(format: "%04d-%02d-%02dT10:00", year, m, d) }
        // Leap years, so that February 29 exists in each.
        try box.ok(["new", "Four years before", "--date", date(2016, month, day)])
        try box.ok(["new", "Eight years before", "--date", date(2012, month, day)])
        try box.ok(["new", "Another day", "--date", date(2020, otherDay.month!, otherDay.day!)])
        try box.ok(["new", "Written today"])
        let titles = try box.listJSON(["--on-this-day"]).compactMap { $0["title"] as? String }
        XCTAssertEqual(titles, ["Four years before", "Eight years before"])
        XCTAssertEqual(try box.listJSON(["--on-this-day", "-n", "1"]).compactMap { $0["title"] as? String }, ["Four years before"])
        XCTAssertEqual(try box.run(["list", "--on-this-day", "--on", "today"]).status, 64)
    }

    // MARK: list layout

    /// The terminal column at which the title starts, counting Hangul as two columns.
    private func titleColumn(_ line: Substring, title: String) -> Int {
        let before = line[..<line.range(of: title)!.lowerBound]
        return before.unicodeScalars.reduce(0) { $0 + ((0xAC00...0xD7A3).contains($1.value) ? 2 : 1) }
    }

    func testListColumnsStayAlignedWithOneAndTwoDigitDays() throws {
        try box.ok(["new", "Two digits", "--date", "2023-09-15T10:00"])
        try box.ok(["new", "One digit", "--date", "2023-09-05T10:00"])
        for locale in ["C", "ko_KR.UTF-8", "de_DE.UTF-8"] {
            let lines = try box.ok(["list"], env: ["LC_ALL": locale]).out.split(separator: "\n")
            XCTAssertEqual(lines.count, 2)
            XCTAssertEqual(
                titleColumn(lines[0], title: "Two digits"), titleColumn(lines[1], title: "One digit"),
                "\(locale): \(lines)")
        }
    }

    private func importEntries(_ ids: [String]) throws {
        let records = ids.enumerated().map { n, id in
            """
            {"created":"2024-01-0\(n + 1)T10:00:00.000Z","date":"2024-01-0\(n + 1)T10:00:00.000Z","id":"\(id)",\
            "modified":"2024-01-0\(n + 1)T10:00:00.000Z","starred":false,"tags":["t\(n)"],"text":"Entry \(n)"}
            """
        }
        let file = box.root.appendingPathComponent("ids.json")
        try Data(#"{"entries":[\#(records.joined(separator: ","))],"format":"diary-export","version":1}"#.utf8).write(to: file)
        try box.ok(["import", "--from", "diary", file.path])
    }

    func testShortIdsGrowUntilTheyNameOneEntry() throws {
        try importEntries([
            "1b4e28ba-2fa1-4000-8000-000000000001",
            "1b4e28ba-2fb2-4000-8000-000000000002",
            "7c000000-0000-4000-8000-000000000003",
        ])
        let lines = try box.ok(["list"]).out.split(separator: "\n")
        XCTAssertEqual(lines.map { String($0.prefix(14)) }, ["7c000000-000  ", "1b4e28ba-2fb  ", "1b4e28ba-2fa  "], "\(lines)")
        XCTAssertTrue(try box.ok(["show", "1b4e28ba-2fa"]).stdout.contains("Entry 0"), "the short id resolves")
        // Listed alone, the entry is still shown with the digits that tell it from its twin.
        let alone = try box.ok(["list", "--tag", "t0"]).out
        XCTAssertTrue(alone.hasPrefix("1b4e28ba-2fa  "), alone)
        // No shared prefix: the usual 8 digits.
        XCTAssertTrue(try box.ok(["list", "--tag", "t2"]).out.hasPrefix("7c000000  "))
    }
}
