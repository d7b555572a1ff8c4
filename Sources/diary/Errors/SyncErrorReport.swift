import DiaryApp
import DiarySync

extension ErrorReport {
    /// Sync problems. A remote that contradicts what this machine saw is damage (65), with
    /// each finding on its own line.
    init(sync error: SyncError) {
        switch error {
        case .notSetUp:
            self.init(
                message: "this vault does not sync on this machine",
                hint:
                    "`diary sync init REMOTE` on the first machine; on the others `diary sync join REMOTE --invite CODE` with a code from `diary sync invite`",
                code: .failure)
        case .alreadySetUp(let remote):
            self.init(
                message: "this vault already syncs with \(Printable.escaped(remote)); nothing was changed",
                hint: "to sync with another remote, `diary sync stop` first (it keeps the vault and its entries)",
                code: .alreadyExists)
        case .remoteUnusable(.gitFailed(let command, let message?, _)) where message.contains("\n"):
            // Git's own lines, one per line as git printed them.
            let lines = message.split(separator: "\n").map { "  " + Printable.escaped(String($0)) }
            self.init(
                message: "cannot use the remote: git \(command) failed:", hint: nil, code: .failure, details: lines)
        case .remoteUnusable(let problem):
            self.init(
                message: "cannot use the remote: \(Printable.escaped(SyncFindingText.problem(problem)))", hint: nil,
                code: .failure)
        case .otherVault(let id):
            self.init(
                message: "the remote holds another vault (\(id.uuidString.lowercased())); nothing was changed",
                hint: "check the remote's address", code: .damaged)
        case .untrustedRemote(let findings):
            self.init(
                message: "the remote contradicts what this machine saw before; nothing was synced:",
                hint:
                    "the remote (or whoever can write to it) removed, rewound or replaced records, or put in files that are not this vault's records; restore it from a machine that has them, or from a backup",
                code: .damaged, details: findings.map { "  " + Printable.escaped(SyncFindingText.finding($0)) })
        case .needsPassphrase, .concurrentRotation, .passphraseChangedElsewhere, .needsPassphraseToPublish:
            self.init(syncKeyChange: error)
        case .stateUnreadable(let path):
            self.init(
                message: "this machine's sync state does not open with this vault's key: \(path)", hint: nil,
                code: .damaged)
        case .noConflict(let id):
            self.init(
                message: "entry \(id.uuidString.lowercased().prefix(8)) is not in conflict",
                hint: "`diary conflicts` lists conflicts", code: .failure)
        case .cannotResolve(let refusal):
            self.init(message: SyncFindingText.refusal(refusal), hint: nil, code: .usage)
        case .targetNotEmpty(let path):
            self.init(
                message: "\(path) exists and is not empty; nothing was created",
                hint: "choose a new directory with --to", code: .alreadyExists)
        default:
            self.init(syncMembership: error)
        }
    }

    /// A key change sync could not follow or publish: the passphrase is missing or opens
    /// another header.
    private init(syncKeyChange error: SyncError) {
        switch error {
        case .needsPassphrase(let machine):
            self.init(
                message:
                    "the vault key was rotated on '\(Printable.escaped(machine))'; the passphrase is needed to follow it",
                hint: "run `diary sync` on a terminal, or with --passphrase-file", code: .locked)
        case .concurrentRotation(let machine):
            self.init(
                message:
                    "the vault key was rotated on '\(Printable.escaped(machine))' and on this machine at the same time; nothing was changed",
                hint: "run `diary rekey` here, then `diary sync`: the newer rotation reaches every machine",
                code: .failure)
        case .passphraseChangedElsewhere(let machine, let ownChangeLost):
            if ownChangeLost {
                self.init(
                    message:
                        "the vault key was rotated on '\(Printable.escaped(machine))' while the passphrase was changed here; the rotation wins, and that passphrase does not open it",
                    hint:
                        "run `diary sync` on a terminal and give the passphrase used on '\(Printable.escaped(machine))' when asked (or `diary unlock` first, then `diary sync --passphrase-file` with that passphrase)",
                    code: .wrongPassphrase)
            } else {
                self.init(
                    message:
                        "that passphrase no longer opens the vault: it was changed on '\(Printable.escaped(machine))'",
                    hint:
                        "use the passphrase set there: on a terminal `diary sync` asks for it after this vault's own; in a script, `diary unlock` first, then `diary sync --passphrase-file` with the passphrase set there",
                    code: .wrongPassphrase)
            }
        case .needsPassphraseToPublish:
            self.init(
                message:
                    "this vault's passphrase was changed here without sync being told (an interrupted `diary passwd`?); publishing it needs the passphrase",
                hint: "run `diary sync` on a terminal, or with --passphrase-file", code: .locked)
        default:
            preconditionFailure("not a key-change error of sync: \(error)")
        }
    }
}
