import DiaryApp
import Foundation

/// The controlling terminal, for prompts and confirmations that must not mix with stdin/stdout.
///
/// Prompts go to `/dev/tty` rather than stdout so `diary show ID > file` can still ask for a
/// passphrase without the prompt landing in the file.
final class TTY {
    let fd: Int32

    private init(fd: Int32) { self.fd = fd }

    deinit { close(fd) }

    /// Opens `/dev/tty`, or returns nil when the process has no controlling terminal (cron, CI,
    /// a test harness).
    static func open() -> TTY? {
        let fd = Glibc.open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        guard isatty(fd) == 1 else { close(fd); return nil }
        return TTY(fd: fd)
    }

    /// True when stdin is a terminal (then `new` opens the editor instead of reading stdin).
    static var stdinIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }

    /// Writes `text` to the terminal, control characters escaped (a question may quote a title
    /// or a path).
    func write(_ text: String) { Output.write(Printable.escaped(text, keeping: Printable.layout), to: fd) }

    /// Reads one line (without the newline) from the terminal with echo on; nil at end of input.
    func readLine() -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let n = read(fd, &byte, 1)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }

    /// Waits for Enter: true once a newline is read; false at end of input, even after some
    /// typing (Ctrl-D ends a line without one), so that only Enter confirms.
    func waitForEnter() -> Bool {
        var byte: UInt8 = 0
        while true {
            let n = read(fd, &byte, 1)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            if byte == UInt8(ascii: "\n") { return true }
        }
    }

    /// Asks a yes/no question; only `y` or `yes` (any case) is yes.
    func confirm(_ question: String) -> Bool {
        write("\(question) [y/N] ")
        guard let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() else { return false }
        return answer == "y" || answer == "yes"
    }
}

/// Asks for confirmation of a destructive action: on the terminal when there is one; without a
/// terminal only `--yes` confirms.
func confirmDestructive(_ what: String, question: String, yes: Bool) throws {
    if yes { return }
    guard let tty = TTY.open() else { throw CLIError.confirmationNeeded(what: what) }
    guard tty.confirm(question) else { throw CLIError.declined }
}
