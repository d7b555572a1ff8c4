import Foundation
import XCTest

@testable import diary

/// Spoken dates against a fixed "now" (`DateInput.parse(_:now:)`), for the cases whose answer
/// depends on the year it is: a month and day without a year is the most recent such day.
final class SpokenDateNowTests: XCTestCase {
    private func now(_ year: Int, _ month: Int, _ day: Int) -> Date {
        DateInput.calendar.date(from: DateComponents(year: year, month: month, day: day, hour: 12))!
    }

    private func parsed(_ text: String, at now: Date, file: StaticString = #filePath, line: UInt = #line) -> DateInput.Value? {
        DateInput.parse(text, now: now)?.value
    }

    func testFebruaryTwentyNinthWithoutAYearIsTheMostRecentOne() {
        for text in ["Feb 29", "29 Feb", "february 29th"] {
            XCTAssertEqual(parsed(text, at: now(2026, 3, 10)), .day(year: 2024, month: 2, day: 29), text)
            XCTAssertEqual(parsed(text, at: now(2025, 1, 15)), .day(year: 2024, month: 2, day: 29), text)
            XCTAssertEqual(parsed(text, at: now(2028, 3, 1)), .day(year: 2028, month: 2, day: 29), text)
            XCTAssertEqual(parsed(text, at: now(2028, 2, 28)), .day(year: 2024, month: 2, day: 29), text)
            XCTAssertEqual(parsed(text, at: now(2028, 2, 29)), .day(year: 2028, month: 2, day: 29), text)
        }
        // 2100 is not a leap year: the most recent February 29th before March 2101 is in 2096.
        XCTAssertEqual(parsed("Feb 29", at: now(2101, 3, 1)), .day(year: 2096, month: 2, day: 29))
    }

    func testADayNoYearHasIsStillRefused() {
        for text in ["Feb 30", "31 Apr", "feb 29 2026"] {
            XCTAssertNil(parsed(text, at: now(2026, 3, 10)), text)
        }
    }

    func testOtherDaysWithoutAYearAreUnchanged() {
        XCTAssertEqual(parsed("Dec 24", at: now(2026, 1, 5)), .day(year: 2025, month: 12, day: 24))
        XCTAssertEqual(parsed("Mar 10", at: now(2026, 3, 10)), .day(year: 2026, month: 3, day: 10))
    }
}
