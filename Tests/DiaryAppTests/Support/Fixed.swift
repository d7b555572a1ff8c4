import DiaryApp
import Foundation

/// A fixed "now", time zone and locale, so that what the tests expect does not depend on the
/// machine or the moment they run.
enum Fixed {
    /// Wednesday, March 11, 2026, 15:30 UTC.
    static let now = instant("2026-03-11T15:30:00Z")

    /// `en_US_POSIX` in UTC, unless told otherwise.
    static func context(_ locale: String = "en_US_POSIX", zone: String = "UTC") -> LocaleCalendar {
        LocaleCalendar(localeIdentifier: locale, timeZone: TimeZone(identifier: zone)!)
    }

    static var utc: Calendar { context().calendar }

    /// `2024-03-01T10:15:00Z` (or with an offset) as an instant.
    static func instant(_ iso: String) -> Date {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: iso) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: iso)!
    }

    /// `now` on another day: noon UTC of `year-month-day`.
    static func noon(_ year: Int, _ month: Int, _ day: Int) -> Date {
        utc.date(from: DateComponents(year: year, month: month, day: day, hour: 12))!
    }
}
