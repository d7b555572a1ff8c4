import ArgumentParser
import DiaryVault

/// `diary search`: full-text search.
struct Search: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Find entries containing a text.",
        discussion: """
            Case- and diacritic-insensitive search over titles and texts, decrypted in memory. \
            Takes the same filters as `list`, and prints the same lines or JSON.

            PRIVACY: the search text is an argument, so it is not private. While diary runs, \
            any user of this machine can read it in /proc/PID/cmdline (`ps` shows it), and your \
            shell keeps it in its history file.

            EXAMPLE
              diary search "lake" --from 2024-06-01
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The text to look for.")
    var query: String

    @OptionGroup var filters: FilterOptions

    func validate() throws {
        if query.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("the search text is empty") }
    }

    func run() throws {
        let vault = try VaultAccess(options: global).open()
        try warnAboutIndex(vault)
        try EntryFormat.printList(try vault.search(query, filter: filters.filter), json: filters.json)
        for id in vault.damagedDuringLastSearch {
            Output.warning("entry \(EntryFormat.fullID(id)) is damaged and was not searched; run `diary verify`")
        }
    }
}
