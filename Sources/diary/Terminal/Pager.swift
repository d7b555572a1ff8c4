import ArgumentParser
import DiaryApp
import Foundation

/// `--no-pager`, for the commands whose output can be long (`show`, `list`).
struct PagerOptions: ParsableArguments {
    @Flag(help: "Print straight to the terminal, without $PAGER.")
    var noPager = false
}

/// The size of the terminal stdout is, or nil when stdout is not a terminal or the terminal
/// does not say (a new pseudo-terminal reports 0 x 0).
struct TerminalSize {
    let rows: Int
    let columns: Int

    /// The size of the terminal on stdout, or nil when stdout is not one (or does not say).
    static var ofStdout: TerminalSize? {
        guard isatty(STDOUT_FILENO) == 1 else { return nil }
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0, size.ws_col > 0 else { return nil }
        return TerminalSize(rows: Int(size.ws_row), columns: Int(size.ws_col))
    }
}

/// Shows output longer than the terminal through `$PAGER`, as git does.
///
/// Only when stdout is a terminal: into a pipe or a file the text goes straight out. The pager
/// is `$PAGER` (empty or `cat`: none), else `less` if it is on PATH; `LESS` defaults to `FRX`
/// (quit if one screen, keep colours, leave the text on the screen). The text reaches the pager
/// through a pipe, never a file, so no plaintext is written to disk.
enum Pager {
    /// Prints `text` and a newline to stdout, through the pager when `allowed`, stdout is a
    /// terminal and the text is taller than it. A pager that fails (`PAGER=false`, exit status
    /// not 0) may have shown nothing: that is an error with the pager's status, not a success.
    static func data(_ text: String, allowed: Bool) throws {
        guard allowed, let size = TerminalSize.ofStdout, fillsScreen(text, size), let command = command()
        else {
            Output.data(text)
            return
        }
        // Not started, or the shell found no such command (127) and said so: print it here.
        guard let status = run(command, text: text + "\n"), status != 127 else {
            Output.data(text)
            return
        }
        if status != 0 { throw Failed(command: command, status: status) }
    }

    /// The pager ended with a status other than 0; diary says so and exits 1.
    struct Failed: Error {
        let command: String
        let status: Int32
        var message: String { "pager '\(Printable.escaped(command))' failed (exit status \(status))" }
    }

    /// The pager's command line, or nil for none.
    static func command(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let pager = environment["PAGER"] {
            let trimmed = pager.trimmingCharacters(in: .whitespaces)
            return trimmed.isEmpty || trimmed == "cat" ? nil : trimmed
        }
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        let found = path.split(separator: ":").contains { access("\($0)/less", X_OK) == 0 }
        return found ? "less" : nil
    }

    /// True when `text` takes at least `size.rows` rows, long lines wrapping; counts no further.
    static func fillsScreen(_ text: String, _ size: TerminalSize) -> Bool {
        var rows = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            rows += max(1, (DisplayWidth.of(String(line)) + size.columns - 1) / size.columns)
            if rows >= size.rows { return true }
        }
        return false
    }

    /// Runs the pager on `text`; its exit status, or nil when it could not be started.
    private static func run(_ command: String, text: String) -> Int32? {
        guard let process = Child.start(command) else { return nil }
        Output.write(text, to: process.input)
        return process.wait()
    }

    /// A pager started with its input on a pipe: write to `input`, then `wait`.
    struct Child {
        let pid: pid_t
        /// The write end of the pager's stdin.
        let input: Int32
        /// SIGPIPE's handling before the pager, put back after it. Kept as the C struct: an
        /// optional handler kept in this struct would make `SIG_IGN` (the address 1) read as a
        /// `Child?` of nil, since Swift takes low addresses as spare values of a function pointer.
        private let previousSIGPIPE: sigaction

        /// Starts `command` (through /bin/sh), or nil when it could not be started.
        static func start(_ command: String) -> Child? {
            var fds: [Int32] = [0, 0]
            guard pipe(&fds) == 0 else { return nil }
            let (readEnd, writeEnd) = (fds[0], fds[1])
            _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)

            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_adddup2(&actions, readEnd, STDIN_FILENO)
            posix_spawn_file_actions_addclose(&actions, readEnd)

            var environment = ProcessInfo.processInfo.environment
            if (environment["LESS"] ?? "").isEmpty { environment["LESS"] = "FRX" }
            let env: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            let words: [String] = ["/bin/sh", "-c", command]
            let args: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
            defer {
                env.forEach { free($0) }
                args.forEach { free($0) }
            }
            var pid: pid_t = 0
            let rc = posix_spawn(&pid, "/bin/sh", &actions, nil, args, env)
            close(readEnd)
            guard rc == 0 else {
                close(writeEnd)
                return nil
            }
            // Ctrl-C typed in the pager is the pager's (less uses it to stop a search), as for the
            // editor; quitting the pager early closes the pipe, which must not kill diary.
            SignalCleanup.install()
            SignalCleanup.rememberChild(pid)
            var ignore = sigaction()
            ignore.__sigaction_handler.sa_handler = SIG_IGN
            var previous = sigaction()
            sigaction(SIGPIPE, &ignore, &previous)
            return Child(pid: pid, input: writeEnd, previousSIGPIPE: previous)
        }

        /// Closes the pager's input and waits for it to end; its exit status.
        func wait() -> Int32 {
            close(input)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            var previous = previousSIGPIPE
            sigaction(SIGPIPE, &previous, nil)
            SignalCleanup.forgetChild()
            return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        }
    }
}
