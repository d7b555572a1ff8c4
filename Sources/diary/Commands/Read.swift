import ArgumentParser
import DiaryApp
import DiaryVault
import Foundation

/// `diary read`: the diary as a book, oldest first, each entry in full under its date.
struct Read: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "read",
        abstract: "Read the diary as a book, oldest first.",
        usage: "diary read [<options>]",
        discussion: """
            Every entry in full, oldest first (--reverse: newest first), each under a heading \
            line with its date (the weekday and the time of day, in your locale), a star when \
            starred and its tags.

            The filters are list's: --from, --to and --on (dates, as `diary list` takes them), \
            --tag and --starred read only the matching entries; -n N reads the newest N (still \
            oldest first).

            On a terminal the text is rendered as Markdown: headings and **bold** in bold, \
            *emphasis* in italics, lists with bullets or numbers, quotes behind a bar, code \
            dimmed, links as `text (address)`; control characters are shown escaped (\\e, \\r), \
            as `show` shows them, so no entry can drive your terminal. Into a pipe or a file \
            each text is printed as it is stored. A diary taller than the window goes through \
            $PAGER (default `less`, with LESS=FRX unless LESS is set); --no-pager prints it \
            directly. Entries are decrypted as they are shown, never all at once.

            EXAMPLE
              diary read
              diary read --from 2024-01-01 --to 2024-12-31
              diary read --tag travel --reverse
              diary read -n 10 > last-ten.txt
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var filters: EntryFilterOptions

    @Option(
        name: [.customShort("n"), .customLong("limit")],
        help: ArgumentHelp("Only the newest n entries (still oldest first).", valueName: "n"))
    var limit: Int?

    @Flag(help: "Newest first.")
    var reverse = false

    @OptionGroup var pager: PagerOptions

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("-n must be at least 1") }
    }

    /// The reader quit the pager or closed the pipe: no more entries are decrypted.
    private struct ReaderLeft: Error {}

    func run() throws {
        let session = global.session()
        try session.openVault()
        var filter = filters.filter
        filter.limit = limit
        // The index alone says which entries, in order; each is decrypted as it is shown.
        let newestFirst = try session.read { vault in try vault.list(filter).map(\.id) }
        let ids = reverse ? newestFirst : newestFirst.reversed()
        let book = BookFormat(rendered: isatty(STDOUT_FILENO) == 1)
        let output = PagedOutput(allowed: !pager.noPager)
        try session.read { vault in
            var first = true
            do {
                try vault.forEachEntry(ids) { entry in
                    // One blank line between entries.
                    guard output.write((first ? "" : "\n") + book.section(entry)) else { throw ReaderLeft() }
                    first = false
                }
            } catch is ReaderLeft {}
        }
        try output.finish()
    }
}
