import ArgumentParser
import DiaryApp
import DiaryVault
import Foundation

/// `diary delete`: remove entries.
struct Delete: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete entries.",
        usage: "diary delete [<options>] <ids> ...",
        discussion: """
            ID is a full UUID or a unique prefix of at least 4 hex digits (as `list` shows); \
            several may be given, as to `show`. Every id is looked up first: if one names no \
            entry (or more than one), nothing is deleted and the error names it.

            Asks once for confirmation on the terminal, listing the entries (and how many \
            attachments go with each). Without a terminal \
            (scripts, pipes) --yes is required; otherwise nothing is deleted and the exit \
            status is 64.

            EXAMPLE
              diary delete 1b4e28ba --yes
              diary delete 1b4e 7c2d
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The entries' ids or id prefixes.", completion: EntryCompletion.ids)
    var ids: [String]

    @Flag(help: "Do not ask.")
    var yes = false

    func validate() throws {
        if ids.isEmpty { throw ValidationError("give the id of the entry to delete (`diary list` shows them)") }
    }

    func run() throws {
        let session = global.session()
        let vault = try session.openVault()
        // All resolved before anything is deleted: a mistyped id deletes none of the others.
        var seen = Set<UUID>()
        let entryIDs = try ids.map { try vault.resolve($0.lowercased()) }.filter { seen.insert($0).inserted }
        if !yes {
            let listed = try entryIDs.map { id in
                let entry = try vault.entry(id)
                let title = "\(EntryFormat.shortID(id)) “\(Printable.escaped(EntryFormat.displayTitle(entry.title)))”"
                return title + Self.withAttachments(entry.attachments.count)
            }
            let what = entryIDs.count == 1 ? "entry \(EntryFormat.shortID(entryIDs[0]))" : "\(entryIDs.count) entries"
            let question =
                entryIDs.count == 1
                ? "Delete entry \(listed[0])?"
                : listed.map { "  " + $0 }.joined(separator: "\n") + "\nDelete these \(entryIDs.count) entries?"
            try confirmDestructive("deleting \(what)", question: question, yes: yes)
        }
        try session.delete(entryIDs, from: vault)
        for id in entryIDs { Output.note("deleted \(EntryFormat.shortID(id))") }
    }

    /// What goes with an entry: ` and its 3 attachments`, or nothing.
    static func withAttachments(_ count: Int) -> String {
        count == 0 ? "" : count == 1 ? " and its attachment" : " and its \(count) attachments"
    }
}
