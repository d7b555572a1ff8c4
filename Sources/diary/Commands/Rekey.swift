import ArgumentParser
import DiaryApp
import DiarySync
import DiaryVault

/// `diary rekey`: rotate the vault key.
struct Rekey: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rekey",
        abstract: "Rotate the vault key and re-encrypt every entry.",
        usage: "diary rekey [<options>]",
        discussion: """
            Always asks for the current passphrase. Every entry and the index are re-encrypted \
            under a new random vault key; progress shows on stderr when it is a terminal. If it \
            is interrupted, the vault still opens and running `diary rekey` again finishes the \
            job (`diary sync` and `diary passwd` wait for it). An unlocked session keeps going: \
            the agent is given the new key.

            EXAMPLE
              diary rekey
            """)

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let progress = Progress("re-encrypting")
        defer { progress.finish() }
        let outcome = try KeyChanges(global.session()).rotateKey(progress: progress.update)
        progress.finish()
        for id in outcome.unsealable {
            Output.warning(
                "entry \(EntryFormat.fullID(id)) was already damaged and was not re-encrypted; run `diary verify`")
        }
        if let error = outcome.agentNotTold { throw error }
        if outcome.agentHoldsNewKey {
            Output.note("the vault key was rotated; the unlocked session now holds the new key")
        } else {
            Output.note("the vault key was rotated")
        }
    }
}
