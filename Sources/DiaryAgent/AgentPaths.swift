import Foundation
import Glibc

/// Where the agent's socket lives, and the checks that make that place private.
///
/// The socket sits in a per-user directory: `$XDG_RUNTIME_DIR/diary` (a memory file system the
/// login manager creates 0700 for us), else `/tmp/diary-<uid>` (`agentDirectories` lists every
/// place one may be). `/tmp` is shared with every user, so another user could create
/// `/tmp/diary-<uid>` first and wait for our socket (and, through a `set`, our key); that is why
/// an existing directory must be ours, not a symlink, and closed to group and world, or we
/// refuse to use it.
public enum AgentPaths {
    /// The private runtime directory for this user, reading `XDG_RUNTIME_DIR` from `environment`.
    public static func runtimeDirectory(environment: [String: String]) throws -> URL {
        if let xdg = environment["XDG_RUNTIME_DIR"], xdg.hasPrefix("/"), isDirectory(xdg) {
            let directory = URL(fileURLWithPath: xdg, isDirectory: true)
                .appendingPathComponent("diary", isDirectory: true)
            try ensurePrivateDirectory(directory)
            return directory
        }
        let directory = fallbackDirectories(environment: environment).last!
        try ensurePrivateDirectory(directory)
        return directory
    }

    /// Every directory an agent of this user may listen in, `runtimeDirectory`'s choice for
    /// `environment` first; none is created or checked here.
    ///
    /// An agent lives where the environment of the `diary unlock` that started it pointed:
    /// `$XDG_RUNTIME_DIR/diary` of a login session (`/run/user/<uid>/diary` as systemd sets
    /// it), or `/tmp/diary-<uid>` in a shell without `XDG_RUNTIME_DIR` (cron, `su`, an ssh
    /// command). `status` and `lock` look in all of them, or a vault unlocked from such a shell
    /// would stay unlocked unseen.
    ///
    /// `DIARY_TEST_FALLBACK_RUNTIME_DIR=DIR` (TEST ONLY) stands for both fallbacks, so a test
    /// suite never sees, nor locks, the agents of the user who runs it.
    public static func agentDirectories(environment: [String: String]) -> [URL] {
        var directories: [URL] = []
        if let xdg = environment["XDG_RUNTIME_DIR"], xdg.hasPrefix("/"), isDirectory(xdg) {
            directories.append(URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("diary"))
        }
        return directories + fallbackDirectories(environment: environment)
    }

    /// `runtimeDirectory` (created if missing, and checked), then the other `agentDirectories`:
    /// where `status` and `lock` look, this shell's first.
    public static func searchDirectories(environment: [String: String]) throws -> [URL] {
        let here = try runtimeDirectory(environment: environment)
        return [here] + agentDirectories(environment: environment).filter { $0.path != here.path }
    }

    /// Where an agent started without `XDG_RUNTIME_DIR` may be, the one it picks last.
    private static func fallbackDirectories(environment: [String: String]) -> [URL] {
        if let test = environment["DIARY_TEST_FALLBACK_RUNTIME_DIR"], test.hasPrefix("/") {
            return [URL(fileURLWithPath: test, isDirectory: true)]
        }
        return [
            URL(fileURLWithPath: "/run/user/\(geteuid())/diary", isDirectory: true),
            URL(fileURLWithPath: "/tmp/diary-\(geteuid())", isDirectory: true),
        ]
    }

    /// The socket of the agent for `vaultID` inside `directory` (which is not checked here).
    public static func socketURL(vaultID: UUID, in directory: URL) -> URL {
        directory.appendingPathComponent("\(vaultIDHex(vaultID)).sock", isDirectory: false)
    }

    /// The vault id as 32 lowercase hex digits, the form used in file names.
    ///
    /// Plain Swift rather than `replacingOccurrences`: every command computes this, and the
    /// NSString bridging that call needs cost about 0.2 ms on first use.
    public static func vaultIDHex(_ vaultID: UUID) -> String {
        String(vaultID.uuidString.lowercased().filter { $0 != "-" })
    }

    /// Creates `directory` with mode 0700 if it does not exist, then checks that it is a real
    /// directory (not a symlink) owned by the effective user, with no group or world access.
    public static func ensurePrivateDirectory(_ directory: URL) throws {
        let path = directory.path
        if mkdir(path, 0o700) != 0, errno != EEXIST {
            throw AgentError.lastSystemError("mkdir \(path)")
        }
        try checkPrivateDirectory(path)
    }

    /// Refuses `path` unless it is a directory, not a symlink, owned by us, mode `0?00`.
    public static func checkPrivateDirectory(_ path: String) throws {
        var info = stat()
        // lstat, not stat: a symlink planted by someone else must not redirect us.
        guard lstat(path, &info) == 0 else { throw AgentError.lastSystemError("lstat \(path)") }
        let kind = info.st_mode & S_IFMT
        if kind == S_IFLNK {
            throw AgentError.insecureDirectory(path: path, reason: "it is a symbolic link")
        }
        guard kind == S_IFDIR else {
            throw AgentError.insecureDirectory(path: path, reason: "it is not a directory")
        }
        guard info.st_uid == geteuid() else {
            throw AgentError.insecureDirectory(
                path: path, reason: "it is owned by uid \(info.st_uid), not \(geteuid())")
        }
        guard info.st_mode & 0o077 == 0 else {
            let mode = String(info.st_mode & 0o777, radix: 8)
            throw AgentError.insecureDirectory(
                path: path, reason: "mode \(mode) lets group or others in (want 700)")
        }
    }

    private static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }
}
