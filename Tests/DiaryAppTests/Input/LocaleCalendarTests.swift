import DiaryApp
import Foundation
import XCTest

/// The locale comes from LC_ALL, else LC_TIME, else LANG (not Foundation's `Locale.current`,
/// which ignores them on Linux); days are printed with the `yMMMd` template in it, on the
/// Gregorian calendar whatever the locale's own.
final class LocaleCalendarTests: XCTestCase {
    private func identifier(_ environment: [String: String]) -> String {
        LocaleCalendar.localeIdentifier(environment: environment)
    }

    func testLCAllWinsOverLCTimeWhichWinsOverLang() {
        XCTAssertEqual(identifier(["LC_ALL": "ko_KR.UTF-8", "LC_TIME": "de_DE.UTF-8", "LANG": "fr_FR.UTF-8"]), "ko_KR")
        XCTAssertEqual(identifier(["LC_TIME": "de_DE.UTF-8", "LANG": "fr_FR.UTF-8"]), "de_DE")
        XCTAssertEqual(identifier(["LC_ALL": "", "LC_TIME": "", "LANG": "fr_FR.UTF-8"]), "fr_FR", "empty ones skipped")
        XCTAssertEqual(identifier(["LANG": "de_DE@euro"]), "de_DE")
    }

    func testPOSIXAndNothingAreEnglish() {
        XCTAssertEqual(identifier(["LC_ALL": "C"]), "en_US_POSIX")
        XCTAssertEqual(identifier(["LC_ALL": "POSIX"]), "en_US_POSIX")
        XCTAssertEqual(identifier(["LC_ALL": "C.UTF-8"]), "en_US_POSIX")
        XCTAssertEqual(identifier([:]), "en_US_POSIX")
    }

    private func day(_ locale: String, _ date: Date = Fixed.instant("2023-09-15T15:00:00Z")) -> String {
        Fixed.context(locale).formatter(template: LocaleCalendar.dayTemplate).string(from: date)
    }

    func testADayInTheLocale() {
        XCTAssertEqual(day("ko_KR"), "2023년 9월 15일")
        XCTAssertEqual(day("de_DE"), "15. Sept. 2023")
        XCTAssertEqual(day("en_US_POSIX"), "Sep 15, 2023")
        XCTAssertEqual(day("fr_FR"), "15 sept. 2023")
    }

    func testADayAndTimeInTheLocale() {
        let shown = Fixed.context("de_DE").formatter(template: LocaleCalendar.dayAndTimeTemplate)
            .string(from: Fixed.instant("2023-09-15T15:00:00Z"))
        XCTAssertTrue(shown.contains("15:00"), shown)
        XCTAssertTrue(shown.contains("2023"), shown)
    }

    /// The day is that of the context's time zone: 15:00 UTC is already the 16th in Seoul.
    func testTheDayIsTheTimeZones() {
        let seoul = Fixed.context("en_US_POSIX", zone: "Asia/Seoul")
        XCTAssertEqual(
            seoul.formatter(template: LocaleCalendar.dayTemplate).string(from: Fixed.instant("2023-09-15T15:00:00Z")),
            "Sep 16, 2023")
    }

    /// Locales whose default calendar is another (Persian, Hijri) name the Gregorian months.
    func testMonthNamesAreGregorianInLocalesWithAnotherCalendar() {
        let november = Fixed.instant("2024-11-25T12:00:00Z")
        XCTAssertTrue(day("fa_IR", november).contains("نوامبر"), day("fa_IR", november))
        XCTAssertTrue(day("ar_SA", november).contains("نوفمبر"), day("ar_SA", november))
        XCTAssertEqual(Fixed.context("fa_IR").localizedCalendar.identifier, .gregorian)
    }

    func testWeekdayNamesStartOnSundayInTheLocale() {
        XCTAssertEqual(Fixed.context("de_DE").weekdayNames.first, "Sonntag")
        XCTAssertEqual(
            Fixed.context().weekdayNames,
            [
                "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday",
                "Friday", "Saturday",
            ])
    }
}
