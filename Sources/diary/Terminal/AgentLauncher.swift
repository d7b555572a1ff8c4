import DiaryAgent
import DiaryApp
import DiaryCrypto
import Foundation

/// Starts `diary agent` as a detached process and hands it the key over a pipe.
///
/// The agent runs in its own session (`setsid`), so closing the terminal or the shell does not
/// end it; its stdout and stderr go to /dev/null so it never holds the caller's pipes open.
/// The key travels as raw bytes on the agent's stdin, never in argv or the environment; the
/// vault's path follows it there (for `diary status`).
enum AgentLauncher {
    /// How long `unlock` waits for the new agent's socket to answer.
    static let readyTimeout: TimeInterval = 10

    static func start(
        key: SecretBytes, generation: UInt32, vaultID: UUID, vaultPath: String,
        idleTimeout: TimeInterval, maximumLifetime: TimeInterval, client: AgentClient
    ) throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw CLIError.system(what: "pipe", errno: errno) }
        let (readEnd, writeEnd) = (fds[0], fds[1])
        // The write end must not leak into the agent, or it would never see end-of-file.
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        var readClosed = false
        defer {
            if !readClosed { close(readEnd) }
            close(writeEnd)
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, readEnd, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // Nothing else of ours (an open database, a test harness's pipe) may leak into a
        // process that lives for hours.
        closeFrom(3, actions: &actions)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(spawnSetSID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for sig in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE] { sigaddset(&defaults, sig) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)

        let executable = try selfExecutable()
        let args =
            [executable, "agent"]
            + arguments(
                generation: generation, vaultID: vaultID, keyBytes: key.count, vaultPath: vaultPath,
                idleTimeout: idleTimeout, maximumLifetime: maximumLifetime)
        var argv: [UnsafeMutablePointer<CChar>?] = args.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, executable, &actions, &attributes, &argv, environ)
        guard rc == 0 else { throw CLIError.system(what: "cannot start the unlock agent", errno: rc) }
        close(readEnd)
        readClosed = true

        // A dead agent would give EPIPE instead of killing us.
        signal(SIGPIPE, SIG_IGN)
        try KeyHandoff.write(key, to: writeEnd)
        try KeyHandoff.write(path: vaultPath, to: writeEnd)
        try waitUntilReady(client: client, vaultID: vaultID, pid: pid)
    }

    /// `diary agent`'s options: what it needs besides the key and the vault's path, which
    /// come on its stdin (`--vault-path-bytes` of it after `--key-bytes` of key).
    private static func arguments(
        generation: UInt32, vaultID: UUID, keyBytes: Int, vaultPath: String, idleTimeout: TimeInterval,
        maximumLifetime: TimeInterval
    ) -> [String] {
        [
            "--vault-id", vaultID.uuidString.lowercased(),
            "--generation", String(generation),
            "--key-bytes", String(keyBytes),
            "--timeout", String(idleTimeout),
            "--max", String(maximumLifetime),
            "--vault-path-bytes", String(min(vaultPath.utf8.count, KeyHandoff.maximumPathBytes)),
        ]
    }

    /// Polls the socket until the agent answers with the right vault, or gives up.
    private static func waitUntilReady(client: AgentClient, vaultID: UUID, pid: pid_t) throws {
        let deadline = Date().addingTimeInterval(readyTimeout)
        while Date() < deadline {
            if let status = try? client.status(), status.vaultID == vaultID { return }
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                throw CLIError.agent("the agent exited during start-up (status \(status))")
            }
            usleep(20_000)
        }
        throw CLIError.agent("the agent did not answer within \(Int(readyTimeout))s")
    }

    /// glibc's `POSIX_SPAWN_SETSID` (2.26+), hidden from Swift behind `_GNU_SOURCE`.
    private static let spawnSetSID: Int32 = 0x80

    /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34+), looked up at run time because
    /// the Glibc module does not export it; without it the descriptors we opened are CLOEXEC anyway.
    private static func closeFrom(_ fd: Int32, actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        else { return }
        _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, fd)
    }

    /// The path of the running `diary` binary, so the agent is the same build.
    private static func selfExecutable() throws -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { throw CLIError.system(what: "cannot find the diary executable", errno: errno) }
        return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
