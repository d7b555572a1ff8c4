import ArgumentParser
import DiaryApp
import DiaryVault
import Foundation

/// `diary capture --key FILE --to DIR [TEXT]`: add an entry to a vault this machine cannot read.
struct Capture: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "capture",
        abstract: "Add an entry with a capture key, without the passphrase (write-only).",
        discussion: """
            Seals the entry with the capture key FILE (`diary capture-key create`) so that only \
            the vault can open it, and drops it into DIR's inbox: DIR is the vault's directory \
            or a folder sync remote of it (a synced folder; not a git URL). Needs no passphrase \
            and opens nothing sealed: this machine holds only the key, which can add entries \
            and never read them, not even the ones it sent. The next command that opens the \
            vault with its key (or `diary sync`, for a remote) takes the entry in, marked \
            source capture:NAME, and says so on stderr.

            The text is TEXT, else stdin when it is not a terminal, else your editor (on a \
            private file in memory; --edit opens it on TEXT). #tags and @tags in the text are tags, as with `diary new`. \
            Each capture takes the key's next number, written back to FILE first: FILE must \
            stay writable, and a copy of FILE used elsewhere makes numbers the vault refuses \
            as replays.

            EXAMPLE
              diary capture --key phone.key --to ~/Sync/diary 'Saw a heron #birds'
              echo 'backup finished' | diary capture --key cron.key --to /srv/diary --tag log
            """)

    @Option(name: .customLong("key"), help: ArgumentHelp("The capture key file.", valueName: "file"))
    var keyFile: String

    @Option(
        name: .customLong("to"),
        help: ArgumentHelp("The vault directory or folder sync remote to drop the entry into.", valueName: "dir"))
    var directory: String

    @Argument(help: "The entry's text, in words or quoted (else stdin or the editor).")
    var words: [String] = []

    @Option(
        name: .customLong("date"),
        help: ArgumentHelp(
            "The entry's date: 2024-02-22, 2024-02-22T15:00, yesterday 9pm; default now.", valueName: "date"),
        completion: DateInput.completion, transform: DateInput.argument)
    var dateOption: DateInput?

    @Option(name: .customLong("tag"), help: ArgumentHelp("Tag the entry (repeatable).", valueName: "tag"))
    var tags: [String] = []

    @Flag(help: "Star the entry.")
    var star = false

    @Flag(help: "Open the editor even when text or stdin is given.")
    var edit = false

    func validate() throws {
        for tag in tags { try Tags.validate(tag) }
        try New.refuseEmptyTags(tags)
    }

    func run() throws {
        // Before any text is asked for: a wrong DIR or key fails before the user writes.
        let (_, vaultID) = try CaptureSender.target(of: directory)
        let credential = try CaptureKeyFile.read(keyFile)
        guard credential.vaultID == vaultID else {
            throw CaptureAppError.otherVault(path: directory, key: credential.vaultID, found: vaultID)
        }
        // Only what a capture left: an edit or a `new` of the vault is `diary recover`'s.
        sayLeftovers(InterruptedEdits.find(vault: vaultID).filter { $0.owner.capture != nil })
        let receipt: CaptureReceipt?
        if edit || (words.isEmpty && TTY.stdinIsTerminal) {
            let start = words.joined(separator: " ")
            receipt = try Editor.edit(
                start, limit: Vault.maximumTextBytes,
                owner: .init(vault: vaultID, entry: nil, capture: credential.deviceID), intent: nil
            ) { body in EntryText.isBlank(body) ? nil : try send(body) }
        } else {
            let body = words.isEmpty ? try StdinText.read(limit: Vault.maximumTextBytes) : words.joined(separator: " ")
            receipt = try send(body)
        }
        guard let receipt else { return Output.note("the entry was left empty; nothing was captured") }
        Output.note(
            "captured entry \(receipt.counter) of \(Printable.escaped(receipt.device)) into \(Printable.escaped(receipt.path))"
        )
    }

    /// Texts a killed `diary` left in memory for this vault: a machine that holds only a key has
    /// no vault to `recover` them into, so where they are and how to send them is said.
    private func sayLeftovers(_ found: [InterruptedEdits.Found]) {
        for leftover in found {
            let file = Printable.escaped(leftover.path + "/" + InterruptedEdits.entryFile)
            Output.warning(
                "a text a killed diary left is in \(file) (in memory: lost at the next reboot)")
            Output.hint(
                "send it with `diary capture --key \(Printable.escaped(keyFile)) --to \(Printable.escaped(directory)) "
                    + "< \(file)`, then delete \(Printable.escaped(leftover.path))")
        }
    }

    private func send(_ body: String) throws -> CaptureReceipt {
        try TextInput.check(body, limit: Vault.maximumTextBytes)
        let entry = try CapturedEntry.new(
            text: body, date: dateOption?.start, dateIsDay: dateOption?.isDay ?? false, starred: star,
            tags: InlineTags.forNewEntry(given: tags, text: body))
        return try CaptureSender.capture(entry, keyFile: keyFile, to: directory)
    }
}
