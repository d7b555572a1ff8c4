import ArgumentParser
import DiaryApp
import DiarySync
import DiaryVault
import Foundation

/// `diary resolve`: end a conflict.
struct Resolve: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resolve",
        abstract: "End a conflict: keep one version, both, or a text merged in the editor.",
        usage: "diary resolve [<options>] <id>",
        discussion: """
            --keep mine keeps this machine's version, --keep theirs the other machine's (refused \
            when several other machines wrote versions), --keep both keeps this machine's and \
            makes every other version a new entry. --edit opens every text in the editor \
            between conflict markers; save the text you want (without the markers). The choice \
            takes effect here at once and on every machine after the next `diary sync`.

            EXAMPLE
              diary resolve 1b4e --keep theirs
              diary resolve 1b4e --edit
            """)

    enum Keep: String, ExpressibleByArgument, CaseIterable { case mine, theirs, both }

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The entry's id or id prefix.", completion: EntryCompletion.ids)
    var id: String

    @Option(help: "Which version to keep: mine, theirs or both.")
    var keep: Keep?

    @Flag(help: "Merge the texts in the editor.")
    var edit = false

    func validate() throws {
        if (keep == nil) == !edit { throw ValidationError("give either --keep mine|theirs|both or --edit") }
    }

    func run() throws {
        let session = global.session()
        let vault = try session.openVault()
        let entryID = try resolveID(in: vault, session)
        let engine = try SyncEngine(vault: vault, stateDirectory: session.stateDirectory)
        let choice: ResolveChoice
        switch keep {
        case .mine?: choice = .mine
        case .theirs?: choice = .theirs
        case .both?: choice = .both
        case nil: choice = .text(try mergedText(engine, entryID, vault))
        }
        let extras = try engine.resolve(entryID, keeping: choice)
        var note = "resolved \(EntryFormat.shortID(entryID)); `diary sync` publishes the choice"
        if extras.count == 1 { note += "; the other version is now entry \(EntryFormat.shortID(extras[0]))" }
        if extras.count > 1 {
            note += "; the other versions are now entries \(extras.map(EntryFormat.shortID).joined(separator: ", "))"
        }
        Output.note(note)
    }

    /// The entry `id` names; else the conflict whose id it starts, when exactly one does: no
    /// entry id names a template (FORMAT.md §7.5), so a template's conflict is found among the
    /// conflicts. Otherwise the entry's error.
    private func resolveID(in vault: Vault, _ session: DiarySession) throws -> UUID {
        do {
            return try vault.resolve(id.lowercased())
        } catch VaultError.unknownID(let unknown) {
            let hex = id.lowercased().filter { $0 != "-" }
            let conflicts = try? SyncEngine(vault: vault, stateDirectory: session.stateDirectory).conflicts()
            let matches = (conflicts ?? []).map(\.id).filter {
                $0.uuidString.lowercased().filter { $0 != "-" }.hasPrefix(hex)
            }
            guard matches.count == 1 else { throw VaultError.unknownID(unknown) }
            return matches[0]
        }
    }

    private func mergedText(_ engine: SyncEngine, _ id: UUID, _ vault: Vault) throws -> String {
        guard let conflict = try engine.conflicts().first(where: { $0.id == id }) else {
            throw SyncError.noConflict(id)
        }
        var text = ""
        for (n, version) in conflict.versions.enumerated() {
            text += n == 0 ? "<<<<<<< " : "======= "
            text += version.machineName + (version.isThisMachine ? " (this machine)" : "") + "\n"
            text += version.entry.map { $0.text.hasSuffix("\n") ? $0.text : $0.text + "\n" } ?? "(deleted)\n"
        }
        text += ">>>>>>> end\n"
        let edited = try Editor.edit(text, limit: Vault.maximumTextBytes, owner: .init(vault: vault.id, entry: id))
        let markers = ["<<<<<<< ", "======= ", ">>>>>>> "]
        if edited.split(separator: "\n").contains(where: { line in markers.contains { line.hasPrefix($0) } }) {
            throw CLIError.conflictMarkersLeft
        }
        if EntryText.isBlank(edited) { throw CLIError.emptyText }
        return edited
    }
}
