import DiaryApp
import DiaryCrypto
import Foundation

/// Where `diary` writes: data to stdout, talk (errors, hints, notes, progress) to stderr.
///
/// Nothing here ever receives a passphrase or a key. Entry text reaches stdout only through
/// `data`, when the user asked to see it.
enum Output {
    /// Writes `text` and a newline to stdout. Data only: ids, listings, entry text, JSON.
    static func data(_ text: String) {
        write(text + "\n", to: STDOUT_FILENO)
    }

    // Messages name paths, import files, zip members and ids that came from outside: each
    // goes through the one sanitiser (`Printable`). An error, hint, warning or note is one line,
    // so a newline or tab in a path it names is escaped too (`\n`, `\t`); only `talk` keeps the
    // line breaks of a text laid out in lines on purpose.

    /// `diary: error: …` on stderr.
    static func error(_ message: String) { talk("diary: error: \(Printable.escaped(message))") }

    /// `diary: hint: …` on stderr.
    static func hint(_ message: String) { talk("diary: hint: \(Printable.escaped(message))") }

    /// `diary: warning: …` on stderr.
    static func warning(_ message: String) { talk("diary: warning: \(Printable.escaped(message))") }

    /// A plain sentence on stderr, e.g. "deleted 1b4e28ba".
    static func note(_ message: String) { talk(Printable.escaped(message)) }

    /// Lines for a person on stderr, control characters escaped but for the line breaks and
    /// tabs of the layout: what is put into them from outside must be escaped by the caller.
    static func talk(_ line: String) {
        write(Printable.escaped(line, keeping: Printable.layout) + "\n", to: STDERR_FILENO)
    }

    /// The config's `color` decides (`ColorChoice`): `auto` (the default) is true when stdout
    /// is a terminal, `NO_COLOR` is unset (or empty), per no-color.org, and `TERM` is not `dumb`
    /// (a terminal that cannot show colour codes; git checks the same); `always` and `never`
    /// are what they say.
    static var colourEnabled: Bool {
        ColorChoice.enabled(
            Settings.forOutput.color, isTerminal: isatty(STDOUT_FILENO) == 1,
            environment: ProcessInfo.processInfo.environment)
    }

    /// Writes all of `text`, retrying short writes; errors on a closed pipe are ignored because
    /// there is nobody left to tell.
    static func write(_ text: String, to fd: Int32) {
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { DescriptorWrite.all($0, to: fd) }
        // The buffer may hold entry text; do not leave it for the allocator to hand out.
        secureZero(&bytes)
    }
}

/// ANSI styles, applied only when `Output.colourEnabled`.
struct Style {
    let enabled: Bool

    init(enabled: Bool = Output.colourEnabled) { self.enabled = enabled }

    func dim(_ s: String) -> String { wrap(s, "2") }
    func bold(_ s: String) -> String { wrap(s, "1") }
    func yellow(_ s: String) -> String { wrap(s, "33") }
    func cyan(_ s: String) -> String { wrap(s, "36") }

    /// `s` in the colour or weight of SGR `code` (`"1;32"`), when colour is on; else `s` as it is.
    func wrap(_ s: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(s)\u{1B}[0m" : s
    }
}

/// Progress for long work (rekey, backup, verify), on stderr and only when stderr is a terminal,
/// so pipes and logs stay clean.
final class Progress {
    private let label: String
    private let enabled: Bool
    private var lastShown = -1
    private var started = false

    init(_ label: String) {
        self.label = label
        enabled = isatty(STDERR_FILENO) == 1
    }

    /// Reports `done` of `total`; redraws at most once per percent.
    func update(_ done: Int, _ total: Int) {
        guard enabled, total > 0 else { return }
        let percent = done * 100 / total
        guard percent != lastShown else { return }
        lastShown = percent
        started = true
        Output.write("\r\(label): \(done)/\(total) (\(percent)%)", to: STDERR_FILENO)
    }

    /// Ends the progress line; calling it again does nothing (commands call it before printing
    /// their result and again from a `defer` for the error paths).
    func finish() {
        if enabled && started { Output.write("\n", to: STDERR_FILENO) }
        started = false
    }
}
