import DiaryApp
import DiaryVault
import Foundation

/// `pick`'s use of fzf: the lines it offers, the preview it runs, and what the choice was.
///
/// The lines and the choice go through pipes, never a file; fzf draws on the terminal itself
/// (`/dev/tty`), so diary's stdout carries only the chosen id.
enum Picker {
    enum Choice: Equatable {
        case chosen(id: String)
        /// fzf's status 1: the typed text matched no line.
        case nothingMatched
        /// fzf's status 130: Esc or Ctrl-C.
        case cancelled
        case failed(status: Int32)
    }

    /// The `fzf` program on PATH, or nil.
    static func find(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") where directory.hasPrefix("/") {
            let candidate = "\(directory)/fzf"
            if access(candidate, X_OK) == 0 { return URL(fileURLWithPath: candidate) }
        }
        return nil
    }

    /// One line per entry: the full id (hidden by fzf, given back with the choice), a tab,
    /// then the date, a star, the title and the tags, control characters escaped (a tab in a
    /// title too, so the id stays the first field).
    static func lines(_ summaries: [EntrySummary]) -> [String] {
        summaries.map { s in
            let date = s.isCalendarDay ? DateOutput.day(s.date) : DateOutput.dayAndTime(s.date)
            var shown = "\(date)  \(s.starred ? "★" : " ") \(EntryFormat.displayTitle(s.title))"
            if !s.tags.isEmpty { shown += "  " + s.tags.map { "#\($0)" }.joined(separator: " ") }
            return EntryFormat.fullID(s.id) + "\t" + Printable.escaped(shown)
        }
    }

    /// The shell command fzf runs for the preview of line `{1}` (the id): this same diary
    /// binary's `show --preview` on this vault.
    static func previewCommand(vault: String, executable: String = Picker.executable) -> String {
        "\(quoted(executable)) show --preview --vault \(quoted(vault)) {1}"
    }

    /// This program's path (so the preview runs the same diary, wherever PATH points).
    static var executable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// `s` in single quotes for /bin/sh.
    static func quoted(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// Runs fzf on `lines` and returns what was chosen.
    ///
    /// fzf is started with `posix_spawn` in diary's own process group, as the editor and the
    /// pager are: Foundation's `Process` puts its child in a group of its own, which is not the
    /// terminal's foreground group, so fzf's first read of the terminal stopped it (SIGTTIN)
    /// and diary waited for ever.
    static func choose(_ lines: [String], fzf: URL, preview: String) throws -> Choice {
        let arguments = [
            fzf.path, "--delimiter=\t", "--with-nth=2..", "--no-multi", "--tiebreak=index", "--layout=reverse",
            "--prompt=diary> ", "--preview=\(preview)", "--preview-window=right,55%,wrap",
        ]
        // fzf runs the preview with $SHELL; the command above is quoted for /bin/sh.
        var environment = ProcessInfo.processInfo.environment
        environment["SHELL"] = "/bin/sh"
        let child = try FzfChild.start(arguments, environment: environment)
        // Written while fzf reads, so a long diary cannot fill the pipe and stall both.
        let writer = DispatchGroup()
        let text = Data((lines.joined(separator: "\n") + "\n").utf8)
        DispatchQueue.global().async(group: writer) {
            let input = FileHandle(fileDescriptor: child.input, closeOnDealloc: true)
            try? input.write(contentsOf: text)
            try? input.close()
        }
        let output = FileHandle(fileDescriptor: child.output, closeOnDealloc: true)
        let chosen = String(decoding: output.readDataToEndOfFile(), as: UTF8.self)
        writer.wait()
        let status = child.wait()
        return choice(status: status, output: chosen)
    }

    /// What fzf's `status` and `output` (the chosen line) mean.
    static func choice(status: Int32, output: String) -> Choice {
        switch status {
        case 0:
            // The chosen line, not the first line: options in the user's FZF_DEFAULT_OPTS
            // (`--print-query`, `--expect`) print other lines before it.
            let id = output.split(separator: "\n").lazy
                .map { $0.prefix { $0 != "\t" } }
                .first { $0.count == 36 && UUID(uuidString: String($0)) != nil }
            return id.map { .chosen(id: String($0)) } ?? .nothingMatched
        case 1: return .nothingMatched
        case 130: return .cancelled
        default: return .failed(status: status)
        }
    }
}
