import DiaryApp
import Foundation

/// Errors raised by the command line itself (not by the vault or the agent).
///
/// Messages are lowercase, name paths and ids, and never contain entry text or key material.
enum CLIError: Error, Equatable, CustomStringConvertible {
    /// No agent holds the key, no passphrase file was given and there is no terminal to ask on.
    case locked(vault: String)
    /// The agent holds the key but every connection slot stayed taken, and there is no
    /// passphrase file or terminal to fall back on.
    case agentBusy(vault: String)
    /// The agent holds the key, but a key rotation was interrupted, and there is no passphrase
    /// file or terminal to open the vault with every key generation.
    case lockedMidRotation(vault: String)
    /// A new passphrase is needed and there is neither a file nor a terminal.
    case noTerminalForNewPassphrase
    /// The passphrase file could not be read, or its first line is empty.
    case passphraseFile(path: String, detail: String)
    /// The two passphrases typed at `init`/`passwd` differ.
    case passphraseMismatch
    /// An empty passphrase was typed.
    case emptyPassphrase
    /// The new passphrase failed the strength check and `--allow-weak-passphrase` was not given.
    case weakPassphrase(reason: String)
    /// A command needs a terminal for a question and has none.
    case confirmationNeeded(what: String)
    /// The user answered no.
    case declined
    /// Text read from stdin or the editor is not valid UTF-8.
    case notUTF8(source: String)
    /// Text read from stdin or the editor is larger than the limit.
    case tooLarge(bytes: Int, limit: Int)
    /// The text is empty after trimming: nothing is stored.
    case emptyText
    /// A template's prompt line (`line`, counted from 1 in the whole text) could not be
    /// remembered: over `limit` bytes, or holding a control character.
    case invalidPrompt(line: Int, limit: Int)
    /// The editor exited with a failure status or was killed.
    case editorFailed(command: String, status: Int32)
    /// The editor's file was replaced by a link or a special file.
    case notRegularFile(path: String)
    /// No memory file system for the editor's temporary file.
    case noMemoryFileSystem
    /// A system call failed.
    case system(what: String, errno: Int32)
    /// The unlock agent could not be started or reached.
    case agent(String)
    /// `lock --all` could not tell `failed` of `of` agents to lock, or left `unresponsive`
    /// sockets alone (each was named in a warning).
    case notAllLocked(failed: Int, of: Int, unresponsive: Int)
    /// `verify` found damage (the report was already printed).
    case damageFound(count: Int, reindexRepairs: Bool)
    /// Entries this machine saw are gone, or older copies were put back (already listed).
    case entriesLost(vault: String)
    /// `verify BACKUP` found damage; `restore --salvage` can recover what is intact.
    /// `count` damaged objects; `fileDamaged`: the file's own framing or checksum too.
    case backupDamageFound(count: Int, fileDamaged: Bool, salvageable: Bool)
    /// `backup` wrote the file, but the vault had damaged objects, copied as they are.
    case backedUpDamage(count: Int)
    /// `restore --salvage` wrote the vault without the objects it listed.
    case salvagedWithLoss(lost: Int, restored: Int, path: String)
    /// `restore` target that exists, is not a vault, and is not empty.
    case notEmpty(path: String)
    /// No passphrase given opened this backup.
    case wrongBackupPassphrase(path: String)
    /// `init` in a place that holds something other than a vault: the first few `names` in
    /// it (none when the place is a file), and how many more.
    case initOccupied(path: String, names: [String], more: Int)
    /// `show` or `edit` without an id, and the vault has no entry to default to.
    case noEntries
    /// `resolve --edit`: the text saved still has the conflict markers.
    case conflictMarkersLeft
    /// `sync init` or `sync join --invite` with text that is not an invite code (`mistyped`: it
    /// has a code's shape, but its check character does not match).
    case badInviteCode(mistyped: Bool)
    /// `sync init --folder` or `sync join --folder` naming a folder that does not exist.
    case noSuchFolder(path: String, joining: Bool)

