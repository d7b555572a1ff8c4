import ArgumentParser
import DiaryApp
import DiaryVault
import Foundation

/// `diary detach`: remove an attachment from an entry.
struct Detach: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detach",
        abstract: "Remove an attachment from an entry.",
        usage: "diary detach [<options>] <id> <name>",
        discussion: """
            Removes the attachment NAME (as `diary attachments ID` shows it; letter case does \
            not matter) from entry ID. Its sealed file is deleted too, unless another entry \
            shares it (an identical file attached twice is stored once).

            Asks for confirmation on the terminal. Without a terminal (scripts, pipes) --yes is \
            required; otherwise nothing is removed and the exit status is 64.

            EXAMPLE
              diary detach 1b4e heron.jpg
              diary detach 1b4e heron.jpg --yes
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The entry's id or id prefix.", completion: EntryCompletion.ids)
    var id: String

    @Argument(help: "The attachment's name.")
    var name: String

    @Flag(name: [.short, .long], help: "Do not ask.")
    var yes = false

    func run() throws {
        let session = global.session()
        let vault = try session.openVault()
        let entryID = try vault.resolve(id.lowercased())
        let record = try AttachmentChoice.record(named: name, in: try vault.entry(entryID))
        let shown = Printable.escaped(record.name)
        try confirmDestructive(
            "removing an attachment",
            question:
                "Remove \(shown) (\(AttachmentLines.size(record.length))) from entry \(EntryFormat.shortID(entryID))?",
            yes: yes)
        try vault.detach(record.name, from: entryID)
        Output.note("removed \(record.name) from \(EntryFormat.shortID(entryID))")
    }
}
