import Foundation

/// The user's locale and time zone, with the Gregorian calendar: what dates are parsed in and
/// reported in. A value, so that tests fix both instead of reading the process's.
///
/// Why not `Locale.current`: on Linux, Foundation ignores `LC_ALL`/`LC_TIME`/`LANG` and reports
/// `en_001` even under `LC_ALL=ko_KR.UTF-8`, so the locale is read from the environment.
public struct LocaleCalendar: Sendable {
    /// A locale identifier without codeset or modifier (`ko_KR`, `en_US_POSIX`).
    public let localeIdentifier: String
    public let timeZone: TimeZone

    public init(localeIdentifier: String, timeZone: TimeZone) {
        self.localeIdentifier = localeIdentifier
        self.timeZone = timeZone
    }

    /// The process's: the locale `environment` names (the caller's, so that one place reads
    /// the process's variables), the time zone `TZ` gives.
    public static func current(environment: [String: String]) -> LocaleCalendar {
        LocaleCalendar(localeIdentifier: localeIdentifier(environment: environment), timeZone: TimeZone.current)
    }

    /// The locale identifier from `LC_ALL`, else `LC_TIME`, else `LANG` (the POSIX precedence),
    /// with the codeset and modifier removed: `ko_KR.UTF-8` → `ko_KR`, `de_DE@euro` → `de_DE`.
    /// `C`, `POSIX` and nothing at all give `en_US_POSIX`.
    public static func localeIdentifier(environment: [String: String]) -> String {
        let raw = ["LC_ALL", "LC_TIME", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        var identifier = raw
        if let cut = identifier.firstIndex(where: { $0 == "." || $0 == "@" }) {
            identifier = String(identifier[..<cut])
        }
        if identifier.isEmpty || identifier == "C" || identifier == "POSIX" { return "en_US_POSIX" }
        return identifier
    }

    /// The locale, always with the Gregorian calendar: entries, `--on`, the calendar's rows and
    /// the stats are Gregorian days, so a locale whose default calendar is another (`fa_IR`:
    /// Persian, `ar_SA`: Hijri, `th_TH`: Buddhist) gives its names of the Gregorian months, not
    /// the months of its own calendar (glibc's locales are Gregorian too).
    public var locale: Locale { Locale(identifier: localeIdentifier + "@calendar=gregorian") }

    /// The Gregorian calendar in the time zone, without the locale: the day arithmetic of
    /// parsing and reports (a day's start, `2 weeks ago`), the same in every locale.
    public var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }

    /// The Gregorian calendar in the locale (first weekday, names) and the time zone.
    public var localizedCalendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.locale = locale
        calendar.timeZone = timeZone
        return calendar
    }

    /// A formatter for the locale on the Gregorian calendar (`localizedCalendar`).
    public func formatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.calendar = localizedCalendar
        formatter.timeZone = timeZone
        // Gregorian before 1582 too, as parsing is (`ProlepticGregorian`): the vault's first
        // day, 0001-01-01, is printed so and not as the Julian Jan 3, 1.
        formatter.gregorianStartDate = .distantPast
        return formatter
    }

    /// A formatter for a template (`yMMMd`), in the locale on the Gregorian calendar; `LocaleDate`
    /// parses with the same ones `list` prints with.
    public func formatter(template: String) -> DateFormatter {
        let formatter = formatter()
        formatter.setLocalizedDateFormatFromTemplate(template)
        return formatter
    }

    /// A day, e.g. `Sep 15, 2023`, `15. Sept. 2023`, `2023년 9월 15일`.
    ///
    /// Why a template rather than `dateStyle = .medium`: the medium style is numeric in some
    /// locales (Korean `2023. 9. 15.`); the `yMMMd` template keeps the month name everywhere and
    /// still lets the locale order the parts.
    public static let dayTemplate = "yMMMd"

    /// A day and a time, for `show`.
    public static let dayAndTimeTemplate = "yMMMdjmm"

    /// A time of day, for `list`: the hour as the locale writes it (`9:15 PM`, `21:15`).
    public static let timeTemplate = "jmm"

    /// The weekday names, Sunday first, as they stand alone (a report's label).
    public var weekdayNames: [String] { formatter().standaloneWeekdaySymbols }
}
