import DiaryCrypto
import Glibc

/// Thin wrappers over the Glibc socket calls the agent and its client share.
enum UnixSocket {
    /// A new `AF_UNIX` stream socket, close-on-exec so a spawned editor never inherits it.
    static func make() throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw AgentError.lastSystemError("socket") }
        return fd
    }

    static func setNonBlocking(_ fd: Int32) throws {
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 else {
            throw AgentError.lastSystemError("fcntl")
        }
    }

    /// Runs `body` with a `sockaddr_un` for `path`.
    static func withAddress<R>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R) throws -> R {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        // One byte is kept for the terminating NUL.
        guard bytes.count < capacity else { throw AgentError.socketPathTooLong(path: path) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + 1)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }

    /// The uid of the process at the other end of `fd`, from the kernel (`SO_PEERCRED`).
    ///
    /// `struct ucred` is not imported into Swift (it needs `_GNU_SOURCE`), so we read its three
    /// 32-bit fields — pid, uid, gid, in that order on Linux — into a matching tuple.
    static func peerUID(_ fd: Int32) throws -> UInt32 {
        var credentials: (Int32, UInt32, UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0,
            Int(length) == MemoryLayout.size(ofValue: credentials)
        else { throw AgentError.lastSystemError("getsockopt SO_PEERCRED") }
        return credentials.1
    }

    /// Connects to `path` within `deadline`; nil when nothing listens there (no file, or refused).
    static func connect(to path: String, deadline: Double) throws -> Int32? {
        let fd = try make()
        do {
            try setNonBlocking(fd)
            while true {
                let result = try withAddress(path) { Glibc.connect(fd, $0, $1) }
                if result == 0 { return fd }
                switch errno {
                case ENOENT, ECONNREFUSED:
                    close(fd)
                    return nil
                case EINTR:
                    continue
                case EAGAIN:
                    // The listener's backlog is full: a busy or hung agent. Retry until the deadline.
                    guard Clock.now() < deadline else { throw AgentError.timedOut }
                    usleep(10_000)
                case EINPROGRESS:
                    try wait(fd, for: Int16(POLLOUT), deadline: deadline)
                    var error: Int32 = 0
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
                    if error == 0 { return fd }
                    if error == ECONNREFUSED { close(fd); return nil }
                    throw AgentError.system(call: "connect \(path)", errno: error)
                default:
                    throw AgentError.lastSystemError("connect \(path)")
                }
            }
        } catch {
            close(fd)
            throw error
        }
    }

    /// Waits until `fd` is ready for `events`, or throws `timedOut` at `deadline`.
    static func wait(_ fd: Int32, for events: Int16, deadline: Double) throws {
        while true {
            let remaining = deadline - Clock.now()
            guard remaining > 0 else { throw AgentError.timedOut }
            var entry = pollfd(fd: fd, events: events, revents: 0)
            let result = poll(&entry, 1, Clock.milliseconds(remaining))
            if result > 0 { return }
            if result < 0, errno != EINTR { throw AgentError.lastSystemError("poll") }
        }
    }

    /// Sends all of `bytes`, waiting at most until `deadline`. `MSG_NOSIGNAL`: a peer that hung up
    /// must give us `EPIPE`, not a `SIGPIPE` that would kill the agent with the key still held.
    static func sendAll(_ fd: Int32, _ bytes: [UInt8], deadline: Double) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { raw in
                send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent > 0 { offset += sent; continue }
            switch errno {
            case EINTR: continue
            case EAGAIN: try wait(fd, for: Int16(POLLOUT), deadline: deadline)
            default: throw AgentError.lastSystemError("send")
            }
        }
    }
}

/// The clock the agent's timers use.
enum Clock {
    /// Seconds on `CLOCK_BOOTTIME`, which keeps counting while the machine sleeps: a laptop closed
    /// for the night must come back with its session expired, not paused.
    static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_BOOTTIME, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// `seconds` as a poll timeout, rounded up so we never wake just before a deadline.
    static func milliseconds(_ seconds: Double) -> Int32 {
        Int32(min(max(0, (seconds * 1000).rounded(.up)), Double(Int32.max)))
    }
}
