import Foundation
import XCTest

/// Reading as jrnl users expect, through the binary: `show` and `edit` default to the newest
/// entry, `show` takes several ids or `-n` and refuses with its statuses, `list --on` and
/// `--on-this-day` pick days in the user's time zone, and list columns line up in each locale.
/// How an entry is laid out (titles, short ids) is `ReadingLayoutTests`', in process.
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

    /// Without an id, the newest; several ids each in turn, one blank line apart, an entry
    /// named twice once; `-n` the newest n; `--json` an object for one entry, an array for
    /// several ids or -n.
    func testShowPicksTheNewestSeveralIdsOrTheNewestN() throws {
        let ids = try threeEntries()
        let newest = try box.ok(["show"]).stdout
        XCTAssertTrue(newest.hasPrefix("Newest\n"), newest)
        XCTAssertTrue(newest.contains(ids[2]) && newest.contains("third body"), newest)
        XCTAssertFalse(newest.contains("Middle"), newest)

        let several = try box.ok(["show", String(ids[0].prefix(8)), ids[2]]).stdout
        let first = try XCTUnwrap(several.range(of: "first body")),
            third = try XCTUnwrap(several.range(of: "third body"))
        XCTAssertLessThan(first.lowerBound, third.lowerBound, "in the order given: \(several)")
        XCTAssertFalse(several.contains("second body"), several)
        XCTAssertTrue(several.contains("first body\n\nNewest\n"), "one blank line between entries: \(several)")

        let twice = try box.ok(["show", String(ids[0].prefix(4)), String(ids[0].prefix(8)), ids[2]]).stdout
        XCTAssertEqual(twice.components(separatedBy: "first body").count - 1, 1, twice)
        XCTAssertTrue(twice.contains("third body"), twice)

        let two = try box.ok(["show", "-n", "2"]).stdout
        XCTAssertTrue(two.contains("third body") && two.contains("second body"), two)
        XCTAssertFalse(two.contains("first body"), two)
        XCTAssertLessThan(two.range(of: "third body")!.lowerBound, two.range(of: "second body")!.lowerBound)

        func json(_ args: [String]) throws -> Any {
            try JSONSerialization.jsonObject(with: Data(box.ok(["show"] + args + ["--json"]).stdout.utf8))
        }
        XCTAssertEqual((try json([]) as? [String: Any])?["id"] as? String, ids[2])
        XCTAssertEqual((try json(["-n", "3"]) as? [[String: Any]])?.compactMap { $0["id"] as? String }, ids.reversed())
        XCTAssertEqual((try json([ids[0], ids[1]]) as? [[String: Any]])?.count, 2)
    }

    /// An empty vault: `show`, `edit` and `show -n` say so (1). An unknown id among known ones
    /// shows nothing (1); an id that is not hex, -n 0, or -n with ids is a usage error (64).
    func testShowAndEditRefusals() throws {
        for args in [["show"], ["edit"], ["show", "-n", "2"]] {
            let result = try box.run(args)
            XCTAssertEqual(result.status, 1, "\(args): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("diary: error: the vault has no entries yet"), result.stderr)
            XCTAssertEqual(result.stdout, "")
        }
        let ids = try threeEntries()
        let unknown = try box.run(["show", ids[0], "00000000-0000-4000-8000-000000000000"])
        XCTAssertEqual(unknown.status, 1, unknown.stderr)
        XCTAssertTrue(unknown.stderr.contains("no entry matches"), unknown.stderr)
        XCTAssertEqual(unknown.stdout, "", "nothing is shown when one id is wrong")
        XCTAssertEqual(try box.run(["show", "zz"]).status, 64)
        XCTAssertEqual(try box.run(["show", "-n", "0"]).status, 64)
        XCTAssertEqual(try box.run(["show", "-n", "2", "abcd"]).status, 64, "ids or -n, not both")
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

    /// `--on` lists one day in the user's time zone; `--on-this-day` today's month and day in
    /// earlier years; each refuses what it cannot be combined with.
    func testListOnAndOnThisDayPickDays() throws {
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
        // --on-this-day, in a vault of its own: its entries are dated on today's month and day.
        let thisDay = try DiarySandbox(name: "read-this-day")
        _ = try thisDay.initVault()
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let today = utc.dateComponents([.year, .month, .day], from: Date())
        let (month, day) = (today.month!, today.day!)
        let other = utc.date(byAdding: .day, value: 1, to: Date())!
        let otherDay = utc.dateComponents([.month, .day], from: other)
        func date(_ year: Int, _ m: Int, _ d: Int) -> String { String(format: "%04d-%02d-%02dT10:00", year, m, d) }
        // Leap years, so that February 29 exists in each.
        try thisDay.ok(["new", "Four years before", "--date", date(2016, month, day)])
        try thisDay.ok(["new", "Eight years before", "--date", date(2012, month, day)])
        try thisDay.ok(["new", "Another day", "--date", date(2020, otherDay.month!, otherDay.day!)])
        try thisDay.ok(["new", "Written today"])
        let onThisDay = try thisDay.listJSON(["--on-this-day"]).compactMap { $0["title"] as? String }
        XCTAssertEqual(onThisDay, ["Four years before", "Eight years before"])
        XCTAssertEqual(
            try thisDay.listJSON(["--on-this-day", "-n", "1"]).compactMap { $0["title"] as? String },
            ["Four years before"])
        XCTAssertEqual(try thisDay.run(["list", "--on-this-day", "--on", "today"]).status, 64)
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
}
