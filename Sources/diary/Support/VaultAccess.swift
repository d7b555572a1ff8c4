import DiaryAgent
import DiaryApp
import DiaryCrypto
import DiaryVault
import Foundation

/// Opens the vault with the right key, in the documented order:
///
/// 1. the unlock agent's key, if an agent holds the key of *this* vault (matched by vault id);
/// 2. else the passphrase file (`--passphrase-file` / `$DIARY_PASSPHRASE_FILE`);
/// 3. else a prompt on the terminal (`/dev/tty`, no echo);
/// 4. else fail with `CLIError.locked` (exit 75) and a hint on how to unlock.
struct VaultAccess {
    let options: GlobalOptions
    /// A vault directory given as a command argument (`verify PATH`), instead of `--vault`.
    var directoryOverride: URL? = nil

    var directory: URL { directoryOverride ?? options.vaultURL }

    /// The header, read without any key: proves the vault exists and names its id.
    func inspect() throws -> VaultInfo { try Vault.inspect(at: directory) }

    /// The vault opened with the agent's key, a passphrase file or the terminal, in that order.
    /// The store is opened once, for the header's vault id and then for the key.
    ///
    /// Then, unless `offerRecovery` is false (`diary recover` itself), editor text left by a
    /// killed `diary` is offered for recovery (`InterruptedEdits.offer`).
    ///
    /// The vault is compared with what this machine saw of it (`EntrySetWatch`); in `.enforce`
    /// mode a vault that lost entries is refused.
    func open(offerRecovery: Bool = true, entrySet: EntrySetWatch.Mode = .enforce) throws -> Vault {
        let vault = try openVault(entrySet)
        if offerRecovery { InterruptedEdits.offer(vault) }
        return vault
    }

    private func openVault(_ entrySet: EntrySetWatch.Mode) throws -> Vault {
        let sealed = try SealedVault(at: directory)
        SettingsWarnings.report(sealed.info, at: directory)
        let agentIsBusy: Bool
        switch try openWithAgent(sealed) {
        case .opened(let vault):
            try EntrySetWatch.opened(vault, mode: entrySet)
            return vault
        case .busy:
            agentIsBusy = true
        case .unavailable:
            agentIsBusy = false
        }
        let vault = try withCurrentPassphrase(agentIsBusy: agentIsBusy) { try sealed.open(passphrase: $0) }
        try EntrySetWatch.opened(vault, mode: entrySet)
        if vault.rotationInterrupted {
            Output.warning("a key rotation was interrupted; run `diary rekey` to finish it")
        }
        return vault
    }

    /// The vault opened with a passphrase, never the agent's key (`unlock`, `passwd`, `rekey`).
    func openWithPassphrase() throws -> (Vault, SecretBytes) {
        let sealed = try SealedVault(at: directory)  // a missing vault fails before any prompt
        SettingsWarnings.report(sealed.info, at: directory)
        let (passphrase, vault) = try withCurrentPassphrase { passphrase in
            (passphrase, try sealed.open(passphrase: passphrase))
        }
        try EntrySetWatch.opened(vault)
        return (vault, passphrase)
    }

    /// The client of this vault's agent (whether or not one runs).
    func agent(for vaultID: UUID) throws -> AgentClient {
        AgentClient(socketURL: try AgentPaths.socketURL(vaultID: vaultID))
    }

    /// The current passphrase: from the file, else the terminal, else `locked` (or `agentBusy`
    /// when an agent holds the key but could not be reached: unlocking again would not help).
    func currentPassphrase(prompt: String? = nil, agentIsBusy: Bool = false) throws -> SecretBytes {
        try withCurrentPassphrase(prompt: prompt, agentIsBusy: agentIsBusy) { $0 }
    }

    /// How many passphrases the terminal prompt takes before a wrong one fails, as sudo.
    static let passphraseTries = 3

