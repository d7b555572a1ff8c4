import DiaryApp
import DiaryVault
import Foundation

/// `diary stats`: totals, streaks, the busiest weekday and the tags, from `WrittenEntries`.
struct StatsReport {
    let entries: Int
    let words: Int
    let daysWritten: Int
    let starred: Int
    let current: Streak?
    let longest: Streak?
    /// 1 = Sunday … 7 = Saturday, and its number of entries; nil without entries.
    let busiest: (weekday: Int, entries: Int)?
    /// Most used first; equally used ones by name.
    let tags: [(tag: String, entries: Int)]
    let first: Date?
    let last: Date?
    let today: CalendarDay

    init(_ written: WrittenEntries, today: CalendarDay) {
        self.today = today
        let summaries = written.summaries
        let calendar = DateInput.calendar
        let days = summaries.map { CalendarDay($0.date, calendar: calendar) }
        let daySet = Set(days)
        entries = summaries.count
        words = written.totalWords
        daysWritten = daySet.count
        starred = summaries.filter(\.starred).count
        current = Streaks.current(daySet, today: today)
        longest = Streaks.longest(daySet)
        var perWeekday = [Int](repeating: 0, count: 8)
        for day in days { perWeekday[day.weekday] += 1 }
        // Ties go to the earlier day of an ISO week (Monday first), whatever the locale.
        var top = 2
        for weekday in [3, 4, 5, 6, 7, 1] where perWeekday[weekday] > perWeekday[top] { top = weekday }
        busiest = entries == 0 ? nil : (top, perWeekday[top])
        tags = Self.tagCounts(summaries)
        // `list` order: newest first.
        first = summaries.last?.date
        last = summaries.first?.date
    }

    /// Entries per tag, most first, tags grouped as `--tag` matches them (`Walk`, `walk` and
    /// `WALK` are one tag), each shown in its most common spelling (ties: the first in sort order).
    static func tagCounts(_ summaries: [EntrySummary]) -> [(tag: String, entries: Int)] {
        var entries: [String: Int] = [:]
        var spellings: [String: [String: Int]] = [:]
        for s in summaries {
            var keys = Set<String>()  // an entry of an older diary may hold two spellings: count it once
            for tag in s.tags {
                let key = EntryText.tagKey(tag)
                spellings[key, default: [:]][tag, default: 0] += 1
                if keys.insert(key).inserted { entries[key, default: 0] += 1 }
            }
        }
        return entries.map { key, count in
            let spelling = spellings[key]!.min { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }!.key
            return (tag: spelling, entries: count)
        }.sorted { $0.entries != $1.entries ? $0.entries > $1.entries : $0.tag < $1.tag }
    }

    // MARK: For people

    /// Labelled lines; dates and the weekday in the user's locale, tags escaped (`Printable`).
    func lines(style: Style = Style()) -> [String] {
        func row(_ label: String, _ value: String) -> String {
            style.dim(label.padding(toLength: 17, withPad: " ", startingAt: 0)) + value
        }
        var lines = [
            row("entries", "\(entries)"),
            row("words", "\(words)"),
            row("days written", "\(daysWritten)"),
            row("starred", "\(starred)"),
            row("current streak", currentText),
            row("longest streak", longest.map(Self.describe) ?? "0 days"),
            row("busiest weekday", busiest.map { "\(Self.weekdayNames[$0.weekday - 1]) (\(Self.count($0.entries, "entry", "entries")))" } ?? "-"),
            row("first entry", first.map(DateOutput.day) ?? "-"),
            row("last entry", last.map(DateOutput.day) ?? "-"),
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
        let through = current.last == today ? "through today" : "through yesterday (write today to keep it)"
        return "\(Self.count(current.days, "day", "days")), \(through)"
    }

    private static func describe(_ streak: Streak) -> String {
        let span = streak.days == 1
            ? DateOutput.day(streak.first.noon)
            : "\(DateOutput.day(streak.first.noon)) - \(DateOutput.day(streak.last.noon))"
        return "\(count(streak.days, "day", "days")), \(span)"
    }

    private static func count(_ n: Int, _ one: String, _ many: String) -> String { "\(n) \(n == 1 ? one : many)" }

    /// Sunday first, in the user's locale.
    private static var weekdayNames: [String] {
        DateOutput.formatter().standaloneWeekdaySymbols
    }

    // MARK: For programs

    /// The JSON shape of `stats --json`: every key always present, null where there is nothing.
    struct Record: Encodable {
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

    /// English weekday names for JSON, whatever the locale: keys and values a program can match.
    private static let englishWeekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

    var record: Record {
        Record(
            entries: entries, words: words, daysWritten: daysWritten, starred: starred,
            currentStreak: Record.StreakRecord(current), longestStreak: Record.StreakRecord(longest),
            busiestWeekday: busiest.map { Record.WeekdayRecord(weekday: Self.englishWeekdays[$0.weekday - 1], entries: $0.entries) },
            tags: tags.map { Record.TagRecord(tag: $0.tag, entries: $0.entries) },
            first: first.map(DateOutput.iso), last: last.map(DateOutput.iso))
    }
}
