import DiaryApp
import Foundation
import XCTest

/// The one calendar-day type: days counted from 1970-01-01 without a Calendar, weekdays,
/// month lengths, and the day an instant falls on in a time zone.
final class CalendarDayTests: XCTestCase {
    func testOrdinalsCountDaysSince1970AndInvert() {
        XCTAssertEqual(CalendarDay(year: 1970, month: 1, day: 1).ordinal, 0)
        XCTAssertEqual(CalendarDay(year: 1969, month: 12, day: 31).ordinal, -1)
        XCTAssertEqual(
            CalendarDay(year: 2024, month: 3, day: 1).ordinal - CalendarDay(year: 2024, month: 2, day: 28).ordinal, 2)
        XCTAssertEqual(CalendarDay(year: 2000, month: 3, day: 1).ordinal, 11_017)
        // Every day from 1900 to 2100 and back, against Foundation's Gregorian calendar.
        let utc = Fixed.utc
        var date = utc.date(from: DateComponents(year: 1900, month: 1, day: 1))!
        var ordinal = CalendarDay(year: 1900, month: 1, day: 1).ordinal
        while ordinal < CalendarDay(year: 2101, month: 1, day: 1).ordinal {
            let day = CalendarDay(date, calendar: utc)
            XCTAssertEqual(day.ordinal, ordinal, day.iso)
            XCTAssertEqual(CalendarDay(ordinal: ordinal), day)
            date = utc.date(byAdding: .day, value: 1, to: date)!
            ordinal += 1
        }
    }

    func testWeekdaysMonthLengthsAndISO() {
        XCTAssertEqual(CalendarDay(year: 1970, month: 1, day: 1).weekday, 5, "a Thursday")
        XCTAssertEqual(CalendarDay(year: 2026, month: 3, day: 11).weekday, 4, "a Wednesday")
        XCTAssertEqual(CalendarDay(year: 1900, month: 1, day: 7).weekday, 1, "a Sunday, before 1970")
        XCTAssertEqual(CalendarDay.daysIn(month: 2, year: 2024), 29)
        XCTAssertEqual(CalendarDay.daysIn(month: 2, year: 2100), 28)
        XCTAssertEqual(CalendarDay.daysIn(month: 2, year: 2000), 29)
        XCTAssertEqual(CalendarDay.daysIn(month: 4, year: 2023), 30)
        XCTAssertEqual(CalendarDay(year: 2024, month: 3, day: 1).iso, "2024-03-01")
        XCTAssertLessThan(CalendarDay(year: 2023, month: 12, day: 31), CalendarDay(year: 2024, month: 1, day: 1))
    }

    /// An instant belongs to the day it falls on in the time zone: 23:00 UTC on New Year's Eve
    /// is already New Year's Day in Seoul.
    func testTheDayOfAnInstantIsTheTimeZones() {
        let eve = Fixed.instant("2023-12-31T23:00:00Z")
        XCTAssertEqual(CalendarDay(eve, calendar: Fixed.utc), CalendarDay(year: 2023, month: 12, day: 31))
        let seoul = Fixed.context(zone: "Asia/Seoul").calendar
        XCTAssertEqual(CalendarDay(eve, calendar: seoul), CalendarDay(year: 2024, month: 1, day: 1))
        XCTAssertEqual(CalendarDay(year: 2024, month: 1, day: 1).noon(in: seoul), Fixed.instant("2024-01-01T03:00:00Z"))
    }
}
