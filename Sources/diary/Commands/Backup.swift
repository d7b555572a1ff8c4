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
            never overwritten. Prints the file's path on stdout. Attachments are copied as \
            stored, every object the vault holds (without the key, a backup cannot tell which \
            ones no entry references; a restore leaves those out).

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
        let damage = try sealed.backup(to: file, progress: progress.update)
        progress.finish()
        Output.data(file.path)
        for found in damage { Output.warning("damaged, copied as found: \(found.description)") }
        if !damage.isEmpty { throw CLIError.backedUpDamage(count: damage.count) }
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
