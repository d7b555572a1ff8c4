import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the `git` program for `GitRemote`: in a neutral environment, over the transports a
/// remote needs and no other, and never for longer than `timeout`.
enum GitProcess {
    /// How long one git command may run before it is killed with every process it started. A
    /// host that accepts the connection and then says nothing would otherwise hold the sync
    /// (and its lock) for good. Tests lower it.
    nonisolated(unsafe) static var timeout: TimeInterval = 120

    /// The transports git may use. Left out: `ext::`, which runs any command the address
    /// names, and `fd::`, which talks over a descriptor diary never opened (and waits forever).
    static let allowedProtocols = "file:git:http:https:ssh"

    /// Given to every command, whatever the clone's or the user's configuration says: a link
    /// in a checked-out tree would be made as a link (the tree is checked before, this is the
    /// second line).
    static let forcedConfiguration = ["-c", "core.symlinks=false"]

    /// Runs git and returns its stdout, trimmed. A failure throws `remoteUnusable` with git's
    /// own words (they name the remote and the reason), without its advice; a command that
    /// runs out of time throws `remoteUnusable(.gitTimedOut)`.
    static func run(_ args: [String], in directory: URL?, neutral: Bool = false) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + forcedConfiguration + args
        if let directory { process.currentDirectoryURL = directory }
        process.environment = environment(neutral: neutral)
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        // Foundation's waitUntilExit looks for the child's exit only every 50 ms, which made
        // every git command cost about 50 ms more than git itself (11 of them per sync):
        // the termination handler is called as soon as the child is reaped.
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        do {
            try process.run()
        } catch {
            throw SyncError.remoteUnusable(.gitNotRunnable(reason: error.localizedDescription))
        }
        let watchdog = Watchdog()
        watchdog.arm(group: process.processIdentifier, after: timeout)
        // ssh may ask for a passphrase on the terminal: it must be able to read it.
        let handoff = TerminalHandoff.lend(to: process.processIdentifier)
        // stdout first, to its end, then stderr: with --quiet git writes little to stderr
        // (far below a pipe's 64 KiB), so it cannot block while stdout is read. A command
        // killed by the watchdog closes both.
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        // Foundation keeps the pipes' descriptors open until the handles go: a sync runs a dozen
        // git commands, a long-lived process (the sync model) thousands.
        for handle in [
            out.fileHandleForReading, out.fileHandleForWriting, err.fileHandleForReading, err.fileHandleForWriting,
        ] {
            try? handle.close()
        }
        exited.wait()
        handoff?.takeBack()
        if watchdog.disarm() {
            throw SyncError.remoteUnusable(
                .gitTimedOut(command: command(of: args), seconds: Int(timeout.rounded(.up))))
        }
        guard process.terminationStatus == 0 else {
            throw SyncError.remoteUnusable(
                .gitFailed(
                    command: command(of: args), message: lines(errData), status: process.terminationStatus))
        }
        return String(decoding: outData, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Git's message, one line per line it printed, without its advice ("hint: …"); nil when
    /// it said nothing.
    private static func lines(_ data: Data) -> String? {
        let message = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("hint:") }
            .joined(separator: "\n")
        return message.isEmpty ? nil : message
    }

    /// The git command `args` run (`fetch` of `--git-dir x fetch`), for messages.
    static func command(of args: [String]) -> String {
        var rest = args[...]
        while let first = rest.first, first.hasPrefix("-") {
            rest = rest.dropFirst(["-c", "-C", "--git-dir", "--work-tree"].contains(first) ? 2 : 1)
        }
        return rest.first ?? ""
    }

    private static func environment(neutral: Bool) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["GIT_TERMINAL_PROMPT"] = "0"
        env["LC_ALL"] = "C"
        // Neither the user's nor the system's git configuration may sign, hook or rewrite.
        env["GIT_CONFIG_NOSYSTEM"] = "1"
        env["GIT_ALLOW_PROTOCOL"] = allowedProtocols
        if neutral {
            env["GIT_AUTHOR_NAME"] = GitRemote.neutralName
            env["GIT_AUTHOR_EMAIL"] = GitRemote.neutralEmail
            env["GIT_COMMITTER_NAME"] = GitRemote.neutralName
            env["GIT_COMMITTER_EMAIL"] = GitRemote.neutralEmail
            env["GIT_AUTHOR_DATE"] = GitRemote.neutralDate
            env["GIT_COMMITTER_DATE"] = GitRemote.neutralDate
        }
        return env
    }
}

/// Kills a git command and everything it started once its time is up.
private final class Watchdog: @unchecked Sendable {
    private let lock = NSLock()
    private var finished = false
    private var fired = false
    private var item: DispatchWorkItem?

    /// Foundation starts each child in a process group of its own, so the group is git and
    /// whatever it started (ssh, a remote helper, an alias's shell): all are killed at once.
    func arm(group: pid_t, after seconds: TimeInterval) {
        let item = DispatchWorkItem { [self] in
            lock.withLock {
                guard !finished else { return }
                fired = true
                if kill(-group, SIGKILL) != 0 { kill(group, SIGKILL) }
            }
        }
        lock.withLock { self.item = item }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: item)
    }

    /// Ends the watch once the command is over; true when it was killed.
    func disarm() -> Bool {
        lock.withLock {
            finished = true
            item?.cancel()
            return fired
        }
    }
}
