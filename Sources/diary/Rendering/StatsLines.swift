import DiaryApp
import Foundation

/// `diary stats` for people (labelled lines) and for programs (`stats --json`), from DiaryApp's
/// `StatsReport`.
extension StatsReport {
    /// Labelled lines; dates and the weekday in the user's locale (`context`, the process's but
    /// for tests), tags escaped (`Printable`).
    func lines(style: Style = Style(), context: LocaleCalendar = DateOutput.context) -> [String] {
        func row(_ label: String, _ value: String) -> String {
            style.dim(label.padding(toLength: 17, withPad: " ", startingAt: 0)) + value
        }
        let weekdayNames = context.weekdayNames
        let dayFormatter = context.formatter(template: LocaleCalendar.dayTemplate)
        let day = { (date: Date) in dayFormatter.string(from: date) }
        var lines = [
            row("entries", "\(entries)"),
            row("words", "\(words)"),
            row("days written", "\(daysWritten)"),
            row("starred", "\(starred)"),
            row("current streak", currentText),
            row("longest streak", longest.map { Self.describe($0, day: day, calendar: context.calendar) } ?? "0 days"),
            row(
                "busiest weekday",
                busiest.map { "\(weekdayNames[$0.weekday - 1]) (\(Self.count($0.entries, "entry", "entries")))" } ?? "-"
            ),
            row("first entry", first.map(day) ?? "-"),
            row("last entry", last.map(day) ?? "-"),
        ]
        if tags.isEmpty {
            lines.append(row("tags", "-"))
        } else {
            lines.append(style.dim("tags"))
            let width = String(tags[0].entries).count
            for (tag, n) in tags {
                let count = String(repeating: " ", count: width - String(n).count) + "\(n)"
                lines.append("  \(count)  " + style.cyan(EntryFormat.tagList([tag])))
            }
        }
        return lines
    }

    private var currentText: String {
        guard let current else { return "0 days" }
        let through = currentReachesToday ? "through today" : "through yesterday (write today to keep it)"
        return "\(Self.count(current.days, "day", "days")), \(through)"
    }

    private static func describe(_ streak: Streak, day: (Date) -> String, calendar: Calendar) -> String {
        let span =
            streak.days == 1
            ? day(streak.first.noon(in: calendar))
            : "\(day(streak.first.noon(in: calendar))) - \(day(streak.last.noon(in: calendar)))"
        return "\(count(streak.days, "day", "days")), \(span)"
    }

    private static func count(_ n: Int, _ one: String, _ many: String) -> String { "\(n) \(n == 1 ? one : many)" }

    /// English weekday names for JSON, whatever the locale: keys and values a program can match.
    private static let englishWeekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

    var record: StatsRecord {
        StatsRecord(
            entries: entries, words: words, daysWritten: daysWritten, starred: starred,
            currentStreak: StatsRecord.StreakRecord(current), longestStreak: StatsRecord.StreakRecord(longest),
            busiestWeekday: busiest.map {
                StatsRecord.WeekdayRecord(weekday: Self.englishWeekdays[$0.weekday - 1], entries: $0.entries)
            },
            tags: tags.map { StatsRecord.TagRecord(tag: $0.tag, entries: $0.entries) },
            first: first.map(DateOutput.iso), last: last.map(DateOutput.iso))
    }
}

/// The JSON shape of `stats --json`: every key always present, null where there is nothing.
struct StatsRecord: Encodable {
    let entries: Int
    let words: Int
    let daysWritten: Int
    let starred: Int
    let currentStreak: StreakRecord
    let longestStreak: StreakRecord
    let busiestWeekday: WeekdayRecord?
    let tags: [TagRecord]
    let first: String?
    let last: String?

    enum CodingKeys: String, CodingKey {
        case entries, words, daysWritten, starred, currentStreak, longestStreak, busiestWeekday, tags, first, last
    }

    struct StreakRecord: Encodable {
        let days: Int
        let from: String?
        let to: String?

        enum CodingKeys: String, CodingKey { case days, from, to }

        init(_ streak: Streak?) {
            days = streak?.days ?? 0
            from = streak?.first.iso
            to = streak?.last.iso
        }

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(days, forKey: .days)
            try c.encode(from, forKey: .from)
            try c.encode(to, forKey: .to)
        }
    }

    struct WeekdayRecord: Encodable {
        let weekday: String
        let entries: Int
    }

    struct TagRecord: Encodable {
        let tag: String
        let entries: Int
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(entries, forKey: .entries)
        try c.encode(words, forKey: .words)
        try c.encode(daysWritten, forKey: .daysWritten)
        try c.encode(starred, forKey: .starred)
        try c.encode(currentStreak, forKey: .currentStreak)
        try c.encode(longestStreak, forKey: .longestStreak)
        try c.encode(busiestWeekday, forKey: .busiestWeekday)
        try c.encode(tags, forKey: .tags)
        try c.encode(first, forKey: .first)
        try c.encode(last, forKey: .last)
    }
}
