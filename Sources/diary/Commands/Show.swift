import ArgumentParser
import DiaryVault

/// `diary show`: one whole entry.
struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show an entry.",
        discussion: """
            ID is a full UUID or a unique prefix of at least 4 hex digits (as `list` shows). \
            Prints a short header (title, id, dates in your locale, star, tags) and the text; \
            --json prints one object with the fields of `list --json` plus `text`.

            EXAMPLE
              diary show 1b4e --json
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The entry's id or id prefix.")
    var id: String

    @Flag(help: "Print JSON.")
    var json = false

    func run() throws {
        let vault = try VaultAccess(options: global).open()
        let entry = try vault.entry(try vault.resolve(id.lowercased()))
        warnAboutIndex(vault, entryUnchecked: true)
        Output.data(json ? try EntryFormat.json(EntryFormat.Record(entry)) : EntryFormat.full(entry))
    }
}