    var description: String {
        switch self {
        case .locked(let vault): return "the vault is locked: \(vault)"
        case .agentBusy(let vault):
            return "the unlock agent is busy and did not hand over the key: \(vault)"
        case .lockedMidRotation(let vault):
            return
                "a key rotation was interrupted, and the unlocked session's key alone does not open the vault: \(vault)"
        case .noTerminalForNewPassphrase: return "a new passphrase is needed, and there is no terminal to ask on"
        case .passphraseFile(let path, let detail): return "cannot use passphrase file \(path): \(detail)"
        case .passphraseMismatch: return "the passphrases do not match; nothing was changed"
        case .emptyPassphrase: return "the passphrase is empty; nothing was changed"
        case .weakPassphrase(let reason): return "the new passphrase is weak: \(reason); nothing was changed"
        case .confirmationNeeded(let what): return "\(what) needs confirmation, and there is no terminal to ask on"
        case .declined: return "cancelled; nothing was changed"
        case .notUTF8(let source): return "the text from \(source) is not valid UTF-8; nothing was stored"
        case .tooLarge(let bytes, let limit):
            return "the text is \(bytes) bytes, more than the limit of \(limit) bytes; nothing was stored"
        case .emptyText: return "the text is empty; nothing was stored"
        case .invalidPrompt(let line, let limit):
            return "line \(line): a prompt is longer than \(limit) bytes or holds a control character"
        case .editorFailed(let command, let status):
            return "the editor '\(command)' failed (status \(status)); nothing was changed"
        case .notRegularFile(let path):
            return
                "\(path) is not a regular file in diary's private directory (a link or a special file); refusing to read it; nothing was changed"
        case .noMemoryFileSystem:
            return "no memory file system for the editor's temporary file; refusing to write text to disk"
        case .system(let what, let code): return "\(what): \(String(cString: strerror(code)))"
        case .agent(let detail): return "unlock agent: \(detail)"
        case .notAllLocked(let failed, let total, let unresponsive):
            let vaults = failed == 0 ? nil : "\(failed) of \(total) vault\(total == 1 ? "" : "s") may still be unlocked"
            let sockets =
                unresponsive == 0
                ? nil
                : "\(unresponsive) unresponsive socket\(unresponsive == 1 ? " was" : "s were") left alone (a stopped agent would still hold its key)"
            return "not everything is locked: " + [vaults, sockets].compactMap { $0 }.joined(separator: "; ")
        case .entriesLost(let vault): return "refusing to use \(vault) until the loss is accepted or repaired"
        case .damageFound(let count, _): return "damage found in \(count) object\(count == 1 ? "" : "s")"
        case .backupDamageFound(let count, let fileDamaged, _):
            guard count > 0 else { return "the backup file is damaged (see above)" }
            let objects = "damage found in \(count) object\(count == 1 ? "" : "s") of the backup"
            return fileDamaged ? objects + ", and in the file itself" : objects
        case .backedUpDamage(let count):
            return
                "the backup was written, but \(count) damaged object\(count == 1 ? " was" : "s were") copied as found"
        case .salvagedWithLoss(let lost, let restored, let path):
            return
                "restored \(restored) entr\(restored == 1 ? "y" : "ies") into \(path); \(lost) object\(lost == 1 ? " was" : "s were") lost (listed above)"
        case .notEmpty(let path):
            return "\(path) exists and is not empty; restore writes only into a new or empty directory"
        case .wrongBackupPassphrase(let path): return "wrong passphrase for the backup \(path)"
        case .initOccupied(let path, let names, let more):
            guard !names.isEmpty else { return "cannot create a vault at \(path): it is a file, not a directory" }
            let listed = names.map { "'\($0)'" }.joined(separator: ", ") + (more > 0 ? " and \(more) more" : "")
            return "cannot create a vault in \(path): it holds other files (\(listed))"
        case .noEntries: return "the vault has no entries yet"
        case .conflictMarkersLeft: return "the text still has conflict markers; nothing was changed"
        case .badInviteCode(mistyped: true):
            return "that invite code has a wrong character or two swapped ones; nothing was changed"
        case .badInviteCode(mistyped: false): return "that is not an invite code; nothing was changed"
        case .noSuchFolder(let path, _): return "no such folder: \(path); nothing was changed"
        }
    }

