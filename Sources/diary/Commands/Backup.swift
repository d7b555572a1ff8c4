import ArgumentParser
import DiaryVault
import Foundation

/// `diary backup`: one ciphertext-only file.
struct Backup: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Write a backup of the vault to one file.",
        discussion: """
            The file holds ciphertext only (it opens with the passphrase current at backup \
            time), so it can go anywhere, trusted or not. Default name: \
            diary-backup-YYYYMMDD-HHMMSS.diarybak in the current directory. An existing file is \
            never overwritten. Prints the file's path on stdout.

            EXAMPLE
              diary backup /media/usb/diary.diarybak
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Where to write the backup.", completion: .file(extensions: ["diarybak"]))
    var path: String?

    func run() throws {
        let vault = try VaultAccess(options: global).open()
        let file = URL(fileURLWithPath: path ?? Backup.defaultName()).standardizedFileURL
        let progress = Progress("backing up")
        defer { progress.finish() }
        try vault.backup(to: file, progress: progress.update)
        progress.finish()
        Output.data(file.path)
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

