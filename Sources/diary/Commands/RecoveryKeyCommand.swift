import ArgumentParser
import DiaryApp
import DiaryVault
import Foundation

/// `diary recovery-key`: a key that opens the vault when the passphrase is forgotten.
struct RecoveryKeyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recovery-key",
        abstract: "Make, check or remove the key that resets a forgotten passphrase.",
        discussion: """
            Without its passphrase a vault cannot be opened: a forgotten passphrase loses the \
            diary. A recovery key is 32 random bytes shown once, as 9 groups of 6 characters and \
            a QR code, to print or write down and keep somewhere safe; `diary reset-passphrase` \
            then sets a new passphrase with it. It stays valid through `diary passwd` and `diary \
            rekey` without being asked for (the vault seals every new key to its public half). \
            Whoever holds it can read the diary, as with the passphrase.

            EXAMPLE
              diary recovery-key create
              diary recovery-key create --output /media/usb/diary-recovery-key.txt
              diary recovery-key status
            """,
        subcommands: [RecoveryKeyCreate.self, RecoveryKeyStatus.self, RecoveryKeyRemove.self])
}

/// `diary recovery-key create`.
struct RecoveryKeyCreate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Make a recovery key and show it once.",
        discussion: """
            Asks for the passphrase (or reads --passphrase-file), makes a new random key and \
            shows it once on the terminal, never on stdout: 9 groups of 6 characters (a checksum \
            catches any one wrong character and any two swapped neighbours; I, L and O may be \
            typed for 1, 1 and 0) and a QR code of the same text. Nothing keeps it: write it \
            down or print it, then press Enter; the screen is cleared and only then is the key \
            set. --output FILE writes it instead to a new file readable only by you (never over \
            an existing one), for printing or scripts, whole and flushed to disk before the \
            vault changes.

            A vault that has a key refuses a second one; --replace makes a new one, and the old \
            one stops working. On a vault that syncs, the other machines take the change at \
            their next `diary sync`.

            --shares N --threshold K splits the new key instead, for people you trust: any K of \
            the N shares rebuild it, and fewer tell nothing about it. The whole key is shown \
            nowhere. --output DIR writes share-1-of-N.txt … into DIR (made readable only by \
            you; a new or empty directory); without it the shares are shown one at a time on \
            the terminal, Enter clearing the screen before the next. The key is set only once \
            every share is written or shown. `diary reset-passphrase --share-file` takes them \
            back.

            EXAMPLE
              diary recovery-key create
              diary recovery-key create --replace --output key.txt
              diary recovery-key create --shares 5 --threshold 3 --output shares
            """)

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Replace the vault's recovery key: the old one stops working.")
    var replace = false

    @Option(
        help: ArgumentHelp(
            "Write the key to this new file (0600) instead of showing it; with --shares, the shares into this "
                + "new or empty directory.", valueName: "path"),
        completion: .file())
    var output: String?

    @Option(help: ArgumentHelp("Split the key into this many shares (2 to 16) instead.", valueName: "n"))
    var shares: Int?

    @Option(help: ArgumentHelp("With --shares: how many of them rebuild the key.", valueName: "k"))
    var threshold: Int?

    func run() throws {
        if let shares, let threshold { return try runShares(count: shares, threshold: threshold) }
        let session = global.session()
        let vaultID = try session.inspect().id  // a missing vault fails before anything is made
        let file = try output.map { try RecoveryKeyFile.create(at: $0) }
        // The terminal is needed before the key exists: a key made and shown nowhere is lost.
        let tty = file == nil ? try RecoveryKeyDisplay.terminal() : nil
        if let file {
            // Interrupted before the key is set, what was written would hold a key that opens nothing.
            SignalCleanup.install()
            SignalCleanup.rememberCreated(file.temporaryPath)
        }
        let created: RecoveryKeyCreated
        do {
            // The key is written and flushed (or shown and confirmed) before the vault changes.
            created = try RecoveryKeys(session).create(replace: replace) { key in
                if let file {
                    try file.write(key, vaultID: vaultID, created: Date())
                    if !file.keepsPermissions { Output.warning(RecoveryWording.openToOthers(file.path)) }
                    SignalCleanup.rememberCreated(file.path)
                } else if let tty {
                    try RecoveryKeyDisplay.showUntilWrittenDown(
                        key, on: tty, interrupted: "\ndiary: interrupted; no recovery key was set\n")
                }
                // From here the vault changes: an interruption must not take the file away after.
                SignalCleanup.holdSignals()
            }
        } catch let error as RecoveryKeySetDespiteError {
            // The vault is (or may be) sealed to this key: the file is the only copy of it.
            SignalCleanup.forgetCreated()
            SignalCleanup.releaseSignals()
            let holder =
                file.map { "the recovery key in \(Printable.escaped($0.path))" } ?? "the recovery key just shown"
            throw RecoveryKeyKeptDespiteError(holder: holder, error: error)
        } catch let error as RecoveryKeyNotSet {
            file?.discard()
            SignalCleanup.releaseSignals()
            throw RecoveryKeyOutputTakenBack(path: file?.path, underlying: error.underlying)
        } catch {
            file?.discard()
            SignalCleanup.releaseSignals()
            throw error
        }
        SignalCleanup.forgetCreated()
        SignalCleanup.releaseSignals()
        if let file { Output.note("wrote the recovery key to \(Printable.escaped(file.path))") }
        Output.note(RecoveryWording.created(created.status, replaced: replace))
        if let error = created.syncNotTold { throw error }
    }
}

/// `diary recovery-key status`.
struct RecoveryKeyStatus: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Say whether the vault has a recovery key.",
        discussion: """
            Prints one line on stdout: `active` with the key's epoch and the fingerprint of its \
            public half (`diary reset-passphrase` names a key's own fingerprint when it is not \
            the vault's), `removed`, or `none`. The header is checked against the index first.

            EXAMPLE
              diary recovery-key status
            """)

    @OptionGroup var global: GlobalOptions

    func run() throws {
        Output.data(RecoveryWording.status(try RecoveryKeys(global.session()).status()))
    }
}

/// `diary recovery-key remove`.
struct RecoveryKeyRemove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove the recovery key: it stops working.",
        discussion: """
            Asks for confirmation (or --yes), then for the passphrase. Afterwards a forgotten \
            passphrase loses the diary again. A copy of the old header put back is refused.

            EXAMPLE
              diary recovery-key remove --yes
            """)

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Do not ask for confirmation.")
    var yes = false

    func run() throws {
        try confirmDestructive(
            "removing the recovery key",
            question: "Remove the recovery key? A forgotten passphrase then loses the diary.", yes: yes)
        let removed = try RecoveryKeys(global.session()).remove()
        Output.note("removed the recovery key of \(Printable.escaped(removed.vault.path))")
        if let error = removed.syncNotTold { throw error }
    }
}
