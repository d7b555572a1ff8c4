import DiaryCrypto
import Foundation
import Glibc

/// One accepted client connection.
final class Connection {
    let fd: Int32
    let reader = LineReader()
    var deadline: Double
    private(set) var isOpen = true

    init(fd: Int32, deadline: Double) {
        self.fd = fd
        self.deadline = deadline
    }

    func close() {
        guard isOpen else { return }
        isOpen = false
        _ = Glibc.close(fd)
    }
}

extension AgentServer {
    /// The poll loop. Returns why the session ended.
    func serve(signals: SignalPipe) throws -> AgentExitReason {
        while true {
            let now = Clock.now()
            // Deadlines are checked before anything is served, also after a long poll: a request
            // that arrives after the timeout must not get the key.
            if let ended = sessionEnded(at: now) { return ended }
            for connection in connections where connection.deadline <= now { connection.close() }
            connections.removeAll { !$0.isOpen }

            var entries = [
                pollfd(fd: signals.readEnd, events: Int16(POLLIN), revents: 0),
                pollfd(fd: listener, events: Int16(POLLIN), revents: 0),
            ]
            entries += connections.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            let wake = connections.map(\.deadline).reduce(min(idleDeadline, maximumDeadline), min)
            let ready = poll(&entries, nfds_t(entries.count), Clock.milliseconds(wake - now))
            if ready < 0 {
                if errno == EINTR { continue }
                throw AgentError.lastSystemError("poll")
            }
            if let signal = signals.receivedSignal() { return .signal(signal) }
            if ready == 0 { continue }

            // Connections already open are served before new ones are accepted, so a crowd of
            // newcomers cannot push a waiting client out of the round.
            for (index, connection) in connections.enumerated() where index + 2 < entries.count {
                guard entries[index + 2].revents != 0 else { continue }
                if let ended = read(from: connection) { return ended }
            }
            if entries[1].revents != 0 { acceptConnections() }
        }
    }

    /// Why the session is over at `now`, or nil while it runs.
    private func sessionEnded(at now: Double) -> AgentExitReason? {
        if now >= maximumDeadline { return .maximumLifetime }
        if now >= idleDeadline { return .idleTimeout }
        return nil
    }

    /// Accepts every pending connection, refusing those of other users.
    private func acceptConnections() {
        while true {
            let fd = accept(listener, nil, nil)
            if fd < 0 {
                if errno == EINTR { continue }
                return  // EAGAIN: none left; other errors (EMFILE…) wait for the next round.
            }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            // The kernel's word on who connected, not anything the client says. Another user is
            // told no and disconnected; nothing is logged, nothing about the key is sent.
            guard let uid = try? UnixSocket.peerUID(fd), uid == geteuid() else {
                refuse(fd, AgentProtocol.permissionDenied)
                continue
            }
            // Our own user, but every slot is taken: say so, so the client can retry and then
            // report a busy agent rather than a locked vault.
            guard connections.count < Self.maximumConnections, (try? UnixSocket.setNonBlocking(fd)) != nil else {
                refuse(fd, AgentProtocol.busy)
                continue
            }
            // The deadline is never extended: one request takes milliseconds, and a client that
            // keeps its connection busy must not keep its slot.
            connections.append(Connection(fd: fd, deadline: Clock.now() + config.requestTimeout))
        }
    }

    private func refuse(_ fd: Int32, _ message: String) {
        let refusal = AgentReply.failure(message)
        _ = refusal.bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        close(fd)
    }

    /// Reads once from `connection` and answers each complete line. Returns why the session
    /// ended, if it did (a `lock`, or a deadline that passed while the requests came in).
    ///
    /// One read per round: a client that pipelines requests without pause would otherwise keep
    /// the agent here, past its deadlines and ahead of every other client.
    private func read(from connection: Connection) -> AgentExitReason? {
        guard connection.isOpen else { return nil }
        let fill: LineReader.Fill
        do { fill = try connection.reader.fill(from: connection.fd) } catch {
            connection.close()
            return nil
        }
        while true {
            // Checked before every answer, also for lines that arrived together.
            if let ended = sessionEnded(at: Clock.now()) { return ended }
            guard let (reply, ends) = connection.reader.withNextLine({ respond(to: $0) }) else { break }
            do { try UnixSocket.sendAll(connection.fd, reply.bytes, deadline: Clock.now() + 1) } catch {
                connection.close()
            }
            if ends { return .locked }
            guard connection.isOpen else { return nil }
        }
        if connection.reader.isFullWithoutLine {
            let reply = AgentReply.failure("request too long")
            try? UnixSocket.sendAll(connection.fd, reply.bytes, deadline: Clock.now() + 1)
            connection.close()
        } else if fill == .endOfFile {
            connection.close()
        }
        return nil
    }

    /// The reply to one request line, and whether the session ends after sending it.
    private func respond(to line: UnsafeBufferPointer<UInt8>) -> (OutgoingLine, Bool) {
        let request: AgentRequest
        do { request = try AgentRequest.parse(line) } catch {
            if case AgentError.protocolViolation(let detail) = error { return (AgentReply.failure(detail), false) }
            return (AgentReply.failure("invalid request"), false)
        }
        switch request {
        case .get:
            guard let key else { return (AgentReply.failure("no key"), false) }
            idleDeadline = Clock.now() + config.idleTimeout
            return (AgentReply.success(status: status(), key: key), false)
        case .status:
            return (AgentReply.success(status: status()), false)
        case .lock:
            key = nil
            return (AgentReply.success(status: nil), true)
        case .set(let newKey, let newGeneration):
            // A rotated vault key has the same length; anything else is a confused client.
            guard newKey.count == key?.count else { return (AgentReply.failure("key length mismatch"), false) }
            key = newKey  // The old key's last reference goes here, and its deinit zeroes it.
            generation = newGeneration
            idleDeadline = Clock.now() + config.idleTimeout
            return (AgentReply.success(status: status()), false)
        }
    }

    private func status() -> AgentStatus {
        let now = Clock.now()
        return AgentStatus(
            vaultID: vaultID, generation: generation,
            idleRemaining: idleDeadline - now, maxRemaining: maximumDeadline - now, vaultPath: vaultPath)
    }
}
