import DiaryApp
import DiaryVault
import Foundation

/// What was written on one day.
struct DayTally: Equatable {
    var entries = 0
    var words = 0
    /// At least one of the day's entries is starred.
    var starred = false
}

/// The entries of a vault (or of a date range) with their word counts, for `calendar` and
/// `stats`. Dates, stars and tags come from the index; the texts are opened only to count
/// words (`Vault.wordCounts`), never kept.
struct WrittenEntries {
    let summaries: [EntrySummary]
    let words: [UUID: Int]

    /// Reads the entries that pass `filter`, newest first. Entries whose text could not be
    /// opened are named on stderr and count as entries of no words.
    static func read(_ vault: Vault, _ filter: EntryFilter = EntryFilter()) throws -> WrittenEntries {
        let summaries = try vault.list(filter)
        let counts = try vault.wordCounts(filter)
        for id in counts.damaged {
            Output.warning("entry \(EntryFormat.fullID(id)) is damaged and its words were not counted; run `diary verify`")
        }
        return WrittenEntries(summaries: summaries, words: counts.words)
    }

    func words(of summary: EntrySummary) -> Int { words[summary.id] ?? 0 }

    var totalWords: Int { summaries.reduce(0) { $0 + words(of: $1) } }

    /// Each day that has an entry, in the user's time zone.
    var days: [CalendarDay: DayTally] {
        var days: [CalendarDay: DayTally] = [:]
        let calendar = DateInput.calendar
        for s in summaries {
            let key = CalendarDay(s.date, calendar: calendar)
            days[key, default: DayTally()].entries += 1
            days[key, default: DayTally()].words += words(of: s)
            if s.starred { days[key, default: DayTally()].starred = true }
        }
        return days
    }
}
