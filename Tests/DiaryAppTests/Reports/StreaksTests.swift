import DiaryApp
import XCTest

/// Streaks: runs of consecutive days; the current one runs through yesterday until today ends.
final class StreaksTests: XCTestCase {
    private func day(_ y: Int, _ m: Int, _ d: Int) -> CalendarDay { CalendarDay(year: y, month: m, day: d) }

    private func days(_ list: [(Int, Int, Int)]) -> Set<CalendarDay> { Set(list.map { day($0.0, $0.1, $0.2) }) }

    func testTheLongestRunTheEarliestOfEquals() {
        let written = days([(2024, 3, 4), (2024, 3, 5), (2024, 3, 6), (2024, 3, 10), (2024, 3, 11), (2024, 3, 12)])
        XCTAssertEqual(Streaks.longest(written), Streak(first: day(2024, 3, 4), last: day(2024, 3, 6)))
        XCTAssertEqual(Streaks.longest(written)?.days, 3)
        XCTAssertNil(Streaks.longest([]))
        XCTAssertEqual(Streaks.longest(days([(2024, 1, 1)]))?.days, 1)
    }

    func testRunsCrossMonthsYearsAndLeapDays() {
        let written = days([(2023, 12, 31), (2024, 1, 1), (2024, 2, 28), (2024, 2, 29), (2024, 3, 1), (2024, 3, 2)])
        XCTAssertEqual(Streaks.longest(written), Streak(first: day(2024, 2, 28), last: day(2024, 3, 2)))
        XCTAssertEqual(Streaks.longest(days([(2023, 2, 28), (2023, 3, 1)]))?.days, 2, "no February 29th in 2023")
    }

    func testTheCurrentStreakEndsTodayOrYesterday() {
        let today = day(2026, 3, 11)
        let throughToday = days([(2026, 3, 9), (2026, 3, 10), (2026, 3, 11)])
        XCTAssertEqual(Streaks.current(throughToday, today: today), Streak(first: day(2026, 3, 9), last: today))
        // While today has no entry yet, the run through yesterday still counts.
        let throughYesterday = days([(2026, 3, 8), (2026, 3, 9), (2026, 3, 10)])
        XCTAssertEqual(
            Streaks.current(throughYesterday, today: today),
            Streak(first: day(2026, 3, 8), last: day(2026, 3, 10)))
        // One that ended before yesterday is over.
        XCTAssertNil(Streaks.current(days([(2026, 3, 9), (2026, 3, 6)]), today: today))
        XCTAssertNil(Streaks.current([], today: today))
    }

    func testEntriesAfterTodayDoNotExtendIt() {
        let today = day(2026, 3, 11)
        let written = days([(2026, 3, 10), (2026, 3, 11), (2026, 3, 12), (2026, 3, 13)])
        XCTAssertEqual(Streaks.current(written, today: today), Streak(first: day(2026, 3, 10), last: today))
        XCTAssertNil(Streaks.current(days([(2026, 3, 12)]), today: today))
    }
}
