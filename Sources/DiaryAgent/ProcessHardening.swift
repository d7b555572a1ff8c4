import Glibc

/// Makes the agent process a poor place to read a key from.
public enum ProcessHardening {
    private static let setDumpable: Int32 = 4  // PR_SET_DUMPABLE, not imported into Swift
    private static let getDumpable: Int32 = 3  // PR_GET_DUMPABLE

    /// Disables core dumps and marks the process non-dumpable.
    ///
    /// Why: the agent holds the vault key for the whole session. A crash must not write it to a
    /// core file on disk (`RLIMIT_CORE` 0), and other processes of the same user must not be able
    /// to `ptrace` it or read `/proc/<pid>/mem` (`PR_SET_DUMPABLE` 0 makes both require
    /// `CAP_SYS_PTRACE`). Call this before the key enters the process; `AgentServer.run` calls it
    /// again, which is harmless.
    public static func apply() throws {
        var limit = rlimit(rlim_cur: 0, rlim_max: 0)
        guard setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &limit) == 0 else {
            throw AgentError.lastSystemError("setrlimit RLIMIT_CORE")
        }
        guard prctl(setDumpable, 0) == 0 else { throw AgentError.lastSystemError("prctl PR_SET_DUMPABLE") }
    }

    /// Whether the process is still dumpable (for tests and diagnostics).
    static var isDumpable: Bool { prctl(getDumpable, 0) != 0 }

    /// `prctl` is variadic in C, and Swift cannot call variadic C functions, so we look it up and
    /// call it through a fixed five-argument prototype. On the Linux ABIs Swift supports (x86-64,
    /// AArch64) integer arguments travel in the same registers either way.
    private static func prctl(_ option: Int32, _ argument: UInt) -> Int32 {
        typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "prctl") else {
            errno = ENOSYS
            return -1
        }
        return unsafeBitCast(symbol, to: Prctl.self)(option, argument, 0, 0, 0)
    }
}

/// The write end of the signal self-pipe, read by the handler. A plain global because a C signal
/// handler cannot capture context; it is set before the handlers are installed and reset after
/// they are removed, so the handler never sees a half-written value.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

private func forwardSignal(_ signal: Int32) {
    // Only async-signal-safe work here: one write(2) of the signal number, errno preserved.
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: signal)
    _ = write(signalPipeWriteEnd, &byte, 1)
    errno = saved
}

/// Turns SIGTERM, SIGINT and SIGHUP into a byte on a pipe the poll loop watches (the self-pipe
/// trick), so a signal ends the session through the same path as a timeout: key dropped, socket
/// removed. The previous handlers come back on `deinit`.
final class SignalPipe {
    static let signals: [Int32] = [SIGTERM, SIGINT, SIGHUP]

    let readEnd: Int32
    private let writeEnd: Int32
    private var previous: [Int32: sigaction] = [:]

    init() throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw AgentError.lastSystemError("pipe") }
        (readEnd, writeEnd) = (ends[0], ends[1])
        for fd in ends {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        signalPipeWriteEnd = writeEnd
        for signal in Self.signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { forwardSignal($0) }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            var old = sigaction()
            sigaction(signal, &action, &old)
            previous[signal] = old
        }
    }

    deinit {
        for (signal, old) in previous {
            var action = old
            sigaction(signal, &action, nil)
        }
        signalPipeWriteEnd = -1
        close(readEnd)
        close(writeEnd)
    }

    /// The first signal that arrived, if any.
    func receivedSignal() -> Int32? {
        var byte: UInt8 = 0
        return read(readEnd, &byte, 1) == 1 ? Int32(byte) : nil
    }
}
