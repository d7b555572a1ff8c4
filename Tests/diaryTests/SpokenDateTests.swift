import Foundation
import XCTest

/// `--date` as people say it, through the binary: the phrases are parsed at the moment the
/// command runs, in its TZ and locale (the parsing itself, against a fixed "now", is
/// DiaryAppTests' `DateInputTests`). Each phrase is written with `new --date`, and `list --json`
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

    private func check(_ phrase: String, file: StaticString = #filePath, line: UInt = #line,
                       expected: (Date) -> Date) throws {
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

    /// Month names of the locale the environment names are understood (and English in any).
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

    func testEditTakesTheSameForms() throws {
        let id = try box.ok(["new", "Moved later"]).out
        try box.ok(["edit", id, "--date", "yesterday 9pm"], env: ["EDITOR": "true"])
        let before = Date()
        let row = try XCTUnwrap(try box.listJSON().first)
        let got = ISO8601DateFormatter().date(from: row["date"] as? String ?? "")
        XCTAssertTrue([day(before, plus: -1, hour: 21), day(Date(), plus: -1, hour: 21)].contains(got), "\(row)")
    }
}
