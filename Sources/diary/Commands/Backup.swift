import ArgumentParser
import DiaryApp
import DiaryVault
import Foundation

/// `diary backup`: one ciphertext-only file, written without the key.
struct Backup: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Write a backup of the vault to one file.",
        usage: "diary backup [<options>] [<path>]",
        discussion: """
            The file holds ciphertext only (it opens with the passphrase current at backup \
            time), so it can go anywhere, trusted or not. No key is needed: a locked vault is \
            backed up without a passphrase, an agent or a terminal. Default name: \
            diary-backup-YYYYMMDD-HHMMSS.diarybak in the current directory. An existing file is \
            never overwritten: the backup is written to a temporary file beside it \
            (.diary-backup-PID-…, removed if interrupted) and takes its name only when complete. Prints the file's path on stdout. Attachments are copied as \
            stored, every object the vault holds (without the key, a backup cannot tell which \
            ones no entry references; a restore leaves those out). While the vault is unlocked, \
            attachments it references but does not hold (pending sync, or lost) are counted in \
            a warning: they cannot be in the backup.

            Every object copied is checked for structure. A damaged header is refused (no \
            backup without it could ever be opened); any other damaged object is copied as it \
            is and named on stderr, and the exit status is 65: the backup is kept, and \
            `diary restore --salvage` leaves the damage out.

            EXAMPLES
              diary backup /media/usb/diary.diarybak
              diary backup && diary verify diary-backup-*.diarybak
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Where to write the backup.", completion: .file(extensions: ["diarybak"]))
    var path: String?

    func run() throws {
        let session = global.session()
        let sealed = try SealedVault(at: session.directory)
        session.checkSettings(sealed.info)
        let file = URL(fileURLWithPath: path ?? Backup.defaultName()).standardizedFileURL
        let progress = Progress("backing up")
        defer { progress.finish() }
        for left in Self.removeAbandoned(beside: file) {
            Output.note("removed \(Printable.escaped(left)), left by a backup that was killed")
        }
        SignalCleanup.install()
        let damage = try sealed.backup(to: file, progress: progress.update, tracking: SignalCleanup.rememberPartialFile)
        progress.finish()
        Output.data(file.path)
        // Without the key a backup cannot tell; with the agent's, it says what the vault lacks.
        if let absent = session.absentAttachmentsIfUnlocked(sealed), absent > 0 {
            Output.warning(
                "\(absent) attachment\(absent == 1 ? " is" : "s are") not in the vault (pending sync or lost), "
                    + "so not in the backup; `diary sync` fetches pending ones")
        }
        for found in damage { Output.warning("damaged, copied as found: \(found.description)") }
        if !damage.isEmpty { throw CLIError.backedUpDamage(count: damage.count) }
    }

    /// Removes the temporary files (`.diary-backup-PID-…`, ours, regular) that backups
    /// killed before they finished left in `file`'s directory: those whose process is gone.
    static func removeAbandoned(beside file: URL) -> [String] {
        let directory = file.deletingLastPathComponent().path
        let prefix = ".diary-backup-"
        var removed: [String] = []
        for name in ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
        where name.hasPrefix(prefix) {
            let fields = name.dropFirst(prefix.count).split(separator: "-")
            guard fields.count == 2, let pid = pid_t(fields[0]), pid > 0, kill(pid, 0) != 0, errno == ESRCH
            else { continue }
            let path = "\(directory)/\(name)"
            var st = stat()
            guard lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG, st.st_uid == getuid() else { continue }
            if unlink(path) == 0 { removed.append(path) }
        }
        return removed
    }

    /// `diary-backup-20240222-150000.diarybak`, in local time.
    static func defaultName(now: Date = Date()) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone.current
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return "diary-backup-\(formatter.string(from: now)).diarybak"
    }
}