    var hint: String? {
        switch self {
        case .locked: return "run `diary unlock`, or pass --passphrase-file"
        case .agentBusy: return "try again in a moment, or pass --passphrase-file"
        case .lockedMidRotation:
            return "run `diary rekey` on a terminal to finish the rotation, or pass --passphrase-file"
        case .weakPassphrase:
            return
                "choose a longer one (four or more random words, or 12 or more mixed characters), or pass --allow-weak-passphrase to use it anyway"
        case .noTerminalForNewPassphrase: return "pass --new-passphrase-file"
        case .confirmationNeeded: return "pass --yes to confirm without a terminal"
        case .noMemoryFileSystem:
            return "set XDG_RUNTIME_DIR to a tmpfs directory, or pass the text as an argument or on stdin"
        case .emptyText: return "write something, or leave it: an empty entry is never saved"
        case .noEntries: return "write one with `diary new`"
        case .notAllLocked: return "the warnings above name each one; `diary status` shows what is still unlocked"
        case .wrongBackupPassphrase:
            return "a backup opens with the passphrase in force when it was made: "
                + "after `diary passwd`, the one before (while the vault is unlocked, one made since "
                + "its last rekey needs none)"
        case .initOccupied:
            return "`diary init` needs a new or empty directory: move those files away, or choose another "
                + "place with --vault DIR"
        case .entriesLost:
            return "if you put this copy back on purpose, `diary reindex --accept-older` accepts it; "
                + "otherwise restore the newer copy from a backup (`diary restore`)"
        case .badInviteCode(mistyped: true): return "copy the code again from `diary sync invite`"
        case .badInviteCode(mistyped: false):
            return "`diary sync invite` on a machine that syncs prints one (like K3Q9-…); pass it whole with --invite"
        case .noSuchFolder(_, joining: true):
            return "check the path; a synced folder must have arrived on this machine before it can be joined"
        case .noSuchFolder(_, joining: false):
            return "check the path, or create the folder first (mkdir -p) inside the folder your sync tool shares"
        case .damageFound(_, reindexRepairs: true): return "`diary reindex` rebuilds the index from the entries"
        case .backupDamageFound(_, _, salvageable: true):
            return "`diary restore BACKUP --to DIR --salvage` restores every entry that is intact"
        case .backedUpDamage:
            return "`diary verify` names the damage; `diary restore --salvage` leaves it out of a restore"
        default: return nil
        }
    }

    var exitCode: ExitCode {
        switch self {
        case .locked, .agentBusy, .lockedMidRotation, .noTerminalForNewPassphrase: return .locked
        case .passphraseFile, .passphraseMismatch, .emptyPassphrase, .declined, .editorFailed,
            .notRegularFile, .noMemoryFileSystem, .system, .agent, .notAllLocked, .emptyText, .noEntries:
            return .failure
        case .confirmationNeeded, .conflictMarkersLeft, .badInviteCode: return .usage
        case .noSuchFolder: return .failure
        case .notUTF8, .tooLarge, .weakPassphrase, .invalidPrompt: return .inputRefused
        case .damageFound, .entriesLost, .backupDamageFound, .backedUpDamage, .salvagedWithLoss: return .damaged
        case .notEmpty, .initOccupied: return .alreadyExists
        case .wrongBackupPassphrase: return .wrongPassphrase
        }
    }
}

extension CLIError {
    /// DiaryApp's reasons to stop, worded as the command line always worded them.
    init(_ error: AppError) {
        switch error {
        case .locked(let vault): self = .locked(vault: vault)
        case .agentBusy(let vault): self = .agentBusy(vault: vault)
        case .lockedMidRotation(let vault): self = .lockedMidRotation(vault: vault)
        case .noTerminalForNewPassphrase: self = .noTerminalForNewPassphrase
        case .passphraseFile(let path, let detail): self = .passphraseFile(path: path, detail: detail)
        case .weakPassphrase(let weakness): self = .weakPassphrase(reason: PassphraseWords.weakness(weakness))
        case .entriesLost(let vault): self = .entriesLost(vault: vault)
        case .wrongBackupPassphrase(let path): self = .wrongBackupPassphrase(path: path)
        }
    }
}
