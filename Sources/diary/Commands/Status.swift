import ArgumentParser
import DiaryAgent
import DiaryApp
import DiaryVault
import Foundation

/// `diary status`: locked or unlocked, which vault, time left.
struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Say whether the vault is unlocked, and for how long.",
        usage: "diary status [<options>]",
        discussion: """
            Prints one line on stdout: `unlocked` or `locked`, the vault path, and for an \
            unlocked vault the time left before the idle timeout and the maximum. Does not count \
            as a use of the key.

            EXAMPLE
              diary status
            """)

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let session = global.session()
        let info = try session.inspect()
        let path = Printable.escaped(session.directory.path)
        if let status = try session.agentClient(for: info.id).status(), status.vaultID == info.id {
            Output.data(
                "unlocked \(path) (\(info.store.rawValue)): locks in \(TimeSpan.describe(status.idleRemaining)) without use, at most \(TimeSpan.describe(status.maxRemaining))"
            )
        } else {
            Output.data("locked \(path) (\(info.store.rawValue))")
        }
    }
}
