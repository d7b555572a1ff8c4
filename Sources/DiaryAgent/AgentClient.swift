import DiaryCrypto
import Foundation
import Glibc

/// Talks to the unlock agent of one vault. Every call connects, sends one request, reads one
/// reply and disconnects, within `timeout`, so a hung agent can never hang the command line.
public struct AgentClient: Sendable {
    /// The agent's socket.
    public let socketURL: URL
    /// The longest one call may take, connect and reply included.
    public var timeout: TimeInterval

    public init(socketURL: URL, timeout: TimeInterval = 2) {
        self.socketURL = socketURL
        self.timeout = timeout
    }

    /// The held key, its generation and vault; nil when no agent is listening.
    /// Counts as a use: it restarts the agent's idle timer.
    public func fetchKey() throws -> (key: SecretBytes, generation: UInt32, vaultID: UUID)? {
        guard let reply = try exchange(.get) else { return nil }
        guard let key = reply.key, let status = reply.status else {
            throw AgentError.protocolViolation("reply to get lacks the key")
        }
        return (key, status.generation, status.vaultID)
    }

    /// The agent's status; nil when no agent is listening. Does not restart the idle timer.
    public func status() throws -> AgentStatus? {
        guard let reply = try exchange(.status) else { return nil }
        guard let status = reply.status else { throw AgentError.protocolViolation("reply to status lacks fields") }
        return status
    }

    /// Tells the agent to drop the key and exit. Returns false when no agent was listening.
    public func lock() throws -> Bool {
        try exchange(.lock) != nil
    }

    /// Replaces the agent's key (after a key rotation).
    /// - Throws: `AgentError.notRunning` when no agent is listening.
    public func setKey(_ key: SecretBytes, generation: UInt32) throws {
        guard try exchange(.set(key: key, generation: generation)) != nil else {
            throw AgentError.notRunning(path: socketURL.path)
        }
    }

    /// One request, one reply; nil when nothing listens on the socket. A full agent is asked
    /// again until the deadline: it closes idle connections well within it.
    private func exchange(_ request: AgentRequest) throws -> AgentReply? {
        let deadline = Clock.now() + timeout
        while true {
            do {
                return try exchange(request, deadline: deadline)
            } catch AgentError.refused(AgentProtocol.busy) {
                guard Clock.now() + 0.05 < deadline else { throw AgentError.busy }
                usleep(50_000)
            }
        }
    }

    private func exchange(_ request: AgentRequest, deadline: Double) throws -> AgentReply? {
        guard let fd = try UnixSocket.connect(to: socketURL.path, deadline: deadline) else { return nil }
        defer { close(fd) }
        // The check runs both ways. Before we send a `set` (a key) or trust a `get` reply, the
        // listener must be our own user: in a shared /tmp fallback, a socket planted by someone
        // else would otherwise collect the key.
        let owner = try UnixSocket.peerUID(fd)
        guard owner == geteuid() else { throw AgentError.peerNotOwner(uid: owner) }

        let line = request.encoded()
        // An agent that refuses us (busy) replies and closes at once, possibly before our request
        // went out; its refusal is still waiting to be read, and is the better error.
        var sendError: Error?
        do { try UnixSocket.sendAll(fd, line.bytes, deadline: deadline) } catch { sendError = error }

        let reader = LineReader()
        while true {
            if let reply = try reader.withNextLine({ try AgentReply.parse($0) }) { return reply }
            if reader.isFullWithoutLine { throw AgentError.protocolViolation("reply too long") }
            let fill: LineReader.Fill
            do { fill = try reader.fill(from: fd) } catch { throw sendError ?? error }
            switch fill {
            case .data: continue
            case .wouldBlock:
                if let sendError { throw sendError }
                try UnixSocket.wait(fd, for: Int16(POLLIN), deadline: deadline)
            case .endOfFile:
                // Whatever arrived before the close may still hold a complete line.
                if let reply = try reader.withNextLine({ try AgentReply.parse($0) }) { return reply }
                if let sendError { throw sendError }
                throw AgentError.protocolViolation("the agent closed the connection without a reply")
            }
        }
    }
}
