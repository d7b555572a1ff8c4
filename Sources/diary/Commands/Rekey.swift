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

            Attachments keep their own keys, which the entries hold: a plain `rekey` leaves \
            them as they are. After a suspected leak, --attachments also re-encrypts every \
            attachment under a fresh key, as a new object, and removes the old one. If that is \
            interrupted, running `diary rekey --attachments` again goes on where it stopped \
            (without rotating the key a second time).

            EXAMPLES
              diary rekey
              diary rekey --attachments
            """)

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Also re-encrypt every attachment under a new key.")
    var attachments = false

    func run() throws {
        let progress = Progress("re-encrypting")
        defer { progress.finish() }
        guard attachments else {
            let outcome = try KeyChanges(global.session()).rotateKey(progress: progress.update)
            progress.finish()
            try Self.report(outcome)
            return
        }
        let objects = Progress("re-encrypting attachments")
        defer { objects.finish() }
        let (rotation, resealed) = try KeyChanges(global.session()).rotateKeyAndAttachments(
            progress: progress.update,
            attachmentProgress: { done, total in
                progress.finish()
                objects.update(done, total)
            })
        objects.finish()
        for failed in resealed.failed {
            Output.warning("not re-encrypted: \(Printable.escaped(failed.description)); run `diary verify`")
        }
        if let rotation { try Self.report(rotation) }
        Output.note("re-encrypted \(resealed.resealed) attachment\(resealed.resealed == 1 ? "" : "s")")
    }

    private static func report(_ outcome: KeyRotationOutcome) throws {
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
