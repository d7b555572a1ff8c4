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
    var message: String
    var hint: String?
    var code: ExitCode

    /// The report for `error`, or nil for ArgumentParser's own errors (usage, help), which
    /// ArgumentParser prints itself.
    init?(_ error: Error) {
        switch error {
        case let e as CLIError: self.init(message: e.description, hint: e.hint, code: e.exitCode)
        case let e as InputError: self = InputWording.report(e)
        case let e as AppError:
            let words = CLIError(e)
            self.init(message: words.description, hint: words.hint, code: words.exitCode)
        case let e as VaultError: self.init(vault: e)
        case let e as ExchangeError: self.init(exchange: e)
        case let e as SyncError: self.init(sync: e)
        case let e as CryptoError:
            self.init(
                message: e.description, hint: nil,
                code: e == .authenticationFailed ? .damaged : .failure)
        case AgentError.busy:
            self.init(message: "unlock agent: \(AgentError.busy.description)", hint: "try again in a moment",
                      code: .locked)
        case let e as AgentError: self.init(message: "unlock agent: \(e.description)", hint: nil, code: .failure)
        default: return nil
        }
    }

    init(message: String, hint: String?, code: ExitCode) {
        self.message = message
        self.hint = hint
        self.code = code
    }

    private init(vault error: VaultError) {
        let message = error.description
        switch error {
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
            self.init(message: message, hint: "check --from (jrnl, dayone, markdown or diary); nothing was imported",
                      code: .inputRefused)
        case .unsupportedVersion:
            self.init(message: message, hint: "this export was written by a newer diary; upgrade diary",
                      code: .inputRefused)
        case .tooLarge, .invalidUTF8, .malformedArchive, .malformedJSON, .invalidEntry, .invalidFrontMatter, .noDate, .noInput:
            self.init(message: message, hint: nothing, code: .inputRefused)
        case .outputExists:
            self.init(message: message, hint: "choose a new path; diary never overwrites", code: .alreadyExists)
        case .writeFailed:
            self.init(message: message, hint: nil, code: .failure)
        }
    }

    /// Sync problems. A remote that contradicts what this machine saw is damage (65), with
    /// each finding on its own line.
    private init(sync error: SyncError) {
        switch error {
        case .notSetUp:
            self.init(message: "this vault does not sync on this machine",
                      hint: "`diary sync init REMOTE` on the first machine, `diary sync join REMOTE` on the others",
                      code: .failure)
        case .alreadySetUp(let remote):
            self.init(message: "this vault already syncs with \(Printable.escaped(remote))", hint: nil, code: .alreadyExists)
        case .remoteUnusable(let problem):
            self.init(message: "cannot use the remote: \(Printable.escaped(SyncFindingText.problem(problem)))", hint: nil, code: .failure)
        case .otherVault(let id):
            self.init(message: "the remote holds another vault (\(id.uuidString.lowercased())); nothing was changed",
                      hint: "check the remote's address", code: .damaged)
        case .untrustedRemote(let findings):
            let lines = findings.map { "  " + Printable.escaped(SyncFindingText.finding($0)) }.joined(separator: "\n")
            self.init(
                message: "the remote contradicts what this machine saw before; nothing was synced:\n\(lines)",
                hint: "the remote (or whoever can write to it) removed, rewound or replaced records, or put in files that are not this vault's records; restore it from a machine that has them, or from a backup",
                code: .damaged)
        case .needsPassphrase(let machine):
            self.init(message: "the vault key was rotated on '\(Printable.escaped(machine))'; the passphrase is needed to follow it",
                      hint: "run `diary sync` on a terminal, or with --passphrase-file", code: .locked)
        case .concurrentRotation(let machine):
            self.init(message: "the vault key was rotated on '\(Printable.escaped(machine))' and on this machine at the same time; nothing was changed",
                      hint: "run `diary rekey` here, then `diary sync`: the newer rotation reaches every machine", code: .failure)
        case .passphraseChangedElsewhere(let machine, let ownChangeLost):
            if ownChangeLost {
                self.init(
                    message: "the vault key was rotated on '\(Printable.escaped(machine))' while the passphrase was changed here; the rotation wins, and that passphrase does not open it",
                    hint: "run `diary sync` on a terminal and give the passphrase used on '\(Printable.escaped(machine))' when asked (or `diary unlock` first, then `diary sync --passphrase-file` with that passphrase)",
                    code: .wrongPassphrase)
            } else {
                self.init(message: "that passphrase no longer opens the vault: it was changed on '\(Printable.escaped(machine))'",
                          hint: "use the passphrase set there: on a terminal `diary sync` asks for it after this vault's own; in a script, `diary unlock` first, then `diary sync --passphrase-file` with the passphrase set there",
                          code: .wrongPassphrase)
            }
        case .needsPassphraseToPublish:
            self.init(message: "this vault's passphrase was changed here without sync being told (an interrupted `diary passwd`?); publishing it needs the passphrase",
                      hint: "run `diary sync` on a terminal, or with --passphrase-file", code: .locked)
        case .stateUnreadable(let path):
            self.init(message: "this machine's sync state does not open with this vault's key: \(path)", hint: nil, code: .damaged)
        case .noConflict(let id):
            self.init(message: "entry \(id.uuidString.lowercased().prefix(8)) is not in conflict", hint: "`diary conflicts` lists conflicts", code: .failure)
        case .cannotResolve(let refusal):
            self.init(message: SyncFindingText.refusal(refusal), hint: nil, code: .usage)
        case .targetNotEmpty(let path):
            self.init(message: "\(path) exists and is not empty; nothing was created",
                      hint: "choose a new directory with --to", code: .alreadyExists)
        }
    }

    /// Prints the report on stderr and exits with its code.
    func exit() -> Never {
        Output.error(message)
        if let hint { Output.hint(hint) }
        Glibc.exit(code.rawValue)
    }
}
