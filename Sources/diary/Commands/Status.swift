import ArgumentParser
import DiaryAgent
import DiaryApp
import DiaryVault
import Foundation

/// `diary status`: this vault locked or unlocked and for how long, then every other vault of
/// this user that an agent holds unlocked.
struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Say which vaults are unlocked, and for how long.",
        usage: "diary status [<options>]",
        discussion: """
            Prints a line on stdout for this vault, marked `*`: `unlocked` or `locked`, its \
            path and store, and for an unlocked vault the time left before the idle timeout \
            and the maximum. Then a line for each other vault of yours that an agent holds \
            unlocked (another --vault, or DIARY_VAULT in another shell): `unlocked`, its path \
            and the time left. A path registered as a named journal (`diary journal list`) is \
            followed by the journal's name in brackets; a vault unlocked by an older diary, whose agent does not say \
            its path, is named by its vault id. Without a vault here the others are still \
            listed, then the error. Does not count as a use of any key. While a key rotation \
            is unfinished (a `diary rekey` cut short), a warning on stderr says so: until \
            `diary rekey` finishes it, commands ask for the passphrase even while unlocked.

            Only your own agents are listed: those in your private runtime directory \
            ($XDG_RUNTIME_DIR/diary), and in the places an agent started from a shell without \
            XDG_RUNTIME_DIR, or another one, lives (/run/user/UID/diary, /tmp/diary-UID), \
            answering as your user. An agent outside this shell's directory is marked `(agent \
            in DIR, which commands here do not use)`: commands here ask for the passphrase. A \
            socket left by an agent that was killed is removed on the way; a socket that does \
            not answer as a diary agent is left alone and named in a warning on stderr. `diary \
            lock --all` locks them all.

            EXAMPLE
              diary status
                * unlocked /home/me/diary (sqlite): locks in 14m without use, at most 8h
                  unlocked /home/me/work [work]: locks in 3m without use, at most 59m
            """)

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let session = global.session()
        let directories = try AgentPaths.searchDirectories(environment: session.environment.variables)
        let listing = try AgentDirectory.list(in: directories)
        defer { Self.warn(about: listing) }
        let info: VaultInfo
        do { info = try session.inspect() } catch {
            // No vault here: the others are still worth seeing, before the error says why.
            for line in Self.otherLines(listing, except: nil, here: directories[0]) { Output.data(line) }
            throw error
        }
        let path = Self.name(of: info.id, path: session.directory.path)
        if listing.busy.contains(where: { $0.vaultID == info.id }) { throw AgentError.busy }
        // This shell's agent if there is one, else one elsewhere: the vault is unlocked either way.
        let mine = listing.running.filter { $0.vaultID == info.id }
        let shown = mine.first { Self.isHere($0, directories[0]) } ?? mine.first
        if let shown {
            Output.data(
                "* unlocked \(path) (\(info.store.rawValue)): \(Self.timeLeft(shown.status))"
                    + Self.whereAbouts(shown, here: directories[0]))
        } else {
            Output.data("* locked \(path) (\(info.store.rawValue))")
        }
        AppEventWords.warnIfRotationUnfinished(info)
        for line in Self.otherLines(listing, except: shown?.socketURL, here: directories[0]) { Output.data(line) }
    }

    /// Warnings on stderr for the sockets left alone and the directories not looked in.
    static func warn(about listing: AgentDirectory.Listing) {
        for socket in listing.unresponsive {
            Output.warning(
                "an unresponsive socket at \(Printable.escaped(socket.path)): it accepts connections but does not answer as a diary agent; left alone"
            )
        }
        for socket in listing.notAgents {
            Output.warning("a socket at \(Printable.escaped(socket.path)) is not a diary agent; left alone")
        }
        for refused in listing.refused { Output.warning(refused.description) }
    }

    /// Whether the agent listens in this shell's runtime directory.
    static func isHere(_ agent: AgentDirectory.Agent, _ here: URL) -> Bool {
        agent.socketURL.deletingLastPathComponent().path == here.path
    }

    /// Nothing for an agent in this shell's directory; else the directory it is in, where
    /// commands here do not look (they ask for the passphrase).
    static func whereAbouts(_ agent: AgentDirectory.Agent, here: URL) -> String {
        if isHere(agent, here) { return "" }
        let directory = Printable.escaped(agent.socketURL.deletingLastPathComponent().path)
        return " (agent in \(directory), which commands here do not use)"
    }

    /// `locks in 14m without use, at most 7h59m`.
    static func timeLeft(_ status: AgentStatus) -> String {
        "locks in \(TimeSpan.describe(status.idleRemaining)) without use, at most \(TimeSpan.describe(status.maxRemaining))"
    }

    /// The lines of the unlocked vaults but the one on the socket `shown`, by path (those
    /// named by their id last).
    static func otherLines(_ listing: AgentDirectory.Listing, except shown: URL?, here: URL) -> [String] {
        let running = listing.running.filter { $0.socketURL != shown }.map { agent in
            (key: agent.status.vaultPath ?? "\u{10FFFF}" + agent.vaultID.uuidString, agent: agent)
        }.sorted { $0.key < $1.key }
        let named = running.map {
            "  unlocked \(name(of: $0.agent.vaultID, path: $0.agent.status.vaultPath)): \(timeLeft($0.agent.status))"
                + whereAbouts($0.agent, here: here)
        }
        let busy = listing.busy.filter { $0.socketURL != shown }.map {
            "  unlocked \(name(of: $0.vaultID, path: nil)) (its agent is busy)"
        }
        return named + busy
    }

    /// The vault's path as its agent reported it, else `vault <id>`; then `[NAME]` when the
    /// path is a named journal's (`diary journal list`).
    static func name(of vaultID: UUID, path: String?) -> String {
        guard let path else { return "vault \(vaultID.uuidString.lowercased())" }
        let url = URL(fileURLWithPath: path, isDirectory: true)
        let journal = Settings.forOutput.journalName(of: url, environment: Settings.environment)
        return Printable.escaped(path) + (journal.map { " [\($0)]" } ?? "")
    }
}
