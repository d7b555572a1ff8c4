import Foundation

/// Gregorian days before 1582 too: what diary parses and prints, one calendar both ways.
///
/// Foundation's `Calendar(identifier: .gregorian)` switches to the Julian calendar before
/// 1582-10-15 (and offers no public way to move that switch), while ISO 8601, the vault's
/// format (FORMAT.md §1: times from 0001-01-01T00:00:00Z) and `CalendarDay` count the
/// Gregorian calendar backwards. Days and instants go through here, so `new --date 0001-01-01`
/// is listed as Jan 1, 1 and found by `list --on 0001-01-01`; the calendar is still asked for
/// what it does well (time zones, daylight saving), with days it agrees on.
public enum ProlepticGregorian {
    /// The first day Foundation's calendar counts as Gregorian.
    static let cutover = CalendarDay(year: 1582, month: 10, day: 15)

    /// The instant of a Gregorian year, month, day and time (taken from `components`, time
    /// zone included when given) in `calendar`'s time zone; nil for a day that does not exist.
    public static func date(_ components: DateComponents, in calendar: Calendar) -> Date? {
        guard let y = components.year, let m = components.month, let d = components.day, isValid(y, m, d) else {
            return nil
        }
        let day = CalendarDay(year: y, month: m, day: d)
        guard day < cutover else { return calendar.date(from: components) }
        // The same time of day on 1970-01-01, moved by whole days: day arithmetic does not
        // care which calendar names the days.
        var epoch = components
        (epoch.year, epoch.month, epoch.day) = (1970, 1, 1)
        guard let base = calendar.date(from: epoch) else { return nil }
        return calendar.date(byAdding: .day, value: day.ordinal, to: base)
    }

    /// The Gregorian year, month, day, hour, minute and second of `date` in `calendar`'s time
    /// zone.
    public static func components(of date: Date, in calendar: Calendar) -> DateComponents {
        var c = calendar.dateComponents([.era, .year, .month, .day, .hour, .minute, .second], from: date)
        let shown = CalendarDay(year: c.era == 0 ? 1 - c.year! : c.year!, month: c.month!, day: c.day!)
        if shown < cutover {
            let day = CalendarDay(ordinal: julianOrdinal(shown))
            (c.year, c.month, c.day) = (day.year, day.month, day.day)
        }
        c.era = nil
        return c
    }

    /// The Gregorian day of `date` in `calendar`'s time zone.
    public static func day(of date: Date, in calendar: Calendar) -> CalendarDay {
        let c = components(of: date, in: calendar)
        return CalendarDay(year: c.year!, month: c.month!, day: c.day!)
    }

    /// True for a day the Gregorian calendar has (no 2023-02-29, and 1582-10-10 is one).
    public static func isValid(_ year: Int, _ month: Int, _ day: Int) -> Bool {
        year >= 1 && (1...12).contains(month) && day >= 1 && day <= CalendarDay.daysIn(month: month, year: year)
    }

    /// Days since 1970-01-01 of a day of the Julian calendar (its day number, less 1970's).
    static func julianOrdinal(_ day: CalendarDay) -> Int {
        let a = (14 - day.month) / 12
        let y = day.year + 4800 - a
        let m = day.month + 12 * a - 3
        let julianDayNumber = day.day + (153 * m + 2) / 5 + 365 * y + y / 4 - 32083
        return julianDayNumber - 2_440_588
    }
}
