import ArgumentParser
import DiaryApp
import DiarySync
import DiaryVault
import Foundation

/// `diary conflicts`: entries edited on two machines since they last agreed.
struct Conflicts: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conflicts",
        abstract: "List entries changed on two machines (after `diary sync`).",
        usage: "diary conflicts [<options>]",
        discussion: """
            Each conflict shows every version: which machine wrote it, its date, star, title, \
            tags and length, or that it deleted the entry. The local vault shows the first version listed until you \
            choose with `diary resolve`; nothing is dropped meanwhile.

            EXAMPLE
              diary conflicts
              diary conflicts --json
            """)

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print JSON (one object per conflict, with every version's text).")
    var json = false

    func run() throws {
        let session = global.session()
        try session.openVault()
        let conflicts = try session.read {
            try SyncEngine(vault: $0, stateDirectory: session.stateDirectory).conflicts()
        }
        if json {
            try Output.data(EntryFormat.json(conflicts.map(ConflictRecord.init)))
            return
        }
        for conflict in conflicts {
            var lines = [EntryFormat.fullID(conflict.id)]
            for version in conflict.versions {
                let who = Printable.escaped(version.machineName) + (version.isThisMachine ? " (this machine)" : "")
                let what = version.entry.map(Self.describe) ?? "(deleted)"
                lines.append("  \(version.isShown ? "*" : " ") \(who): \(what)")
            }
            Output.data(lines.joined(separator: "\n"))
        }
    }

    /// Enough to tell versions apart when only a star, a tag or the length differ.
    static func describe(_ entry: Entry) -> String {
        var parts = [DateOutput.day(entry.date)]
        if entry.starred { parts.append("★") }
        parts.append(Printable.escaped(EntryFormat.displayTitle(entry.title)))
        parts += entry.tags.map { "#" + Printable.escaped($0) }
        let words = entry.text.split(whereSeparator: { $0.isWhitespace }).count
        parts.append("(\(words) word\(words == 1 ? "" : "s"))")
        return parts.joined(separator: "  ")
    }
}

/// The JSON shape of one conflict.
struct ConflictRecord: Encodable {
    struct Version: Encodable {
        let machine: String
        let thisMachine: Bool
        let shown: Bool
        let deleted: Bool
        let entry: EntryFormat.Record?
    }

    let id: String
    let versions: [Version]

    init(_ c: Conflict) {
        id = EntryFormat.fullID(c.id)
        versions = c.versions.map {
            Version(
                machine: $0.machineName, thisMachine: $0.isThisMachine, shown: $0.isShown, deleted: $0.entry == nil,
                entry: $0.entry.map { EntryFormat.Record($0) })
        }
    }
}
