import Foundation
import XCTest

/// `diary calendar`: a cell per day shaded by the words written, stars marked, months and
/// weekdays in the user's locale, days in the user's time zone, and the same data as JSON.
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
        try write(7, on: "2023-12-31")  // another year
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
        for (date, level) in [("2024-03-04", 1), ("2024-03-05", 2), ("2024-03-06", 3), ("2024-03-07", 4), ("2024-03-08", 0)] {
            XCTAssertEqual(days[date]?["level"] as? Int, level, date)
            XCTAssertEqual(days[date]?["starred"] as? Bool, false, date)
        }
        XCTAssertEqual(days["2024-03-08"]?["entries"] as? Int, 0)
        XCTAssertEqual(Set(year.keys), ["year", "entries", "words", "days"])
        XCTAssertEqual(Set(leap.keys), ["date", "entries", "words", "starred", "level"])
    }

    /// An entry belongs to the day its date falls on in TZ: 23:00 UTC on New Year's Eve is
    /// already New Year's Day in Seoul.
    func testDaysAreThoseOfTheUsersTimeZone() throws {
        try write(4, on: "2023-12-31T23:00Z")
        let utc = try days(try json(["calendar", "2023"], env: ["TZ": "UTC"]))
        XCTAssertEqual(utc["2023-12-31"]?["entries"] as? Int, 1)
        let seoul = try json(["calendar", "2024"], env: ["TZ": "Asia/Seoul"])
        XCTAssertEqual(try days(seoul)["2024-01-01"]?["entries"] as? Int, 1)
        XCTAssertEqual(try days(try json(["calendar", "2023"], env: ["TZ": "Asia/Seoul"]))["2023-12-31"]?["entries"] as? Int, 0)
    }

    func testWithoutAYearItShowsThisYear() throws {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let before = utc.component(.year, from: Date())
        let shown = try json(["calendar"])["year"] as? Int
        let after = utc.component(.year, from: Date())
        XCTAssertTrue(shown == before || shown == after, "\(String(describing: shown))")
    }

    /// The rows of a month: the cells after the label, two columns each, leading blanks (days
    /// of the previous month's last week) dropped.
    private func cells(of month: String, in lines: [Substring], labelWidth: Int) throws -> [String] {
        let row = try XCTUnwrap(lines.first { $0.hasPrefix(month + " ") }, "no row for \(month)")
        var rest = Array(String(row).dropFirst(labelWidth + 1))
        var cells: [String] = []
        while !rest.isEmpty {
            cells.append(String(rest.prefix(2)))
            rest.removeFirst(min(2, rest.count))
        }
        while cells.first == "  " { cells.removeFirst() }
        if let last = cells.last, last.count == 1 { cells[cells.count - 1] = last + " " }  // trailing space trimmed
        return cells
    }

    func testHeatmapShadesEachDayAndMarksStarsWithoutColour() throws {
        try write(3, on: "2024-02-29", ["--star"])
        try write(150, on: "2024-03-01")
        let out = try box.ok(["calendar", "2024"]).stdout
        XCTAssertFalse(out.contains("\u{1B}["), "no colour into a pipe")
        let lines = out.split(separator: "\n", omittingEmptySubsequences: false)
        // POSIX locale: weeks start on Sunday; February 1, 2024 was a Thursday.
        XCTAssertTrue(lines[0].hasPrefix("2024 S M T W T F S S M"), String(lines[0]))
        let feb = lines.first { $0.hasPrefix("Feb ") }!
        XCTAssertTrue(feb.hasPrefix("Feb" + String(repeating: " ", count: 2 + 4 * 2) + "·"), "Thursday column: \(feb)")
        let febCells = try cells(of: "Feb", in: lines, labelWidth: 4)
        XCTAssertEqual(febCells.count, 29)
        XCTAssertEqual(febCells[28], "░★")
        XCTAssertEqual(Set(febCells.dropLast()), ["· "])
        let marCells = try cells(of: "Mar", in: lines, labelWidth: 4)
        XCTAssertEqual(marCells.count, 31)
        XCTAssertEqual(marCells[0], "▒ ")
        let labels = lines.dropFirst().prefix(12).map { $0.prefix(3) }
        XCTAssertEqual(labels, ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"])
        XCTAssertTrue(out.contains("\n2 entries, 153 words, 2 days written\n"), out)
        XCTAssertTrue(out.contains("· none  ░ 1-99  ▒ 100-299  ▓ 300-599  █ 600+ words  ★ starred"), out)
        for line in lines { XCTAssertLessThanOrEqual(line.count, 80, String(line)) }

        let ascii = try box.ok(["calendar", "2024", "--ascii"]).stdout.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(try cells(of: "Feb", in: ascii, labelWidth: 4)[28], ":*")
        XCTAssertEqual(try cells(of: "Mar", in: ascii, labelWidth: 4)[0], "+ ")
    }

    /// Months and weekdays in the locale of LC_ALL, and the week starting where that locale
    /// starts it (Monday in Germany, Sunday in Korea).
    func testMonthsAndWeekdaysFollowTheLocale() throws {
        try write(3, on: "2024-02-29", ["--star"])
        let german = try box.ok(["calendar", "2024"], env: ["LC_ALL": "de_DE.UTF-8"]).stdout
            .split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertTrue(german[0].hasPrefix("2024 M D M D F S S M D"), String(german[0]))
        XCTAssertTrue(german.contains { $0.hasPrefix("Mär ") }, german.joined(separator: "\n"))
        XCTAssertTrue(german.contains { $0.hasPrefix("Dez ") }, german.joined(separator: "\n"))
        // Thursday is the fourth column when the week starts on Monday.
        let feb = try XCTUnwrap(german.first { $0.hasPrefix("Feb ") })
        XCTAssertTrue(feb.hasPrefix("Feb" + String(repeating: " ", count: 2 + 3 * 2) + "·"), String(feb))
        XCTAssertEqual(try cells(of: "Feb", in: german, labelWidth: 4)[28], "░★")

        let korean = try box.ok(["calendar", "2024"], env: ["LC_ALL": "ko_KR.UTF-8"]).stdout
            .split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertTrue(korean[0].hasPrefix("2024 일월화수목금토일"), String(korean[0]))
        let labels = korean.dropFirst().prefix(12).map { String($0.split(separator: " ")[0]) }
        XCTAssertEqual(labels, (1...12).map { "\($0)월" })
    }

    /// The rows are Gregorian months, so their names are too in a locale whose default calendar
    /// is another (Persian in fa_IR, Hijri in ar_SA): whole names, never cut, the label column
    /// as wide as the widest. `list` and `stats` print Gregorian dates there too.
    func testMonthNamesAreGregorianInLocalesWithAnotherCalendar() throws {
        try write(3, on: "2024-11-25")
        let expected = [
            "fa_IR.UTF-8": ["ژانویه", "فوریه", "مارس", "آوریل", "مه", "ژوئن", "ژوئیه", "اوت", "سپتامبر", "اکتبر",
                            "نوامبر", "دسامبر"],
            "ar_SA.UTF-8": ["يناير", "فبراير", "مارس", "أبريل", "مايو", "يونيو", "يوليو", "أغسطس", "سبتمبر", "أكتوبر",
                            "نوفمبر", "ديسمبر"],
        ]
        for (locale, months) in expected {
            let lines = try box.ok(["calendar", "2024"], env: ["LC_ALL": locale]).stdout
                .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let rows = Array(lines[1...12])
            XCTAssertEqual(rows.map { String($0.split(separator: " ")[0]) }, months, locale)
            // The cells start in one column: the label column is as wide as the widest name.
            let width = months.map(\.count).max()!
            for row in rows { XCTAssertEqual(row.dropFirst(width).first, " ", "\(locale): \(row)") }
            // February 2024 has 29 days; November 25th is shaded.
            XCTAssertEqual(rows[1].filter { $0 == "·" || $0 == "░" }.count, 29, "\(locale): \(rows[1])")
            XCTAssertTrue(rows[10].contains("░"), "\(locale): \(rows[10])")
            let listed = try box.ok(["list"], env: ["LC_ALL": locale]).stdout
            XCTAssertTrue(listed.contains(months[10]), "\(locale): \(listed)")
            let stats = try box.ok(["stats"], env: ["LC_ALL": locale]).stdout
            XCTAssertTrue(stats.contains(months[10]), "\(locale): \(stats)")
        }
    }

    func testABadYearIsAUsageErrorAndReadsNothing() throws {
        for bad in ["0", "1582", "10000", "twenty"] {
            let result = try box.run(["calendar", bad])
            XCTAssertEqual(result.status, 64, bad)
            XCTAssertEqual(result.stdout, "", bad)
            XCTAssertTrue(result.stderr.contains("diary: error:"), result.stderr)
        }
    }

    func testColourOnlyOnATerminalAndNeverWithNOCOLOR() throws {
        try write(3, on: "2024-02-29", ["--star"])
        let coloured = try box.runOnTerminal(["calendar", "2024"], colour: true)
        XCTAssertEqual(coloured.status, 0, coloured.shown)
        XCTAssertTrue(coloured.shown.contains("\u{1B}[33m★"), "a yellow star on a terminal: \(coloured.shown)")
        XCTAssertTrue(coloured.shown.contains("\u{1B}[2;32m░"), "a green shade: \(coloured.shown)")
        let plain = try box.runOnTerminal(["calendar", "2024"], colour: true, env: ["NO_COLOR": "1"])
        XCTAssertEqual(plain.status, 0, plain.shown)
        XCTAssertTrue(plain.shown.contains("░★"), plain.shown)
        XCTAssertFalse(plain.shown.contains("\u{1B}["), "NO_COLOR: \(plain.shown)")
    }
}
