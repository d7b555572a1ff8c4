import ArgumentParser
import DiaryApp
import DiaryVault

/// `diary unstar`: remove the star.
struct Unstar: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unstar",
        abstract: "Remove an entry's star.",
        usage: "diary unstar [<options>] <id>",
        discussion: """
            The opposite of `diary star`; unstarring an unstarred entry changes nothing.

            EXAMPLE
              diary unstar 1b4e
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The entry's id or id prefix.", completion: EntryCompletion.ids)
    var id: String

    func run() throws { try setStar(false, id: id, global: global) }
}
