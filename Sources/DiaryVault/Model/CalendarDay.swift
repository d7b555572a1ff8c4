import Foundation

/// A day of the proleptic Gregorian calendar: what an entry date that is a whole day stands for,
/// what `calendar` shades, what `stats` counts streaks in and what the exchange formats write.
/// One type for every layer, so a day means the same thing wherever it is computed.
///
/// Days are counted as days since 1970-01-01 (`ordinal`, Howard Hinnant's "days from civil"
/// and its inverse), so consecutive days differ by one without asking a `Calendar` per day.
public struct CalendarDay: Hashable, Comparable, Sendable {
    public let year: Int
    public let month: Int
    public let day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The day on which `date` falls in `calendar`'s time zone (Gregorian before 1582 too:
    /// `ProlepticGregorian`).
    public init(_ date: Date, calendar: Calendar) {
        self = ProlepticGregorian.day(of: date, in: calendar)
    }

    /// Days since 1970-01-01 of this day.
    public var ordinal: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The day `ordinal` days after 1970-01-01: the inverse of `ordinal`.
    public init(ordinal: Int) {
        let z = ordinal + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let d = dayOfYear - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.init(year: yearOfEra + era * 400 + (m <= 2 ? 1 : 0), month: m, day: d)
    }

    /// 28 to 31.
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// 1 = Sunday … 7 = Saturday, as `Calendar.firstWeekday` counts (1970-01-01 was a Thursday).
    public var weekday: Int { ((ordinal + 4) % 7 + 7) % 7 + 1 }

    /// `2024-03-01`, for JSON.
    public var iso: String { String(format: "%04d-%02d-%02d", year, month, day) }

    /// Noon of this day in `calendar`'s time zone: an instant that surely falls on it, for
    /// formatting the day.
    public func noon(in calendar: Calendar) -> Date {
        ProlepticGregorian.date(DateComponents(year: year, month: month, day: day, hour: 12), in: calendar)!
    }

    public static func < (a: CalendarDay, b: CalendarDay) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }
}

/// How an entry date that is a whole calendar day (`new --date 2024-03-01`) is stored, so that
/// it is the same day wherever it is read (docs/FORMAT.md §7, "entry date").
///
/// A day is stored as midnight UTC of that day: a time that is a whole multiple of a day in
/// milliseconds. A reader shows it as local midnight of the same calendar day, so March 1
/// written in Seoul is March 1 in London and in Los Angeles, where an instant would have been
/// February 29. An instant that would land exactly on midnight UTC is stored one millisecond
/// later, so that it is not read back as a day. A convention rather than a flag keeps every
/// vault readable by every diary: older writers stored days at local midnight (instants), and
/// older readers show a stored day as the instant midnight UTC.
extension CalendarDay {
    static let millisecondsPerDay: Int64 = 86_400_000

    /// True when a stored time is a calendar day.
    static func isDay(storedMilliseconds ms: Int64) -> Bool { ms % millisecondsPerDay == 0 }

    /// The date a reader works with: local midnight for a day (in `local`, the process's time
    /// zone but for tests), else the instant.
    static func date(storedMilliseconds ms: Int64, local: Calendar = local) -> Date {
        guard isDay(storedMilliseconds: ms) else { return Date(millisecondsSince1970: ms) }
        let day = utc.dateComponents([.year, .month, .day], from: Date(millisecondsSince1970: ms))
        return local.date(from: day) ?? Date(millisecondsSince1970: ms)
    }

    /// What is stored for `date`: midnight UTC of its local calendar day when `isDay`, else the
    /// instant (moved off midnight UTC by a millisecond).
    static func storedMilliseconds(of date: Date, isDay: Bool, local: Calendar = local) -> Int64 {
        if isDay {
            let day = local.dateComponents([.year, .month, .day], from: date)
            if let midnight = utc.date(from: day) { return midnight.millisecondsSince1970 }
        }
        let ms = date.millisecondsSince1970
        return self.isDay(storedMilliseconds: ms) ? ms + 1 : ms
    }

    /// `date` as it reads back once stored (what `Vault.add` returns equals what a read returns).
    static func normalized(_ date: Date, isDay: Bool) -> Date {
        self.date(storedMilliseconds: storedMilliseconds(of: date, isDay: isDay))
    }

    // The time zone does not change while a command runs; building a Calendar per row would
    // cost more than reading the row.
    private static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        return calendar
    }()
    static let local: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone.current
        return calendar
    }()
}
