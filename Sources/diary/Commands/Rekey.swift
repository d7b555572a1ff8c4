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
        let access = VaultAccess(options: global)
        let (vault, passphrase) = try access.openWithPassphrase()
        let finishing = vault.rotationInterrupted
        if finishing { Output.note("finishing an interrupted key rotation") }
        // The key being retired: the older of the two when an earlier run was interrupted.
        let retired = vault.retiringKey ?? (vault.vaultKey, vault.keyGeneration)
        let progress = Progress("re-encrypting")
        defer { progress.finish() }
        let unsealable = try vault.rotateKey(passphrase: passphrase, progress: progress.update, beforeRetiring: {
            // A synced vault publishes the new key's header, and the retired key sealed under
            // the new one, at its next sync. Told before the old key is dropped, so that an
            // interruption anywhere leaves both keys at hand for the next `diary rekey`.
            try SyncLifecycle.noteKeyRotation(
                vault: vault, retiredKey: retired.key, retiredGeneration: retired.generation,
                stateDirectory: EntrySetWatch.stateDirectory, finishing: finishing)
        })
        progress.finish()
        for id in unsealable {
            Output.warning("entry \(EntryFormat.fullID(id)) was already damaged and was not re-encrypted; run `diary verify`")
        }
        let client = try access.agent(for: vault.id)
        if let status = try? client.status(), status.vaultID == vault.id {
            try client.setKey(vault.vaultKey, generation: vault.keyGeneration)
            Output.note("the vault key was rotated; the unlocked session now holds the new key")
        } else {
            Output.note("the vault key was rotated")
        }
    }
}
