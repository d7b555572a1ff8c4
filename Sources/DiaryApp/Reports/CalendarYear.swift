import DiaryVault
import Foundation

/// `diary calendar`'s year: its bounds as instants, and each of its days with what was written.
public struct CalendarYear: Sendable {
    /// The years a calendar covers: before 1583 Foundation's calendar is Julian, and
    /// `CalendarDay` counts Gregorian days.
    public static let years = 1583...9999

    public let year: Int
    /// Every day of the year in order, with its tally (zero for a day without entries).
    public let days: [(day: CalendarDay, tally: DayTally)]

    /// The year of `written`, its days those of `calendar`'s time zone.
    public init(year: Int, written: WrittenEntries, calendar: Calendar) {
        self.init(year: year, tallies: written.days(in: calendar))
    }

    /// The year with the tallies of its days (days of other years are left out).
    public init(year: Int, tallies: [CalendarDay: DayTally]) {
        self.year = year
        let first = CalendarDay(year: year, month: 1, day: 1).ordinal
        let last = CalendarDay(year: year + 1, month: 1, day: 1).ordinal - 1
        days = (first...last).map { ordinal in
            let day = CalendarDay(ordinal: ordinal)
            return (day, tallies[day] ?? DayTally())
        }
    }

    /// The filter that reads the year: its first instant to its last, in `calendar`'s time zone.
    public static func filter(year: Int, calendar: Calendar) -> EntryFilter {
        let start = calendar.date(from: DateComponents(year: year, month: 1, day: 1))!
        let end = calendar.date(from: DateComponents(year: year + 1, month: 1, day: 1))!.addingTimeInterval(-0.001)
        return EntryFilter(from: start, to: end)
    }
}
