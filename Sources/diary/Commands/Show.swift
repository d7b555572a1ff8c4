import ArgumentParser
import DiaryApp
import DiaryVault
import Foundation

/// `diary show`: whole entries, the newest when no id is given.
struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show entries (the newest without an id).",
        usage: "diary show [<options>] [<ids> ...]",
        discussion: """
            ID is a full UUID or a unique prefix of at least 4 hex digits (as `list` shows). \
            Without an id, shows the newest entry; with several, each in turn; -n N shows the \
            newest N, newest first, or oldest first with --reverse. Prints the title, a short header (id, dates in your locale, star, tags) \
            and the rest of the text; --json prints one object with the fields of \
            `list --json` plus `text`, or an array of them for several ids or -n; its \
            attachments array has name, type, size (bytes) and added (ISO 8601).

            An entry's attachments follow its text: a line `Attachments:`, then one line \
            each, `  NAME  (type, size)` (--raw prints the text alone). `diary open` and \
            `diary extract` give their content.

            On a terminal the text is rendered as Markdown: headings and **bold** in bold, \
            *emphasis* in italics, lists with bullets or numbers, quotes behind a bar, code \
            dimmed, links as `text (address)`.

            Control characters (escape sequences, carriage returns) in the title and tags are \
            shown escaped (\\e, \\r, \\u{9B}), so an entry or an imported file cannot drive \
            your terminal; so are those in the text when stdout is a terminal (tabs and \
            newlines stay). Into a pipe the text after the title is printed unchanged; --raw prints \
            everything unchanged (not rendered), also on a terminal.

            On a terminal, output taller than the window goes through $PAGER (default \
            `less`, with LESS=FRX unless LESS is set); --no-pager prints it directly.

            EXAMPLE
              diary show
              diary show -n 3
              diary show -n 7 --reverse
              diary show 1b4e 7c2d --json
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The entries' ids or id prefixes (default: the newest entry).", completion: EntryCompletion.ids)
    var ids: [String] = []

    @Option(
        name: [.customShort("n"), .customLong("limit")],
        help: ArgumentHelp("Show the newest n entries.", valueName: "n"))
    var limit: Int?

    @Flag(help: "Print JSON.")
    var json = false

    @Flag(help: "Print the title, tags and text unchanged, control characters included.")
    var raw = false

    @Flag(help: "With -n: oldest first.")
    var reverse = false

    @OptionGroup var pager: PagerOptions

    /// `pick`'s preview: the key only from the agent (never a question, never a passphrase
    /// file), recovery of interrupted edits not offered, the text escaped and rendered though
    /// stdout is fzf's pipe.
    @Flag(help: .hidden)
    var preview = false

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("-n must be at least 1") }
        if reverse && !ids.isEmpty { throw ValidationError("--reverse orders -n's entries; ids are shown as given") }
        if limit != nil && !ids.isEmpty { throw ValidationError("give ids or -n, not both") }
    }

    func run() throws {
        let session = preview ? global.agentOnlySession() : global.session()
        let vault = try session.openVault(offerRecovery: !preview)
        let entries = try session.read { vault in
            let entryIDs: [UUID]
            if ids.isEmpty {
                let newest = try vault.list(EntryFilter(limit: limit ?? 1)).map(\.id)
                if newest.isEmpty { throw CLIError.noEntries }
                entryIDs = reverse ? newest.reversed() : newest
            } else {
                // Two ids naming the same entry (`show ffff ffff0000`) show it once, where it first appears.
                var seen = Set<UUID>()
                entryIDs = try ids.map { try vault.resolve($0.lowercased()) }.filter { seen.insert($0).inserted }
            }
            return try entryIDs.map { try vault.entry($0) }
        }
        hintIfEntryUnchecked(vault)
        if json {
            let records = entries.map(EntryFormat.Record.init)
            let several = limit != nil || ids.count > 1
            try Pager.data(
                try several ? EntryFormat.json(records) : EntryFormat.json(records[0]), allowed: !pager.noPager)
            return
        }
        let controls: EntryFormat.Controls =
            raw ? .raw : isatty(STDOUT_FILENO) == 1 || preview ? .escaped : .escapedHeader
        // One blank line between entries, whether or not a text ends with a newline.
        var shown = ""
        for entry in entries {
            if !shown.isEmpty { shown += shown.hasSuffix("\n") ? "\n" : "\n\n" }
            shown += EntryFormat.full(entry, controls: controls)
        }
        try Pager.data(shown, allowed: !pager.noPager && !preview)
    }
}
