import DiaryCrypto
import DiaryVault
import Foundation

/// One command's use of one vault: where it is, the key that opens it, and this machine's
/// record of it.
///
/// The key comes in the documented order: the unlock agent's, if it holds the key of *this*
/// vault (matched by vault id); else the passphrase file; else the `PassphraseAsker`; else
/// `AppError.locked`. Every read goes through `read`, which compares the vault with this
/// machine's record after it (`EntrySetGuard`), so no read command can forget to.
public final class DiarySession {
    /// How many passphrases an asker may give before a wrong one fails, as sudo.
    public static let passphraseTries = 3

    public let directory: URL
    public let environment: DiaryEnvironment
    public let entrySet: EntrySetGuard
    let passphraseFile: String?
    let asker: PassphraseAsker
    let agent: UnlockAgentLink
    let events: AppEventSink
    /// The vault `open` opened, and whether a loss found in it stops the command.
    private var opened: (vault: Vault, mode: EntrySetGuard.Mode)?
    /// False for a command that must act before any item is taken in (`capture-key revoke`):
    /// it calls `takeInCaptureInbox` itself afterwards.
    public var takesCaptureInboxInAtOpen = true

    /// A session of the vault at `directory` (else `vaultOption`, `$DIARY_VAULT` or the XDG data
    /// directory), with this machine's records under the environment's state directory.
    public init(
        directory: URL? = nil, vaultOption: String? = nil, passphraseFileOption: String? = nil,
        environment: DiaryEnvironment = DiaryEnvironment(), asker: PassphraseAsker, agent: UnlockAgentLink? = nil,
        events: @escaping AppEventSink
    ) {
        self.directory = directory ?? environment.vaultDirectory(option: vaultOption)
        self.environment = environment
        self.passphraseFile = environment.passphraseFile(option: passphraseFileOption)
        self.asker = asker
        self.agent = agent ?? UnlockAgent(environment: environment)
        self.events = events
        entrySet = EntrySetGuard(stateDirectory: environment.stateDirectory, events: events)
    }

    /// This machine's records of its vaults (witnesses, verified backups, sync state).
    public var stateDirectory: URL { entrySet.stateDirectory }

    /// The header, read without any key: proves the vault exists and names its id.
    public func inspect() throws -> VaultInfo { try Vault.inspect(at: directory) }

    /// The vault's settings worth a warning (weak key derivation, files open to others), said.
    public func checkSettings(_ info: VaultInfo, kdfChanging: Bool = false) {
        for event in SettingsCheck.findings(
            info, at: directory, kdfChanging: kdfChanging, testKDF: environment.insecureTestKDF)
        {
            events(event)
        }
    }

    // MARK: Opening and reading

    /// The vault opened with the agent's key, a passphrase file or the asker, in that order,
    /// and compared with this machine's record of it: in `enforce` mode a vault that lost
    /// entries is refused. The store is opened once, for the header's vault id and the key.
    @discardableResult
    public func open(mode: EntrySetGuard.Mode = .enforce) throws -> Vault {
        let sealed = try SealedVault(at: directory)
        checkSettings(sealed.info)
        let miss: AgentMiss
        switch try openWithAgent(sealed) {
        case .opened(let vault): return try watch(vault, mode: mode)
        case .missed(let reason): miss = reason
        }
        let vault = try withCurrentPassphrase(after: miss) { try sealed.open(passphrase: $0) }
        try watch(vault, mode: mode)
        if vault.rotationInterrupted { events(.rotationInterrupted) }
        return vault
    }

    /// The vault opened with a passphrase, never the agent's key (`unlock`, `rekey`, `sync init`),
    /// and the passphrase.
    public func openWithPassphrase() throws -> (Vault, SecretBytes) {
        let sealed = try SealedVault(at: directory)  // a missing vault fails before any question
        checkSettings(sealed.info)
        let (passphrase, vault) = try withCurrentPassphrase { passphrase in
            (passphrase, try sealed.open(passphrase: passphrase))
        }
        try watch(vault, mode: .enforce)
        return (vault, passphrase)
    }

    /// The vault opened with a passphrase the session already checked (a `passwd` that rotates
    /// the key next), watched like any other opening.
    func open(checkedPassphrase passphrase: SecretBytes) throws -> Vault {
        let vault = try SealedVault(at: directory).open(passphrase: passphrase)
        try watch(vault, mode: .enforce)
        return vault
    }

    /// Runs `body` on the open vault (opening it first if needed), then compares the vault
    /// with this machine's record again if the read found its index damaged: a loss stops the
    /// command, damage is said, as at open.
    public func read<T>(_ body: (Vault) throws -> T) throws -> T {
        let vault = try opened?.vault ?? open()
        let result = try body(vault)
        try entrySet.afterRead(vault)
        return result
    }

    /// A vault this session created or restored: this machine's record of it starts now.
    public func created(_ vault: Vault) { entrySet.created(vault) }

    /// At the end of a command that ran to its end: a read that went around `read` is checked
    /// as `read` would have, and a write that could not update this machine's record is said.
    public func finish() throws {
        defer { entrySet.finish() }
        if let opened, opened.mode == .enforce { try entrySet.afterRead(opened.vault) }
    }

    /// At the end of a command that failed: only what the writes could not record is said.
    public func finishAfterFailure() { entrySet.finish() }

    /// Every opening with the key goes through here: the vault is compared with this
    /// machine's record, then its capture inbox is taken in (`CaptureInbox`), read-only
    /// commands included, so captured entries arrive at the next command whatever it is.
    @discardableResult
    private func watch(_ vault: Vault, mode: EntrySetGuard.Mode) throws -> Vault {
        opened = (vault, mode)
        let report = try entrySet.opened(vault, mode: mode)
        // Not on top of a loss the command is about to report (`verify`, `reindex`), nor into
        // an index only `reindex` may write: the items wait.
        inboxMayBeTakenIn = !report.isLoss && vault.indexState == .ok
        if takesCaptureInboxInAtOpen { takeInCaptureInbox() }
        return vault
    }

    /// Whether the vault opened may take its inbox in (no loss reported, an index to write).
    private var inboxMayBeTakenIn = false

    /// Takes the opened vault's capture inbox in (`CaptureInbox`), unless the opening found a
    /// loss or an index only `reindex` may write: the items then wait.
    public func takeInCaptureInbox() {
        guard let opened, inboxMayBeTakenIn else { return }
        CaptureInbox.takeIn(opened.vault.directory, into: opened.vault, syncs: self.syncs(opened.vault), events: events)
    }

    private enum AgentAttempt {
        case opened(Vault)
        case missed(AgentMiss)
    }

    /// Tries the agent. A missing agent, another vault's agent or a stale key (the vault was
    /// rekeyed elsewhere) falls through to the passphrase; a key that does not open is said.
    private func openWithAgent(_ sealed: SealedVault) throws -> AgentAttempt {
        switch agent.fetchKey(vaultID: sealed.info.id) {
        case .busy: return .missed(.busy)
        case .unavailable: return .missed(.noKey)
        case .key(let key, let generation, let vaultID):
            guard vaultID == sealed.info.id else { return .missed(.noKey) }
            do {
                return .opened(try sealed.open(vaultKey: key, keyGeneration: generation))
            } catch VaultError.wrongKey {
                events(.agentKeyRefused)
                return .missed(.noKey)
            } catch VaultError.rotationInterrupted {
                // It needs every key generation: only the passphrase gives them.
                return .missed(.midRotation)
            } catch VaultError.indexUnavailable {
                // It needs a rebuilt index: only the passphrase gives that.
                return .missed(.noKey)
            }
        }
    }
}
