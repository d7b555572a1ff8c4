import ArgumentParser
import DiaryVault

/// `diary list`: the entries, newest first.
struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List entries, newest first.",
        discussion: """
            One line per entry: short id, date (in your locale, from LC_ALL, LC_TIME or LANG), \
            a star when starred, the title, the tags. --json prints an array of objects with \
            id, title, date, created, modified (ISO 8601), starred, tags and size.

            EXAMPLE
              diary list --starred --from 2024-01-01 -n 10
              diary list --tag travel --json
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var filters: FilterOptions

    func run() throws {
        let vault = try VaultAccess(options: global).open()
        // Pages are read by `list`, so damage to one shows only then: warn after it.
        let summaries = try vault.list(filters.filter)
        try warnAboutIndex(vault)
        try EntryFormat.printList(summaries, json: filters.json)
    }
}

/// After a read: a page found damaged since the vault was opened is damage found now, and is
/// treated as at open (`EntrySetWatch.afterRead`): a loss stops the command, damage is said.
/// An entry shown from a damaged index could not be checked against its row: an older copy of
/// it put back in its place would not be noticed, so `show` and `edit` say that too.
func warnAboutIndex(_ vault: Vault, entryUnchecked: Bool = false) throws {
    try EntrySetWatch.afterRead(vault)
    if vault.indexState != .ok && entryUnchecked {
        Output.hint("this entry could not be checked against the index (an older copy put back would go unnoticed); `diary verify` names what is damaged")
    }
}
