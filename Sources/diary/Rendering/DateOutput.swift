import DiaryApp
import Foundation

/// Formats dates for people (in their locale) and for machines (ISO 8601 with offset).
///
/// Why not `Locale.current`: on Linux, Foundation ignores `LC_ALL`/`LC_TIME`/`LANG` and reports
/// `en_001` even under `LC_ALL=ko_KR.UTF-8`, so the locale is read from the environment here.
enum DateOutput {
    /// The locale identifier from `LC_ALL`, else `LC_TIME`, else `LANG` (the POSIX precedence),
    /// with the codeset and modifier removed: `ko_KR.UTF-8` → `ko_KR`, `de_DE@euro` → `de_DE`.
    /// `C`, `POSIX` and nothing at all give `en_US_POSIX`.
    static func localeIdentifier(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let raw = ["LC_ALL", "LC_TIME", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        var identifier = raw
        if let cut = identifier.firstIndex(where: { $0 == "." || $0 == "@" }) {
            identifier = String(identifier[..<cut])
        }
        if identifier.isEmpty || identifier == "C" || identifier == "POSIX" { return "en_US_POSIX" }
        return identifier
    }

    /// The user's locale, always with the Gregorian calendar: entries, `--on`, the calendar's
    /// rows and the stats are Gregorian days, so a locale whose default calendar is another
    /// (`fa_IR`: Persian, `ar_SA`: Hijri, `th_TH`: Buddhist) gives its names of the Gregorian
    /// months, not the months of its own calendar (glibc's locales are Gregorian too).
    static var locale: Locale { Locale(identifier: localeIdentifier() + "@calendar=gregorian") }

    /// The Gregorian calendar in the user's locale (first weekday, names) and time zone.
    static var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.locale = locale
        calendar.timeZone = TimeZone.current
        return calendar
    }

    /// A formatter for the user's locale on the Gregorian calendar (`DateOutput.calendar`).
    static func formatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.calendar = calendar
        formatter.timeZone = TimeZone.current
        return formatter
    }

    /// A day in the user's locale, e.g. `Sep 15, 2023`, `15. Sept. 2023`, `2023년 9월 15일`.
    ///
    /// Why a template rather than `dateStyle = .medium`: the medium style is numeric in some
    /// locales (Korean `2023. 9. 15.`); the `yMMMd` template keeps the month name everywhere and
    /// still lets the locale order the parts.
    static func day(_ date: Date) -> String { dayFormatter.string(from: date) }

    /// A day and time in the user's locale, for `show`.
    static func dayAndTime(_ date: Date) -> String { dayAndTimeFormatter.string(from: date) }

    /// ISO 8601 with the local offset, e.g. `2024-02-22T15:00:00+01:00`, for `--json`.
    static func iso(_ date: Date) -> String { isoFormatter.string(from: date) }

    // Each formatter is built once per process, on first use: building one (locale lookup,
    // template resolution by ICU) cost more than formatting a date, once per listed line.
    // The environment and the time zone do not change while a command runs. (The ISO
    // formatter is not declared Sendable; one command runs on one thread, which alone uses it.)
    static let dayTemplate = "yMMMd"
    private static let dayFormatter = formatter(template: dayTemplate)
    private static let dayAndTimeFormatter = formatter(template: "yMMMdjmm")
    nonisolated(unsafe) private static let isoFormatter: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone.current
        formatter.formatOptions = [.withInternetDateTime]
        return formatter
    }()

    /// A formatter for a template (`yMMMd`), in the user's locale on the Gregorian calendar;
    /// `LocaleDate` parses with the same ones `list` prints with.
    static func formatter(template: String) -> DateFormatter {
        let formatter = formatter()
        formatter.setLocalizedDateFormatFromTemplate(template)
        return formatter
    }
}
