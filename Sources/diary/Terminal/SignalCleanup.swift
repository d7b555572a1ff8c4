import DiaryApp
import Foundation

/// Undoes what must not outlive an interrupted command: a terminal left without echo, an
/// editor still running, a temporary file holding plaintext.
///
/// The state lives in plain globals because a signal handler is a C function that can capture
/// nothing. The handler only calls async-signal-safe functions (`tcsetattr`, `kill`, `fstatat`,
/// `openat`, `fstat`, `write`, `fsync`, `unlinkat`, `rmdir`, `signal`, `raise`), then re-raises
/// the signal with the default action so the exit status still says "killed by SIGINT".
/// (`unlink` too, for a partial file outside the memory directory.)
///
/// SIGKILL cannot be caught: what a killed `diary` leaves is found by `InterruptedEdits`.
///
/// One exception, as in git: while the editor runs, a SIGINT or SIGQUIT typed at the terminal
/// reaches the editor too, and editors such as vim use Ctrl-C for their own purposes; so a
/// terminal-generated one (`si_code == SI_KERNEL`) is left to the editor. If the editor dies of
/// it, `Editor` cleans up and fails normally. A SIGINT sent with `kill` still cleans up.
enum SignalCleanup {
    /// Installs the handler for SIGINT, SIGTERM, SIGHUP, SIGQUIT and SIGXFSZ (a file size
    /// limit reached while writing). Idempotent.
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

    /// Remembers the private files (by their names in the directory: the text, and what the
    /// command meant to store with it) to wipe if interrupted, and a non-secret file beside
    /// them to unlink so that the directory can be removed.
    static func rememberFiles(_ names: [String], beside other: String, in directory: MemoryDirectory) {
        forgetFile()
        // A buffer of C strings, allocated here: the handler may not allocate or touch Swift arrays.
        let buffer = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: names.count)
        for (index, name) in names.enumerated() { buffer[index] = strdup(name) }
        fileNames = buffer
        fileCount = names.count
        otherName = strdup(other)
        directoryPath = strdup(directory.path)
        directoryFD = directory.fd
    }

    static func forgetFile() {
        directoryFD = -1
        if let names = fileNames {
            let count = fileCount
            fileNames = nil
            fileCount = 0
            for index in 0..<count { free(names[index]) }
            names.deallocate()
        }
        free(otherName); otherName = nil
        free(directoryPath); directoryPath = nil
    }

    /// Remembers a file being written outside the memory directory (`extract`'s temporary
    /// file, plaintext on disk) to unlink if interrupted; nil forgets it. Only unlinked: on a
    /// disk, zeros written over it would not reach the blocks already written.
    static func rememberPartialFile(_ path: String?) {
        let old = partialFile
        partialFile = path.map { strdup($0) }
        free(old)
    }

    /// Remembers the editor's pid so an interrupted `diary` stops it too.
    static func rememberChild(_ pid: pid_t) { childPID = pid }
    static func forgetChild() { childPID = 0 }

    static let handledSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGXFSZ]
}

// Written by the main thread before the handler can need them, read only by the handler.
nonisolated(unsafe) private var installed = false
nonisolated(unsafe) private var savedTerminal = termios()
nonisolated(unsafe) private var terminalFD: Int32 = -1
nonisolated(unsafe) private var fileNames: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = nil
nonisolated(unsafe) private var fileCount = 0
nonisolated(unsafe) private var otherName: UnsafeMutablePointer<CChar>? = nil
nonisolated(unsafe) private var directoryFD: Int32 = -1
nonisolated(unsafe) private var directoryPath: UnsafeMutablePointer<CChar>? = nil
nonisolated(unsafe) private var childPID: pid_t = 0
nonisolated(unsafe) private var partialFile: UnsafeMutablePointer<CChar>? = nil

/// Overwrites the regular file `name` in the directory open as `dirfd` with zeros, flushes it,
/// and unlinks it. Async-signal-safe: no allocation, a fixed stack buffer.
///
/// Only a regular file with a single link is zeroed. A symbolic link (put there by an editor or
/// a script) is unlinked, never followed, and so is a second name of a file that lives
/// elsewhere too (a hard link): zeroing either would destroy a file outside the directory.
/// `O_NONBLOCK` keeps a FIFO swapped in between the checks from blocking the open.
func wipeFileSignalSafe(directory dirfd: Int32, name: UnsafePointer<CChar>) {
    var before = stat()
    if fstatat(dirfd, name, &before, AT_SYMLINK_NOFOLLOW) == 0 && isLoneRegularFile(before) {
        let fd = openat(dirfd, name, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        if fd >= 0 {
            var st = stat()
            if fstat(fd, &st) == 0 && isLoneRegularFile(st) && st.st_ino == before.st_ino && st.st_dev == before.st_dev
            {
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
    }
    unlinkat(dirfd, name, 0)
}

private func isLoneRegularFile(_ st: stat) -> Bool {
    (st.st_mode & S_IFMT) == S_IFREG && st.st_nlink == 1
}

private func diaryCleanupHandler(_ sig: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _: UnsafeMutableRawPointer?) {
    let fromTerminal = info.map { $0.pointee.si_code == SI_KERNEL } ?? false
    if childPID > 0 && fromTerminal && (sig == SIGINT || sig == SIGQUIT) { return }
    clearScreenSignalSafe()
    if terminalFD >= 0 {
        tcsetattr(terminalFD, TCSAFLUSH, &savedTerminal)
        _ = write(terminalFD, "\n", 1)
    }
    if childPID > 0 { kill(childPID, SIGTERM) }
    if directoryFD >= 0, let names = fileNames {
        for index in 0..<fileCount {
            if let name = names[index] { wipeFileSignalSafe(directory: directoryFD, name: name) }
        }
    }
    if directoryFD >= 0, let name = otherName { unlinkat(directoryFD, name, 0) }
    if let dir = directoryPath { rmdir(dir) }
    if let path = partialFile { unlink(path) }
    removeCreatedSignalSafe()
    signal(sig, SIG_DFL)
    raise(sig)
}
