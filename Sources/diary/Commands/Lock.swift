import ArgumentParser
import DiaryAgent
import DiaryApp
import DiaryVault
import Foundation

/// `diary lock`: make the agent forget the key now.
struct Lock: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lock",
        abstract: "Lock the vault now.",
        usage: "diary lock [<options>]",
        discussion: """
            Tells this vault's agent to wipe the key and exit. Afterwards every command needs \
            the passphrase again. Locking a vault that is not unlocked is not an error.

            EXAMPLE
              diary lock
            """)

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let session = global.session()
        let info = try session.inspect()
        if try session.agentClient(for: info.id).lock() {
            Output.note("locked \(session.directory.path)")
        } else {
            Output.note("not unlocked: \(session.directory.path)")
        }
    }
}
