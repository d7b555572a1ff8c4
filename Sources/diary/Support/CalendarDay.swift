import DiaryApp
import DiaryExchange
import Foundation

/// A day of the Gregorian calendar, as the user's time zone sees it: what `calendar` shades and
/// `stats` counts streaks in. Entry dates are instants; an entry belongs to the day on which
/// its date falls in `TZ` (the same calendar `--date` and `--from`/`--to` use).
struct CalendarDay: Hashable, Comparable {
    let year: Int
    let month: Int
    let day: Int

    init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    init(_ date: Date, calendar: Calendar = DateInput.calendar) {
        let c = calendar.dateComponents([.year, .month, .day], from: date)
        self.init(year: c.year!, month: c.month!, day: c.day!)
    }

    static var today: CalendarDay { CalendarDay(Date()) }

    /// Days since 1970-01-01, so that consecutive days differ by one (streaks) without asking
    /// a Calendar per day. The proleptic Gregorian "days from civil" computation.
    var ordinal: Int { CivilDays.ordinal(year: year, month: month, day: day) }

    /// The inverse of `ordinal`.
    init(ordinal: Int) {
        let (year, month, day) = CivilDays.date(ordinal: ordinal)
        self.init(year: year, month: month, day: day)
    }

    /// 1 = Sunday … 7 = Saturday, as `Calendar.firstWeekday` counts (1970-01-01 was a Thursday).
    var weekday: Int { ((ordinal + 4) % 7 + 7) % 7 + 1 }

    /// `2024-03-01`, for JSON.
    var iso: String {
        String(format: "%04d-%02d-%02d", year, month, day)
    }

    /// Noon of this day in the user's time zone: an instant that surely falls on it, for
    /// formatting the day with `DateOutput.day`.
    var noon: Date {
        DateInput.calendar.date(from: DateComponents(year: year, month: month, day: day, hour: 12))!
    }

    static func < (a: CalendarDay, b: CalendarDay) -> Bool { (a.year, a.month, a.day) < (b.year, b.month, b.day) }
}
