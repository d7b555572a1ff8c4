import DiaryVault
import Foundation

/// `diary stats` as numbers: totals, streaks, the busiest weekday and the tags, from
/// `WrittenEntries`. The CLI words them (lines or JSON).
public struct StatsReport: Sendable {
    public let entries: Int
    public let words: Int
    public let daysWritten: Int
    public let starred: Int
    public let current: Streak?
    public let longest: Streak?
    /// 1 = Sunday … 7 = Saturday, and its number of entries; nil without entries.
    public let busiest: (weekday: Int, entries: Int)?
    /// Most used first; equally used ones by name.
    public let tags: [(tag: String, entries: Int)]
    public let first: Date?
    public let last: Date?
    public let today: CalendarDay

    /// The report on `written` as of `today`, its days those of `calendar`'s time zone.
    public init(_ written: WrittenEntries, today: CalendarDay, calendar: Calendar) {
        self.today = today
        let summaries = written.summaries
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

    /// True when the current streak includes today; false when it ends yesterday, waiting for
    /// an entry today.
    public var currentReachesToday: Bool { current?.last == today }

    /// Entries per tag, most first, tags grouped as `--tag` matches them (`Walk`, `walk` and
    /// `WALK` are one tag), each shown in its most common spelling (ties: the first in sort order).
    public static func tagCounts(_ summaries: [EntrySummary]) -> [(tag: String, entries: Int)] {
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
}
