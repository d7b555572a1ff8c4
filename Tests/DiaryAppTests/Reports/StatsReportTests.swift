import DiaryApp
import DiaryTestSupport
import Foundation
import XCTest

/// `stats` as numbers, from a vault built in process and a fixed today (Wednesday, March 11,
/// 2026, in UTC): totals, streaks, the busiest weekday and the tags.
final class StatsReportTests: VaultTestCase {
    private let today = CalendarDay(year: 2026, month: 3, day: 11)

    private func report(_ vault: Vault, today: CalendarDay? = nil) throws -> StatsReport {
        StatsReport(try WrittenEntries.read(vault), today: today ?? self.today, calendar: Fixed.utc)
    }

    func testCountsEntriesWordsStreaksWeekdaysAndTags() {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            // Monday 2024-03-04 to Friday 2024-03-08: the longest streak, five days.
            for (i, date) in ["2024-03-04", "2024-03-05", "2024-03-06", "2024-03-07", "2024-03-08"].enumerated() {
                try vault.write("day \(i) of the walk", on: date, tags: ["walk"])
            }
            try vault.write("monday again", on: "2024-03-11", tags: ["work"])
            try vault.write("and again", on: "2024-03-18", tags: ["walk"])
            try vault.write("and once more", on: "2024-03-25T09:00:00Z", star: true)
            // Monday to today (a Wednesday): a current streak of three.
            try vault.write("two days ago", on: "2026-03-09")
            try vault.write("yesterday it rained", on: "2026-03-10", star: true)
            try vault.write("today", on: "2026-03-11T08:00:00Z")
            try vault.write("today again, twice", on: "2026-03-11T20:00:00Z")

            let s = try report(vault)
            XCTAssertEqual(s.entries, 12)
            XCTAssertEqual(s.words, 5 * 5 + 2 + 2 + 3 + 3 + 3 + 1 + 3)
            XCTAssertEqual(s.daysWritten, 11)
            XCTAssertEqual(s.starred, 2)
            XCTAssertEqual(s.current, Streak(first: CalendarDay(year: 2026, month: 3, day: 9), last: today))
            XCTAssertTrue(s.currentReachesToday)
            XCTAssertEqual(
                s.longest,
                Streak(
                    first: CalendarDay(year: 2024, month: 3, day: 4),
                    last: CalendarDay(year: 2024, month: 3, day: 8)))
            XCTAssertEqual(s.busiest?.weekday, 2, "Monday")
            XCTAssertEqual(s.busiest?.entries, 5)
            XCTAssertEqual(s.tags.map(\.tag), ["walk", "work"])
            XCTAssertEqual(s.tags.map(\.entries), [6, 1])
            XCTAssertEqual(s.first, Fixed.instant("2024-03-04T12:00:00Z"))
            XCTAssertEqual(s.last, Fixed.instant("2026-03-11T20:00:00Z"))
        }
    }

    /// While today has no entry yet, a streak through yesterday is still running; one that
    /// ended before yesterday is over.
    func testTheCurrentStreakRunsThroughYesterdayUntilTodayEnds() throws {
        let vault = try makeVault(.sqlite)
        for date in ["2026-03-08", "2026-03-09", "2026-03-10"] { try vault.write("written", on: date) }
        let running = try report(vault)
        XCTAssertEqual(running.current?.days, 3)
        XCTAssertEqual(running.current?.last, CalendarDay(year: 2026, month: 3, day: 10))
        XCTAssertFalse(running.currentReachesToday)
        let over = try report(vault, today: CalendarDay(year: 2026, month: 3, day: 12))
        XCTAssertNil(over.current)
        XCTAssertEqual(over.longest?.days, 3)
    }

    func testAnEmptyVaultHasZerosAndNothing() throws {
        let s = try report(try makeVault(.files))
        XCTAssertEqual([s.entries, s.words, s.daysWritten, s.starred], [0, 0, 0, 0])
        XCTAssertNil(s.current)
        XCTAssertNil(s.longest)
        XCTAssertNil(s.busiest)
        XCTAssertTrue(s.tags.isEmpty)
        XCTAssertNil(s.first)
        XCTAssertNil(s.last)
    }

    /// Words are runs of non-space characters, any script: Korean words between spaces, and a
    /// no-break space separates too.
    func testWordsAreRunsOfNonSpaceCharacters() throws {
        let vault = try makeVault(.sqlite)
        try vault.write("  오늘은  비가\n왔다 \u{00A0}tea\u{00A0}time\t", on: "2024-01-02")
        XCTAssertEqual(try report(vault).words, 5)
    }

    /// Ties go to the earlier day of an ISO week: Monday before Sunday, whatever the locale.
    func testTheBusiestWeekdayTiesGoToTheEarlierDayOfTheWeek() throws {
        let vault = try makeVault(.sqlite)
        try vault.write("a sunday", on: "2024-03-03")
        XCTAssertEqual(try report(vault).busiest?.weekday, 1, "Sunday alone")
        try vault.write("a saturday", on: "2024-03-09")
        XCTAssertEqual(try report(vault).busiest?.weekday, 7, "Saturday before Sunday")
        try vault.write("a monday", on: "2024-03-04")
        XCTAssertEqual(try report(vault).busiest?.weekday, 2)
        XCTAssertEqual(try report(vault).busiest?.entries, 1)
    }

    /// Days are those of the calendar's time zone: 23:00 UTC is the next day in Seoul.
    func testDaysAreThoseOfTheCalendarsTimeZone() throws {
        let vault = try makeVault(.sqlite)
        try vault.write("late", on: "2024-03-04T23:00:00Z")
        try vault.write("early", on: "2024-03-05T01:00:00Z")
        let seoul = Fixed.context(zone: "Asia/Seoul").calendar
        let written = try WrittenEntries.read(vault)
        XCTAssertEqual(StatsReport(written, today: today, calendar: Fixed.utc).daysWritten, 2)
        let inSeoul = StatsReport(written, today: today, calendar: seoul)
        XCTAssertEqual(inSeoul.daysWritten, 1)
        XCTAssertEqual(inSeoul.busiest?.weekday, 3, "Tuesday in Seoul")
    }
}
