import DiaryApp
import Foundation

/// One month of `diary calendar`, laid out as `cal` does: its name, a weekday header, then a
/// line per week with each day's number under its weekday, and a mark column after every
/// number (`YearHeatmap` decides what goes there).
///
/// Every line is exactly `width` columns wide (blanks included), so months can be set side
/// by side by joining their lines.
struct MonthGrid {
    /// A day's cell: two columns for its number, one for its mark.
    static let cellWidth = 3
    /// Seven cells.
    static let width = 7 * cellWidth

    /// The name line, the weekday line, then one line per week (four to six).
    let lines: [String]

    /// - cell: the three columns of a day (`YearHeatmap.cell`), styled as it likes.
    init(
        year: Int, month: Int, names: CalendarNames, style: Style, cell: (CalendarDay) -> String
    ) {
        let first = CalendarDay(year: year, month: month, day: 1)
        let offset = (first.weekday - names.firstWeekday + 7) % 7
        let blank = String(repeating: " ", count: Self.cellWidth)
        var weeks: [String] = []
        var week = String(repeating: blank, count: offset)
        var filled = offset
        for day in 1...CalendarDay.daysIn(month: month, year: year) {
            week += cell(CalendarDay(year: year, month: month, day: day))
            filled += 1
            if filled == 7 {
                weeks.append(week)
                week = ""
                filled = 0
            }
        }
        if filled > 0 { weeks.append(week + String(repeating: blank, count: 7 - filled)) }
        lines = [Self.centred(names.month(month)), style.dim(names.weekdayHeader)] + weeks
    }

    /// A blank line as wide as a month, for a month with fewer weeks than its neighbours.
    static let blankLine = String(repeating: " ", count: width)

    /// `text` in the middle of the numbers' width (the last mark column left out, as `cal`
    /// centres its names), a little left of it when the room is odd.
    private static func centred(_ text: String) -> String {
        let room = max(0, width - 1 - DisplayWidth.of(text))
        return DisplayWidth.padded(String(repeating: " ", count: room / 2) + text, to: width)
    }
}

/// The locale's names for `diary calendar`: months and weekdays of the Gregorian calendar,
/// and the weekday a week starts on.
struct CalendarNames {
    /// 1 = Sunday, 2 = Monday, … as the locale starts its week.
    let firstWeekday: Int
    /// The header over a month's cells, starting on `firstWeekday`, as wide as a month.
    let weekdayHeader: String
    private let monthNames: [String]

    init(locale: Locale) {
        // The rows are Gregorian months: the names must be too, also in a locale whose default
        // calendar is another (fa_IR, ar_SA), so both the calendar and the formatter are Gregorian.
        var calendar = Calendar(identifier: .gregorian)
        calendar.locale = locale
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let firstWeekday = calendar.firstWeekday
        self.firstWeekday = firstWeekday
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.calendar = calendar
        formatter.timeZone = calendar.timeZone
        let full = formatter.standaloneMonthSymbols
        let short = formatter.shortStandaloneMonthSymbols
        monthNames = (0..<12).map { index in
            // Whole names, never cut while a shorter form fits (a cut Arabic name reads as
            // another word).
            for name in [full, short].compactMap({ $0.indices.contains(index) ? $0[index] : nil })
            where DisplayWidth.of(name) <= MonthGrid.width { return name }
            return "\(index + 1)"
        }
        let weekdays = Self.weekdayNames(formatter: formatter, calendar: calendar)  // [0] is Sunday
        weekdayHeader = (0..<7).map { column in
            let name = weekdays[(firstWeekday - 1 + column) % 7]
            return String(repeating: " ", count: max(0, 2 - DisplayWidth.of(name))) + name + " "
        }.joined()
    }

    /// The name of `month` (1 to 12).
    func month(_ month: Int) -> String { monthNames[month - 1] }

    /// Two-column weekday names from Sunday: the locale's short ones (`Su Mo`, `So Mo`, `일 월`)
    /// when all seven fit, their trailing dot dropped; else its one-letter ones (`S M`), as a cut
    /// name could read as another word.
    private static func weekdayNames(formatter: DateFormatter, calendar: Calendar) -> [String] {
        formatter.setLocalizedDateFormatFromTemplate("cccccc")
        // January 4, 1970 was a Sunday.
        let sunday = calendar.date(from: DateComponents(year: 1970, month: 1, day: 4, hour: 12))!
        let short = (0..<7).map { offset -> String in
            var name = formatter.string(from: sunday.addingTimeInterval(Double(offset) * 86_400))
            if name.hasSuffix(".") { name.removeLast() }
            return name
        }
        if short.allSatisfy({ !$0.isEmpty && DisplayWidth.of($0) <= 2 }) { return short }
        let narrow = formatter.veryShortStandaloneWeekdaySymbols
        return (0..<7).map { narrow.indices.contains($0) ? DisplayWidth.prefix(narrow[$0], fitting: 2) : "" }
    }
}
