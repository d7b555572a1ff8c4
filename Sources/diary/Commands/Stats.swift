import ArgumentParser
import DiaryApp
import DiaryVault
import Foundation

/// `diary stats`: how much, how often, and about what you have written.
struct Stats: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Show totals, streaks, the busiest weekday and the tags.",
        usage: "diary stats [<options>]",
        discussion: """
            Over every entry: the number of entries and of words (runs of non-space \
            characters, as `wc -w` counts them), the days with an entry, the starred entries, \
            the current and the longest streak, the weekday with the most entries, the first \
            and the last entry date, and each tag with its number of entries, most used first.

            A streak is a run of consecutive days (in your time zone) with at least one entry \
            each. The current streak is the one that ends today; while today has no entry \
            yet, the one that ends yesterday still counts as running (there is time left to \
            write today). Otherwise it is 0. Entries dated in the future do not extend it.

            --json prints one object: entries, words, daysWritten, starred; currentStreak and \
            longestStreak, each {days, from, to} (YYYY-MM-DD, null when 0 days); \
            busiestWeekday, {weekday (English, lowercase), entries} or null; tags, an array of \
            {tag, entries}; first and last (ISO 8601, null without entries).

            EXAMPLE
              diary stats
              diary stats --json
            """)

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print JSON instead of lines.")
    var json = false

    func run() throws {
        let session = global.session()
        try session.openVault()
        let calendar = DateOutput.dayCalendar
        let report = StatsReport(
            try WrittenEntries.readWarning(session), today: CalendarDay(Date(), calendar: calendar), calendar: calendar)
        if json {
            Output.data(try EntryFormat.json(report.record))
        } else {
            for line in report.lines() { Output.data(line) }
        }
    }
}
