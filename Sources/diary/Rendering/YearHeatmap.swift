import DiaryApp
import Foundation

/// `diary calendar`'s picture of a year: a row per month, a cell per day, the days of every
/// month lined up under the same weekdays (a month starting on a Wednesday starts in the
/// Wednesday column), so the columns read as weeks and the header names their weekdays.
///
/// Why months as rows: a row per weekday (GitHub's graph) needs 53 week columns, which at
/// 80 columns leaves one character per day and no room for a star beside its shade; with
/// months as rows each day gets two (shade, then ★ or a space), and the widest row (a
/// 31-day month starting on the last weekday: 6 + 31 slots) is 74 columns beside the label,
/// which is as wide as the locale's widest abbreviated month name (5 columns or fewer in most).
struct YearHeatmap {
    let year: Int
    let days: [CalendarDay: DayTally]
    let style: Style
    let ascii: Bool
    let locale: Locale

    init(
        year: Int, days: [CalendarDay: DayTally], style: Style = Style(), ascii: Bool = false,
        locale: Locale = DateOutput.locale
    ) {
        self.year = year
        self.days = days
        self.style = style
        self.ascii = ascii
        self.locale = locale
    }

    /// Word counts from which a day takes each shade; any day with an entry has at least the
    /// first (an entry has at least one word, but one that could not be opened counts none).
    static let thresholds = [1, 100, 300, 600]

    /// 0 (nothing written) to 4 (600 words or more).
    static func level(_ tally: DayTally) -> Int {
        guard tally.entries > 0 else { return 0 }
        return (thresholds.lastIndex { tally.words >= $0 } ?? 0) + 1
    }

    /// Shades by level: each differs in shape, so the picture reads without colour too.
    static let unicodeShades = ["·", "░", "▒", "▓", "█"]
    static let asciiShades = [".", ":", "+", "#", "@"]
    /// SGR codes (for `Style.wrap`) by level: dim for nothing, then greens from dim to bright.
    private static let colours = ["2", "2;32", "32", "1;32", "1;92"]

    private var shades: [String] { ascii ? Self.asciiShades : Self.unicodeShades }
    private var star: String { ascii ? "*" : "★" }

    /// Weekday-aligned slots in a month row: up to six leading blanks, then up to 31 days.
    static let slots = 37

    /// The lines to print: a header (the year, the weekdays), twelve months, the year's totals, a legend.
    var lines: [String] {
        // The rows are Gregorian months: the names must be too, also in a locale whose default
        // calendar is another (fa_IR, ar_SA), so both the calendar and the formatter are Gregorian.
        var calendar = Calendar(identifier: .gregorian)
        calendar.locale = locale
        let firstWeekday = calendar.firstWeekday  // 1 = Sunday, 2 = Monday, …
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.calendar = calendar
        let months = formatter.shortStandaloneMonthSymbols
        let weekdays = formatter.veryShortStandaloneWeekdaySymbols  // [0] is Sunday
        // Whole names, never cut (a cut Arabic name reads as another word): the label column is
        // as wide as the widest.
        let labels = (0..<12).map { months.indices.contains($0) ? months[$0] : "\($0 + 1)" }
        let width = max(labels.map(DisplayWidth.of).max() ?? 0, DisplayWidth.of(String(year)))

        let weekdayRow = (0..<Self.slots).map { slot in
            let index = (firstWeekday - 1 + slot) % 7
            let name = weekdays.indices.contains(index) ? weekdays[index] : ""
            return DisplayWidth.padded(DisplayWidth.prefix(name, fitting: 2), to: 2)
        }.joined()
        var lines = [DisplayWidth.padded(String(year), to: width) + " " + style.dim(trimmed(weekdayRow))]
        for month in 1...12 {
            let first = CalendarDay(year: year, month: month, day: 1)
            let offset = (first.weekday - firstWeekday + 7) % 7
            var row = DisplayWidth.padded(labels[month - 1], to: width) + " " + String(repeating: "  ", count: offset)
            for day in 1...CalendarDay.daysIn(month: month, year: year) {
                row += cell(days[CalendarDay(year: year, month: month, day: day)] ?? DayTally())
            }
            lines.append(trimmed(row))
        }
        lines.append("")
        lines.append(totals)
        lines.append(legend)
        return lines
    }

    /// Two columns: the day's shade, then a star if one of its entries is starred.
    private func cell(_ tally: DayTally) -> String {
        let level = Self.level(tally)
        return style.wrap(shades[level], Self.colours[level]) + (tally.starred ? style.wrap(star, "33") : " ")
    }

    /// `12 entries, 3456 words, 10 days written`.
    private var totals: String {
        let tallies = days.filter { $0.key.year == year }.values
        let entries = tallies.reduce(0) { $0 + $1.entries }
        let words = tallies.reduce(0) { $0 + $1.words }
        return "\(entries) \(entries == 1 ? "entry" : "entries"), \(words) \(words == 1 ? "word" : "words"), "
            + "\(tallies.count) \(tallies.count == 1 ? "day" : "days") written"
    }

    /// What each shade means, in words, as the help says it.
    private var legend: String {
        var parts = ["\(style.wrap(shades[0], Self.colours[0])) none"]
        for level in 1...4 {
            let low = Self.thresholds[level - 1]
            let range = level < 4 ? "\(low)-\(Self.thresholds[level] - 1)" : "\(low)+"
            parts.append("\(style.wrap(shades[level], Self.colours[level])) \(range)")
        }
        return parts.joined(separator: "  ") + " words  \(style.wrap(star, "33")) starred"
    }

    private func trimmed(_ line: String) -> String {
        var line = line
        while line.hasSuffix(" ") { line.removeLast() }
        return line
    }
}
