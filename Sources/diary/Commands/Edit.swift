import ArgumentParser
import DiaryApp
import DiaryVault
import Foundation

/// `diary edit`: change an entry's text in the editor.
struct Edit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Edit an entry in your editor (the newest without an id).",
        usage: "diary edit [<options>] [<id>]",
        discussion: """
            Opens the text in your editor ($DIARY_EDITOR, the config's editor, $VISUAL, $EDITOR, else vi) in a private file on a memory file \
            system that is overwritten and removed afterwards, also when the editor fails or \
            diary is interrupted. If diary is killed outright (SIGKILL), the next command that \
            opens the vault offers to recover the text (see `diary recover`). Saved unchanged (and no --date): nothing is written. Emptied: \
            the entry is deleted after confirmation (--yes without a terminal). Tags newly \
            written in the text as #word or @word are added to the entry's tags; a tag the text \
            already held is not, so one removed with `diary tag ID -word` stays removed.

            If the edited text cannot be stored (a full disk, or any other reason), diary exits \
            with an error status, keeps the text in memory and says where: `diary recover` \
            stores it once the cause is fixed.

            If the entry changes while its editor is open (another `diary edit`, a sync), it is \
            not overwritten: the edited text becomes a new entry beside it (its id on stdout), \
            and diary says so.

            Without an id, edits the newest entry (by its date).

            EXAMPLE
              diary edit
              EDITOR="code --wait" diary edit 1b4e --date 2024-02-22
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The entry's id or id prefix (default: the newest entry).", completion: EntryCompletion.ids)
    var id: String?

    @Option(
        help: ArgumentHelp(
            "A new date for the entry (as for new: 2024-02-22, yesterday 9pm, last monday, Feb 22).",
            valueName: "date"),
        completion: DateInput.completion, transform: DateInput.argument)
    var date: DateInput?

    @Flag(help: "Delete without asking if the text is emptied.")
    var yes = false

    func run() throws {
        let session = global.session()
        let vault = try session.openVault()
        let (entryID, entry) = try session.read { vault in
            let entryID = try id.map { try vault.resolve($0.lowercased()) } ?? newestID(vault)
            return (entryID, try vault.entry(entryID))
        }
        hintIfEntryUnchecked(vault)
        let intent = EditIntent.edit(of: entry, date: date?.start, dateIsDay: date?.isDay ?? false)
        try Editor.edit(
            entry.text, limit: Vault.maximumTextBytes, owner: .init(vault: vault.id, entry: entryID), intent: intent
        ) { edited in
            try save(edited, editing: entry, intent: intent, session: session, vault: vault)
        }
    }

    /// Stores the edited text (with `--date`), deletes the entry when it was emptied (after
    /// confirmation), or says that nothing changed.
    private func save(
        _ edited: String, editing entry: Entry, intent: EditIntent, session: DiarySession, vault: Vault
    ) throws {
        let short = EntryFormat.shortID(entry.id)
        if EntryText.isBlank(edited) {
            try confirmDestructive(
                "deleting emptied entry \(short)", question: "The text is empty. Delete entry \(short)?", yes: yes)
            try session.delete([entry.id], from: vault)
            Output.note("deleted \(short)")
            return
        }
        let textChanged = edited != entry.text
        guard textChanged || date != nil else {
            Output.note("no changes; nothing written")
            return
        }
        // Changed while the editor was open (another edit, a sync): never overwritten.
        if let current = try? vault.entry(entry.id), intent.entryChanged(current) {
            return try saveBeside(edited, changed: current, intent: intent, vault: vault)
        }
        // Tags newly written in the text join the entry's tags; none is removed here (`diary
        // tag` does), and one the text held before stays removed if `diary tag` removed it.
        let tags = textChanged ? InlineTags.afterEdit(entry.tags, before: entry.text, text: edited) : nil
        _ = try vault.update(
            entry.id, text: textChanged ? edited : nil, date: date?.start, dateIsDay: date?.isDay ?? false, tags: tags)
        Output.note("saved \(short)")
    }
}

extension Edit {
    /// Stores `edited` as a new entry beside `changed`, which changed while its editor was
    /// open, as `recover` stores such an edit (`LeftoverText`): with its date, tags and star.
    fileprivate func saveBeside(_ edited: String, changed: Entry, intent: EditIntent, vault: Vault) throws {
        let short = EntryFormat.shortID(changed.id)
        switch try LeftoverText.store(edited, editing: changed.id, intent: intent, in: vault) {
        case .addedBesideChanged(let added, _):
            Output.data(EntryFormat.fullID(added))
            Output.note(
                "entry \(short) changed while you edited it (another edit or a sync), so it was not replaced; "
                    + "your text is new entry \(EntryFormat.shortID(added))")
            Output.hint("compare them with `diary show \(short) \(EntryFormat.shortID(added))`")
        case .added(let added):
            Output.data(EntryFormat.fullID(added))
            Output.note(
                "entry \(short) was deleted while you edited it; your text is new entry \(EntryFormat.shortID(added))")
        case .updated:
            Output.note("saved \(short)")
        case .unchanged, .empty:
            Output.note("entry \(short) already holds this text; nothing written")
        }
    }
}

/// The newest entry by date, for `show` and `edit` without an id.
func newestID(_ vault: Vault) throws -> UUID {
    guard let newest = try vault.list(EntryFilter(limit: 1)).first else { throw CLIError.noEntries }
    return newest.id
}