    /// Runs `use` with the current passphrase (see `currentPassphrase`). At the terminal, a
    /// passphrase that `use` finds wrong (`VaultError.wrongPassphrase`) is asked for again, up
    /// to `passphraseTries` in all; a passphrase file is read once, so a script with a wrong
    /// one fails at once.
    func withCurrentPassphrase<T>(
        prompt: String? = nil, agentIsBusy: Bool = false, _ use: (SecretBytes) throws -> T
    ) throws -> T {
        if agentIsBusy { Output.warning("the unlock agent is busy; using the passphrase instead") }
        if let path = options.passphraseFilePath { return try use(PassphraseFile.read(path)) }
        guard let tty = TTY.open() else {
            throw agentIsBusy ? CLIError.agentBusy(vault: directory.path) : CLIError.locked(vault: directory.path)
        }
        var tries = 1
        while true {
            let passphrase = try PassphrasePrompt.read(prompt ?? "Passphrase for \(directory.path): ", on: tty)
            do {
                return try use(passphrase)
            } catch VaultError.wrongPassphrase where tries < Self.passphraseTries {
                tries += 1
                tty.write("Sorry, try again.\n")
            }
        }
    }

    /// The passphrase from the file or the terminal, or nil when neither is there (sync then
    /// says which machine's change needs it, instead of "locked").
    func passphraseIfAvailable(prompt: String) throws -> SecretBytes? {
        guard options.passphraseFilePath != nil || TTY.open() != nil else { return nil }
        return try currentPassphrase(prompt: prompt)
    }

    /// A new passphrase: from `--new-passphrase-file`, else asked twice on the terminal (two
    /// that differ asked again, up to `triesOnMismatch` times); a weak one is refused unless
    /// `--allow-weak-passphrase` says otherwise.
    func newPassphrase(_ source: NewPassphraseOptions, triesOnMismatch: Int = 1) throws -> SecretBytes {
        let passphrase: SecretBytes
        if let path = source.path {
            passphrase = try PassphraseFile.read(path)
        } else {
            guard let tty = TTY.open() else { throw CLIError.noTerminalForNewPassphrase }
            // At the terminal a weak one is refused as soon as it is typed, with the reason, and
            // asked for again (a person can choose another; a file cannot).
            passphrase = try PassphrasePrompt.readNew(
                on: tty, tries: triesOnMismatch, weakTries: Self.passphraseTries,
                weakness: { source.allowWeakPassphrase ? nil : PassphraseStrength.of($0).weakness })
        }
        // Argon2id makes each guess cost about a second; it cannot help a passphrase that is
        // among the first few thousand guesses.
        let strength = PassphraseStrength.of(passphrase)
        if let weakness = strength.weakness {
            guard source.allowWeakPassphrase else { throw CLIError.weakPassphrase(reason: weakness) }
            Output.warning("the new passphrase is weak: \(weakness); used because of --allow-weak-passphrase")
        }
        return passphrase
    }

    private enum AgentAttempt {
        case opened(Vault)
        /// An agent listens but every slot stayed taken (or it did not answer in time).
        case busy
        case unavailable
    }

    /// Tries the agent. A missing agent, another vault's agent or a stale key (the vault was
    /// rekeyed elsewhere) falls through to the passphrase; a stale key earns a warning.
    private func openWithAgent(_ sealed: SealedVault) throws -> AgentAttempt {
        let client: AgentClient
        do { client = try agent(for: sealed.info.id) } catch { return .unavailable }
        let fetched: (key: SecretBytes, generation: UInt32, vaultID: UUID)?
        do { fetched = try client.fetchKey() } catch AgentError.busy, AgentError.timedOut {
            return .busy
        } catch {
            return .unavailable
        }
        guard let held = fetched, held.vaultID == sealed.info.id else { return .unavailable }
        do {
            return .opened(try sealed.open(vaultKey: held.key, keyGeneration: held.generation))
        } catch VaultError.wrongKey {
            Output.warning("the unlock agent's key does not open this vault's index (another key, or a damaged index); asking for the passphrase")
            return .unavailable
        } catch VaultError.rotationInterrupted, VaultError.indexUnavailable {
            // Both need every key generation or a rebuilt index: only the passphrase gives that.
            return .unavailable
        }
    }
}
