import ArgumentParser
import DiaryApp
import DiaryVault

/// `diary delete`: remove an entry.
struct Delete: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete an entry.",
        usage: "diary delete [<options>] <id>",
        discussion: """
            Asks for confirmation on the terminal. Without a terminal (scripts, pipes) --yes is \
            required; otherwise nothing is deleted and the exit status is 64.

            EXAMPLE
              diary delete 1b4e28ba --yes
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The entry's id or id prefix.", completion: EntryCompletion.ids)
    var id: String

    @Flag(help: "Do not ask.")
    var yes = false

    func run() throws {
        let session = global.session()
        let vault = try session.openVault()
        let entryID = try vault.resolve(id.lowercased())
        let short = EntryFormat.shortID(entryID)
        if !yes {
            let title = try vault.entry(entryID).title
            try confirmDestructive("deleting entry \(short)", question: "Delete entry \(short) “\(title)”?", yes: yes)
        }
        try session.delete([entryID], from: vault)
        Output.note("deleted \(short)")
    }
}
