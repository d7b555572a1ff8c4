import DiaryAgent
import DiaryApp
import DiaryCrypto
import DiaryExchange
import DiarySync
import DiaryVault
import Foundation

/// Turns any error `diary` can meet into what the user sees: a message, maybe a hint, and the
/// documented exit code (see `ExitCode`).
struct ErrorReport: Equatable {
    /// One line (a newline in a path it names is printed escaped).
    var message: String
    var hint: String?
    var code: ExitCode
    /// Lines printed under the message, each as it is but escaped (git's own lines, findings).
    var details: [String] = []

    /// The report for `error`, or nil for ArgumentParser's own errors (usage, help), which
    /// ArgumentParser prints itself.
    init?(_ error: Error) {
        switch error {
        case let e as CLIError: self.init(message: e.description, hint: e.hint, code: e.exitCode)
        case let e as TextKept: self.init(kept: e)
        case let e as InputError: self = InputWording.report(e)
        case let e as ConfigError: self = ConfigWording.report(e)
        case let e as AppError:
            let words = CLIError(e)
            self.init(message: words.description, hint: words.hint, code: words.exitCode)
        case let e as VaultError: self.init(vault: e)
        case let e as RecoveryKeyFileError: self = RecoveryWording.report(e)
        case let e as RecoveryKeyError: self = RecoveryWording.report(e)
        case let e as RecoveryKeyOutputTakenBack: self = RecoveryWording.report(e)
        case let e as RecoveryKeyKeptDespiteError: self = RecoveryWording.report(e)
        case is RecoveryKeyCancelled:
            self.init(message: "cancelled; no recovery key was set", hint: nil, code: .failure)
        case let e as NotTheVaultsRecoveryKey: self = e.report
        case let e as ResetRefusedForLoss: self = e.report
        case let e as HeaderDoesNotMatchIndex: self = e.report
        case let e as HeaderNotInForce:
            self.init(
                message:
                    "another machine ('\(Printable.escaped(e.machine))') changed the passphrase or the recovery key: "
                    + "take it in with `diary sync` first; nothing was changed",
                hint:
                    "on a terminal `diary sync` asks this vault's passphrase, then the new one; in a script, `diary unlock` "
                    + "first, then `diary sync --passphrase-file` with the new passphrase", code: .failure)
        case let e as RecoveryPromptError: self = RecoveryWording.report(e)
        case let e as ShareRecoveryError: self = ShareWording.report(e)
        case let e as ShareOutputError: self = e.report
        case let e as AttachmentFileError: self = AttachmentWording.report(e)
        case let e as AttachmentChoiceError: self = AttachmentWording.report(e)
        case let e as AttachmentError: self = AttachmentWording.report(e)
        case let e as ViewerFailed: self = e.report
        case let e as AttachmentReadFailure:
            guard let report = AttachmentWording.report(e) else { return nil }
            self = report
        case let e as ExchangeError: self.init(exchange: e)
        case let e as SyncError: self.init(sync: e)
        case let e as CaptureError: self = CaptureWording.report(e)
        case let e as CaptureAppError: self = CaptureWording.report(e)
        case let e as CryptoError:
            self.init(
                message: e.description, hint: nil,
                code: e == .authenticationFailed ? .damaged : .failure)
        case AgentError.busy:
            self.init(
                message: "unlock agent: \(AgentError.busy.description)", hint: "try again in a moment",
                code: .locked)
        case let e as AgentError: self.init(message: "unlock agent: \(e.description)", hint: nil, code: .failure)
        default: return nil
        }
    }

    init(message: String, hint: String?, code: ExitCode, details: [String] = []) {
        self.message = message
        self.hint = hint
        self.code = code
        self.details = details
    }

    private init(vault error: VaultError) {
        let message = error.description
        switch error {
        case .noVault(let path)
        where URL(fileURLWithPath: path).standardizedFileURL.path
            == DiaryEnvironment().defaultVaultDirectory.standardizedFileURL.path:
            // Where diary looks by default: a vault made elsewhere (`sync join --to`, `restore
            // --to`) is the likelier story than none at all, and `init` would make a second one.
            self.init(
                message: message,
                hint: "for a vault elsewhere, pass --vault DIR or set DIARY_VAULT=DIR; "
                    + "to start a new vault here, `diary init`",
                code: .noVault)
        case .noVault:
            self.init(message: message, hint: "create one with `diary init`, or pass --vault PATH", code: .noVault)
        case .notAVault:
            self.init(message: message, hint: "pass --vault with the path of a diary vault", code: .noVault)
        case .unsupportedVersion:
            self.init(message: message, hint: "this vault was written by a newer diary; upgrade diary", code: .noVault)
        case .unsupportedIndexVersion(let found, let supported):
            self.init(
                message: message,
                hint: found > supported ? "this vault was written by a newer diary; upgrade diary" : nil,
                code: .noVault)
        case .alreadyExists, .backupExists:
            self.init(message: message, hint: "choose a new path; diary never overwrites", code: .alreadyExists)
        case .wrongPassphrase, .wrongKey:
            self.init(message: message, hint: nil, code: .wrongPassphrase)
        case .rotationInterrupted:
            self.init(message: message, hint: "run `diary rekey` to finish it", code: .failure)
        case .indexNeedsRepair:
            self.init(
                message: message, hint: "`diary verify` lists the damage; `diary reindex` repairs the index",
                code: .damaged)
        case .headerDamaged, .entryDamaged, .indexUnavailable, .backupDamaged, .storeDamaged:
            self.init(message: message, hint: "run `diary verify` to list all damage", code: .damaged)
        case .notABackup:
            self.init(message: message, hint: nil, code: .damaged)
        case .emptyText:
            self.init(message: message, hint: CLIError.emptyText.hint, code: .failure)
        case .entryTooLarge, .importRefused, .tooManyTags, .invalidTag, .invalidSource:
            self.init(message: message, hint: nil, code: .inputRefused)
        case .unknownID:
            self.init(message: message, hint: "`diary list` shows the ids", code: .failure)
        case .ambiguousID:
            // The message already names every match (VaultError.description).
            self.init(message: message, hint: "type more of the id", code: .failure)
        case .invalidID:
            self.init(message: message, hint: "an id is a UUID or at least 4 of its hex digits", code: .usage)
        case .io:
            self.init(message: message, hint: nil, code: .failure)
        case .unknownTemplate, .duplicateTemplate, .invalidTemplateName, .invalidPrompt:
            self.init(template: error)
        case .unknownAttachment, .duplicateAttachment, .invalidAttachmentName, .tooManyAttachments,
            .attachmentMissing:
            self.init(attachment: error)
        case .recoveryKeyMismatch, .wrongRecoveryKey, .noRecoveryKey, .recoveryKeyExists, .recoveryEpochRolledBack:
            self.init(recovery: error)
        }
    }

