import Foundation

/// A secret on the screen cleared when interrupted, and signals held back while a change
/// that must not be cut in two (a recovery key written, then set) completes.
extension SignalCleanup {
    /// Remembers the terminal showing a secret (a recovery key or share): an interruption
    /// clears its screen and scrollback before `diary` dies.
    static func rememberScreen(fd: Int32) {
        install()
        screenFD = fd
    }

    static func forgetScreen() {
        screenFD = -1
        interruptNote = nil
    }

    /// A line said on stderr when an interruption clears the remembered screen (what the
    /// interruption left undone), until `forgetScreen()`.
    static func rememberInterruptNote(_ note: StaticString) { interruptNote = note }

    /// Holds the handled signals back until `releaseSignals()`: one that arrives meanwhile is
    /// acted on then, after what runs in between has finished.
    static func holdSignals() {
        var set = sigset_t()
        sigemptyset(&set)
        for sig in handledSignals where sig != SIGXFSZ { sigaddset(&set, sig) }
        sigprocmask(SIG_BLOCK, &set, nil)
    }

    static func releaseSignals() {
        var set = sigset_t()
        sigemptyset(&set)
        for sig in handledSignals where sig != SIGXFSZ { sigaddset(&set, sig) }
        sigprocmask(SIG_UNBLOCK, &set, nil)
    }
}

// Written by the main thread, read only by the handler.
nonisolated(unsafe) private var screenFD: Int32 = -1
nonisolated(unsafe) private var interruptNote: StaticString? = nil

/// Clears the remembered screen and its scrollback (ESC [H ESC [2J ESC [3J). Async-signal-safe:
/// one `write` of a static string.
func clearScreenSignalSafe() {
    guard screenFD >= 0 else { return }
    let sequence: StaticString = "\u{1B}[H\u{1B}[2J\u{1B}[3J"
    _ = write(screenFD, sequence.utf8Start, sequence.utf8CodeUnitCount)
    if let note = interruptNote { _ = write(2, note.utf8Start, note.utf8CodeUnitCount) }
}
