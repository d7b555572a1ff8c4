import DiaryApp
import DiaryVault
import Foundation

/// The recovery key on the terminal: shown once (text and QR code) and typed back without echo.
/// Only ever `/dev/tty`: the key must not land in a file stdout was sent to, or in a log.
enum RecoveryKeyDisplay {
    /// The terminal, or the refusal that says to use `--output`.
    static func terminal() throws -> TTY {
        guard let tty = TTY.open() else { throw RecoveryPromptError.noTerminalToShowKey }
        return tty
    }

    /// Writes the key's text and its QR code to the terminal.
    static func show(_ key: RecoveryKey, on tty: TTY) {
        let text = key.text
        var lines = ["", "Your recovery key (shown once; write it down or print it now):", "", "    " + text, ""]
        if let code = QRCode(text) {
            // The terminal, not stdout, decides: the code is drawn there whatever stdout is.
            let colours = ColorChoice.enabled(
                Settings.forOutput.color, isTerminal: true, environment: ProcessInfo.processInfo.environment)
            lines += code.halfBlockLines(colours: colours).map { "    " + $0 }
            lines.append("")
        }
        lines.append("Keep it offline and safe: whoever holds it can read the diary.")
        // Written as is: the QR code's colour codes must reach the terminal unescaped.
        Output.write(lines.joined(separator: "\n") + "\n", to: tty.fd)
    }

    /// Shows the key, waits for Enter once it is written down, then clears the screen and its
    /// scrollback (an interruption clears them too, and says `interrupted`). The key is set
    /// only after this returns; end of input (Ctrl-D, even after some typing) cancels as Ctrl-C
    /// does (`RecoveryKeyCancelled`).
    static func showUntilWrittenDown(_ key: RecoveryKey, on tty: TTY, interrupted: StaticString) throws {
        SignalCleanup.rememberScreen(fd: tty.fd)
        SignalCleanup.rememberInterruptNote(interrupted)
        defer { SignalCleanup.forgetScreen() }
        show(key, on: tty)
        tty.write("Press Enter once you have written it down (the screen is then cleared). ")
        let entered = tty.waitForEnter()
        Output.write("\u{1B}[H\u{1B}[2J\u{1B}[3J", to: tty.fd)
        if !entered { throw RecoveryKeyCancelled() }
    }

    /// Asks for the key without echo; a mistyped one is named (its checksum catches it).
    static func askForKey() throws -> RecoveryKey {
        guard let tty = TTY.open() else { throw RecoveryPromptError.noTerminalToAskKey }
        let typed = try PassphrasePrompt.read("Recovery key: ", on: tty)
        let text = typed.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
        return try RecoveryKey(text: text)
    }
}

/// End of input where Enter confirms that a shown key is written down: no key is set.
struct RecoveryKeyCancelled: Error {}

/// Why the recovery key could not be shown or asked for.
enum RecoveryPromptError: Error, Equatable {
    case noTerminalToShowKey
    case noTerminalToAskKey
}
