import Glibc

/// What can go wrong in the unlock agent. Messages are lowercase and never carry key material.
public enum AgentError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A directory that must be private is not: wrong owner, group/world access, a symlink, not a directory.
    case insecureDirectory(path: String, reason: String)
    /// The socket path does not fit in `sockaddr_un.sun_path`.
    case socketPathTooLong(path: String)
    /// Something other than a socket sits where the agent socket belongs; we never delete it.
    case notASocket(path: String)
    /// Another agent for this vault is alive.
    case alreadyRunning(path: String)
    /// No agent listens on the socket.
    case notRunning(path: String)
    /// A system call failed.
    case system(call: String, errno: Int32)
    /// The other end of the socket belongs to another user.
    case peerNotOwner(uid: UInt32)
    /// The agent did not answer in time.
    case timedOut
    /// Every connection slot of the agent stayed taken until the client's deadline.
    case busy
    /// The other end sent something that does not follow the protocol.
    case protocolViolation(String)
    /// The agent understood the request and refused it.
    case refused(String)
    /// The key handed to the agent has an unusable length.
    case invalidKeyLength(Int)
    /// The agent configuration cannot work (for example a timeout that is not positive).
    case invalidConfiguration(String)

    public var description: String {
        switch self {
        case .insecureDirectory(let path, let reason):
            return "refusing to use \(path): \(reason)"
        case .socketPathTooLong(let path):
            return "socket path too long: \(path)"
        case .notASocket(let path):
            return "\(path) exists and is not a socket"
        case .alreadyRunning(let path):
            return "an agent is already running on \(path)"
        case .notRunning(let path):
            return "no agent is running on \(path)"
        case .system(let call, let code):
            return "\(call) failed: \(String(cString: strerror(code)))"
        case .peerNotOwner(let uid):
            return "the agent socket belongs to another user (uid \(uid))"
        case .timedOut:
            return "the agent did not answer in time"
        case .busy:
            return "the agent is busy: every connection slot is taken"
        case .protocolViolation(let detail):
            return "agent protocol violation: \(detail)"
        case .refused(let message):
            return "the agent refused the request: \(message)"
        case .invalidKeyLength(let count):
            return "invalid key length: \(count) bytes"
        case .invalidConfiguration(let detail):
            return "invalid agent configuration: \(detail)"
        }
    }

    /// The error for the failed call `call`, with the current `errno`.
    static func lastSystemError(_ call: String) -> AgentError {
        .system(call: call, errno: errno)
    }
}
