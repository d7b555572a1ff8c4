import Foundation
import XCTest

/// `--date` as people say it (`yesterday 9pm`, `last monday`, `Feb 22`), through the binary:
/// each phrase is written with `new --date`, and `list --json` must show the date the test
/// computes from the current time. A phrase is checked against the expectation computed just
/// before and just after the run, so a test that crosses midnight still passes.
final class SpokenDateTests: XCTestCase {
    private var box: DiarySandbox!

    override func setUpWithError() throws {
        box = try DiarySandbox(name: "dates")
        _ = try box.initVault()
    }

    override func tearDown() { box = nil }

    /// The sandbox runs with TZ=UTC, so the expectations use a UTC calendar.
    private let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    private func day(_ date: Date, plus days: Int = 0, hour: Int = 0, minute: Int = 0) -> Date {
        let start = calendar.startOfDay(for: calendar.date(byAdding: .day, value: days, to: date)!)
        return start.addingTimeInterval(Double(hour * 3600 + minute * 60))
    }

    /// The most recent `weekday` (1 = Sunday) on or before `now` (strictly before with `!today`).
    private func recent(_ weekday: Int, _ now: Date, today: Bool) -> Date {
        for back in (today ? 0 : 1)...7 where calendar.component(.weekday, from: day(now, plus: -back)) == weekday {
            return day(now, plus: -back)
        }
        fatalError("no weekday")
    }

    /// `Feb 22` without a year: the most recent, today included.
    private func recentMonthDay(_ month: Int, _ dayOfMonth: Int, _ now: Date, hour: Int = 0) -> Date {
        let today = calendar.dateComponents([.year, .month, .day], from: now)
        let year = (month, dayOfMonth) > (today.month!, today.day!) ? today.year! - 1 : today.year!
        return calendar.date(from: DateComponents(year: year, month: month, day: dayOfMonth, hour: hour))!
    }

    /// Writes an entry titled `phrase` with `--date phrase` and returns its listed date.
    private func written(_ phrase: String) throws -> Date {
        let id = try box.ok(["new", "phrase: \(phrase)", "--date", phrase]).out
        let rows = try box.listJSON()
        let row = try XCTUnwrap(rows.first { ($0["id"] as? String) == id }, phrase)
        let text = try XCTUnwrap(row["date"] as? String)
        return try XCTUnwrap(ISO8601DateFormatter().date(from: text), text)
    }

    private func check(_ phrase: String, file: StaticString = #filePath, line: UInt = #line,
                       expected: (Date) -> Date) throws {
        let before = Date()
        let got = try written(phrase)
        let after = Date()
        XCTAssertTrue(
            got == expected(before) || got == expected(after),
            "\(phrase): got \(got), expected \(expected(before))", file: file, line: line)
    }

    func testRelativeDaysAreCalendarDays() throws {
        try check("today") { self.day($0) }
        try check("Today") { self.day($0) }
        try check("yesterday") { self.day($0, plus: -1) }
        try check("tomorrow") { self.day($0, plus: 1) }
        try check("2 days ago") { self.day($0, plus: -2) }
        try check("a week ago") { self.day($0, plus: -7) }
        try check("3 weeks ago") { self.day($0, plus: -21) }
    }

    func testDaysWithATime() throws {
        try check("yesterday 9pm") { self.day($0, plus: -1, hour: 21) }
        try check("yesterday at 9:30am") { self.day($0, plus: -1, hour: 9, minute: 30) }
        try check("tomorrow 14:05") { self.day($0, plus: 1, hour: 14, minute: 5) }
        try check("today 12am") { self.day($0) }
        try check("today 12pm") { self.day($0, hour: 12) }
        try check("7 pm") { self.day($0, hour: 19) }
    }

    func testWeekdaysAreTheMostRecent() throws {
        // 1 = Sunday … 7 = Saturday.
        try check("friday") { self.recent(6, $0, today: true) }
        try check("Monday") { self.recent(2, $0, today: true) }
        try check("sun") { self.recent(1, $0, today: true) }
        try check("last monday") { self.recent(2, $0, today: false) }
        try check("last saturday 8am") { self.recent(7, $0, today: false).addingTimeInterval(8 * 3600) }
    }

