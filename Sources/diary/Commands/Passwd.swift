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

            On a vault that syncs, the vault key is rotated too (as `diary rekey`), so that the \
            old passphrase, or a key someone opened with it, reads nothing written from now on; \
            the other machines follow at their next `diary sync` with the new passphrase. \
            --no-rekey changes the passphrase only (the old one, with a copy of an old header, \
            still opens the key).

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

    @Flag(help: "On a vault that syncs: change the passphrase only, not the vault key.")
    var noRekey = false

    func run() throws {
        let progress = Progress("re-encrypting")
        defer { progress.finish() }
        let outcome = try KeyChanges(global.session())
            .changePassphrase(
                kdf: kdf?.parameters, new: newPassphrase.source, rekey: !noRekey, progress: progress.update)
        progress.finish()
        Output.note("passphrase changed for \(outcome.vault.path)")
        if let error = outcome.syncNotTold { throw error }
        if let rotation = outcome.rotation {
            for id in rotation.unsealable {
                Output.warning(
                    "entry \(EntryFormat.fullID(id)) was already damaged and was not re-encrypted; run `diary verify`")
            }
            if let error = rotation.agentNotTold { throw error }
            Output.note("the vault key was rotated too: this vault syncs (--no-rekey keeps the key)")
        }
    }
}
