import DiaryApp
import DiaryTestSupport
import Foundation
import XCTest

/// `calendar`'s year: every day listed, entries, words and stars summed per day, the year read
/// in the calendar's time zone.
final class CalendarYearTests: VaultTestCase {
    private func year(_ year: Int, _ vault: Vault, in calendar: Calendar = Fixed.utc) throws -> CalendarYear {
        let written = try WrittenEntries.read(vault, CalendarYear.filter(year: year, calendar: calendar))
        return CalendarYear(year: year, written: written, calendar: calendar)
    }

    private func tally(_ year: CalendarYear, _ iso: String) -> DayTally? {
        year.days.first { $0.day.iso == iso }?.tally
    }

    private func words(_ n: Int) -> String { (1...n).map { "w\($0)" }.joined(separator: " ") }

    func testEveryDayWithItsEntriesWordsAndStars() throws {
        let vault = try makeVault(.sqlite)
        try vault.write(words(3), on: "2024-02-29", star: true)
        try vault.write(words(5), on: "2024-02-29T18:30:00Z")
        try vault.write(words(99), on: "2024-03-04")
        try vault.write(words(7), on: "2023-12-31")  // another year
        let leapYear = try year(2024, vault)
        XCTAssertEqual(leapYear.days.count, 366)
        XCTAssertEqual(leapYear.days.first?.day.iso, "2024-01-01")
        XCTAssertEqual(leapYear.days.last?.day.iso, "2024-12-31")
        XCTAssertEqual(tally(leapYear, "2024-02-29"), DayTally(entries: 2, words: 8, starred: true))
        XCTAssertEqual(tally(leapYear, "2024-03-04"), DayTally(entries: 1, words: 99, starred: false))
        XCTAssertEqual(tally(leapYear, "2024-03-05"), DayTally())
        XCTAssertEqual(leapYear.days.map(\.tally.entries).reduce(0, +), 3, "the other year's entry is not read")
        XCTAssertEqual(try year(2023, vault).days.count, 365)
    }

    /// An entry belongs to the day its date falls on in the time zone: 23:00 UTC on New Year's
    /// Eve is already New Year's Day in Seoul.
    func testDaysAreThoseOfTheTimeZone() throws {
        let vault = try makeVault(.files)
        try vault.write(words(4), on: "2023-12-31T23:00:00Z")
        XCTAssertEqual(tally(try year(2023, vault), "2023-12-31")?.entries, 1)
        let seoul = Fixed.context(zone: "Asia/Seoul").calendar
        XCTAssertEqual(tally(try year(2024, vault, in: seoul), "2024-01-01")?.entries, 1)
        XCTAssertEqual(tally(try year(2023, vault, in: seoul), "2023-12-31")?.entries, 0)
    }

    func testTheYearsACalendarCovers() {
        XCTAssertTrue(CalendarYear.years.contains(1))
        XCTAssertTrue(CalendarYear.years.contains(1582))
        XCTAssertTrue(CalendarYear.years.contains(9999))
        XCTAssertFalse(CalendarYear.years.contains(0))
        XCTAssertFalse(CalendarYear.years.contains(10000))
    }

    /// Years before 1583 are Gregorian (issue 22: they were refused; Foundation's calendar is
    /// Julian there): an entry made on 1500-03-01 is counted on that day, and only its year
    /// reads it.
    func testEarlyYearsAreGregorian() throws {
        let vault = try makeVault(.sqlite)
        let calendar = Fixed.utc
        let day = try XCTUnwrap(ProlepticGregorian.date(DateComponents(year: 1500, month: 3, day: 1), in: calendar))
        let newYear = try XCTUnwrap(ProlepticGregorian.date(DateComponents(year: 1, month: 1, day: 1), in: calendar))
        _ = try vault.add(text: words(2), date: day.addingTimeInterval(3600))
        _ = try vault.add(text: words(3), date: newYear.addingTimeInterval(60))
        let early = try year(1500, vault)
        XCTAssertEqual(early.days.count, 365, "1500 is not a Gregorian leap year")
        XCTAssertEqual(tally(early, "1500-03-01")?.entries, 1)
        XCTAssertEqual(early.days.map(\.tally.entries).reduce(0, +), 1)
        XCTAssertEqual(tally(try year(1, vault), "0001-01-01")?.entries, 1)
    }
}
