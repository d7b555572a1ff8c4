import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// fzf started for `pick`: its stdin and stdout on pipes, its terminal the one diary has, in
/// diary's process group (so it is in the terminal's foreground group and may read it).
struct FzfChild {
    let pid: pid_t
    /// The write end of fzf's stdin (the lines), and the read end of its stdout (the choice).
    let input: Int32
    let output: Int32
    /// SIGPIPE's handling before fzf, put back after it (see `Pager.Child`).
    private let previousSIGPIPE: sigaction

    /// Starts `arguments` (the program's path first) with `environment`.
    static func start(_ arguments: [String], environment: [String: String]) throws -> FzfChild {
        var toChild: [Int32] = [0, 0]
        var fromChild: [Int32] = [0, 0]
        guard pipe(&toChild) == 0 else { throw CLIError.system(what: "starting fzf", errno: errno) }
        guard pipe(&fromChild) == 0 else {
            let code = errno
            close(toChild[0])
            close(toChild[1])
            throw CLIError.system(what: "starting fzf", errno: code)
        }
        // diary's own ends stay out of fzf (and of the preview commands fzf starts).
        _ = fcntl(toChild[1], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fromChild[0], F_SETFD, FD_CLOEXEC)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], STDIN_FILENO)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], STDOUT_FILENO)
        posix_spawn_file_actions_addclose(&actions, toChild[0])
        posix_spawn_file_actions_addclose(&actions, fromChild[1])
        let env: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer {
            env.forEach { free($0) }
            argv.forEach { free($0) }
        }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, arguments[0], &actions, nil, argv, env)
        close(toChild[0])
        close(fromChild[1])
        guard rc == 0 else {
            close(toChild[1])
            close(fromChild[0])
            throw CLIError.system(what: "cannot start fzf", errno: rc)
        }
        // Ctrl-C typed in fzf is fzf's (it cancels the pick), as it is the editor's.
        SignalCleanup.install()
        SignalCleanup.rememberChild(pid)
        // fzf ends as soon as a line is chosen, maybe before it read them all: the writer's
        // broken pipe must not kill diary.
        var ignore = sigaction()
        ignore.__sigaction_handler.sa_handler = SIG_IGN
        var previous = sigaction()
        sigaction(SIGPIPE, &ignore, &previous)
        return FzfChild(pid: pid, input: toChild[1], output: fromChild[0], previousSIGPIPE: previous)
    }

    /// Waits for fzf to end; its exit status (128+signal when it was killed). Call it after
    /// the writer of the lines is done.
    func wait() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        SignalCleanup.forgetChild()
        var previous = previousSIGPIPE
        sigaction(SIGPIPE, &previous, nil)
        let signalled = status & 0x7f
        return signalled == 0 ? (status >> 8) & 0xff : 128 + signalled
    }
}
