import DiaryApp
import DiaryCrypto
import Foundation

/// Runs the user's editor on a text held in a memory-backed temporary file.
///
/// The editor is `$DIARY_EDITOR`, else the config's `editor`, else `$VISUAL`, else `$EDITOR`,
/// else `vi` (`EditorChoice`, git's order). The value may carry arguments
/// (`code --wait`, `emacsclient -t`), so it is run as `/bin/sh -c 'exec $EDITOR "$@"' sh FILE`: the
/// shell splits the command the way the user wrote it, and the file name is passed as a
/// separate argument so no quoting of it can go wrong.
enum Editor {
    /// The editor command from the environment and the config file.
    static func command(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        EditorChoice.command(environment: environment, config: Settings.current)
    }

    /// Opens `text` in the editor and returns what the user saved; the file is wiped before
    /// this returns. For a text that is only a step on the way (`resolve`'s merge).
    static func edit(_ text: String, limit: Int, owner: InterruptedEdits.Owner) throws -> String {
        try edit(text, limit: limit, owner: owner, intent: nil) { $0 }
    }

    /// Opens `text` in the editor, then hands what the user saved to `store`.
    ///
    /// The file is wiped (zeros, fsync, unlink) and its directory removed when `store` returns,
    /// when the editor fails (an abort), and when `diary` is interrupted (see `SignalCleanup`). A trailing newline the editor adds to a text that had none is dropped
    /// again, so saving without changes compares equal.
    ///
    /// `owner` (the vault, and the entry for an edit) is written beside the text, and `intent`
    /// (what the command means to store with it) too, so that a later `diary recover` can store
    /// a text left there as the command would have. A text is left there when this process is
    /// killed (`InterruptedEdits`), and when the editor succeeded but the text cannot be stored
    /// for any reason (`store` throws: a full disk, say; the text is not UTF-8 or too large)
    /// while it holds writing the user would lose: then `TextKept` carries the reason and the
    /// directory.
    static func edit<Stored>(
        _ text: String, limit: Int, owner: InterruptedEdits.Owner, intent: EditIntent?,
        store: (String) throws -> Stored
    ) throws -> Stored {
        let directory = try MemoryDirectory.create(prefix: InterruptedEdits.namePrefix())
        SignalCleanup.install()
        SignalCleanup.rememberFiles(
            [InterruptedEdits.entryFile, InterruptedEdits.intentFile], beside: InterruptedEdits.ownerFile,
            in: directory)
        var kept = false
        defer {
            if kept {
                SignalCleanup.forgetFile()
                close(directory.fd)
            } else {
                directory.wipe()
                SignalCleanup.forgetFile()
            }
        }
        let file = try prepare(directory, text: text, owner: owner, intent: intent)
        let editor = command()
        let status = try run(editor, file: file, flags: privacyFlags(for: editor), what: "the editor")
        // A failing editor is an abort (vim's `:cq`, which git takes so too), not a failed save:
        // the file is wiped like any other, and the command fails.
        guard status == 0 else { throw CLIError.editorFailed(command: editor, status: status) }
        let saved = Result {
            try readBack(directory, limit: limit, dropNewline: text.isEmpty || !text.hasSuffix("\n"))
        }
        do {
            return try store(try saved.get())
        } catch {
            kept = worthKeeping(saved, startedFrom: text)
            throw kept ? TextKept(error: error, path: directory.path) : error
        }
    }

    /// Writes the owner, the intent and the text (ending in a newline, as editors like) into
    /// `directory`; returns the text file's path.
    private static func prepare(
        _ directory: MemoryDirectory, text: String, owner: InterruptedEdits.Owner, intent: EditIntent?
    ) throws -> String {
        _ = try directory.createFile(InterruptedEdits.ownerFile, contents: owner.bytes)
        if let intent {
            var bytes = intent.bytes
            defer { secureZero(&bytes) }
            _ = try directory.createFile(InterruptedEdits.intentFile, contents: bytes)
        }
        var bytes = Array(text.utf8)
        defer { secureZero(&bytes) }
        if !text.isEmpty && !text.hasSuffix("\n") { bytes.append(UInt8(ascii: "\n")) }
        return try directory.createFile(InterruptedEdits.entryFile, contents: bytes)
    }

    /// The text the editor saved; with `dropNewline`, without the newline it ended with.
    private static func readBack(_ directory: MemoryDirectory, limit: Int, dropNewline: Bool) throws -> String {
        var edited = try directory.readFile(InterruptedEdits.entryFile, limit: limit)
        defer { secureZero(&edited) }
        if dropNewline && edited.last == UInt8(ascii: "\n") { edited.removeLast() }
        guard let result = String(validating: edited, as: UTF8.self) else {
            throw CLIError.notUTF8(source: "the editor")
        }
        return result
    }

    /// Whether a text that could not be stored is worth keeping for `diary recover`: one the
    /// user wrote (not blank, not the text the editor started from), or bytes that do not read
    /// as a text (not UTF-8, too large), left for the user to rescue. An empty or unchanged
    /// text loses nothing, and a file replaced by a link or a special file is never kept.
    static func worthKeeping(_ saved: Result<String, Error>, startedFrom original: String) -> Bool {
        switch saved {
        case .success(let text): return !EntryText.isBlank(text) && text != original
        case .failure(CLIError.notUTF8), .failure(CLIError.tooLarge): return true
        case .failure: return false
        }
    }

    /// Runs `editor` (a command line the shell splits, as $EDITOR is) on `file`, attached to
    /// the terminal (its stdin too, when ours is not one), and waits; returns its exit status
    /// (128+signal when it was killed, as shells report it). `open` runs its viewer so too.
    static func run(_ editor: String, file: String, flags: String = "", what: String) throws -> Int32 {
        // `exec` so the pid we wait for (and stop on SIGTERM) is the editor itself, not a shell.
        let args = ["/bin/sh", "-c", "exec \(editor)\(flags) \"$@\"", "sh", file]
        var argv: [UnsafeMutablePointer<CChar>?] = args.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        // Piped stdin (`echo x | diary new --template t`) would reach the editor as keystrokes
        // (vim runs them): the editor reads the terminal instead, when there is one.
        let terminal = TTY.stdinIsTerminal ? nil : TTY.open()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let terminal { posix_spawn_file_actions_adddup2(&actions, terminal.fd, STDIN_FILENO) }
        var pid: pid_t = 0
        let rc = withExtendedLifetime(terminal) { posix_spawn(&pid, "/bin/sh", &actions, nil, &argv, environ) }
        guard rc == 0 else { throw CLIError.system(what: "cannot start \(what) '\(editor)'", errno: rc) }
        SignalCleanup.rememberChild(pid)
        defer { SignalCleanup.forgetChild() }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw CLIError.system(what: "waiting for \(what)", errno: errno) }
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
