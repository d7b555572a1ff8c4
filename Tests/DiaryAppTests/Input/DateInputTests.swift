import DiaryApp
import Foundation
import XCTest

/// `DateInput.parse` against a fixed "now" (Wednesday, March 11, 2026, 15:30 UTC): ISO 8601,
/// dates as people say them, and the errors (nil) for anything else.
final class DateInputTests: XCTestCase {
    private func parsed(_ text: String, at now: Date = Fixed.now, in context: LocaleCalendar = Fixed.context())
        -> DateInput.Value?
    {
        DateInput.parse(text, now: now, in: context)?.value
    }

    private func day(_ y: Int, _ m: Int, _ d: Int) -> DateInput.Value { .day(year: y, month: m, day: d) }

    private func instant(_ iso: String) -> DateInput.Value { .instant(Fixed.instant(iso)) }

    func testRelativeDaysAreCalendarDays() {
        XCTAssertEqual(parsed("today"), day(2026, 3, 11))
        XCTAssertEqual(parsed("Today"), day(2026, 3, 11))
        XCTAssertEqual(parsed("  yesterday "), day(2026, 3, 10))
        XCTAssertEqual(parsed("tomorrow"), day(2026, 3, 12))
        XCTAssertEqual(parsed("2 days ago"), day(2026, 3, 9))
        XCTAssertEqual(parsed("a week ago"), day(2026, 3, 4))
        XCTAssertEqual(parsed("3 weeks ago"), day(2026, 2, 18))
        XCTAssertEqual(parsed("2 months ago"), day(2026, 1, 11))
        XCTAssertEqual(parsed("one year ago"), day(2025, 3, 11))
    }

    func testDaysWithATime() {
        XCTAssertEqual(parsed("yesterday 9pm"), instant("2026-03-10T21:00:00Z"))
        XCTAssertEqual(parsed("yesterday at 9:30am"), instant("2026-03-10T09:30:00Z"))
        XCTAssertEqual(parsed("tomorrow 14:05"), instant("2026-03-12T14:05:00Z"))
        XCTAssertEqual(parsed("today 12am"), instant("2026-03-11T00:00:00Z"))
        XCTAssertEqual(parsed("today 12pm"), instant("2026-03-11T12:00:00Z"))
        XCTAssertEqual(parsed("7 pm"), instant("2026-03-11T19:00:00Z"), "a time alone is today")
    }

    func testWeekdaysAreTheMostRecent() {
        XCTAssertEqual(parsed("friday"), day(2026, 3, 6))
        XCTAssertEqual(parsed("Monday"), day(2026, 3, 9))
        XCTAssertEqual(parsed("sun"), day(2026, 3, 8))
        XCTAssertEqual(parsed("wednesday"), day(2026, 3, 11), "today included")
        XCTAssertEqual(parsed("last wednesday"), day(2026, 3, 4), "today excluded")
        XCTAssertEqual(parsed("last monday"), day(2026, 3, 9))
        XCTAssertEqual(parsed("last saturday 8am"), instant("2026-03-07T08:00:00Z"))
    }

    func testMonthNames() {
        XCTAssertEqual(parsed("Feb 22"), day(2026, 2, 22))
        XCTAssertEqual(parsed("22 Feb"), day(2026, 2, 22))
        XCTAssertEqual(parsed("december 24th"), day(2025, 12, 24), "the most recent one")
        XCTAssertEqual(parsed("Sept. 3 9pm"), instant("2025-09-03T21:00:00Z"))
        XCTAssertEqual(parsed("February 22, 2023 9 pm"), instant("2023-02-22T21:00:00Z"))
        XCTAssertEqual(parsed("22 feb 2023"), day(2023, 2, 22))
        XCTAssertEqual(parsed("Feb 22 at 9:15am"), instant("2026-02-22T09:15:00Z"))
        XCTAssertEqual(parsed("Mar 11"), day(2026, 3, 11), "today included")
        XCTAssertEqual(parsed("Mar 12"), day(2025, 3, 12), "tomorrow is last year's")
    }

    func testFebruaryTwentyNinthWithoutAYearIsTheMostRecentOne() {
        for text in ["Feb 29", "29 Feb", "february 29th"] {
            XCTAssertEqual(parsed(text, at: Fixed.noon(2026, 3, 10)), day(2024, 2, 29), text)
            XCTAssertEqual(parsed(text, at: Fixed.noon(2025, 1, 15)), day(2024, 2, 29), text)
            XCTAssertEqual(parsed(text, at: Fixed.noon(2028, 3, 1)), day(2028, 2, 29), text)
            XCTAssertEqual(parsed(text, at: Fixed.noon(2028, 2, 28)), day(2024, 2, 29), text)
            XCTAssertEqual(parsed(text, at: Fixed.noon(2028, 2, 29)), day(2028, 2, 29), text)
        }
        // 2100 is not a leap year: the most recent February 29th before March 2101 is in 2096.
        XCTAssertEqual(parsed("Feb 29", at: Fixed.noon(2101, 3, 1)), day(2096, 2, 29))
    }

