import DiaryCrypto
import Foundation
import Glibc

/// The unlock agent: holds one vault key in guarded memory and hands it to processes of the same
/// user over a Unix socket until it is locked, idles out, reaches its maximum lifetime or is
/// signalled.
///
/// Single-threaded: one `poll` loop watches the signal pipe, the listening socket and the open
/// connections, and wakes at the nearest deadline.
public final class AgentServer {
    /// Connections beyond this many are told the agent is busy and closed at once, so a flood
    /// cannot exhaust descriptors.
    static let maximumConnections = 32

    let config: AgentConfig
    let vaultID: UUID
    /// `config.vaultPath` when it fits in a reply.
    let vaultPath: String?
    var key: SecretBytes?
    var generation: UInt32
    var idleDeadline: Double
    let maximumDeadline: Double
    var listener: Int32 = -1
    var connections: [Connection] = []
    private var socketLock: SocketLock?
    private var boundSocket: (dev: UInt, ino: UInt)?

    /// Runs the agent until it ends the session, then drops the key and removes the socket.
    ///
    /// Pass the key inline (`key: try readKey(...)`) and keep no other reference to it, so the
    /// agent's copy is the only one and dies with the session.
    /// - Throws: `AgentError.alreadyRunning` when a live agent holds the socket, an insecure
    ///   directory, an unusable path, or a failed system call — all before the socket listens.
    @discardableResult
    public static func run(
        config: AgentConfig, key: SecretBytes, generation: UInt32, vaultID: UUID
    ) throws -> AgentExitReason {
        try ProcessHardening.apply()
        guard config.idleTimeout > 0, config.maximumLifetime > 0, config.requestTimeout > 0 else {
            throw AgentError.invalidConfiguration("timeouts must be positive")
        }
        guard key.count > 0 else { throw AgentError.invalidKeyLength(key.count) }
        let server = AgentServer(config: config, key: key, generation: generation, vaultID: vaultID)
        defer { server.shutDown() }
        try server.claimSocket()
        let signals = try SignalPipe()
        config.onReady?()
        return try server.serve(signals: signals)
    }

    private init(config: AgentConfig, key: SecretBytes, generation: UInt32, vaultID: UUID) {
        self.config = config
        self.key = key
        self.generation = generation
        self.vaultID = vaultID
        vaultPath = AgentReply.reportable(path: config.vaultPath, keyCount: key.count)
        let now = Clock.now()
        idleDeadline = now + config.idleTimeout
        maximumDeadline = now + config.maximumLifetime
    }

    /// Takes the per-vault lock, replaces a stale socket file, binds and listens.
    private func claimSocket() throws {
        let path = config.socketURL.path
        let directory = config.socketURL.deletingLastPathComponent().path
        if !config.insecureTestPermissions { try AgentPaths.checkPrivateDirectory(directory) }

        // The lock makes "is an agent alive?" race-free: two `diary unlock` started together
        // cannot both decide the socket is stale and steal it from each other.
        guard let lock = try SocketLock.take(for: path, patience: 1.5) else {
            throw AgentError.alreadyRunning(path: path)
        }
        socketLock = lock

        var info = stat()
        if lstat(path, &info) == 0 {
            // Never delete something that is not a socket: the path may be a user's file.
            guard info.st_mode & S_IFMT == S_IFSOCK else { throw AgentError.notASocket(path: path) }
            if let live = try UnixSocket.connect(to: path, deadline: Clock.now() + 1) {
                close(live)
                throw AgentError.alreadyRunning(path: path)
            }
            guard unlink(path) == 0 || errno == ENOENT else { throw AgentError.lastSystemError("unlink \(path)") }
        }

        listener = try UnixSocket.make()
        guard try UnixSocket.withAddress(path, { bind(listener, $0, $1) }) == 0 else {
            throw AgentError.lastSystemError("bind \(path)")
        }
        // The file briefly has the umask's mode between bind and chmod; the private directory
        // keeps others out meanwhile, and SO_PEERCRED is checked on every connection anyway.
        guard chmod(path, config.insecureTestPermissions ? 0o666 : 0o600) == 0, lstat(path, &info) == 0 else {
            throw AgentError.lastSystemError("chmod \(path)")
        }
        boundSocket = (UInt(info.st_dev), UInt(info.st_ino))
        guard listen(listener, 16) == 0 else { throw AgentError.lastSystemError("listen \(path)") }
        try UnixSocket.setNonBlocking(listener)
    }

    /// Drops the key, closes everything, and removes the socket file if it is still the one we bound.
    private func shutDown() {
        key = nil  // SecretBytes' deinit zeroes and frees the guarded memory.
        for connection in connections { connection.close() }
        connections.removeAll()
        if listener >= 0 { close(listener) }
        let path = config.socketURL.path
        var info = stat()
        if let bound = boundSocket, lstat(path, &info) == 0,
            UInt(info.st_dev) == bound.dev, UInt(info.st_ino) == bound.ino
        {
            unlink(path)
        }
        // Removed while still held, so no lock file outlives its agent (`SocketLock` says why
        // that is safe).
        socketLock?.removeFile()
        socketLock = nil
    }
}
