import ArgumentParser
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
            Each conflict shows every version: which machine wrote it, its date and title, or \
            that it deleted the entry. The local vault shows the first version listed until you \
            choose with `diary resolve`; nothing is dropped meanwhile.

            EXAMPLE
              diary conflicts
              diary conflicts --json
            """)

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print JSON (one object per conflict, with every version's text).")
    var json = false

    func run() throws {
        let vault = try VaultAccess(options: global).open()
        let conflicts = try SyncEngine(vault: vault, stateDirectory: EntrySetWatch.stateDirectory).conflicts()
        if json {
            try Output.data(EntryFormat.json(conflicts.map(ConflictRecord.init)))
            return
        }
        for conflict in conflicts {
            var lines = [EntryFormat.fullID(conflict.id)]
            for version in conflict.versions {
                let who = Printable.escaped(version.machineName) + (version.isThisMachine ? " (this machine)" : "")
                let what = version.entry.map { "\(DateOutput.day($0.date))  \(Printable.escaped($0.title))" } ?? "(deleted)"
                lines.append("  \(version.isShown ? "*" : " ") \(who): \(what)")
            }
            Output.data(lines.joined(separator: "\n"))
        }
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
            Version(machine: $0.machineName, thisMachine: $0.isThisMachine, shown: $0.isShown, deleted: $0.entry == nil,
                    entry: $0.entry.map { EntryFormat.Record($0) })
        }
    }
}
