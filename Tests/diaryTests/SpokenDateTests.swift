import Foundation
import XCTest

/// `--date` as people say it, through the binary: the phrases are parsed at the moment the
/// command runs, in its TZ (the parsing itself, against a fixed "now", zone and locale, is
/// DiaryAppTests' `DateInputTests`; `edit --date` is run by `CalendarDayTests`, the locale's
/// words from LC_ALL by `LocaleTests`). Each phrase is written with `new --date`, and `list --json`
/// must show the date the test computes from the current time, computed just before and just
/// after the run, so a test that crosses midnight still passes.
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

    /// Writes an entry titled `phrase` with `--date phrase` and returns its listed date.
    private func written(_ phrase: String) throws -> Date {
        let id = try box.ok(["new", "phrase: \(phrase)", "--date", phrase]).out
        let rows = try box.listJSON()
        let row = try XCTUnwrap(rows.first { ($0["id"] as? String) == id }, phrase)
        let text = try XCTUnwrap(row["date"] as? String)
        return try XCTUnwrap(ISO8601DateFormatter().date(from: text), text)
    }

    private func check(
        _ phrase: String, file: StaticString = #filePath, line: UInt = #line,
        expected: (Date) -> Date
    ) throws {
        let before = Date()
        let got = try written(phrase)
        let after = Date()
        XCTAssertTrue(
            got == expected(before) || got == expected(after),
            "\(phrase): got \(got), expected \(expected(before))", file: file, line: line)
    }

    /// Relative phrases count from the moment the command runs, in its time zone (TZ=UTC).
    func testRelativePhrasesCountFromNow() throws {
        try check("yesterday 9pm") { self.day($0, plus: -1, hour: 21) }
        try check("2 days ago") { self.day($0, plus: -2) }
        let before = Date().addingTimeInterval(-1)
        let now = try written("now")
        let hoursAgo = try written("5 hours ago")
        let after = Date().addingTimeInterval(1)
        XCTAssertTrue((before...after).contains(now), "\(now)")
        XCTAssertTrue((before.addingTimeInterval(-5 * 3600)...after.addingTimeInterval(-5 * 3600)).contains(hoursAgo))
    }
}
