import Foundation

/// Undoes what must not outlive an interrupted command: a terminal left without echo, an
/// editor still running, a temporary file holding plaintext.
///
/// The state lives in plain globals because a signal handler is a C function that can capture
/// nothing. The handler only calls async-signal-safe functions (`tcsetattr`, `kill`, `open`,
/// `write`, `fsync`, `unlink`, `rmdir`, `signal`, `raise`), then re-raises the signal with the
/// default action so the exit status still says "killed by SIGINT".
///
/// One exception, as in git: while the editor runs, a SIGINT or SIGQUIT typed at the terminal
/// reaches the editor too, and editors such as vim use Ctrl-C for their own purposes; so a
/// terminal-generated one (`si_code == SI_KERNEL`) is left to the editor. If the editor dies of
/// it, `Editor` cleans up and fails normally. A SIGINT sent with `kill` still cleans up.
enum SignalCleanup {
    /// Installs the handler for SIGINT, SIGTERM, SIGHUP and SIGQUIT. Idempotent.
    static func install() {
        guard !installed else { return }
        installed = true
        for sig in handledSignals {
            var action = sigaction()
            action.__sigaction_handler.sa_sigaction = diaryCleanupHandler
            action.sa_flags = SA_SIGINFO
            sigemptyset(&action.sa_mask)
            sigaction(sig, &action, nil)
        }
    }

    /// Remembers the terminal state to restore if interrupted while echo is off.
    static func rememberTerminal(fd: Int32, state: termios) {
        savedTerminal = state
        terminalFD = fd
    }

    static func forgetTerminal() { terminalFD = -1 }

    /// Remembers a plaintext file (and its private directory) to wipe if interrupted.
    static func rememberFile(path: String, directory: String) {
        forgetFile()
        filePath = strdup(path)
        directoryPath = strdup(directory)
    }

    static func forgetFile() {
        free(filePath); filePath = nil
        free(directoryPath); directoryPath = nil
    }

    /// Remembers the editor's pid so an interrupted `diary` stops it too.
    static func rememberChild(_ pid: pid_t) { childPID = pid }
    static func forgetChild() { childPID = 0 }

    static let handledSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
}

// Written by the main thread before the handler can need them, read only by the handler.
nonisolated(unsafe) private var installed = false
nonisolated(unsafe) private var savedTerminal = termios()
nonisolated(unsafe) private var terminalFD: Int32 = -1
nonisolated(unsafe) private var filePath: UnsafeMutablePointer<CChar>? = nil
nonisolated(unsafe) private var directoryPath: UnsafeMutablePointer<CChar>? = nil
nonisolated(unsafe) private var childPID: pid_t = 0

/// Overwrites the file at `path` with zeros, flushes and unlinks it. Async-signal-safe: no
/// allocation, a fixed stack buffer.
func wipeFileSignalSafe(_ path: UnsafePointer<CChar>) {
    let fd = open(path, O_WRONLY)
    if fd >= 0 {
        var st = stat()
        if fstat(fd, &st) == 0 {
            var remaining = Int(st.st_size)
            var zeros = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
            withUnsafeBytes(of: &zeros) { buffer in
                while remaining > 0 {
                    let n = write(fd, buffer.baseAddress!, min(remaining, buffer.count))
                    if n <= 0 { break }
                    remaining -= n
                }
            }
            fsync(fd)
        }
        close(fd)
    }
    unlink(path)
}

private func diaryCleanupHandler(_ sig: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _: UnsafeMutableRawPointer?) {
    let fromTerminal = info.map { $0.pointee.si_code == SI_KERNEL } ?? false
    if childPID > 0 && fromTerminal && (sig == SIGINT || sig == SIGQUIT) { return }
    if terminalFD >= 0 {
        tcsetattr(terminalFD, TCSAFLUSH, &savedTerminal)
        _ = write(terminalFD, "\n", 1)
    }
    if childPID > 0 { kill(childPID, SIGTERM) }
    if let path = filePath { wipeFileSignalSafe(path) }
    if let dir = directoryPath { rmdir(dir) }
    signal(sig, SIG_DFL)
    raise(sig)
}
