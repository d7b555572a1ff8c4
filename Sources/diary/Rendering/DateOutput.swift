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
    /// (`LocaleCalendar.dayTemplate`); the config's `date.format` when it is set.
    static func day(_ date: Date) -> String { (patternFormatter ?? dayFormatter).string(from: date) }

    /// A day and time in the user's locale, for `show`; the config's `date.format` when set.
    static func dayAndTime(_ date: Date) -> String { (patternFormatter ?? dayAndTimeFormatter).string(from: date) }

    /// True when the config's `date.format` sets how dates are printed: `list` then prints
    /// the pattern alone, without its own time column.
    static var hasPattern: Bool { patternFormatter != nil }

    /// A time of day in the user's locale, e.g. `9:15 PM`, `21:15`, for `list`. ICU puts a
    /// narrow no-break space before `PM`; a plain one is what people type and grep for.
    static func time(_ date: Date) -> String {
        String(timeFormatter.string(from: date).map { $0.isWhitespace ? " " : $0 })
    }

    /// ISO 8601 with the local offset, e.g. `2024-02-22T15:00:00+01:00`, for `--json`.
    static func iso(_ date: Date) -> String { isoFormatter.string(from: date) }

    // Each formatter is built once per process, on first use: building one (locale lookup,
    // template resolution by ICU) cost more than formatting a date, once per listed line.
    // (The ISO formatter is not declared Sendable; one command runs on one thread, which
    // alone uses it.)
    // `date.format` (checked when the config was read), in the user's locale and time zone.
    private static let patternFormatter: DateFormatter? = Settings.forOutput.dateFormat.map { pattern in
        let formatter = context.formatter()
        formatter.dateFormat = pattern
        return formatter
    }
    private static let dayFormatter = context.formatter(template: LocaleCalendar.dayTemplate)
    private static let dayAndTimeFormatter = context.formatter(template: LocaleCalendar.dayAndTimeTemplate)
    private static let timeFormatter = context.formatter(template: LocaleCalendar.timeTemplate)
    // A DateFormatter, not ISO8601DateFormatter: that one counts days before 1582 in the Julian
    // calendar (0001-01-01 would read 0001-01-03); this one is Gregorian throughout, as
    // `LocaleCalendar.formatter` is.
    private static let isoFormatter: DateFormatter = {
        let formatter = LocaleCalendar(localeIdentifier: "en_US_POSIX", timeZone: TimeZone.current).formatter()
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ssXXXXX"
        return formatter
    }()
}
