import ArgumentParser
import DiaryApp
import Foundation

/// A date typed on the command line: ISO 8601 (`2024-02-22`, `2024-02-22T15:00`,
/// `2024-02-22T15:00:30`, with `Z` or an offset such as `+09:00`), or as people say it
/// (`yesterday 9pm`, `2 days ago`, `last monday`, `Feb 22`: `SpokenDate`), or as `list` prints
/// it in the user's locale (`2026년 11월 25일`: `LocaleDate`).
///
/// A date without a time means a whole local day: as an entry's date (`new --date`) it is that
/// calendar day wherever the vault is read (`CalendarDay` in DiaryVault); as the upper end of a
/// range (`--to`) it is the end of that day, so `--to 2024-02-22` includes entries written that
/// afternoon. Anything else is a usage error (exit 64), reported by ArgumentParser with the
/// option's name and, where the option parses with `DateInput.argument`, the accepted forms.
struct DateInput: ExpressibleByArgument, Equatable, Sendable {
    /// A local calendar day, or an exact instant.
    enum Value: Equatable, Sendable {
        case day(year: Int, month: Int, day: Int)
        case instant(Date)
    }

    let value: Value

    init(_ value: Value) { self.value = value }

    init?(argument: String) {
        guard let parsed = DateInput.parse(argument) else { return nil }
        self = parsed
    }

    static var defaultCompletionKind: CompletionKind { completion }
    static let completion = CompletionKind.list(["now", "today", "yesterday", "tomorrow"])

    /// For `@Option(transform:)`: like `init?(argument:)`, but a date it does not understand
    /// is an error that lists the forms it does.
    static func argument(_ text: String) throws -> DateInput {
        guard let parsed = parse(text) else { throw UnknownDate() }
        return parsed
    }

    struct UnknownDate: Error, CustomStringConvertible {
        var description: String {
            "not a date diary understands. Accepted: 2024-02-22, 2024-02-22T15:00, 2024-02-22T15:00+09:00 "
                + "(ISO 8601); now, today, yesterday, tomorrow; 3 days ago, 2 weeks ago, 5 hours ago; "
                + "friday (the most recent), last friday; Feb 22, 22 Feb, February 22 2023; "
                + "a day may end in a time: yesterday 9pm, friday 14:30; or a date as `diary list` prints it"
        }
    }

    /// True when the date is a whole calendar day (no time given).
    var isDay: Bool {
        if case .day = value { return true }
        return false
    }

    /// The start of the day, or the instant.
    var start: Date {
        switch value {
        case .instant(let date): return date
        case .day(let y, let m, let d):
            return DateInput.calendar.date(from: DateComponents(year: y, month: m, day: d))!
        }
    }

    /// The last instant of the day, or the instant itself.
    var end: Date {
        switch value {
        case .instant(let date): return date
        case .day:
            let next = DateInput.calendar.date(byAdding: .day, value: 1, to: start)!
            return next.addingTimeInterval(-0.001)
        }
    }

    /// The Gregorian calendar in the local time zone (`TZ` is honoured).
    static var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone.current
        return calendar
    }

    /// Parses the accepted forms; `now` is injectable for tests of the relative ones.
    static func parse(_ text: String, now: Date = Date()) -> DateInput? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        return parseISO(trimmed) ?? SpokenDate.parse(trimmed, now: now) ?? LocaleDate.parse(trimmed, now: now)
    }

    private static func parseISO(_ text: String) -> DateInput? {
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
            guard isValidDay(y, m, d) else { return nil }
            return DateInput(.day(year: y, month: m, day: d))
        }
        let hour = Int(hourText)!, minute = Int(group(5)!)!, second = group(6).flatMap { Int($0) } ?? 0
        guard hour < 24, minute < 60, second < 60, isValidDay(y, m, d) else { return nil }
        var cal = calendar
        if let zone = group(7) {
            guard let tz = timeZone(zone) else { return nil }
            cal.timeZone = tz
        }
        let components = DateComponents(year: y, month: m, day: d, hour: hour, minute: minute, second: second)
        guard let date = cal.date(from: components) else { return nil }
        return DateInput(.instant(date))
    }

    /// Rejects 2024-02-30 and friends instead of letting the calendar roll them over.
    private static func isValidDay(_ y: Int, _ m: Int, _ d: Int) -> Bool {
        guard let date = calendar.date(from: DateComponents(year: y, month: m, day: d)) else { return false }
        let back = calendar.dateComponents([.year, .month, .day], from: date)
        return back.year == y && back.month == m && back.day == d
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
