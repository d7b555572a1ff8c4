import ArgumentParser
import DiaryApp
import DiarySync
import DiaryVault

/// `diary passwd`: change the passphrase.
struct Passwd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passwd",
        abstract: "Change the passphrase.",
        usage: "diary passwd [<options>]",
        discussion: """
            Always asks for the current passphrase (or reads --passphrase-file), even while \
            unlocked, then the new one twice (or --new-passphrase-file); at the terminal, a wrong \
            current passphrase or a repeat that does not match is asked again, three times in \
            all. Only the header is \
            rewritten: the vault key, and so every entry, stays as it is, which takes the same \
            short time for ten entries or ten thousand. An unlocked session keeps going.

            A weak new passphrase (too short, repeated or in sequence, or among the most common) \
            is refused with the reason: at the terminal as soon as it is typed, asking again (three \
            tries); from a file with status 67. --allow-weak-passphrase uses it anyway.

            EXAMPLE
              diary passwd
              diary passwd --kdf sensitive
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var newPassphrase: NewPassphraseOptions

    @Option(help: "Also change the Argon2id cost: interactive, moderate or sensitive.")
    var kdf: KDFPreset?

    func run() throws {
        let access = VaultAccess(options: global)
        // Check the current passphrase before asking for a new one.
        // Header only: the index and the entries are never read, so the cost does not grow
        // with the diary.
        SettingsWarnings.report(try access.inspect(), at: access.directory, kdfChanging: kdf != nil)
        let (current, checked) = try access.withCurrentPassphrase { passphrase in
            (passphrase, try Vault.checkPassphrase(at: access.directory, passphrase: passphrase))
        }
        // Mid-rotation the header holds two keys: `rekey` finishes first (and a synced vault
        // could not publish a two-key header to the other machines).
        guard checked.info.keyGenerations.count == 1 else { throw VaultError.rotationInterrupted }
        // The current passphrase was accepted: a mistyped repeat asks again rather than start over.
        let new = try access.newPassphrase(newPassphrase, triesOnMismatch: VaultAccess.passphraseTries)
        let change = try Vault.changePassphrase(
            at: access.directory, checked: checked, current: current, new: new, kdf: kdf?.parameters)
        Output.note("passphrase changed for \(access.directory.path)")
        // A synced vault publishes the new header at its next sync; the other machines then
        // open with the new passphrase only.
        try SyncLifecycle.notePassphraseChange(
            change, vaultDirectory: access.directory, stateDirectory: EntrySetWatch.stateDirectory)
    }
}

