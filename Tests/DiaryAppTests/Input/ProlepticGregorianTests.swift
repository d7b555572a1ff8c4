import DiaryApp
import DiaryVault
import Foundation
import XCTest

/// One calendar both ways (issue 22: `new --date 0001-01-01` was listed as `Jan 3, 1`): days
/// before 1582 are Gregorian when parsed, when turned into instants and back, and when printed,
/// as ISO 8601 and the vault's format count them.
final class ProlepticGregorianTests: XCTestCase {
    /// 0001-01-01T00:00:00Z, the first instant the vault stores (FORMAT.md §1).
    private let yearOne = Date(timeIntervalSince1970: -62_135_596_800)

    func testEarlyDaysAreGregorianInstants() throws {
        let first = try XCTUnwrap(DateInput.parse("0001-01-01", now: Fixed.now, in: Fixed.context()))
        XCTAssertEqual(first.start(in: Fixed.utc), yearOne)
        let noonTokyo = try XCTUnwrap(DateInput.parse("1000-06-01T12:00+09:00", now: Fixed.now, in: Fixed.context()))
        let day = Double(CalendarDay(year: 1000, month: 6, day: 1).ordinal)
        XCTAssertEqual(noonTokyo.start(in: Fixed.utc), Date(timeIntervalSince1970: day * 86_400 + 3 * 3600))
    }

    func testDaysRoundTripThroughInstantsInAnyTimeZone() throws {
        for zone in ["UTC", "Asia/Seoul", "America/Los_Angeles"] {
            let calendar = Fixed.context(zone: zone).calendar
            for (y, m, d) in [(1, 1, 1), (1000, 6, 1), (1582, 10, 4), (1582, 10, 10), (1582, 10, 15), (2024, 2, 29)] {
                let day = DateInput(.day(year: y, month: m, day: d))
                XCTAssertEqual(
                    DateInput(dayOf: day.start(in: calendar), calendar: calendar), day, "\(y)-\(m)-\(d) \(zone)")
                XCTAssertEqual(
                    DateInput(dayOf: day.end(in: calendar), calendar: calendar), day, "\(y)-\(m)-\(d) \(zone)")
            }
        }
    }

    /// 1582-10-10 falls in the ten days Foundation's calendar skips; it is a Gregorian day.
    func testTheDaysOfTheJulianSwitchExist() {
        XCTAssertNotNil(DateInput.parse("1582-10-10", now: Fixed.now, in: Fixed.context()))
        XCTAssertNotNil(DateInput.parse("Oct 10 1582", now: Fixed.now, in: Fixed.context()))
        XCTAssertTrue(ProlepticGregorian.isValid(1582, 10, 10))
        XCTAssertTrue(ProlepticGregorian.isValid(1600, 2, 29))
        XCTAssertFalse(ProlepticGregorian.isValid(1500, 2, 29), "a Julian leap day, not a Gregorian one")
        XCTAssertNil(DateInput.parse("1500-02-29", now: Fixed.now, in: Fixed.context()))
    }

    func testTheLocaleFormatterPrintsWhatWasParsed() throws {
        let context = Fixed.context()
        let formatter = context.formatter(template: LocaleCalendar.dayTemplate)
        XCTAssertEqual(formatter.string(from: yearOne), "Jan 1, 1")
        let cutover = try XCTUnwrap(DateInput.parse("1582-10-10", now: Fixed.now, in: context))
        XCTAssertEqual(formatter.string(from: cutover.start(in: context.calendar)), "Oct 10, 1582")
        // What list prints is what --on reads back.
        let printed = formatter.string(from: yearOne)
        XCTAssertEqual(DateInput.parse(printed, now: Fixed.now, in: context)?.value, .day(year: 1, month: 1, day: 1))
    }

    /// Foundation's calendar names days before 1582-10-15 in the Julian calendar; read through
    /// `ProlepticGregorian` they are the Gregorian days of the same instants.
    func testFoundationsJulianDaysAreReadAsGregorian() throws {
        let foundation = Fixed.utc
        let julianLastDay = try XCTUnwrap(foundation.date(from: DateComponents(year: 1582, month: 10, day: 4)))
        XCTAssertEqual(
            ProlepticGregorian.day(of: julianLastDay, in: foundation), CalendarDay(year: 1582, month: 10, day: 14))
        let julianThird = try XCTUnwrap(foundation.date(from: DateComponents(year: 1, month: 1, day: 3)))
        XCTAssertEqual(ProlepticGregorian.day(of: julianThird, in: foundation), CalendarDay(year: 1, month: 1, day: 1))
        let modern = Fixed.instant("2024-02-29T12:00:00Z")
        XCTAssertEqual(ProlepticGregorian.day(of: modern, in: foundation), CalendarDay(year: 2024, month: 2, day: 29))
    }
}
