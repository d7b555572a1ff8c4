import Foundation
import XCTest

/// What a run on a pseudo-terminal showed, and how it ended.
struct TerminalResult {
    var status: Int32
    /// Everything the terminal showed (stdout and stderr, the prompts, `\r\n` line ends).
    var shown: String
    /// `shown` split at the terminal's `\r\n`.
    var lines: [String] { shown.components(separatedBy: "\r\n") }
}

extension DiarySandbox {
    /// Runs `diary args` on a new pseudo-terminal (`terminalDriver`, python3's `pty`); skips the
    /// test without python3.
    ///
    /// - answers: each (prompt, reply) waits for the prompt text after where the previous one was
    ///   found (so the same prompt can be answered again), then types the reply and a newline.
    /// - rows, columns: the window size; unset (0 x 0, as a new pty has) unless one is given,
    ///   the other then defaulting to 24 rows or 80 columns.
    /// - colour: false sets `NO_COLOR=1`; true leaves it unset unless `env` sets it.
    /// - env: added last, over the sandbox's environment and the colour choice.
    /// - stdoutTo: the child's stdout goes to this file instead of the terminal (stdin and
    ///   stderr stay on it).
    func runOnTerminal(
        _ args: [String], answers: [(String, String)] = [], rows: Int? = nil, columns: Int? = nil,
        colour: Bool = false, env: [String: String] = [:], stdoutTo: URL? = nil
    ) throws -> TerminalResult {
        let size = rows == nil && columns == nil ? (0, 0) : (rows ?? 24, columns ?? 80)
        let arguments =
            [
                String(size.0), String(size.1), stdoutTo?.path ?? "", DiarySandbox.binary.path, String(args.count),
            ] + args + answers.flatMap { [$0.0, $0.1] }
        return try runPython(
            Self.terminalDriver, named: "terminal_driver.py", arguments,
            env: ["NO_COLOR": colour ? "" : "1"].merging(env) { $1 })
    }

    /// Runs the python3 `script` (written into the sandbox as `name`) with `arguments`, in the
    /// sandbox's environment with `env` added; returns its status and all it printed. Skips the
    /// test when there is no /usr/bin/python3.
    func runPython(
        _ script: String, named name: String, _ arguments: [String], env: [String: String] = [:]
    ) throws -> TerminalResult {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else {
            throw XCTSkip("/usr/bin/python3 is needed to drive a pseudo-terminal")
        }
        let file = root.appendingPathComponent(name)
        try Data(script.utf8).write(to: file)
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        python.arguments = [file.path] + arguments
        python.environment = fullEnvironment(env)
        let out = Pipe()
        python.standardOutput = out
        python.standardError = out
        try python.run()
        let shown = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        python.waitUntilExit()
        return TerminalResult(status: python.terminationStatus, shown: shown)
    }

    /// The python driver: `rows columns stdout-file binary n args… (prompt reply)…`. Forks
    /// `binary args` on a pty (of `rows` x `columns` unless both are 0; stdout into
    /// `stdout-file` unless it is empty), answers the prompts in order, relays everything the
    /// terminal showed and exits with the child's status.
    static let terminalDriver = #"""
        import fcntl, os, pty, select, signal, struct, sys, termios, time
        rows, columns, out_file, binary, n = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4], int(sys.argv[5])
        args, steps = sys.argv[6:6 + n], sys.argv[6 + n:]
        pid, fd = pty.fork()
        if pid == 0:
            if rows or columns:
                fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
            if out_file:
                f = os.open(out_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                os.dup2(f, 1)
            os.execv(binary, [binary] + args)
        seen = b""
        position = 0
        def read_until(text, timeout=20):
            global seen, position
            end = time.time() + timeout
            while seen.find(text.encode(), position) < 0 and time.time() < end:
                if not select.select([fd], [], [], max(0, end - time.time()))[0]:
                    break
                try:
                    chunk = os.read(fd, 1024)
                except OSError:
                    return False
                if not chunk:
                    return False
                seen += chunk
            found = seen.find(text.encode(), position)
            if found < 0:
                return False
            position = found + len(text.encode())
            return True
        for prompt, reply in zip(steps[0::2], steps[1::2]):
            if not read_until(prompt):
                break
            time.sleep(0.2)  # let diary switch echo off before typing, as a person would
            os.write(fd, reply.encode() + b"\n")
        # A diary still waiting for input it will never get (a prompt the test did not expect)
        # is killed after a while, so a failing test fails instead of hanging (read_until,
        # too, gives up on a prompt that does not come).
        deadline = time.time() + 120
        while True:
            left = deadline - time.time()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                os.kill(pid, signal.SIGKILL)
                seen += b"\n[terminal_driver: still running after 120 s; killed]\n"
                break
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
        _, status = os.waitpid(pid, 0)
        sys.stdout.buffer.write(seen)
        sys.exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status))
        """#
}
