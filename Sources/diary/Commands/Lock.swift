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
            Tells this vault's agent to wipe the key and exit, and so an agent of this vault \
            started from a shell with another XDG_RUNTIME_DIR, or none (see `diary status`). \
            Afterwards every command needs the passphrase again. Locking a vault that is not \
            unlocked is not an error.

            With --all, every agent of yours is told, whichever vault it holds (those `diary \
            status` lists), and no vault is needed here; each vault locked is named on stderr. \
            A socket that does not answer as a diary agent is left alone and named in a \
            warning; an unresponsive one (a stopped agent would be one) makes the command fail, \
            as does an agent that could not be told.

            EXAMPLE
              diary lock
              diary lock --all
            """)

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Lock every vault of yours that is unlocked, not only this one.")
    var all = false

    func run() throws {
        let session = global.session()
        let variables = session.environment.variables
        if all { return try lockAll(AgentPaths.searchDirectories(environment: variables)) }
        let info = try session.inspect()
        let client = try session.agentClient(for: info.id)
        var locked = try client.lock()
        let own = client.socketURL.standardizedFileURL.path
        for directory in AgentPaths.agentDirectories(environment: variables) where Self.isPrivate(directory) {
            let socket = AgentPaths.socketURL(vaultID: info.id, in: directory)
            // The agent just told is not asked again: it may be closing its socket as it ends.
            guard socket.standardizedFileURL.path != own else { continue }
            do {
                if try AgentClient(socketURL: socket).lock() { locked = true }
            } catch {
                Output.warning(
                    "could not lock the agent at \(Printable.escaped(socket.path)): "
                        + (ErrorReport(error)?.message ?? "\(error)"))
            }
        }
        Output.note(locked ? "locked \(session.directory.path)" : "not unlocked: \(session.directory.path)")
    }

    /// Whether `directory` exists and is private, the check every agent passed to listen there.
    private static func isPrivate(_ directory: URL) -> Bool {
        (try? AgentPaths.checkPrivateDirectory(directory.path)) != nil
    }

    /// Locks every agent in `directories`; fails after trying them all if one could not be
    /// told, or a socket did not answer (it may be a stopped agent that still holds a key).
    private func lockAll(_ directories: [URL]) throws {
        let listing = try AgentDirectory.list(in: directories)
        Status.warn(about: listing)
        let vaults =
            listing.running.map { ($0.vaultID, $0.status.vaultPath, $0.socketURL) }
            + listing.busy.map { ($0.vaultID, nil, $0.socketURL) }
        if vaults.isEmpty, listing.unresponsive.isEmpty { return Output.note("no vault was unlocked") }
        var failed = 0
        for (vaultID, path, socket) in vaults {
            let name = Status.name(of: vaultID, path: path)
            do {
                // False: it ended between the listing and now, which is what was asked.
                _ = try AgentClient(socketURL: socket).lock()
                Output.note("locked \(name)")
            } catch {
                Output.warning("could not lock \(name): \(ErrorReport(error)?.message ?? "\(error)")")
                failed += 1
            }
        }
        if failed > 0 || !listing.unresponsive.isEmpty {
            throw CLIError.notAllLocked(failed: failed, of: vaults.count, unresponsive: listing.unresponsive.count)
        }
    }
}
