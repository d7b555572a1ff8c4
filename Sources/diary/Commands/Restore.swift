import ArgumentParser
import DiaryAgent
import DiaryApp
import DiaryVault
import Foundation

/// `diary restore`: a backup into a new vault directory.
struct Restore: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Restore a backup into a new vault.",
        usage: "diary restore [<options>] <backup> --to <path>",
        discussion: """
            Asks for the backup's passphrase (or reads --passphrase-file): the one in force when \
            the backup was made (after `diary passwd`, the one before); while the vault is \
            unlocked, a backup made under the key the agent holds needs none. Authenticates every \
            object, and writes a new vault at --to: a new or empty directory, never one that \
            already holds a vault or anything else. --store converts to the other store shape on the way. \
            A restore is your own choice: this machine's record of the path starts afresh from \
            it, so restoring again into a path used before (after removing it) is not refused as \
            a rollback. Restored where the same vault syncs on this machine, its next sync fetches back what the \
            backup lacks and publishes the backup's older copies beside the newer versions, never \
            over them. An unlock agent still running for that path with another key (a backup \
            from before a `rekey`) is ended, and said so: unlock again.

            A damaged backup is refused (exit status 65) unless --salvage is given. Then every \
            entry whose record is intact is restored, the index is rebuilt from them, and \
            everything lost is listed on stderr (entry ids, index pages, unreadable records by \
            byte offset); the exit status is 65 when anything was lost. An entry the backup's \
            own index shows to be another copy than the one it records (an older copy put \
            back) is left out and listed. A damaged or missing attachment costs only itself: its \
            entry is restored and the attachment is listed as lost by entry id and name. The \
            header must be intact: without it nothing can be salvaged. An attachment the vault \
            did not hold when it was backed up (not fetched by sync yet) is not damage: its entry \
            is restored without it, and it is named on stderr.

            EXAMPLES
              diary restore diary-backup-20240222-150000.diarybak --to ~/diary-restored
              diary restore damaged.diarybak --to ~/diary-salvaged --salvage
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The backup file.", completion: .file(extensions: ["diarybak"]))
    var backup: String

    @Option(help: ArgumentHelp("The new vault directory.", valueName: "path"), completion: .directory)
    var to: String

    @Option(help: "Store shape of the restored vault (default: as in the backup).")
    var store: StoreKind?

    @Flag(help: "Restore every intact entry of a damaged backup and list what was lost.")
    var salvage = false

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
        let session = global.session(directory: target)
        guard salvage else {
            let report = try session.withBackupKey(source) {
                try Vault.restoreReporting(backup: source, to: target, key: $0, store: store)
            }
            let vault = report.vault
            try session.restored(vault)
            Self.noteAbsent(report.absent)
            Self.lockStaleAgent(of: vault, session: session)
            Output.note("restored \(try Self.counted(vault)) into \(Printable.escaped(target.path))")
            VaultPlace.sayHowToUse(target, defaultVault: global.vaultURL)
            return
        }
        let report = try session.withBackupKey(source) {
            try Vault.salvage(backup: source, to: target, key: $0, store: store)
        }
        try session.restored(report.vault)
        Self.lockStaleAgent(of: report.vault, session: session)
        Self.noteAbsent(report.absent)
        let count = report.vault.entryCount - (try report.vault.templates().count)
        // What was lost goes to stderr (talk, not data): the restored vault is the result.
        for lost in report.lost { Output.note("lost: \(lost.description)") }
        if !report.lost.isEmpty {
            // The vault is there, with what could be saved: how to reach it matters as much.
            VaultPlace.sayHowToUse(target, defaultVault: global.vaultURL)
            throw CLIError.salvagedWithLoss(lost: report.lost.count, restored: count, path: target.path)
        }
        if !report.damage.isEmpty {
            for found in report.damage { Output.warning("damaged, nothing lost: \(found.description)") }
        }
        Output.note("restored \(try Self.counted(report.vault)) into \(Printable.escaped(target.path))")
        VaultPlace.sayHowToUse(target, defaultVault: global.vaultURL)
    }

    /// Names the attachments the backup did not hold (the vault lacked them: pending sync, or
    /// lost): their entries are restored without them.
    private static func noteAbsent(_ absent: [Damage]) {
        guard !absent.isEmpty else { return }
        let count = absent.count
        Output.warning(
            "\(count) attachment\(count == 1 ? " was" : "s were") not in the vault when it was backed up "
                + "(pending sync or lost); restored without \(count == 1 ? "it" : "them"):")
        for item in absent { Output.talk("  \(Printable.escaped(item.description))") }
    }

    /// What a restored vault holds, entries and templates apart.
    private static func counted(_ vault: Vault) throws -> String {
        let (templates, devices) = (try vault.templates().count, try vault.captureDevices().count)
        return EntryCountWords.describe(
            entries: vault.entryCount - templates - devices, templates: templates, captureDevices: devices)
    }

    /// Ends the unlock agent still running for the path restored into when its key is not the
    /// restored vault's (a backup from before a `rekey`, or another vault that was there):
    /// `status` would go on saying "unlocked" and every command would try that key first and
    /// warn that it does not open the index. The vault it held the key of is gone from there
    /// (a restore writes only into an empty place). Best effort: nothing here undoes the restore.
    static func lockStaleAgent(of vault: Vault, session: DiarySession) {
        guard let directories = try? AgentPaths.searchDirectories(environment: session.environment.variables),
            let listing = try? AgentDirectory.list(in: directories)
        else { return }
        let target = vault.directory.standardizedFileURL.path
        for agent in listing.running
        where agent.status.vaultPath.map({ URL(fileURLWithPath: $0).standardizedFileURL.path }) == target
            && (agent.vaultID != vault.id || agent.status.generation != vault.keyGeneration)
        {
            let client = AgentClient(socketURL: agent.socketURL)
            let path = Printable.escaped(target)
            if (try? client.lock()) != nil {
                Output.note(
                    "locked \(path): its unlock agent held the key of the vault that was there before the restore")
            } else {
                Output.warning("could not lock the unlock agent of \(path); run `diary lock --all`")
            }
        }
    }
}
