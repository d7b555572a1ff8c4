import ArgumentParser
import DiaryApp
import DiaryVault
import Foundation

/// `diary calendar`: a year at a glance, each day's number marked by how much was written.
struct CalendarCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calendar",
        abstract: "Show a year's calendar, the days you wrote marked by how much.",
        usage: "diary calendar [<options>] [<year>]",
        discussion: """
            The months side by side as `cal -y` shows them, a day's number under its weekday \
            (the week starts on your locale's first weekday). As many months go in a row as \
            the width allows: the terminal's when stdout is one, else $COLUMNS, else 80 \
            (21 columns a month: 6 in a row from 136 columns, 4 from 90, 3 from 67, 2 from \
            44, else 1). Month and weekday names follow your locale (LC_ALL, LC_TIME or \
            LANG); days are those of your time zone (TZ).

            After the number of a day with entries comes its mark, by the words written that \
            day (words are runs of non-space characters, as `wc -w` counts them): ░ 1-99, \
            ▒ 100-299, ▓ 300-599, █ 600 or more (with --ascii: : + # @), or ★ (*) when one of \
            its entries is starred. A day without entries has no mark. Below the months: the \
            year's entries, words and days written, and a legend. On a terminal the number \
            of a day with entries is coloured by its words too and today is inverted; never \
            with NO_COLOR set, nor into a pipe.

            --json prints one object: year, entries, words, and days, an array with every day \
            of the year in order, each with date (YYYY-MM-DD), entries, words, starred (true \
            when one of its entries is) and level (the shade, 0 to 4).

            The dates and stars come from the index; each entry of the year is decrypted \
            in memory only to count its words.

            EXAMPLE
              diary calendar
              diary calendar 2024 --json
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The year to show (default: this year).", valueName: "year"))
    var year: Int?

    @Flag(help: "Print JSON instead of the calendar.")
    var json = false

    @Flag(help: "Mark days with ASCII characters (: + # @, * for a star) for fonts without block characters.")
    var ascii = false

    func validate() throws {
        // The Gregorian calendar counted backwards before 1582, as ISO 8601 dates are.
        if let year, !CalendarYear.years.contains(year) {
            throw ValidationError("the year must be between 1 and 9999 (the Gregorian calendar)")
        }
    }

    func run() throws {
        let calendar = DateOutput.dayCalendar
        let year = self.year ?? CalendarDay(Date(), calendar: calendar).year
        let session = global.session()
        try session.openVault()
        let written = try WrittenEntries.readWarning(session, CalendarYear.filter(year: year, calendar: calendar))
        let days = written.days(in: calendar)
        if json {
            Output.data(try EntryFormat.json(YearRecord(CalendarYear(year: year, tallies: days), written: written)))
        } else {
            let heatmap = YearHeatmap(
                year: year, days: days, ascii: ascii, width: TerminalSize.outputColumns,
                today: CalendarDay(Date(), calendar: calendar))
            for line in heatmap.lines { Output.data(line) }
        }
    }

    /// The JSON shape of `calendar --json`.
    struct YearRecord: Encodable {
        let year: Int
        let entries: Int
        let words: Int
        let days: [Day]

        struct Day: Encodable {
            let date: String
            let entries: Int
            let words: Int
            let starred: Bool
            let level: Int
        }

        init(_ year: CalendarYear, written: WrittenEntries) {
            self.year = year.year
            entries = written.summaries.count
            words = written.totalWords
            days = year.days.map { day, tally in
                Day(
                    date: day.iso, entries: tally.entries, words: tally.words, starred: tally.starred,
                    level: YearHeatmap.level(tally))
            }
        }
    }
}
