import DiaryApp
import DiaryCrypto
import DiaryVault
import Foundation

/// Editor directories left behind with a text that was not saved, and what to do with them:
/// by a `diary` that was killed (SIGKILL, a crash, the OOM killer) before its cleanup could
/// run, or on purpose by one whose save failed (`Editor`, `TextKept`).
///
/// A directory is named `diary-edit-PID-START-XXXXXX`: the pid of the `diary` that made it and
/// that process's start time (field 22 of `/proc/PID/stat`, clock ticks since boot). A pid is
/// reused; the pair is not, so a directory whose pid now names another process still counts as
/// abandoned, and one whose process still runs is left alone. A small non-secret file `owner`
/// inside names the vault and, for `edit`, the entry being edited, or, for `capture`, the capture
/// device; the file `intent` (as private as the text) says what the command meant to store with
/// it (`EditIntent`).
enum InterruptedEdits {
    static let prefix = "diary-edit-"
    static let ownerFile = "owner"
    static let intentFile = "intent"
    static let entryFile = "entry.txt"

    /// Who an editor directory belongs to: the vault, the entry when it holds an edit, and the
    /// capture device when `capture` made it (only those are `capture`'s to report; the others
    /// are the vault's, for `diary recover`).
    struct Owner: Equatable {
        var vault: UUID
        var entry: UUID?
        var capture: UUID?

        /// `vault UUID`, and `entry UUID` for an edit or `capture UUID` for a capture, one per
        /// line. Ids only, never text.
        var bytes: [UInt8] {
            var text = "vault \(vault.uuidString.lowercased())\n"
            if let entry { text += "entry \(entry.uuidString.lowercased())\n" }
            if let capture { text += "capture \(capture.uuidString.lowercased())\n" }
            return Array(text.utf8)
        }

        init(vault: UUID, entry: UUID?, capture: UUID? = nil) {
            self.vault = vault
            self.entry = entry
            self.capture = capture
        }

