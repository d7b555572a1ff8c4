import ArgumentParser
import DiaryVault
import Foundation

/// `diary show`: one whole entry.
struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show an entry.",
        discussion: """
            ID is a full UUID or a unique prefix of at least 4 hex digits (as `list` shows). \
            Prints a short header (title, id, dates in your locale, star, tags) and the text; \
            --json prints one object with the fields of `list --json` plus `text`.

            Control characters (escape sequences, carriage returns) in the title and tags are \
            shown escaped (\\e, \\r, \\u{9B}), so an entry or an imported file cannot drive \
            your terminal; so are those in the text when stdout is a terminal (tabs and \
            newlines stay). Into a pipe the text is printed unchanged; --raw prints everything \
            unchanged, also on a terminal.

            EXAMPLE
              diary show 1b4e --json
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The entry's id or id prefix.", completion: EntryCompletion.ids)
    var id: String

    @Flag(help: "Print JSON.")
    var json = false

    @Flag(help: "Print the title, tags and text unchanged, control characters included.")
    var raw = false

    func run() throws {
        let vault = try VaultAccess(options: global).open()
        let entry = try vault.entry(try vault.resolve(id.lowercased()))
        try warnAboutIndex(vault, entryUnchecked: true)
        if json {
            Output.data(try EntryFormat.json(EntryFormat.Record(entry)))
            return
        }
        let controls: EntryFormat.Controls = raw ? .raw : isatty(STDOUT_FILENO) == 1 ? .escaped : .escapedHeader
        Output.data(EntryFormat.full(entry, controls: controls))
    }
}
