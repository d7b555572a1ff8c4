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
        let outcome = try KeyChanges(global.session())
            .changePassphrase(kdf: kdf?.parameters, new: newPassphrase.source)
        Output.note("passphrase changed for \(outcome.vault.path)")
        if let error = outcome.syncNotTold { throw error }
    }
}
