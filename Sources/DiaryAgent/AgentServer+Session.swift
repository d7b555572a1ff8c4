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
            if now >= maximumDeadline { return .maximumLifetime }
            if now >= idleDeadline { return .idleTimeout }
            for connection in connections where connection.deadline <= now { connection.close() }
            connections.removeAll { !$0.isOpen }

            var entries = [pollfd(fd: signals.readEnd, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
            entries += connections.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            let wake = connections.map(\.deadline).reduce(min(idleDeadline, maximumDeadline), min)
            let ready = poll(&entries, nfds_t(entries.count), Clock.milliseconds(wake - now))
            if ready < 0 {
                if errno == EINTR { continue }
                throw AgentError.lastSystemError("poll")
            }
            if let signal = signals.receivedSignal() { return .signal(signal) }
            if ready == 0 || Clock.now() >= min(idleDeadline, maximumDeadline) { continue }

            if entries[1].revents != 0 { acceptConnections() }
            for (index, connection) in connections.enumerated() where index + 2 < entries.count {
                guard entries[index + 2].revents != 0 else { continue }
                if read(from: connection) { return .locked }
            }
        }
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
            guard let uid = try? UnixSocket.peerUID(fd), uid == geteuid(),
                  connections.count < Self.maximumConnections,
                  (try? UnixSocket.setNonBlocking(fd)) != nil
            else {
                let refusal = AgentReply.failure("permission denied")
                _ = refusal.bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
                close(fd)
                continue
            }
            connections.append(Connection(fd: fd, deadline: Clock.now() + Self.connectionTimeout))
        }
    }

    /// Reads what `connection` sent and answers each complete line. Returns true after `lock`.
    private func read(from connection: Connection) -> Bool {
        guard connection.isOpen else { return false }
        while true {
            let fill: LineReader.Fill
            do { fill = try connection.reader.fill(from: connection.fd) } catch {
                connection.close()
                return false
            }
            while let (reply, ends) = connection.reader.withNextLine({ respond(to: $0) }) {
                connection.deadline = Clock.now() + Self.connectionTimeout
                do { try UnixSocket.sendAll(connection.fd, reply.bytes, deadline: Clock.now() + 1) } catch {
                    connection.close()
                }
                if ends { return true }
                guard connection.isOpen else { return false }
            }
            if connection.reader.isFullWithoutLine {
                let reply = AgentReply.failure("request too long")
                try? UnixSocket.sendAll(connection.fd, reply.bytes, deadline: Clock.now() + 1)
                connection.close()
                return false
            }
            switch fill {
            case .data: continue
            case .endOfFile: connection.close(); return false
            case .wouldBlock: return false
            }
        }
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
        return AgentStatus(vaultID: vaultID, generation: generation,
                           idleRemaining: idleDeadline - now, maxRemaining: maximumDeadline - now)
    }
}
