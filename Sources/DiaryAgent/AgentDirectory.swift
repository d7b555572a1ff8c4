import Foundation
import Glibc
import Synchronization

/// The agents of this user that hold a vault key: one socket per vault in each directory an
/// agent may live in (`AgentPaths.agentDirectories`), each asked for its status.
///
/// Only this user's agents are found: a directory is read only once checked private (ours,
/// 0700, not a link), a socket file of another owner is passed over, and `AgentClient` refuses a
/// listener of another uid. A socket nothing listens on (its agent killed by SIGKILL or the OOM
/// killer, which leaves no time to remove it) is stale: it is removed with its lock file, under
/// that lock (`SocketLock`), so a socket an agent is just binding is never removed. A socket
/// something listens on is never removed, whatever answers there.
public enum AgentDirectory {
    /// An agent that answered, and the socket it answered on.
    public struct Agent: Sendable {
        public var status: AgentStatus
        public var socketURL: URL
        public var vaultID: UUID { status.vaultID }
    }

    /// A socket that answered as a diary agent that is busy: every slot stayed taken.
    public struct BusyAgent: Sendable, Equatable {
        /// The vault its socket's name gives.
        public var vaultID: UUID
        public var socketURL: URL
    }

    /// What was found in the directories.
    public struct Listing: Sendable {
        /// The agents that answered, in the order of the directories, then by socket name.
        public var running: [Agent] = []
        /// Agents that refused every request as busy until the deadline.
        public var busy: [BusyAgent] = []
        /// Sockets that accepted a connection but gave no answer in time: not known to be
        /// agents (a stopped agent would be one), left alone.
        public var unresponsive: [URL] = []
        /// Sockets something listens on that does not answer as the diary agent the socket's
        /// name says (another program, another user, another vault), left alone.
        public var notAgents: [URL] = []
        /// Stale sockets removed.
        public var removedStale = 0
        /// Directories not looked in, because they are not private (`AgentError.insecureDirectory`).
        public var refused: [AgentError] = []
    }

    /// Every agent of this user in `directories`, the first of them (this shell's, from
    /// `AgentPaths.runtimeDirectory`) required to be private, the others skipped when missing and
    /// listed in `refused` when not private. Each socket is asked within `timeout`; one reached
    /// by two paths is asked once; stale sockets are removed.
    public static func list(in directories: [URL], timeout: TimeInterval = 2) throws -> Listing {
        var listing = Listing()
        var seen = Set<FileIdentity>()
        var found: [(UUID, URL)] = []
        for (index, directory) in directories.enumerated() {
            var info = stat()
            if index > 0, lstat(directory.path, &info) != 0, errno == ENOENT { continue }
            do {
                try AgentPaths.checkPrivateDirectory(directory.path)
            } catch let error as AgentError where index > 0 {
                listing.refused.append(error)
                continue
            }
            for (vaultID, socketURL, identity) in try sockets(in: directory) where seen.insert(identity).inserted {
                found.append((vaultID, socketURL))
            }
            removeOrphanLocks(in: directory)
        }
        // Asked all at once: a socket that never answers costs the whole `timeout`, and several
        // of them must not cost it several times.
        let sockets = found.map(\.1)
        let answers = Mutex([Result<AgentStatus?, Error>?](repeating: nil, count: sockets.count))
        DispatchQueue.concurrentPerform(iterations: sockets.count) { index in
            let answer = Result { try AgentClient(socketURL: sockets[index], timeout: timeout).status() }
            answers.withLock { $0[index] = answer }
        }
        for ((vaultID, socketURL), answer) in zip(found, answers.withLock { $0 }) {
            file(answer!, of: socketURL, for: vaultID, into: &listing)
        }
        return listing
    }

    /// Every agent of this user in `directory` alone.
    public static func list(in directory: URL, timeout: TimeInterval = 2) throws -> Listing {
        try list(in: [directory], timeout: timeout)
    }

    /// Files the socket's `answer` to a status request under what the socket turned out to be.
    private static func file(
        _ answer: Result<AgentStatus?, Error>, of socketURL: URL, for vaultID: UUID, into listing: inout Listing
    ) {
        do {
            if let status = try answer.get() {
                // An agent answers for the vault its socket is named after; anything else is
                // not the agent that name promises.
                if status.vaultID == vaultID {
                    listing.running.append(Agent(status: status, socketURL: socketURL))
                } else {
                    listing.notAgents.append(socketURL)
                }
            } else if removeIfStale(socketURL) {
                listing.removedStale += 1
            }
        } catch AgentError.busy {
            listing.busy.append(BusyAgent(vaultID: vaultID, socketURL: socketURL))
        } catch AgentError.timedOut {
            listing.unresponsive.append(socketURL)
        } catch {
            listing.notAgents.append(socketURL)  // Junk, a hang-up, another uid's listener.
        }
    }

    /// A file's device and inode: one socket reached through two directory paths is one.
    struct FileIdentity: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    /// The sockets `<vault id hex>.sock` in `directory` that are sockets and ours, sorted by name.
    static func sockets(in directory: URL) throws -> [(UUID, URL, FileIdentity)] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        return names.compactMap { name in
            guard name.hasSuffix(".sock"), let vaultID = vaultID(hex: String(name.dropLast(5))) else { return nil }
            let url = directory.appendingPathComponent(name, isDirectory: false)
            var info = stat()
            guard lstat(url.path, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK, info.st_uid == geteuid() else {
                return nil
            }
            return (vaultID, url, FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)))
        }
    }

    /// The vault id of a socket name: 32 lowercase hex digits (`AgentPaths.vaultIDHex`).
    static func vaultID(hex: String) -> UUID? {
        let digits = Array(hex)
        guard digits.count == 32, digits.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else { return nil }
        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(digits[$0]) }
        return UUID(uuidString: parts.joined(separator: "-"))
    }

    /// Removes the socket at `socketURL` and its lock file if no agent owns it; true when the
    /// socket was removed.
    ///
    /// Holding the socket's lock, nothing can bind the path while we check that nothing
    /// listens and unlink it.
    static func removeIfStale(_ socketURL: URL) -> Bool {
        let path = socketURL.path
        guard let lock = try? SocketLock.take(for: path) else { return false }
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK, info.st_uid == geteuid() else { return false }
        let live: Int32?
        do { live = try UnixSocket.connect(to: path, deadline: Clock.now() + 1) } catch { return false }
        if let live {
            close(live)
            return false
        }
        guard unlink(path) == 0 else { return false }
        lock.removeFile()
        return true
    }

    /// Removes the lock files `<vault id hex>.sock.lock` that have no socket beside them and
    /// that no agent holds: left by an agent killed before it bound, or by an older diary,
    /// which kept them.
    static func removeOrphanLocks(in directory: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where name.hasSuffix(".sock.lock") {
            guard vaultID(hex: String(name.dropLast(10))) != nil else { continue }
            let socketPath = directory.appendingPathComponent(String(name.dropLast(5))).path
            var info = stat()
            guard lstat(socketPath, &info) != 0, errno == ENOENT else { continue }
            guard let lock = try? SocketLock.take(for: socketPath) else { continue }
            // Checked again under the lock: an agent may have bound the socket meanwhile.
            if lstat(socketPath, &info) != 0, errno == ENOENT { lock.removeFile() }
        }
    }
}
