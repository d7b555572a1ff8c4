import DiaryApp
import Foundation

/// Formats dates for people (in their locale) and for machines (ISO 8601 with offset), with
/// DiaryApp's `LocaleCalendar`: the locale from `LC_ALL`/`LC_TIME`/`LANG`, the time zone `TZ`.
enum DateOutput {
    /// The process's locale and time zone, read once: the environment and the time zone do not
    /// change while a command runs.
    static let context = LocaleCalendar.current(environment: ProcessInfo.processInfo.environment)

    /// The user's locale, always with the Gregorian calendar (`LocaleCalendar.locale`).
    static var locale: Locale { context.locale }

    /// The Gregorian calendar in the user's locale (first weekday, names) and time zone.
    static var calendar: Calendar { context.localizedCalendar }

    /// The Gregorian calendar in the user's time zone, without the locale: what days are
    /// counted in (`--date`, `--from`/`--to`, `calendar`, `stats`).
    static var dayCalendar: Calendar { context.calendar }

    /// A formatter for the user's locale on the Gregorian calendar.
    static func formatter() -> DateFormatter { context.formatter() }

    /// A day in the user's locale, e.g. `Sep 15, 2023`, `15. Sept. 2023`, `2023년 9월 15일`
    /// (`LocaleCalendar.dayTemplate`).
    static func day(_ date: Date) -> String { dayFormatter.string(from: date) }

    /// A day and time in the user's locale, for `show`.
    static func dayAndTime(_ date: Date) -> String { dayAndTimeFormatter.string(from: date) }

    /// ISO 8601 with the local offset, e.g. `2024-02-22T15:00:00+01:00`, for `--json`.
    static func iso(_ date: Date) -> String { isoFormatter.string(from: date) }

    // Each formatter is built once per process, on first use: building one (locale lookup,
    // template resolution by ICU) cost more than formatting a date, once per listed line.
    // (The ISO formatter is not declared Sendable; one command runs on one thread, which
    // alone uses it.)
    private static let dayFormatter = context.formatter(template: LocaleCalendar.dayTemplate)
    private static let dayAndTimeFormatter = context.formatter(template: LocaleCalendar.dayAndTimeTemplate)
    nonisolated(unsafe) private static let isoFormatter: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone.current
        formatter.formatOptions = [.withInternetDateTime]
        return formatter
    }()
}
