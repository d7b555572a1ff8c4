import DiaryVault
import Foundation

/// What was written on one day.
public struct DayTally: Equatable, Sendable {
    public var entries = 0
    public var words = 0
    /// At least one of the day's entries is starred.
    public var starred = false

    public init(entries: Int = 0, words: Int = 0, starred: Bool = false) {
        self.entries = entries
        self.words = words
        self.starred = starred
    }
}

/// The entries of a vault (or of a date range) with their word counts, for `calendar` and
/// `stats`. Dates, stars and tags come from the index; the texts are opened only to count
/// words (`Vault.wordCounts`), never kept.
public struct WrittenEntries: Sendable {
    /// Newest first, as `list` orders them.
    public let summaries: [EntrySummary]
    public let words: [UUID: Int]
    /// Entries whose text could not be opened: they count as entries of no words, and the
    /// caller says so.
    public let damaged: [UUID]

    public init(summaries: [EntrySummary], words: [UUID: Int], damaged: [UUID] = []) {
        self.summaries = summaries
        self.words = words
        self.damaged = damaged
    }

    /// Reads the entries that pass `filter`, newest first, with their word counts.
    public static func read(_ vault: Vault, _ filter: EntryFilter = EntryFilter()) throws -> WrittenEntries {
        let summaries = try vault.list(filter)
        let counts = try vault.wordCounts(filter)
        return WrittenEntries(summaries: summaries, words: counts.words, damaged: counts.damaged)
    }

    public func words(of summary: EntrySummary) -> Int { words[summary.id] ?? 0 }

    public var totalWords: Int { summaries.reduce(0) { $0 + words(of: $1) } }

    /// Each day that has an entry, in `calendar`'s time zone.
    public func days(in calendar: Calendar) -> [CalendarDay: DayTally] {
        var days: [CalendarDay: DayTally] = [:]
        for s in summaries {
            let key = CalendarDay(s.date, calendar: calendar)
            days[key, default: DayTally()].entries += 1
            days[key, default: DayTally()].words += words(of: s)
            if s.starred { days[key, default: DayTally()].starred = true }
        }
        return days
    }
}
