import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Lends diary's terminal to a git command's process group while it runs, as a shell lends it
/// to a foreground job.
///
/// git runs in a process group of its own (so that the watchdog can kill it with everything it
/// started); a group that is not the terminal's foreground group is stopped (SIGTTIN) the
/// moment it reads the terminal. ssh asking for a key's passphrase or a password reads
/// `/dev/tty`, so without this a sync over ssh sat stopped until the watchdog killed it. Only
/// when diary itself is the terminal's foreground job; otherwise nothing changes.
struct TerminalHandoff {
    private let terminal: Int32
    private let ownGroup: pid_t
    /// The terminal's settings when it was lent: ssh turns echo off to ask, and one killed
    /// while asking (the watchdog, Ctrl-C) cannot turn it back on.
    private let settings: termios?

    /// Makes `group` the foreground group of diary's controlling terminal, or returns nil when
    /// diary has none or is not in the foreground. `group` is continued in case it read the
    /// terminal (and was stopped) before it was handed over.
    static func lend(to group: pid_t) -> TerminalHandoff? {
        let terminal = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard terminal >= 0 else { return nil }
        let ownGroup = getpgrp()
        var settings = termios()
        let saved = tcgetattr(terminal, &settings) == 0
        guard tcgetpgrp(terminal) == ownGroup, tcsetpgrp(terminal, group) == 0 else {
            close(terminal)
            return nil
        }
        kill(-group, SIGCONT)
        return TerminalHandoff(terminal: terminal, ownGroup: ownGroup, settings: saved ? settings : nil)
    }

    /// Takes the terminal back for diary's own group. diary is in the background until then,
    /// and a background process that sets the foreground group is sent SIGTTOU: blocked here.
    func takeBack() {
        var block = sigset_t()
        var previous = sigset_t()
        sigemptyset(&block)
        sigaddset(&block, SIGTTOU)
        pthread_sigmask(SIG_BLOCK, &block, &previous)
        _ = tcsetpgrp(terminal, ownGroup)
        if var settings { _ = tcsetattr(terminal, TCSANOW, &settings) }
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        close(terminal)
    }
}
