import DiaryVault
import Foundation

/// `diary calendar`'s year: its bounds as instants, and each of its days with what was written.
public struct CalendarYear: Sendable {
    /// The years a calendar covers, in the proleptic Gregorian calendar (as ISO 8601 and the
    /// vault's dates count them).
    public static let years = 1...9999

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
        // Gregorian before 1582 too, as the days are counted (`ProlepticGregorian`).
        let start = ProlepticGregorian.date(DateComponents(year: year, month: 1, day: 1), in: calendar)!
        let next = ProlepticGregorian.date(DateComponents(year: year + 1, month: 1, day: 1), in: calendar)!
        let end = next.addingTimeInterval(-0.001)
        return EntryFilter(from: start, to: end)
    }
}
