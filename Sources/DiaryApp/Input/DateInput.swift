import Foundation

/// A date as typed: ISO 8601 (`2024-02-22`, `2024-02-22T15:00`, `2024-02-22T15:00:30`, with `Z`
/// or an offset such as `+09:00`), or as people say it (`yesterday 9pm`, `2 days ago`,
/// `last monday`, `Feb 22`: `SpokenDate`), or as `list` prints it in the user's locale
/// (`2026년 11월 25일`: `LocaleDate`).
///
/// A date without a time means a whole local day: as an entry's date (`new --date`) it is that
/// calendar day wherever the vault is read (`CalendarDay` in DiaryVault); as the upper end of a
/// range (`--to`) it is the end of that day, so `--to 2024-02-22` includes entries written that
/// afternoon. Anything else is nil, which the CLI reports as a usage error.
public struct DateInput: Equatable, Sendable {
    /// A local calendar day, or an exact instant.
    public enum Value: Equatable, Sendable {
        case day(year: Int, month: Int, day: Int)
        case instant(Date)
    }

    public let value: Value

    public init(_ value: Value) { self.value = value }

    /// The local calendar day holding `date` in `calendar` (an instant counts as its day).
    public init(dayOf date: Date, calendar: Calendar) {
        let day = ProlepticGregorian.day(of: date, in: calendar)
        self.init(.day(year: day.year, month: day.month, day: day.day))
    }

    /// True when the date is a whole calendar day (no time given).
    public var isDay: Bool {
        if case .day = value { return true }
        return false
    }

    /// The start of the day in `calendar`'s time zone, or the instant.
    public func start(in calendar: Calendar) -> Date {
        switch value {
        case .instant(let date): return date
        case .day(let y, let m, let d):
            return ProlepticGregorian.date(DateComponents(year: y, month: m, day: d), in: calendar)!
        }
    }

    /// The last instant of the day in `calendar`'s time zone, or the instant itself.
    public func end(in calendar: Calendar) -> Date {
        switch value {
        case .instant(let date): return date
        case .day:
            let next = calendar.date(byAdding: .day, value: 1, to: start(in: calendar))!
            return next.addingTimeInterval(-0.001)
        }
    }

    /// Parses the accepted forms; relative ones count from `now`, days and local times are
    /// those of `context`'s time zone, month names those of its locale (and English).
    public static func parse(_ text: String, now: Date, in context: LocaleCalendar) -> DateInput? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        return parseISO(trimmed, calendar: context.calendar)
            ?? SpokenDate.parse(trimmed, now: now, in: context)
            ?? LocaleDate.parse(trimmed, now: now, in: context)
    }

    private static func parseISO(_ text: String, calendar: Calendar) -> DateInput? {
        let pattern = #"^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?(Z|[+-]\d{2}:?\d{2})?)?$"#
        guard let regex = try? NSRegularExpression(pattern: pattern),
            let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text))
        else { return nil }
        func group(_ i: Int) -> String? {
            guard let range = Range(match.range(at: i), in: text) else { return nil }
            return String(text[range])
        }
        guard let y = Int(group(1)!), let m = Int(group(2)!), let d = Int(group(3)!),
            (1...12).contains(m), (1...31).contains(d)
        else { return nil }
        guard let hourText = group(4) else {
            guard ProlepticGregorian.isValid(y, m, d) else { return nil }
            return DateInput(.day(year: y, month: m, day: d))
        }
        let hour = Int(hourText)!, minute = Int(group(5)!)!, second = group(6).flatMap { Int($0) } ?? 0
        guard hour < 24, minute < 60, second < 60, ProlepticGregorian.isValid(y, m, d) else { return nil }
        var cal = calendar
        if let zone = group(7) {
            guard let tz = timeZone(zone) else { return nil }
            cal.timeZone = tz
        }
        let components = DateComponents(year: y, month: m, day: d, hour: hour, minute: minute, second: second)
        guard let date = ProlepticGregorian.date(components, in: cal) else { return nil }
        return DateInput(.instant(date))
    }

    private static func timeZone(_ text: String) -> TimeZone? {
        if text == "Z" { return TimeZone(secondsFromGMT: 0) }
        let sign = text.hasPrefix("-") ? -1 : 1
        let digits = text.dropFirst().replacingOccurrences(of: ":", with: "")
        guard digits.count == 4, let hh = Int(digits.prefix(2)), let mm = Int(digits.suffix(2)),
            hh <= 18, mm < 60
        else { return nil }
        return TimeZone(secondsFromGMT: sign * (hh * 3600 + mm * 60))
    }
}
