import Foundation
import Glibc

/// The agents of this user that hold a vault key: one socket per vault in the private runtime
/// directory (`AgentPaths`), each asked for its status.
///
/// Only this user's agents are found: the directory is checked private (ours, 0700) before it
/// is read, a socket file of another owner is passed over, and `AgentClient` refuses a listener
/// of another uid. A socket nothing listens on (its agent killed by SIGKILL or the OOM killer,
/// which leaves no time to remove it) is stale: it is removed under the vault's lock, the one a
/// starting agent takes, so a socket an agent is just binding is never removed.
public enum AgentDirectory {
    /// What was found in the directory.
    public struct Listing: Sendable {
        /// The agents that answered, by socket name.
        public var running: [AgentStatus] = []
        /// Vaults whose agent runs but did not answer in time (every slot taken).
        public var busy: [UUID] = []
        /// Stale sockets removed.
        public var removedStale = 0
    }

    /// Every agent of this user in `directory` (from `AgentPaths.runtimeDirectory`), each asked
    /// within `timeout`; stale sockets are removed.
    public static func list(in directory: URL, timeout: TimeInterval = 2) throws -> Listing {
        try AgentPaths.checkPrivateDirectory(directory.path)
        var listing = Listing()
        for (vaultID, socketURL) in try sockets(in: directory) {
            let client = AgentClient(socketURL: socketURL, timeout: timeout)
            do {
                if let status = try client.status() {
                    // An agent answers for the vault its socket is named after; anything else
                    // is not one of ours to list.
                    if status.vaultID == vaultID { listing.running.append(status) }
                } else if removeIfStale(socketURL) {
                    listing.removedStale += 1
                }
            } catch AgentError.busy, AgentError.timedOut {
                listing.busy.append(vaultID)
            } catch {
                continue  // Not an agent we can talk to (another uid's listener): not listed.
            }
        }
        return listing
    }

    /// The sockets `<vault id hex>.sock` in `directory` that are sockets and ours, sorted by name.
    static func sockets(in directory: URL) throws -> [(UUID, URL)] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        return names.compactMap { name in
            guard name.hasSuffix(".sock"), let vaultID = vaultID(hex: String(name.dropLast(5))) else { return nil }
            let url = directory.appendingPathComponent(name, isDirectory: false)
            var info = stat()
            guard lstat(url.path, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK, info.st_uid == geteuid() else {
                return nil
            }
            return (vaultID, url)
        }
    }

    /// The vault id of a socket name: 32 lowercase hex digits (`AgentPaths.vaultIDHex`).
    static func vaultID(hex: String) -> UUID? {
        let digits = Array(hex)
        guard digits.count == 32, digits.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else { return nil }
        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(digits[$0]) }
        return UUID(uuidString: parts.joined(separator: "-"))
    }

    /// Removes the socket at `socketURL` if no agent owns it; true when it was removed.
    ///
    /// A running agent holds `<socket>.lock` for its whole life, and a starting one takes it
    /// before it looks at the socket: holding the lock ourselves, nothing can bind the path
    /// while we check that nothing listens and unlink it. The lock file stays, as the agent
    /// leaves it (deleting it would let two agents lock two different files).
    static func removeIfStale(_ socketURL: URL) -> Bool {
        let path = socketURL.path
        let lock = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard lock >= 0 else { return false }
        defer { close(lock) }
        guard flock(lock, LOCK_EX | LOCK_NB) == 0 else { return false }
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK, info.st_uid == geteuid() else { return false }
        let live: Int32?
        do { live = try UnixSocket.connect(to: path, deadline: Clock.now() + 1) } catch { return false }
        if let live {
            close(live)
            return false
        }
        return unlink(path) == 0
    }
}