    func testMonthNames() throws {
        try check("Feb 22") { self.recentMonthDay(2, 22, $0) }
        try check("22 Feb") { self.recentMonthDay(2, 22, $0) }
        try check("december 24th") { self.recentMonthDay(12, 24, $0) }
        try check("Sept. 3 9pm") { self.recentMonthDay(9, 3, $0, hour: 21) }
        let fixed = calendar.date(from: DateComponents(year: 2023, month: 2, day: 22, hour: 21))!
        try check("February 22, 2023 9 pm") { _ in fixed }
        try check("22 feb 2023") { _ in fixed.addingTimeInterval(-21 * 3600) }
    }

    /// Through the binary, today: `Feb 29` is the last February 29th, also in a year without one
    /// (SpokenDateNowTests pins "now" to such years).
    func testFebruaryTwentyNinthWithoutAYear() throws {
        try check("Feb 29") { now in
            var year = self.calendar.component(.year, from: now)
            while true {
                let leap = self.calendar.range(of: .day, in: .month,
                    for: self.calendar.date(from: DateComponents(year: year, month: 2))!)!.count == 29
                let day = self.calendar.date(from: DateComponents(year: year, month: 2, day: 29))!
                if leap && day <= now { return day }
                year -= 1
            }
        }
    }

    func testMonthNamesInTheUsersLocale() throws {
        let german = try box.ok(["new", "Deutsch", "--date", "22 Februar 2024"], env: ["LC_ALL": "de_DE.UTF-8"]).out
        let french = try box.ok(["new", "Français", "--date", "3 mars 2024 9pm"], env: ["LC_ALL": "fr_FR.UTF-8"]).out
        let dates = Dictionary(uniqueKeysWithValues: try box.listJSON().map {
            ($0["id"] as? String ?? "", $0["date"] as? String ?? "")
        })
        XCTAssertEqual(dates[german], "2024-02-22T00:00:00Z")
        XCTAssertEqual(dates[french], "2024-03-03T21:00:00Z")
        // English works whatever the locale; another locale's names do not.
        try box.ok(["new", "English", "--date", "Feb 22 2024"], env: ["LC_ALL": "de_DE.UTF-8"])
        XCTAssertEqual(try box.run(["new", "Nein", "--date", "22 Februar 2024"]).status, 64)
    }

    func testISOFormsStillWork() throws {
        let march = calendar.date(from: DateComponents(year: 2024, month: 3, day: 1))!
        try check("2024-03-01") { _ in march }
        try check("2024-03-01T10:15") { _ in march.addingTimeInterval(10 * 3600 + 15 * 60) }
        try check("2024-03-01T10:15+09:00") { _ in march.addingTimeInterval(3600 + 15 * 60) }
    }

    func testNowAndHoursAgoAreInstants() throws {
        let before = Date().addingTimeInterval(-1)
        let now = try written("now")
        let hoursAgo = try written("5 hours ago")
        let after = Date().addingTimeInterval(1)
        XCTAssertTrue((before...after).contains(now), "\(now)")
        XCTAssertTrue((before.addingTimeInterval(-5 * 3600)...after.addingTimeInterval(-5 * 3600)).contains(hoursAgo))
    }

    func testEditTakesTheSameForms() throws {
        let id = try box.ok(["new", "Moved later"]).out
        try box.ok(["edit", id, "--date", "yesterday 9pm"], env: ["EDITOR": "true"])
        let before = Date()
        let row = try XCTUnwrap(try box.listJSON().first)
        let got = ISO8601DateFormatter().date(from: row["date"] as? String ?? "")
        XCTAssertTrue([day(before, plus: -1, hour: 21), day(Date(), plus: -1, hour: 21)].contains(got), "\(row)")
    }

    func testAnythingElseIsRefusedWithTheAcceptedFormsAndWritesNothing() throws {
        for bad in ["blah", "feb 30", "13pm", "25:00", "yesterday 9", "2 fortnights ago", "last", "2024-02-30",
                    "friday friday", "99 feb", ""] {
            let result = try box.run(["new", "Should not be stored", "--date", bad])
            XCTAssertEqual(result.status, 64, "\(bad): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("diary: error:"), result.stderr)
            XCTAssertTrue(result.stderr.contains("Accepted:"), "\(bad): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("yesterday 9pm"), result.stderr)
            let edit = try box.run(["edit", "0000", "--date", bad])
            XCTAssertEqual(edit.status, 64, "edit \(bad): \(edit.stderr)")
        }
        XCTAssertEqual(try box.listJSON().count, 0, "nothing was written")
    }
}
