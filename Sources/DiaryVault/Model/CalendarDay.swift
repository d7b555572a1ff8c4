import Foundation

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
enum CalendarDay {
    static let millisecondsPerDay: Int64 = 86_400_000

    /// True when a stored time is a calendar day.
    static func isDay(storedMilliseconds ms: Int64) -> Bool { ms % millisecondsPerDay == 0 }

    /// The date a reader works with: local midnight for a day, else the instant.
    static func date(storedMilliseconds ms: Int64) -> Date {
        guard isDay(storedMilliseconds: ms) else { return Date(millisecondsSince1970: ms) }
        let day = utc.dateComponents([.year, .month, .day], from: Date(millisecondsSince1970: ms))
        return local.date(from: day) ?? Date(millisecondsSince1970: ms)
    }

    /// What is stored for `date`: midnight UTC of its local calendar day when `isDay`, else the
    /// instant (moved off midnight UTC by a millisecond).
    static func storedMilliseconds(of date: Date, isDay: Bool) -> Int64 {
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
    private static let local: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone.current
        return calendar
    }()
}
