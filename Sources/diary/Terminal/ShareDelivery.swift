import DiaryApp
import DiaryCrypto
import DiaryVault
import Foundation

/// Why shares could not be written or shown; nothing was set in the vault.
struct ShareOutputError: Error {
    enum Reason {
        case notEmpty
        case notADirectory
        case system(what: String, errno: Int32)
        case noTerminal
    }
    let path: String
    let reason: Reason

    var report: ErrorReport {
        switch reason {
        case .notEmpty:
            return ErrorReport(
                message: "\(path) exists and is not empty; shares are written only into a new or empty directory",
                hint: nil, code: .alreadyExists)
        case .notADirectory:
            return ErrorReport(message: "\(path) exists and is not a directory", hint: nil, code: .alreadyExists)
        case .system(let what, let code):
            return ErrorReport(
                message: "cannot \(what) \(path): \(String(cString: strerror(code))); no recovery key was set",
                hint: nil, code: .failure)
        case .noTerminal:
            return ErrorReport(
                message: "there is no terminal to show the shares on; nothing was changed",
                hint: "write them into a new directory with --output DIR", code: .usage)
        }
    }
}

/// `--output DIR`: one file per share, `share-<x>-of-<N>.txt` (0600, never over an existing
/// file), in a directory only its owner can enter. Until the key is set (`keep()`), an
/// interrupted run removes what it wrote.
struct ShareFolder {
    let path: String
    let url: URL
    /// True when this run made the directory (so a failure removes it).
    let made: Bool

    /// Claims DIR before anything is asked or made: a new directory (0700), or an empty one
    /// (then made 0700). Anything else is refused.
    static func prepare(_ path: String) throws -> ShareFolder {
        let url = URL(fileURLWithPath: path)
        // Interrupted before the key is set, the shares would rebuild nothing: they go.
        SignalCleanup.install()
        if mkdir(path, 0o700) == 0 {
            SignalCleanup.rememberCreated(path)
            return ShareFolder(path: path, url: url, made: true)
        }
        guard errno == EEXIST else { throw ShareOutputError(path: path, reason: .system(what: "create", errno: errno)) }
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw ShareOutputError(path: path, reason: .notADirectory)
        }
        let contents: [String]
        do {
            contents = try FileManager.default.contentsOfDirectory(atPath: path)
        } catch {
            throw ShareOutputError(path: path, reason: .system(what: "read", errno: EACCES))
        }
        guard contents.isEmpty else { throw ShareOutputError(path: path, reason: .notEmpty) }
        guard chmod(path, 0o700) == 0 else {
            throw ShareOutputError(path: path, reason: .system(what: "restrict", errno: errno))
        }
        return ShareFolder(path: path, url: url, made: false)
    }

    /// Writes every share (O_EXCL, 0600, synced), then syncs the directory. On failure the
    /// files written so far are removed, and the directory if this run made it.
    func write(_ shares: [RecoveryShare], created: Date) throws -> [String] {
        var written: [String] = []
        do {
            for share in shares {
                let name = RecoveryShareFile.fileName(for: share)
                try writeNew(name, contents: RecoveryShareFile.contents(of: share, created: created))
                written.append(name)
            }
            let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if fd >= 0 {
                _ = fsync(fd)
                close(fd)
            }
            return written
        } catch {
            removeWritten(written)
            throw error
        }
    }

    /// False when group or others can read the directory or a share written in it, as on a
    /// filesystem that keeps no modes (FAT, exFAT), whatever was asked for.
    func keepsPermissions(_ written: [String]) -> Bool {
        ([path] + written.map { url.appendingPathComponent($0).path }).allSatisfy { file in
            var info = stat()
            return stat(file, &info) == 0 && info.st_mode & 0o077 == 0
        }
    }

    /// The key is set: what was written stays.
    func keep() { SignalCleanup.forgetCreated() }

    /// Removes what `write` wrote (the shares of a key that was not set).
    func removeWritten(_ names: [String]) {
        for name in names { unlink(url.appendingPathComponent(name).path) }
        if made { rmdir(path) }
    }

    private func writeNew(_ name: String, contents: String) throws {
        let file = url.appendingPathComponent(name).path
        let fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw ShareOutputError(path: file, reason: .system(what: "create", errno: errno)) }
        SignalCleanup.rememberCreated(file)
        defer { close(fd) }
        var bytes = Array(contents.utf8)
        defer { secureZero(&bytes) }
        if let code = bytes.withUnsafeBytes({ DescriptorWrite.all($0, to: fd) }) {
            throw ShareOutputError(path: file, reason: .system(what: "write", errno: code))
        }
        guard fsync(fd) == 0 else { throw ShareOutputError(path: file, reason: .system(what: "write", errno: errno)) }
    }
}

/// Without `--output`: the shares one at a time on the terminal, never on stdout. Enter clears
/// the screen (and its scrollback) and shows the next, so no two shares are on screen together.
struct ShareScreen {
    let tty: TTY

    static func open() throws -> ShareScreen {
        guard let tty = TTY.open() else { throw ShareOutputError(path: "/dev/tty", reason: .noTerminal) }
        return ShareScreen(tty: tty)
    }

    func show(_ shares: [RecoveryShare], created: Date) {
        SignalCleanup.rememberScreen(fd: tty.fd)
        defer { SignalCleanup.forgetScreen() }
        for share in shares {
            clear()
            tty.write(
                """
                Recovery share \(share.x) of \(share.count) (any \(share.threshold) rebuild the recovery key)
                vault \(share.vaultID.uuidString.lowercased()), share set \(share.shareSetHex)

                  \(share.text)

                Write it down or print it for one person; nobody should hold \(share.threshold) shares alone.

                """)
            let last = share.x == share.count
            tty.write(
                last ? "Press Enter to clear the screen. " : "Press Enter to clear the screen and show the next share. "
            )
            _ = tty.readLine()
        }
        clear()
    }

    /// Clears the screen and the scrollback (ESC [3J), and homes the cursor.
    private func clear() { Output.write("\u{1B}[H\u{1B}[2J\u{1B}[3J", to: tty.fd) }
}
