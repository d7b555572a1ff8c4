import ArgumentParser
import DiaryApp
import DiaryVault

/// `diary star`: mark an entry as a favourite.
struct Star: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "star",
        abstract: "Star an entry.",
        usage: "diary star [<options>] <id>",
        discussion: """
            Starred entries are marked with a star in `list` and can be listed alone with `list --starred`.

            EXAMPLE
              diary star 1b4e
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The entry's id or id prefix.", completion: EntryCompletion.ids)
    var id: String

    func run() throws { try setStar(true, id: id, global: global) }
}

func setStar(_ starred: Bool, id: String, global: GlobalOptions) throws {
    let vault = try global.session().openVault()
    let entryID = try vault.resolve(id.lowercased())
    _ = try vault.update(entryID, starred: starred)
    Output.note("\(starred ? "starred" : "unstarred") \(EntryFormat.shortID(entryID))")
}