    /// Recovery-key errors (`diary recovery-key`, `reset-passphrase`, and any open).
    private init(recovery error: VaultError) {
        let message = error.description
        switch error {
        case .recoveryKeyMismatch, .recoveryEpochRolledBack:
            // `verify` opens the vault too and stops here as well: the hint must not send there.
            self.init(
                message: message,
                hint:
                    "no command opens the vault until the header and the index agree again (`diary verify` neither): "
                    + "restore from a backup or put back the header that belongs to this index", code: .damaged)
        case .wrongRecoveryKey:
            self.init(message: message, hint: nil, code: .wrongPassphrase)
        case .noRecoveryKey:
            self.init(
                message: "\(message), so a forgotten passphrase cannot be reset",
                hint: "while the passphrase is known, `diary recovery-key create` makes one", code: .failure)
        case .recoveryKeyExists:
            self.init(
                message: message, hint: "to make a new one (the old one stops working), add --replace", code: .failure)
        default:
            self.init(message: message, hint: nil, code: .failure)
        }
    }

    /// Attachment errors (`diary attach`, `detach`, `open`, `extract`).
    private init(attachment error: VaultError) {
        let message = error.description
        switch error {
        case .unknownAttachment:
            self.init(message: message, hint: "`diary attachments ID` lists them", code: .failure)
        case .duplicateAttachment:
            self.init(message: message, hint: "give the new one another name with --name", code: .inputRefused)
        case .attachmentMissing:
            self.init(
                message: message, hint: "if the vault syncs, `diary sync` fetches it; else `diary verify`",
                code: .damaged)
        default:
            self.init(message: message, hint: nil, code: .inputRefused)
        }
    }

    /// Template errors (`diary template`, `new --template`).
    private init(template error: VaultError) {
        let message = error.description
        switch error {
        case .unknownTemplate:
            self.init(message: message, hint: "`diary template list` shows the names", code: .failure)
        case .duplicateTemplate:
            self.init(
                message: message, hint: "choose another name, or change it with `diary template edit`",
                code: .usage)
        case .invalidTemplateName:
            self.init(message: message, hint: nil, code: .usage)
        default:
            self.init(message: message, hint: nil, code: .inputRefused)
        }
    }

    /// Import and export problems. A file that cannot be read is an I/O failure (1); a file
    /// that reads but is not acceptable input is refused (67), like text that is not UTF-8.
    private init(exchange error: ExchangeError) {
        let message = error.description
        let nothing = "nothing was imported; fix the file and import it again"
        switch error {
        case .unreadable:
            self.init(message: message, hint: "nothing was imported", code: .failure)
        case .notAnExport:
            self.init(
                message: message, hint: "check --from (jrnl, dayone, markdown or diary); nothing was imported",
                code: .inputRefused)
        case .unsupportedVersion:
            self.init(
                message: message, hint: "this export was written by a newer diary; upgrade diary",
                code: .inputRefused)
        case .malformedJPEG:
            self.init(
                message: message,
                hint:
                    "nothing was imported; to import the photo exactly as it is, metadata included, add --keep-metadata",
                code: .inputRefused)
        case .tooLarge, .invalidUTF8, .malformedArchive, .malformedJSON, .invalidEntry, .invalidFrontMatter, .noDate,
            .noInput:
            self.init(message: message, hint: nothing, code: .inputRefused)
        case .outputExists:
            self.init(message: message, hint: "choose a new path; diary never overwrites", code: .alreadyExists)
        case .writeFailed:
            self.init(message: message, hint: nil, code: .failure)
        }
    }

    /// ArgumentParser's message for a usage error in diary's own voice: without its `Error: `,
    /// and lowercase like every other message (`unknown option '--x'` beside `unknown command
    /// 'x'`). Only a capitalised first word is lowered: `'--date' …` or `UTF-8` stay as typed.
    static func parserMessage(_ full: String) -> String {
        let message = full.hasPrefix("Error: ") ? String(full.dropFirst("Error: ".count)) : full
        let word = message.prefix { $0.isLetter }
        guard let first = word.first, first.isUppercase, word.dropFirst().allSatisfy(\.isLowercase) else {
            return message
        }
        return first.lowercased() + message.dropFirst()
    }

    /// Prints the report on stderr and exits with its code.
    func exit() -> Never {
        Output.error(message)
        for line in details { Output.talk(Printable.escaped(line)) }
        if let hint { Output.hint(hint) }
        Glibc.exit(code.rawValue)
    }
}
