import ArgumentParser
import DiaryApp
import DiaryVault
import Foundation

/// `diary list`: the entries, newest first.
struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List entries, newest first (--reverse: oldest first).",
        usage: "diary list [<options>]",
        discussion: """
            One line per entry: short id, date and time of day (in your locale, from LC_ALL, \
            LC_TIME or LANG; no time for an entry dated by a whole day), a star when starred, \
            the title (a Markdown heading without its #s), the tags not already written in it \
            (a #word of the title that is not a tag, as after `diary tag ID -word`, follows it \
            as -#word). \
            --reverse lists oldest first; with -n it still picks the newest n. Ids are shown with 8 hex digits, more \
            when another entry shares those; on a terminal, long titles are cut to its \
            width. --json prints an array of objects with id, title, date, created, modified \
            (ISO 8601), starred, tags, size and attachments; its title is the first line as written (a \
            heading keeps its #s, for programs to see the text as stored).

            An entry with attachments is marked with a + after the star's column (the column \
            is there only when a listed entry has attachments). In --json, attachments is an \
            array of {name, size} (bytes): the listing reads only the index, which holds no \
            more; `show --json` and `diary attachments --json` add type and added.

            --on DATE lists one day (in your time zone); --on-this-day lists the entries dated \
            on today's month and day in earlier years.

            On a terminal, a listing taller than the window goes through $PAGER (default \
            `less`, with LESS=FRX unless LESS is set); --no-pager prints it directly.

            EXAMPLE
              diary list --starred --from 2024-01-01 -n 10
              diary list --on yesterday
              diary list --reverse --from 2024-01-01
              diary list --on-this-day
              diary list --tag travel --json
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var filters: FilterOptions

    @Flag(help: "Only entries dated on today's month and day in earlier years.")
    var onThisDay = false

    @Flag(help: "Oldest first (-n still picks the newest n).")
    var reverse = false

    @OptionGroup var pager: PagerOptions

    func validate() throws {
        if filters.entries.on != nil && onThisDay { throw ValidationError("--on and --on-this-day cannot be combined") }
    }

    func run() throws {
        let session = global.session()
        let vault = try session.openVault()
        // Pages are read by `list`, so damage to one shows only then: the session warns after it.
        var filter = filters.filter
        let summaries: [EntrySummary] = try session.read { vault in
            guard onThisDay else { return try vault.list(filter) }
            let limit = filter.limit
            filter.limit = nil
            return Array(try vault.list(filter).filter(Self.isOnThisDay(in: Date())).prefix(limit ?? .max))
        }
        try EntryFormat.printList(
            reverse ? summaries.reversed() : summaries, json: filters.json, pager: !pager.noPager, vault: vault)
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
