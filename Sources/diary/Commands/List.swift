import ArgumentParser
import DiaryApp
import DiaryVault
import Foundation

/// `diary list`: the entries, newest first.
struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List entries, newest first.",
        usage: "diary list [<options>]",
        discussion: """
            One line per entry: short id, date (in your locale, from LC_ALL, LC_TIME or LANG), \
            a star when starred, the title, the tags. Ids are shown with 8 hex digits, more \
            when another entry shares those; on a terminal, long titles are cut to its \
            width. --json prints an array of objects with id, title, date, created, modified \
            (ISO 8601), starred, tags and size.

            --on DATE lists one day (in your time zone); --on-this-day lists the entries dated \
            on today's month and day in earlier years.

            On a terminal, a listing taller than the window goes through $PAGER (default \
            `less`, with LESS=FRX unless LESS is set); --no-pager prints it directly.

            EXAMPLE
              diary list --starred --from 2024-01-01 -n 10
              diary list --on yesterday
              diary list --on-this-day
              diary list --tag travel --json
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var filters: FilterOptions

    @Option(
        help: ArgumentHelp("Only entries dated on this day (in your time zone).", valueName: "date"),
        completion: DateInput.completion, transform: DateInput.argument)
    var on: DateInput?

    @Flag(help: "Only entries dated on today's month and day in earlier years.")
    var onThisDay = false

    @OptionGroup var pager: PagerOptions

    func validate() throws {
        if on != nil && (filters.from != nil || filters.to != nil) {
            throw ValidationError("--on is one day; it cannot be combined with --from or --to")
        }
        if on != nil && onThisDay { throw ValidationError("--on and --on-this-day cannot be combined") }
    }

    func run() throws {
        let session = global.session()
        let vault = try session.openVault()
        // Pages are read by `list`, so damage to one shows only then: the session warns after it.
        var filter = filters.filter
        if let on {
            let day = Self.localDay(of: on.start)
            (filter.from, filter.to) = (day.start, day.end)
        }
        let summaries: [EntrySummary] = try session.read { vault in
            guard onThisDay else { return try vault.list(filter) }
            let limit = filter.limit
            filter.limit = nil
            return Array(try vault.list(filter).filter(Self.isOnThisDay(in: Date())).prefix(limit ?? .max))
        }
        try EntryFormat.printList(summaries, json: filters.json, pager: !pager.noPager, vault: vault)
    }

    /// The local calendar day holding `date` (an instant typed with a time counts as its day).
    static func localDay(of date: Date) -> DateInput {
        DateInput(dayOf: date, calendar: DateOutput.dayCalendar)
    }

    /// Entries dated on `today`'s month and day, in an earlier year (all in the local time zone).
    static func isOnThisDay(in today: Date) -> (EntrySummary) -> Bool {
        let calendar = DateOutput.dayCalendar
        let now = ProlepticGregorian.day(of: today, in: calendar)
        return { s in
            let c = ProlepticGregorian.day(of: s.date, in: calendar)
            return c.month == now.month && c.day == now.day && c.year < now.year
        }
    }
}

/// After the session's read (which says that the index is damaged): an entry shown from a
/// damaged index could not be checked against its row, and an older copy of it put back in its
/// place would not be noticed, so `show` and `edit` say that too.
func hintIfEntryUnchecked(_ vault: Vault) {
    if vault.indexState != .ok {
        Output.hint(
            "this entry could not be checked against the index (an older copy put back would go unnoticed); `diary verify` names what is damaged"
        )
    }
}
