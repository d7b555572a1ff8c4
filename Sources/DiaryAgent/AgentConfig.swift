import Foundation

/// How long an agent lives and where it listens.
public struct AgentConfig: Sendable {
    /// Seconds without a `get` or `set` after which the agent drops the key and exits.
    public var idleTimeout: TimeInterval
    /// Seconds after start after which the agent exits however busy it is.
    public var maximumLifetime: TimeInterval
    /// The socket path, normally `AgentPaths.socketURL(vaultID:)`. Its directory must be private.
    public var socketURL: URL
    /// Seconds a client has from connecting to being closed. A client sends one request and reads
    /// one reply in milliseconds; a connection that sends nothing, or keeps talking, is closed at
    /// this deadline so that held connections cannot keep every slot taken for long.
    public var requestTimeout: TimeInterval = AgentConfig.defaultRequestTimeout
    /// Shorter than `AgentClient`'s default timeout, so a client that finds every slot taken
    /// can still get one by retrying.
    public static let defaultRequestTimeout: TimeInterval = 1.5
    /// Called once the socket is listening and signals are handled: the moment a parent waiting
    /// for the agent may report success.
    public var onReady: (@Sendable () -> Void)?
    /// The vault's directory, reported in every status so `diary status` can name the vault;
    /// nil (or too long for a reply line) leaves it out.
    public var vaultPath: String?

    /// TEST ONLY. Skips the private-directory check and makes the socket file 0666, so a test can
    /// let a process of another uid reach the socket and prove that the `SO_PEERCRED` check alone
    /// refuses it. Internal on purpose: only `@testable` test code can set it, never the CLI.
    var insecureTestPermissions = false

    public init(
        idleTimeout: TimeInterval,
        maximumLifetime: TimeInterval,
        socketURL: URL,
        onReady: (@Sendable () -> Void)? = nil
    ) {
        self.idleTimeout = idleTimeout
        self.maximumLifetime = maximumLifetime
        self.socketURL = socketURL
        self.onReady = onReady
    }
}

/// Why `AgentServer.run` returned. In every case the key has been dropped and the socket removed.
public enum AgentExitReason: Equatable, Sendable, CustomStringConvertible {
    /// A client sent `lock`.
    case locked
    /// Nobody used the key for `idleTimeout` seconds.
    case idleTimeout
    /// `maximumLifetime` seconds passed since the agent started.
    case maximumLifetime
    /// The process received this signal (SIGTERM, SIGINT or SIGHUP).
    case signal(Int32)

    public var description: String {
        switch self {
        case .locked: return "locked"
        case .idleTimeout: return "idle timeout"
        case .maximumLifetime: return "maximum lifetime reached"
        case .signal(let number): return "signal \(number)"
        }
    }
}
