import DiaryApp
import Foundation
import XCTest

/// A day written as `list` prints it in the locale is read back (`--on`, `--date`), with or
/// without the year; a day no month has is still refused.
final class LocaleDateTests: XCTestCase {
    private func parsed(_ text: String, _ locale: String) -> DateInput.Value? {
        DateInput.parse(text, now: Fixed.now, in: Fixed.context(locale))?.value
    }

    private func day(_ y: Int, _ m: Int, _ d: Int) -> DateInput.Value { .day(year: y, month: m, day: d) }

    /// What the day formatter prints (what `list` prints) parses back to that day.
    func testTheDayAsPrintedIsAccepted() {
        let expected = [
            "ko_KR": "2026년 11월 25일", "ja_JP": "2026年11月25日", "de_DE": "25. Nov. 2026",
            "ru_RU": "25 нояб. 2026 г.",
        ]
        let noon = Fixed.instant("2026-11-25T12:00:00Z")
        for (locale, typed) in expected {
            let printed = Fixed.context(locale).formatter(template: LocaleCalendar.dayTemplate).string(from: noon)
            // (Russian prints a no-break space before `г.`; as typed, with a plain one, it works too.)
            XCTAssertEqual(String(printed.map { $0.isWhitespace ? " " : $0 }), typed, locale)
            XCTAssertEqual(parsed(printed, locale), day(2026, 11, 25), "\(locale) \(printed)")
            XCTAssertEqual(parsed(typed, locale), day(2026, 11, 25), "\(locale) \(typed)")
        }
    }

    /// Without a year: the most recent such day (now is March 11, 2026).
    func testDayAndMonthWithoutAYearAreTheMostRecent() {
        let cases: [(String, String, DateInput.Value)] = [
            ("ko_KR", "2월 22일", day(2026, 2, 22)), ("ja_JP", "2月22日", day(2026, 2, 22)),
            ("de_DE", "22. Februar", day(2026, 2, 22)), ("de_DE", "22. Feb.", day(2026, 2, 22)),
            ("de_DE", "Mär 3", day(2026, 3, 3)), ("de_DE", "3. März 2024", day(2024, 3, 3)),
            ("ru_RU", "22 февр.", day(2026, 2, 22)), ("ru_RU", "22 февраля", day(2026, 2, 22)),
            ("fr_FR", "22 févr.", day(2026, 2, 22)), ("ko_KR", "12월 24일", day(2025, 12, 24)),
        ]
        for (locale, text, expected) in cases {
            XCTAssertEqual(parsed(text, locale), expected, "\(locale) \(text)")
        }
    }

    func testStillStrict() {
        for (locale, text) in [
            ("de_DE", "30. Feb. 2026"), ("ko_KR", "2월 30일"), ("ja_JP", "2月30日"),
            ("de_DE", "30. Februar"), ("ko_KR", "2026년 13월 1일"), ("de_DE", "Nov."),
        ] {
            XCTAssertNil(parsed(text, locale), "\(locale) \(text)")
        }
    }
}
