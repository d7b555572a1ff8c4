import ArgumentParser
import DiaryVault
import DiaryStore
import Foundation

/// `diary restore`: a backup into a new vault directory.
struct Restore: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Restore a backup into a new vault.",
        discussion: """
            Asks for the backup's passphrase (or reads --passphrase-file), authenticates every \
            object, and writes a new vault at --to: a new or empty directory, never one that \
            already holds a vault or anything else. --store converts to the other store shape on the way.

            EXAMPLE
              diary restore diary-backup-20240222-150000.diarybak --to ~/diary-restored
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The backup file.", completion: .file(extensions: ["diarybak"]))
    var backup: String

    @Option(help: ArgumentHelp("The new vault directory.", valueName: "path"), completion: .directory)
    var to: String

    @Option(help: "Store shape of the restored vault (default: as in the backup).")
    var store: StoreKind?

    func run() throws {
        let target = URL(fileURLWithPath: (to as NSString).expandingTildeInPath, isDirectory: true).standardizedFileURL
        let source = URL(fileURLWithPath: backup).standardizedFileURL
        // Refuse before asking for the passphrase.
        if FileManager.default.fileExists(atPath: target.path) {
            if (try? Vault.inspect(at: target)) != nil { throw VaultError.alreadyExists(path: target.path) }
            let contents = (try? FileManager.default.contentsOfDirectory(atPath: target.path)) ?? ["?"]
            // An empty directory is allowed: nothing can be lost.
            if !contents.isEmpty { throw CLIError.notEmpty(path: target.path) }
        }
        let passphrase = try VaultAccess(options: global, directoryOverride: target)
            .currentPassphrase(prompt: "Passphrase for \(source.path): ")
        let vault = try Vault.restore(backup: source, to: target, passphrase: passphrase, store: store)
        EntrySetWatch.created(vault)
        let count = vault.entryCount
        Output.note("restored \(count) entr\(count == 1 ? "y" : "ies") into \(target.path)")
    }
}
