import ArgumentParser
import DiaryAgent
import DiaryApp
import DiaryVault
import Foundation

/// `diary lock`: make the agent forget the key now (every agent of this user with `--all`).
struct Lock: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lock",
        abstract: "Lock the vault now (every unlocked vault with --all).",
        usage: "diary lock [<options>]",
        discussion: """
            Tells this vault's agent to wipe the key and exit. Afterwards every command needs \
            the passphrase again. Locking a vault that is not unlocked is not an error.

            With --all, every agent of yours is told, whichever vault it holds (those `diary \
            status` lists), and no vault is needed here; each vault locked is named on stderr.

            EXAMPLE
              diary lock
              diary lock --all
            """)

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Lock every vault of yours that is unlocked, not only this one.")
    var all = false

    func run() throws {
        let session = global.session()
        if all { return try lockAll(session) }
        let info = try session.inspect()
        if try session.agentClient(for: info.id).lock() {
            Output.note("locked \(session.directory.path)")
        } else {
            Output.note("not unlocked: \(session.directory.path)")
        }
    }

    /// Locks every agent in the runtime directory; fails after trying them all if one could
    /// not be told (it stays unlocked, so the user must know).
    private func lockAll(_ session: DiarySession) throws {
        let runtime = try AgentPaths.runtimeDirectory(environment: session.environment.variables)
        let listing = try AgentDirectory.list(in: runtime)
        let vaults = listing.running.map { ($0.vaultID, $0.vaultPath) } + listing.busy.map { ($0, nil) }
        guard !vaults.isEmpty else { return Output.note("no vault was unlocked") }
        var unlocked: [String] = []
        for (vaultID, path) in vaults {
            let name = Status.name(of: vaultID, path: path)
            let client = AgentClient(socketURL: AgentPaths.socketURL(vaultID: vaultID, in: runtime))
            do {
                // False: it ended between the listing and now, which is what was asked.
                _ = try client.lock()
                Output.note("locked \(name)")
            } catch {
                Output.warning("could not lock \(name): \(ErrorReport(error)?.message ?? "\(error)")")
                unlocked.append(name)
            }
        }
        if !unlocked.isEmpty {
            throw CLIError.agent("\(unlocked.count) of \(vaults.count) vaults may still be unlocked")
        }
    }
}
