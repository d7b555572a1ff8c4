import ArgumentParser
import DiaryApp
import DiaryVault
import Foundation

/// `diary verify`: authenticate everything.
struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check a vault or a backup file for damage.",
        usage: "diary verify [<options>] [<path>]",
        discussion: """
            Decrypts and authenticates every object of the vault (PATH or --vault), or of the \
            backup file PATH (a clean backup is noted in $XDG_STATE_HOME/diary for `diary \
            audit`). A backup opens with the passphrase in force when it was made (after \
            `diary passwd`, the one before); while the vault is unlocked, a backup made under \
            the key the agent holds (since the last rekey) needs no passphrase. Prints one line per \
            damaged object on stdout, naming the entry id, and exits with status 65 when any \
            damage was found. Undamaged entries stay readable. Every attachment is read and \
            authenticated chunk by chunk; a damaged or missing one is named by its entry id and \
            attachment name. Attachment objects no entry references are noted on stderr, not \
            counted as damage (`diary reindex` removes them). On a vault that syncs, an \
            attachment whose object is not fetched yet is noted as pending (`diary sync` fetches \
            it), not damage; in a backup, one the vault did not hold when it was backed up is \
            noted the same way, and `diary restore` restores its entry without it.

            A vault's store is checked too: a SQLite vault must hold exactly diary's tables and \
            indexes (no trigger, view or extra table), a files vault only the files diary \
            writes. In a backup, each record is authenticated on its own: a damaged record is \
            named by its entry id (or, when its framing is damaged, by its byte offset), and \
            `diary restore --salvage` restores the rest.

            EXAMPLES
              diary verify && diary verify ~/backups/diary-backup-20240222-150000.diarybak
              diary verify --passphrase-file ~/.diary-pass backup.diarybak
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "A vault directory or a backup file (default: the vault).", completion: .file())
    var path: String?

    func run() throws {
        let progress = Progress("verifying")
        defer { progress.finish() }
        var report: VerifyReport
        var isBackup = false
        var syncs = false
        var inbox = CaptureInboxCensus()
        var isDirectory: ObjCBool = false
        if let path, FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
            let file = URL(fileURLWithPath: path).standardizedFileURL
            let session = global.session()
            report = try session.withBackupKey(file) { try Vault.verifyBackup(file, key: $0) }
            isBackup = true
            if report.isClean { Self.noteVerifiedBackup(file, stateDirectory: session.stateDirectory) }
        } else {
            let override = path.map { URL(fileURLWithPath: $0, isDirectory: true).standardizedFileURL }
            let session = global.session(directory: override)
            let vault: Vault
            do {
                vault = try session.openVault(entrySet: .report)
            } catch let error as VaultError where error.isRecoveryMismatch {
                // The header does not open against this index: that is the damage found, listed
                // as any other (nothing else can be checked until they agree).
                Output.data(HeaderDoesNotMatchIndex.line)
                throw HeaderDoesNotMatchIndex()
            }
            report = try vault.verify(entrySet: session.entrySet.report(for: vault), progress: progress.update)
            syncs = session.syncs(vault)
            inbox = try CaptureInboxCensus.of(vault.directory)
        }
        progress.finish()
        Self.noteInbox(inbox)
        // An object a vault that does not sync lacks is lost: damage. Otherwise it is pending
        // (sync fetches it), or, in a backup, one the vault did not hold when backed up.
        if !isBackup, !syncs { report.damaged += report.absentAttachments }
        for damage in report.damaged { Output.data(Printable.escaped(damage.description)) }
        if isBackup || syncs { Self.noteAbsent(report.absentAttachments, isBackup: isBackup) }
        if !report.unreferencedAttachments.isEmpty {
            let count = report.unreferencedAttachments.count
            Output.note(
                "\(count) attachment object\(count == 1 ? "" : "s") no entry references (not damage: an attach cut short leaves one)"
                    + (isBackup ? "; a restore leaves them out" : "; `diary reindex` removes them"))
        }
        if isBackup, !report.isClean {
            let headerOpened = report.checkedEntries > 0 && !report.damaged.contains { $0.object == .header }
            let objects = report.damaged.filter { $0.object != .backupFile }.count
            throw CLIError.backupDamageFound(
                count: objects, fileDamaged: objects < report.damaged.count, salvageable: headerOpened)
        }
        guard report.isClean else {
            throw CLIError.damageFound(
                count: report.damaged.count, reindexRepairs: report.damaged.contains(where: \.reindexRepairs))
        }
        let counted = EntryCountWords.describe(
            entries: report.checkedEntries - report.checkedTemplates - report.checkedCaptureDevices,
            templates: report.checkedTemplates, captureDevices: report.checkedCaptureDevices)
        Output.note("ok: \(counted)\(Self.attachmentCount(report)), no damage")
    }

    /// ", 5 attachments (4 stored objects)": attachments by entry and name, and the objects
    /// they share when that differs.
    /// The capture inbox is not the store: what it holds is noted, never counted as damage.
    private static func noteInbox(_ inbox: CaptureInboxCensus) {
        let plural = { (n: Int, word: String) in "\(n) \(word)\(n == 1 ? "" : "s")" }
        if inbox.waiting > 0 { Output.note("\(plural(inbox.waiting, "captured item")) waiting in inbox/") }
        if inbox.rejected > 0 { Output.note("\(plural(inbox.rejected, "capture")) set aside in inbox/rejected/") }
        if inbox.unexpected > 0 {
            Output.note("\(plural(inbox.unexpected, "unexpected file")) in inbox/ (not captured items; left alone)")
        }
    }

    private static func attachmentCount(_ report: VerifyReport) -> String {
        let (records, objects) = (report.checkedAttachmentRecords, report.checkedAttachments)
        guard records > 0 else { return "" }
        let shared = objects == records ? "" : " (\(objects) stored object\(objects == 1 ? "" : "s"))"
        return ", \(records) attachment\(records == 1 ? "" : "s")\(shared)"
    }

    /// Attachments whose object is not there, which are not damage here: pending on a vault
    /// that syncs, not held by the vault when a backup was made.
    private static func noteAbsent(_ absent: [Damage], isBackup: Bool) {
        guard !absent.isEmpty else { return }
        let count = absent.count
        let attachments = "\(count) attachment\(count == 1 ? "" : "s")"
        Output.note(
            isBackup
                ? "\(attachments) \(count == 1 ? "was" : "were") not in the vault when it was backed up (pending sync or lost)"
                : "\(attachments) pending: `diary sync` fetches \(count == 1 ? "it" : "them")")
        for item in absent { Output.talk("  \(Printable.escaped(item.description))") }
    }

    /// Remembers (outside the vault) that a backup of this vault verified clean, for `diary
    /// audit`. Failing to remember does not fail the verification.
    private static func noteVerifiedBackup(_ file: URL, stateDirectory: URL) {
        do {
            try VerifiedBackups(stateDirectory: stateDirectory).record(
                vaultID: try VerifiedBackups.vaultID(ofBackup: file))
        } catch {
            Output.warning("could not note the verified backup for `diary audit`: \(error)")
        }
    }
}

extension VaultError {
    /// The header's recovery block is not the one the index records (put back or edited).
    fileprivate var isRecoveryMismatch: Bool {
        switch self {
        case .recoveryKeyMismatch, .recoveryEpochRolledBack: return true
        default: return false
        }
    }
}

/// `verify` found the header not the one the index records: the damage is the header.
struct HeaderDoesNotMatchIndex: Error {
    static let line =
        "header: its recovery key is not the one the index records (an older or edited vault.header); "
        + "nothing else could be checked"

    var report: ErrorReport {
        ErrorReport(
            message: "damage found: the vault header does not match the index",
            hint: "put back the vault.header that belongs to this index (the newest copy), or restore from a backup",
            code: .damaged)
    }
}