    func testADayNoYearHasIsStillRefused() {
        for text in ["Feb 30", "31 Apr", "feb 29 2026"] {
            XCTAssertNil(parsed(text, at: Fixed.noon(2026, 3, 10)), text)
        }
    }

    func testOtherDaysWithoutAYearAreTheMostRecent() {
        XCTAssertEqual(parsed("Dec 24", at: Fixed.noon(2026, 1, 5)), day(2025, 12, 24))
        XCTAssertEqual(parsed("Mar 10", at: Fixed.noon(2026, 3, 10)), day(2026, 3, 10))
    }

    func testMonthNamesInTheLocaleAndInEnglish() {
        XCTAssertEqual(parsed("22 Februar 2024", in: Fixed.context("de_DE")), day(2024, 2, 22))
        XCTAssertEqual(parsed("3 mars 2024 9pm", in: Fixed.context("fr_FR")), instant("2024-03-03T21:00:00Z"))
        XCTAssertEqual(parsed("Feb 22 2024", in: Fixed.context("de_DE")), day(2024, 2, 22), "English in any locale")
        XCTAssertNil(parsed("22 Februar 2024"), "another locale's names are not English")
    }

    func testISOForms() {
        XCTAssertEqual(parsed("2024-03-01"), day(2024, 3, 1))
        XCTAssertEqual(parsed("2024-03-01T10:15"), instant("2024-03-01T10:15:00Z"))
        XCTAssertEqual(parsed("2024-03-01 10:15:30"), instant("2024-03-01T10:15:30Z"))
        XCTAssertEqual(parsed("2024-03-01T10:15+09:00"), instant("2024-03-01T01:15:00Z"))
        XCTAssertEqual(parsed("2024-03-01T10:15-0230"), instant("2024-03-01T12:45:00Z"))
        XCTAssertEqual(parsed("2024-02-22T15:00+09:00"), instant("2024-02-22T06:00:00Z"))
        XCTAssertEqual(parsed("2024-03-01T00:00Z"), instant("2024-03-01T00:00:00Z"), "an instant, not a day")
    }

    func testNowAndHoursAgoAreInstants() {
        XCTAssertEqual(parsed("now"), .instant(Fixed.now))
        XCTAssertEqual(parsed("5 hours ago"), .instant(Fixed.now.addingTimeInterval(-5 * 3600)))
        XCTAssertEqual(parsed("an hour ago"), .instant(Fixed.now.addingTimeInterval(-3600)))
        XCTAssertEqual(parsed("30 mins ago"), .instant(Fixed.now.addingTimeInterval(-1800)))
    }

    func testAnythingElseIsRefused() {
        for bad in [
            "blah", "feb 30", "13pm", "25:00", "yesterday 9", "2 fortnights ago", "last", "2024-02-30",
            "friday friday", "99 feb", "", "2024-13-01", "2024-02-22T24:00", "2024-02-22T15:00+19:00",
            "12345 days ago", "9:60pm", "0am",
        ] {
            XCTAssertNil(parsed(bad), "'\(bad)'")
        }
    }

    /// Days and local times are those of the context's time zone.
    func testTheTimeZoneIsTheContexts() {
        let seoul = Fixed.context(zone: "Asia/Seoul")
        XCTAssertEqual(parsed("2024-03-01T10:15", in: seoul), instant("2024-03-01T01:15:00Z"))
        XCTAssertEqual(parsed("yesterday 9pm", in: seoul), instant("2026-03-11T12:00:00Z"), "the 11th, 21:00 in Seoul")
        // 15:30 UTC on the 11th is already the 12th in Seoul.
        XCTAssertEqual(parsed("today", in: seoul), day(2026, 3, 12))
        let first = DateInput(.day(year: 2024, month: 3, day: 1))
        XCTAssertEqual(first.start(in: seoul.calendar), Fixed.instant("2024-02-29T15:00:00Z"))
        XCTAssertEqual(first.end(in: seoul.calendar), Fixed.instant("2024-03-01T15:00:00Z").addingTimeInterval(-0.001))
    }

    /// A day as a range bound covers the whole day; an instant is itself.
    func testADayCountsWhole() {
        let day = DateInput(.day(year: 2023, month: 9, day: 16))
        XCTAssertTrue(day.isDay)
        XCTAssertEqual(day.start(in: Fixed.utc), Fixed.instant("2023-09-16T00:00:00Z"))
        XCTAssertEqual(day.end(in: Fixed.utc), Fixed.instant("2023-09-17T00:00:00Z").addingTimeInterval(-0.001))
        let moment = DateInput(.instant(Fixed.now))
        XCTAssertFalse(moment.isDay)
        XCTAssertEqual(moment.start(in: Fixed.utc), Fixed.now)
        XCTAssertEqual(moment.end(in: Fixed.utc), Fixed.now)
        XCTAssertEqual(DateInput(dayOf: Fixed.now, calendar: Fixed.utc).value, .day(year: 2026, month: 3, day: 11))
    }
}
