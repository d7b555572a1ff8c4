import Foundation
import XCTest

/// `diary calendar` end to end: the JSON of a year in the user's time zone, this year by
/// default, the calendar in the environment's locale, as wide as the terminal or COLUMNS, colour only on a terminal, and a bad year
/// refused. (The tallies are DiaryAppTests' `CalendarYearTests`, the drawing
/// `CalendarHeatmapTests`.)
final class CalendarTests: XCTestCase {
    private var box: DiarySandbox!

    override func setUpWithError() throws {
        box = try DiarySandbox(name: "calendar")
        _ = try box.initVault()
    }

    override func tearDown() { box = nil }

    private func write(_ words: Int, on date: String, _ extra: [String] = []) throws {
        let text = (1...words).map { "w\($0)" }.joined(separator: " ")
        try box.ok(["new", "--date", date] + extra, stdin: Data(text.utf8))
    }

    private func json(_ args: [String], env: [String: String] = [:]) throws -> [String: Any] {
        let out = try box.ok(args + ["--json"], env: env).stdout
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any], out)
    }

    private func days(_ object: [String: Any]) throws -> [String: [String: Any]] {
        let list = try XCTUnwrap(object["days"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: list.map { ($0["date"] as! String, $0) })
    }

    /// A leap year: every day is listed; entries, words and stars are summed per day; each
    /// shade starts at its documented word count.
    func testJSONCountsEntriesWordsAndStarsPerDay() throws {
        try write(3, on: "2024-02-29", ["--star"])
        try write(5, on: "2024-02-29T18:30")
        try write(99, on: "2024-03-04")
        try write(100, on: "2024-03-05")
        try write(300, on: "2024-03-06")
        try write(600, on: "2024-03-07")
        try write(7, on: "2023-12-31T23:00Z")  // another year, but not in Seoul
        let year = try json(["calendar", "2024"])
        XCTAssertEqual(year["year"] as? Int, 2024)
        XCTAssertEqual(year["entries"] as? Int, 6)
        XCTAssertEqual(year["words"] as? Int, 3 + 5 + 99 + 100 + 300 + 600)
        let days = try days(year)
        XCTAssertEqual(days.count, 366)
        XCTAssertNil(days["2023-12-31"])
        let leap = try XCTUnwrap(days["2024-02-29"])
        XCTAssertEqual(leap["entries"] as? Int, 2)
        XCTAssertEqual(leap["words"] as? Int, 8)
        XCTAssertEqual(leap["starred"] as? Bool, true)
        XCTAssertEqual(leap["level"] as? Int, 1)
        for (date, level) in [
            ("2024-03-04", 1), ("2024-03-05", 2), ("2024-03-06", 3), ("2024-03-07", 4), ("2024-03-08", 0),
        ] {
            XCTAssertEqual(days[date]?["level"] as? Int, level, date)
            XCTAssertEqual(days[date]?["starred"] as? Bool, false, date)
        }
        XCTAssertEqual(days["2024-03-08"]?["entries"] as? Int, 0)
        XCTAssertEqual(Set(year.keys), ["year", "entries", "words", "days"])
        XCTAssertEqual(Set(leap.keys), ["date", "entries", "words", "starred", "level"])
        // Days are those of TZ: 23:00 UTC on New Year's Eve is already New Year's Day in Seoul.
        let seoul = try self.days(try json(["calendar", "2024"], env: ["TZ": "Asia/Seoul"]))
        XCTAssertEqual(seoul["2024-01-01"]?["entries"] as? Int, 1)
        XCTAssertEqual(days["2024-01-01"]?["entries"] as? Int, 0)
    }

    /// Without a year, this year; a year out of range or not a number is a usage error (64)
    /// that reads nothing.
    func testWithoutAYearItShowsThisYearAndABadYearIsAUsageError() throws {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let before = utc.component(.year, from: Date())
        let shown = try json(["calendar"])["year"] as? Int
        let after = utc.component(.year, from: Date())
        XCTAssertTrue(shown == before || shown == after, "\(String(describing: shown))")
        for bad in ["0", "10000", "twenty"] {
            let result = try box.run(["calendar", bad])
            XCTAssertEqual(result.status, 64, bad)
            XCTAssertEqual(result.stdout, "", bad)
            XCTAssertTrue(result.stderr.contains("diary: error:"), result.stderr)
        }
    }

    /// Years before 1583 are shown, Gregorian as the dates are (issue 22: `calendar 1500` was
    /// refused): an entry made on 1500-03-01 is on that day, and year 1 is drawn.
    func testEarlyYearsAreGregorian() throws {
        try write(3, on: "1500-03-01")
        let year = try json(["calendar", "1500"])
        XCTAssertEqual(year["entries"] as? Int, 1)
        let days = try days(year)
        XCTAssertEqual(days.count, 365)
        XCTAssertEqual(days["1500-03-01"]?["entries"] as? Int, 1)
        let drawn = try box.ok(["calendar", "1"], env: ["LC_ALL": "C"]).stdout
        XCTAssertTrue(drawn.contains("January"), drawn)
    }

    /// The calendar in the locale LC_ALL names, into a pipe without colour and 80 columns wide
    /// (the drawing itself, in any locale, is `CalendarHeatmapTests`).
    func testTheCalendarFollowsTheEnvironmentsLocale() throws {
        try write(3, on: "2024-02-29", ["--star"])
        let out = try box.ok(["calendar", "2024"], env: ["LC_ALL": "de_DE.UTF-8"]).stdout
        XCTAssertFalse(out.contains("\u{1B}["), "no colour into a pipe")
        let german = out.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertTrue(german.contains { $0.contains("Januar") && $0.contains("Februar") && $0.contains("März") }, out)
        XCTAssertTrue(german.contains { $0.hasPrefix("Mo Di Mi Do Fr Sa So   Mo Di") }, out)
        XCTAssertTrue(german.contains { $0.contains("26 27 28 29★") }, out)
        XCTAssertTrue(out.contains("\n1 entry, 3 words, 1 day written\n"), out)
        for line in german { XCTAssertLessThanOrEqual(line.count, 80, String(line)) }
    }

    /// How many months a row holds, judged by the weekday headers on the line under the names.
    private func monthsPerRow(_ lines: [String]) throws -> Int {
        let header = try XCTUnwrap(lines.first { $0.hasPrefix("Su Mo Tu") }, lines.joined(separator: "\n"))
        return header.components(separatedBy: "Su Mo Tu").count - 1
    }

    /// On a terminal the calendar fits its width (one month a row at 40 columns, three at 80,
    /// six at 200), also when COLUMNS says otherwise; every day's number is there to be found.
    func testOnATerminalTheMonthsFitItsWidth() throws {
        try write(3, on: "2024-02-29", ["--star"])
        for (columns, perRow) in [(40, 1), (80, 3), (200, 6)] {
            let shown = try box.runOnTerminal(["calendar", "2024"], columns: columns, env: ["COLUMNS": "100"])
            XCTAssertEqual(shown.status, 0, shown.shown)
            XCTAssertEqual(try monthsPerRow(shown.lines), perRow, "\(columns) columns:\n\(shown.shown)")
            for line in shown.lines { XCTAssertLessThanOrEqual(line.count, columns, "\(columns): \(line)") }
            XCTAssertTrue(shown.shown.contains("29★"), shown.shown)
            XCTAssertTrue(shown.shown.contains("25 26 27 28 29 30 31"), "a week of numbers: \(shown.shown)")
        }
    }

    /// Into a pipe: COLUMNS when set, else 80.
    func testIntoAPipeColumnsOr80() throws {
        XCTAssertEqual(try monthsPerRow(try box.ok(["calendar", "2024"]).stdout.components(separatedBy: "\n")), 3)
        let wide = try box.ok(["calendar", "2024"], env: ["COLUMNS": "100"]).stdout.components(separatedBy: "\n")
        XCTAssertEqual(try monthsPerRow(wide), 4)
        let narrow = try box.ok(["calendar", "2024"], env: ["COLUMNS": "50"]).stdout.components(separatedBy: "\n")
        XCTAssertEqual(try monthsPerRow(narrow), 2)
    }

    func testColourOnlyOnATerminalAndNeverWithNOCOLOR() throws {
        try write(3, on: "2024-02-29", ["--star"])
        let coloured = try box.runOnTerminal(["calendar", "2024"], columns: 80, colour: true)
        XCTAssertEqual(coloured.status, 0, coloured.shown)
        XCTAssertTrue(coloured.shown.contains("\u{1B}[33m★"), "a yellow star on a terminal: \(coloured.shown)")
        XCTAssertTrue(coloured.shown.contains("\u{1B}[2;32m29"), "a green number: \(coloured.shown)")
        let plain = try box.runOnTerminal(["calendar", "2024"], columns: 80, colour: true, env: ["NO_COLOR": "1"])
        XCTAssertEqual(plain.status, 0, plain.shown)
        XCTAssertTrue(plain.shown.contains("29★"), plain.shown)
        XCTAssertFalse(plain.shown.contains("\u{1B}["), "NO_COLOR: \(plain.shown)")
    }
}
