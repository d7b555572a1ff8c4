import DiaryApp
import Foundation

/// `diary calendar`'s picture of a year: the months side by side as `cal -y` sets them (as
/// many to a row as the width allows: 1, 2, 3, 4 or 6), each day its number under its weekday,
/// and after the number of a day with entries a mark: its shade by the words written, or a
/// star when one of its entries is starred.
///
/// Why numbers with a mark rather than a cell of shade alone: a day must be findable ("what
/// did I write on the 14th?"), and a mark after the number keeps the picture readable without
/// colour (a pipe, NO_COLOR, a screen reader). On a terminal with colour the number of a day
/// with entries is green too, in the shade of its words (so a starred day still shows how much
/// was written), and today is shown inverted.
struct YearHeatmap {
    let year: Int
    let days: [CalendarDay: DayTally]
    let style: Style
    let ascii: Bool
    let locale: Locale
    /// The terminal's (or the output's) width in columns: how many months fit side by side.
    let width: Int
    /// Shown inverted when it falls in the year (with colour only).
    let today: CalendarDay?

    init(
        year: Int, days: [CalendarDay: DayTally], style: Style = Style(), ascii: Bool = false,
        locale: Locale = DateOutput.locale, width: Int = 80, today: CalendarDay? = nil
    ) {
        self.year = year
        self.days = days
        self.style = style
        self.ascii = ascii
        self.locale = locale
        self.width = width
        self.today = today
    }

    /// Word counts from which a day takes each shade; any day with an entry has at least the
    /// first (an entry has at least one word, but one that could not be opened counts none).
    static let thresholds = [1, 100, 300, 600]

    /// 0 (nothing written) to 4 (600 words or more).
    static func level(_ tally: DayTally) -> Int {
        guard tally.entries > 0 else { return 0 }
        return (thresholds.lastIndex { tally.words >= $0 } ?? 0) + 1
    }

    /// Marks by level (none for level 0): each differs in shape, so the picture reads without
    /// colour too.
    static let unicodeShades = [" ", "░", "▒", "▓", "█"]
    static let asciiShades = [" ", ":", "+", "#", "@"]
    /// SGR codes (for `Style.wrap`) by level: greens from dim to bright.
    private static let colours = ["0", "2;32", "32", "1;32", "1;92"]

    private var shades: [String] { ascii ? Self.asciiShades : Self.unicodeShades }
    private var star: String { ascii ? "*" : "★" }

    /// Columns between two months of a row.
    static let gap = 2

    /// How many months go side by side in `width` columns: the most of 6, 4, 3, 2 (divisors of
    /// twelve, so every row is full) that fit, else 1.
    static func monthsPerRow(width: Int) -> Int {
        [6, 4, 3, 2].first { $0 * MonthGrid.width + ($0 - 1) * gap <= width } ?? 1
    }

    /// The lines to print: the year, the rows of months, the year's totals, a legend.
    var lines: [String] {
        let names = CalendarNames(locale: locale)
        let perRow = Self.monthsPerRow(width: width)
        let rowWidth = perRow * MonthGrid.width + (perRow - 1) * Self.gap
        let title = String(year)
        var lines = [String(repeating: " ", count: max(0, (rowWidth - 1 - title.count) / 2)) + style.bold(title)]
        for firstMonth in stride(from: 1, through: 12, by: perRow) {
            let grids = (firstMonth..<firstMonth + perRow).map { month in
                MonthGrid(year: year, month: month, names: names, style: style, cell: cell)
            }
            let height = grids.map(\.lines.count).max() ?? 0
            lines.append("")
            for index in 0..<height {
                let parts = grids.map { $0.lines.indices.contains(index) ? $0.lines[index] : MonthGrid.blankLine }
                lines.append(trimmed(parts.joined(separator: String(repeating: " ", count: Self.gap))))
            }
        }
        lines.append("")
        lines.append(totals)
        return lines + legend
    }

    /// Three columns: the day's number, then its star or its shade (a blank without entries).
    private func cell(_ day: CalendarDay) -> String {
        let tally = days[day] ?? DayTally()
        let level = Self.level(tally)
        let number = (day.day < 10 ? " " : "") + String(day.day)
        var codes = level > 0 ? [Self.colours[level]] : []
        if day == today { codes.append("7") }
        let shownNumber = codes.isEmpty ? number : style.wrap(number, codes.joined(separator: ";"))
        let mark =
            tally.starred ? style.wrap(star, "33") : level > 0 ? style.wrap(shades[level], Self.colours[level]) : " "
        return shownNumber + mark
    }

    /// `12 entries, 3456 words, 10 days written`.
    private var totals: String {
        let tallies = days.filter { $0.key.year == year }.values
        let entries = tallies.reduce(0) { $0 + $1.entries }
        let words = tallies.reduce(0) { $0 + $1.words }
        return "\(entries) \(entries == 1 ? "entry" : "entries"), \(words) \(words == 1 ? "word" : "words"), "
            + "\(tallies.count) \(tallies.count == 1 ? "day" : "days") written"
    }

    /// What each mark means, in words, as the help says it; as many lines as `width` needs.
    private var legend: [String] {
        var parts: [(text: String, columns: Int)] = []
        for level in 1...4 {
            let low = Self.thresholds[level - 1]
            let range = level < 4 ? "\(low)-\(Self.thresholds[level] - 1)" : "\(low)+ words"
            parts.append(("\(style.wrap(shades[level], Self.colours[level])) \(range)", 2 + range.count))
        }
        parts.append(("\(style.wrap(star, "33")) starred", 9))
        var lines: [String] = []
        var line = ""
        var used = 0
        for part in parts {
            if used > 0, used + 2 + part.columns > width {
                lines.append(line)
                (line, used) = ("", 0)
            }
            line += (used > 0 ? "  " : "") + part.text
            used += (used > 0 ? 2 : 0) + part.columns
        }
        return lines + [line]
    }

    private func trimmed(_ line: String) -> String {
        var line = line
        while line.hasSuffix(" ") { line.removeLast() }
        return line
    }
}