        init?(_ bytes: [UInt8]) {
            var vault: UUID?, entry: UUID?, capture: UUID?
            for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
                let fields = line.split(separator: " ")
                guard fields.count == 2, let id = UUID(uuidString: String(fields[1])) else { return nil }
                switch fields[0] {
                case "vault": vault = id
                case "entry": entry = id
                case "capture": capture = id
                default: return nil
                }
            }
            guard let vault else { return nil }
            self.init(vault: vault, entry: entry, capture: capture)
        }
    }

    /// An abandoned editor directory of the vault.
    struct Found {
        let path: String
        let owner: Owner

        /// "a new entry" or "an edit of entry 1b4e28ba", for messages.
        var what: String { owner.entry.map { "an edit of entry \(EntryFormat.shortID($0))" } ?? "a new entry" }
        /// `what` at the start of a sentence.
        var whatCapitalized: String { what.prefix(1).uppercased() + what.dropFirst() }
    }

    /// The name prefix for a new directory of this process: `diary-edit-PID-START-`.
    static func namePrefix() -> String {
        let pid = getpid()
        return "\(prefix)\(pid)-\(processStart(pid) ?? 0)-"
    }

    /// The start time of process `pid` (clock ticks since boot), or nil when no such process runs.
    static func processStart(_ pid: pid_t) -> UInt64? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        // The command name in parentheses may hold spaces; fields after it start at field 3.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 19 ? UInt64(fields[19]) : nil
    }

    /// True when the `diary` that made a directory still runs: same pid, same start time.
    /// Without `/proc` (start time recorded as 0), any process with that pid counts, so a
    /// live edit is never taken for an abandoned one.
    static func isRunning(_ pid: pid_t, startedAt start: UInt64) -> Bool {
        if let now = processStart(pid) { return now == start }
        return start == 0 && (kill(pid, 0) == 0 || errno == EPERM)
    }

    /// The abandoned editor directories of `vault`: named by this scheme, owned by this user,
    /// and made by a process that no longer runs.
    static func find(vault: UUID) -> [Found] {
        // Every command that opens the vault asks, and nearly always nothing is there: the
        // places an edit can be are listed first, and the mount table (`base`) is read only
        // when one of them holds a name of this scheme.
        guard MemoryDirectory.candidates().contains(where: { !MemoryDirectory.names(in: $0, prefixed: prefix).isEmpty })
        else { return [] }
        guard let base = MemoryDirectory.base() else { return [] }
        return MemoryDirectory.names(in: base, prefixed: prefix).sorted().compactMap { name in
            let fields = name.dropFirst(prefix.count).split(separator: "-")
            guard name.hasPrefix(prefix), fields.count == 3, let pid = pid_t(fields[0]), let start = UInt64(fields[1])
            else { return nil }
            if isRunning(pid, startedAt: start) { return nil }
            let path = "\(base)/\(name)"
            var st = stat()
            guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR, st.st_uid == getuid(),
                let directory = try? MemoryDirectory.open(path)
            else { return nil }
            defer { close(directory.fd) }
            guard let bytes = try? directory.readFile(ownerFile, limit: 4096), let owner = Owner(bytes),
                owner.vault == vault
            else { return nil }
            return Found(path: path, owner: owner)
        }
    }

    /// Keeps `text`, which could not be stored, in a new directory of this process for
    /// `recover`, with its owner and intent, as `Editor` keeps an editor's text; returns the
    /// directory. For text from stdin or the arguments: it never touches persistent disk.
    static func keep(_ text: String, owner: Owner, intent: EditIntent) throws -> String {
        let directory = try MemoryDirectory.create(prefix: namePrefix())
        defer { close(directory.fd) }
        do {
            _ = try directory.createFile(ownerFile, contents: owner.bytes)
            var bytes = intent.bytes
            defer { secureZero(&bytes) }
            _ = try directory.createFile(intentFile, contents: bytes)
            // `recover` drops the one newline an editor ends its file with: add it, so the text
            // comes back as it was given.
            var content = [UInt8]()
            content.reserveCapacity(text.utf8.count + 1)
            defer { secureZero(&content) }
            content.append(contentsOf: text.utf8)
            content.append(UInt8(ascii: "\n"))
            _ = try directory.createFile(entryFile, contents: content)
        } catch {
            // Half a directory keeps nothing worth having; the plaintext in it must not stay.
            MemoryDirectory.wipeContents(of: directory.fd)
            rmdir(directory.path)
            throw error
        }
        return directory.path
    }

    /// What `recover` did with one directory.
    typealias Outcome = RecoveredText

    /// Stores the text of `found` in `vault` as the command that left it would have (the edit
    /// it was, or a new entry when it was new or its entry is gone; with its date, tags and
    /// star: `LeftoverText`), then wipes the directory. A text that cannot be stored (not
    /// UTF-8, too large) leaves the directory where it is.
    static func recover(_ found: Found, into vault: Vault) throws -> Outcome {
        let directory = try MemoryDirectory.open(found.path)
        let outcome: Outcome
        do {
            let text = try leftText(directory)
            // An intent this diary cannot read (damaged, or of a newer version) is left out:
            // the text is worth more than its date and tags.
            let intent = (try? directory.readFile(intentFile, limit: 1 << 20)).flatMap(EditIntent.init)
            outcome = try LeftoverText.store(text, editing: found.owner.entry, intent: intent, in: vault)
        } catch {
            close(directory.fd)
            throw error
        }
        directory.wipe()
        return outcome
    }

    /// The text in `directory`, without the newline the editor ends it with; empty when the
    /// editor removed the file.
    private static func leftText(_ directory: MemoryDirectory) throws -> String {
        var bytes: [UInt8]
        do {
            bytes = try directory.readFile(entryFile, limit: Vault.maximumTextBytes)
        } catch CLIError.system(_, let code) where code == ENOENT {
            bytes = []
        }
        if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
        let decoded = String(validating: bytes, as: UTF8.self)
        secureZero(&bytes)
        guard let decoded else { throw CLIError.notUTF8(source: "\(directory.path)/\(entryFile)") }
        return decoded
    }

    /// Called by every command that opens the vault: on a terminal, offers to recover each
    /// abandoned edit now; without one, says what was found and how to recover it. Never
    /// deletes anything without the user's word.
    static func offer(_ vault: Vault) {
        let found = find(vault: vault.id)
        guard !found.isEmpty else { return }
        guard let tty = TTY.open() else {
            for edit in found {
                Output.warning("\(edit.what) was not saved and is kept in \(edit.path) (plaintext, in memory)")
            }
            Output.hint("run `diary recover` to store it in the vault, or `diary recover --discard` to wipe it")
            return
        }
        for edit in found {
            tty.write("\(edit.whatCapitalized) was not saved and is kept in \(Printable.escaped(edit.path)).\n")
            guard tty.confirm("Store it in the vault now and wipe the file?") else {
                Output.hint("it stays there; `diary recover` stores it later, `diary recover --discard` wipes it")
                continue
            }
            do {
                report(try recover(edit, into: vault), from: edit)
            } catch {
                Output.warning(
                    "could not recover \(edit.path): \(ErrorReport(error)?.message ?? "\(error)"); "
                        + "the text is still kept there, and `diary recover` stores it later")
            }
        }
    }

    /// One line on stderr for what `recover` did.
    static func report(_ outcome: Outcome, from found: Found) {
        switch outcome {
        case .added(let id):
            Output.note("recovered \(found.what) from \(found.path) as entry \(EntryFormat.shortID(id))")
        case .updated:
            Output.note("recovered \(found.what) from \(found.path)")
        case .addedBesideChanged(let added, let original):
            let short = EntryFormat.shortID(original)
            Output.note(
                "recovered \(found.what) from \(found.path) as new entry \(EntryFormat.shortID(added)): "
                    + "entry \(short) changed since the edit began, so it was not replaced")
            Output.hint("compare them with `diary show \(short) \(EntryFormat.shortID(added))`")
        case .unchanged:
            Output.note("\(found.path) held \(found.what) with no changes; wiped it")
        case .empty:
            Output.note("\(found.path) held no text; wiped it")
        }
    }
}
