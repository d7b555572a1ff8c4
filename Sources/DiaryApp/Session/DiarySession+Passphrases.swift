import DiaryCrypto
import DiarySync
import DiaryVault
import Foundation

extension DiarySession {
    /// Why the agent's key did not open the vault, which decides the error when there is no
    /// passphrase either: unlocking again helps only when no agent holds the key.
    enum AgentMiss {
        /// No agent for this vault (or a stale key): `locked`.
        case noKey
        /// An agent holds the key but could not be reached: `agentBusy`.
        case busy
        /// The agent's key cannot open a vault whose rotation was interrupted: `lockedMidRotation`.
        case midRotation

        func error(vault: String) -> AppError {
            switch self {
            case .noKey: return .locked(vault: vault)
            case .busy: return .agentBusy(vault: vault)
            case .midRotation: return .lockedMidRotation(vault: vault)
            }
        }
    }

    /// Runs `use` with the current passphrase: from the file, else the asker, else `locked`.
    /// A passphrase from the asker that `use` finds wrong (`VaultError.wrongPassphrase`) is
    /// asked for again, up to `passphraseTries` in all; a passphrase file is read once, so a
    /// script with a wrong one fails at once.
    public func withCurrentPassphrase<T>(
        _ reason: PassphraseReason? = nil, _ use: (SecretBytes) throws -> T
    ) throws -> T {
        try withCurrentPassphrase(reason, after: .noKey, use)
    }

    /// `withCurrentPassphrase`, after the agent's key did not open the vault for `miss`.
    func withCurrentPassphrase<T>(
        _ reason: PassphraseReason? = nil, after miss: AgentMiss, _ use: (SecretBytes) throws -> T
    ) throws -> T {
        if miss == .busy { events(.agentBusyUsingPassphrase) }
        if let passphraseFile { return try use(PassphraseFile.read(passphraseFile, events: events)) }
        var attempt = 1
        while true {
            guard let passphrase = try asker.ask(reason ?? .unlock(path: directory.path), attempt: attempt) else {
                throw miss.error(vault: directory.path)
            }
            do {
                return try use(passphrase)
            } catch VaultError.wrongPassphrase where attempt < Self.passphraseTries {
                attempt += 1
            }
        }
    }

    /// The current passphrase (see `withCurrentPassphrase`), unchecked.
    public func currentPassphrase(_ reason: PassphraseReason? = nil) throws -> SecretBytes {
        try withCurrentPassphrase(reason) { $0 }
    }

    /// The passphrase a sync asks for (`PassphraseNeed`), or nil when there is none to give: a
    /// file answers once, an asker up to `passphraseTries` times; with neither, sync says which
    /// machine's change needs it instead of "locked".
    public func passphrase(for need: PassphraseNeed) throws -> SecretBytes? {
        if need.attempt > 1, passphraseFile != nil || need.attempt > Self.passphraseTries { return nil }
        if let passphraseFile { return try PassphraseFile.read(passphraseFile, events: events) }
        guard asker.canAsk else { return nil }
        switch need {
        case .followRotation(let machine, let attempt):
            return try asker.ask(.followRotation(machine: machine), attempt: attempt)
        case .publishOwnChange(let attempt):
            return try asker.ask(.publishOwnChange, attempt: attempt)
        }
    }

    /// A new passphrase: from `fileOption` (`--new-passphrase-file`, else
    /// `$DIARY_NEW_PASSPHRASE_FILE`), else from the asker, typed twice: a repeat that differs
    /// is asked for again, up to `triesOnMismatch` pairs (`init` and `passwd` alike). A weak
    /// one is refused unless `allowWeak`; then it is used, and said.
    public func newPassphrase(
        fileOption: String?, allowWeak: Bool, triesOnMismatch: Int = DiarySession.passphraseTries
    ) throws -> SecretBytes {
        let passphrase: SecretBytes
        if let path = environment.newPassphraseFile(option: fileOption) {
            passphrase = try PassphraseFile.read(path, events: events)
        } else {
            // At the asker a weak one is refused as soon as it is typed, with the reason, and
            // asked for again (a person can choose another; a file cannot).
            guard
                let typed = try asker.askNew(
                    triesOnMismatch: triesOnMismatch, weakTries: Self.passphraseTries,
                    weakness: { allowWeak ? nil : PassphraseStrength.of($0).weakness })
            else { throw AppError.noTerminalForNewPassphrase }
            passphrase = typed
        }
        // Argon2id makes each guess cost about a second; it cannot help a passphrase that is
        // among the first few thousand guesses.
        if let weakness = PassphraseStrength.of(passphrase).weakness {
            guard allowWeak else { throw AppError.weakPassphrase(weakness) }
            events(.weakPassphraseAllowed(weakness))
        }
        return passphrase
    }
}
