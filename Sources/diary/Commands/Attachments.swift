import ArgumentParser
import DiaryApp
import DiaryVault
import Foundation

/// `diary attachments`: what files entries have.
struct Attachments: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "attachments",
        abstract: "List an entry's attachments (without an id: every entry's).",
        usage: "diary attachments [<options>] [<id>]",
        discussion: """
            One line per attachment: its name, media type, size and when it was added (in \
            your locale). Without an id, every entry that has attachments is listed, newest \
            first: a line with its short id and title, then its attachments.

            --json prints an array of objects with the keys entry (the full id), name, type, \
            size (bytes) and added (ISO 8601).

            Without an id, an entry that is damaged is named on stderr and the others are \
            listed; the status is then 65 (`diary verify` lists all damage).

            EXAMPLE
              diary attachments 1b4e
              diary attachments --json | jq -r '.[].name'
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The entry's id or id prefix (default: every entry).", completion: EntryCompletion.ids)
    var id: String?

    @Flag(help: "Print JSON.")
    var json = false

    func run() throws {
        let session = global.session()
        try session.openVault()
        let (entries, damaged): ([Entry], [UUID]) = try session.read { vault in
            if let id { return ([try vault.entry(try vault.resolve(id.lowercased()))], []) }
            return try AttachmentListing.entries(of: vault)
        }
        try printListing(entries)
        for id in damaged {
            Output.warning("entry \(EntryFormat.fullID(id)) is damaged and was not listed; run `diary verify`")
        }
        if !damaged.isEmpty { throw SilentExit(code: .damaged) }
    }

    private func printListing(_ entries: [Entry]) throws {
        if json {
            let listed = entries.flatMap { entry in entry.attachments.map { AttachmentLines.Listed($0, of: entry.id) } }
            Output.data(try EntryFormat.json(listed))
            return
        }
        var lines: [String] = []
        if id != nil {
            lines = AttachmentLines.table(entries[0].attachments)
            if lines.isEmpty { Output.note("entry \(EntryFormat.shortID(entries[0].id)) has no attachments") }
        } else {
            for entry in entries {
                let title = Printable.escaped(EntryFormat.displayTitle(entry.title))
                lines.append("\(EntryFormat.shortID(entry.id))  \(title)")
                lines += AttachmentLines.table(entry.attachments, indent: "  ")
            }
        }
        if !lines.isEmpty { Output.data(lines.joined(separator: "\n")) }
    }
}
