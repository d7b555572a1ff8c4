import DiaryApp
import DiaryCrypto
import Foundation

/// Runs the user's editor on a text held in a memory-backed temporary file.
///
/// The editor is `$VISUAL`, else `$EDITOR`, else `vi`. The value may carry arguments
/// (`code --wait`, `emacsclient -t`), so it is run as `/bin/sh -c 'exec $EDITOR "$@"' sh FILE`: the
/// shell splits the command the way the user wrote it, and the file name is passed as a
/// separate argument so no quoting of it can go wrong.
enum Editor {
    /// The editor command from the environment.
    static func command(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        for name in ["VISUAL", "EDITOR"] {
            if let value = environment[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty { return value }
        }
        return "vi"
    }

    /// Opens `text` in the editor and returns what the user saved.
    ///
    /// The file is wiped (zeros, fsync, unlink) and its directory removed on every path: after
    /// success, when the editor fails, and when `diary` is interrupted (see `SignalCleanup`).
    /// A trailing newline the editor adds to a text that had none is dropped again, so saving
    /// without changes compares equal.
    ///
    /// `owner` (the vault, and the entry for an edit) is written beside the text so that a
    /// later command can offer to recover it if this process is killed (`InterruptedEdits`).
    static func edit(_ text: String, limit: Int, owner: InterruptedEdits.Owner) throws -> String {
        let directory = try MemoryDirectory.create(prefix: InterruptedEdits.namePrefix())
        SignalCleanup.install()
        SignalCleanup.rememberFile(name: "entry.txt", beside: InterruptedEdits.ownerFile, in: directory)
        defer {
            directory.wipe()
            SignalCleanup.forgetFile()
        }
        _ = try directory.createFile(InterruptedEdits.ownerFile, contents: owner.bytes)
        var bytes = Array(text.utf8)
        let addedNewline = !text.isEmpty && !text.hasSuffix("\n")
        if addedNewline { bytes.append(UInt8(ascii: "\n")) }
        let file = try directory.createFile("entry.txt", contents: bytes)
        secureZero(&bytes)

        let editor = command()
        let status = try run(editor, file: file)
        guard status == 0 else { throw CLIError.editorFailed(command: editor, status: status) }

        var edited = try directory.readFile("entry.txt", limit: limit)
        defer { secureZero(&edited) }
        if edited.last == UInt8(ascii: "\n") && (addedNewline || text.isEmpty) { edited.removeLast() }
        guard let result = String(validating: edited, as: UTF8.self) else {
            throw CLIError.notUTF8(source: "the editor")
        }
        return result
    }

    /// Runs the editor attached to the terminal and waits; returns its exit status (128+signal
    /// when it was killed, as shells report it).
    private static func run(_ editor: String, file: String) throws -> Int32 {
        // `exec` so the pid we wait for (and stop on SIGTERM) is the editor itself, not a shell.
        let args = ["/bin/sh", "-c", "exec \(editor)\(privacyFlags(for: editor)) \"$@\"", "sh", file]
        var argv: [UnsafeMutablePointer<CChar>?] = args.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, "/bin/sh", nil, nil, &argv, environ)
        guard rc == 0 else { throw CLIError.system(what: "cannot start the editor '\(editor)'", errno: rc) }
        SignalCleanup.rememberChild(pid)
        defer { SignalCleanup.forgetChild() }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw CLIError.system(what: "waiting for the editor", errno: errno) }
        }
        let signalled = status & 0x7f
        return signalled == 0 ? (status >> 8) & 0xff : 128 + signalled
    }

    /// Flags that keep Vim and Neovim from copying the text to disk on their own: a swap file
    /// (`-n`), the viminfo/shada history (`-i NONE`), undo and backup files. Vim may be set up
    /// to keep those in a directory on disk, outside the memory directory `diary` wipes. Other
    /// editors get nothing added; see SECURITY.md.
    static func privacyFlags(for editor: String) -> String {
        let program = editor.split(separator: " ").first.map { String($0.split(separator: "/").last ?? "") } ?? ""
        guard ["vim", "nvim", "gvim", "vim.basic", "vim.tiny"].contains(program) else { return "" }
        return " -n -i NONE --cmd 'set noundofile nobackup nowritebackup'"
    }
}
