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
            and the time left; a vault unlocked by an older diary, whose agent does not say \
            its path, is named by its vault id. Without a vault here the others are still \
            listed, then the error. Does not count as a use of any key.

            Only your own agents are listed: those in your private runtime directory \
            ($XDG_RUNTIME_DIR/diary, else /tmp/diary-UID), answering as your user. A socket \
            left by an agent that was killed is removed on the way. `diary lock --all` locks \
            them all.

            EXAMPLE
              diary status
                * unlocked /home/me/diary (sqlite): locks in 14m without use, at most 8h
                  unlocked /home/me/work: locks in 3m without use, at most 59m
            """)

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let session = global.session()
        let runtime = try AgentPaths.runtimeDirectory(environment: session.environment.variables)
        let listing = try AgentDirectory.list(in: runtime)
        let info: VaultInfo
        do { info = try session.inspect() } catch {
            // No vault here: the others are still worth seeing, before the error says why.
            for line in Self.otherLines(listing, except: nil) { Output.data(line) }
            throw error
        }
        let path = Printable.escaped(session.directory.path)
        if listing.busy.contains(info.id) { throw AgentError.busy }
        if let status = listing.running.first(where: { $0.vaultID == info.id }) {
            Output.data("* unlocked \(path) (\(info.store.rawValue)): \(Self.timeLeft(status))")
        } else {
            Output.data("* locked \(path) (\(info.store.rawValue))")
        }
        for line in Self.otherLines(listing, except: info.id) { Output.data(line) }
    }

    /// `locks in 14m without use, at most 7h59m`.
    static func timeLeft(_ status: AgentStatus) -> String {
        "locks in \(TimeSpan.describe(status.idleRemaining)) without use, at most \(TimeSpan.describe(status.maxRemaining))"
    }

    /// The lines of the unlocked vaults other than `current`, by path (those named by their id
    /// last).
    static func otherLines(_ listing: AgentDirectory.Listing, except current: UUID?) -> [String] {
        let running = listing.running.filter { $0.vaultID != current }.map { status in
            (key: status.vaultPath ?? "\u{10FFFF}" + status.vaultID.uuidString, status: status)
        }.sorted { $0.key < $1.key }
        let named = running.map {
            "  unlocked \(name(of: $0.status.vaultID, path: $0.status.vaultPath)): \(timeLeft($0.status))"
        }
        let busy = listing.busy.filter { $0 != current }.map {
            "  unlocked \(name(of: $0, path: nil)) (its agent is busy)"
        }
        return named + busy
    }

    /// The vault's path as its agent reported it, else `vault <id>`.
    static func name(of vaultID: UUID, path: String?) -> String {
        path.map { Printable.escaped($0) } ?? "vault \(vaultID.uuidString.lowercased())"
    }
}
