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
        let access = VaultAccess(options: global)
        let info = try access.inspect()
        if try access.agent(for: info.id).lock() {
            Output.note("locked \(access.directory.path)")
        } else {
            Output.note("not unlocked: \(access.directory.path)")
        }
    }
}
