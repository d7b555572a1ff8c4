import DiaryCrypto
import DiarySync
import DiaryVault
import Foundation

/// The recovery key's policy, wherever it starts (`recovery-key`, `reset-passphrase`, `init`):
/// the vault changes, sync is told (as a passphrase change: the header changed), and what
/// happened comes back as a value for the CLI to word. Showing or writing the key is the
/// caller's: this layer never touches the terminal.
public struct RecoveryKeys {
    let session: DiarySession
    /// Sets the key in the vault; tests put a failure around it.
    var setKey: (Vault, RecoveryKey, Bool, SecretBytes) throws -> PassphraseChange = {
        try $0.setRecoveryKey(publicKeyOf: $1, replace: $2, passphrase: $3)
    }

    public init(_ session: DiarySession) { self.session = session }

    /// Makes a new recovery key, hands it to `deliver` (which writes it to a file made durable,
    /// or shows it until it is written down), and only then sets it (the passphrase is asked for
    /// first: the header's slots are sealed again). A delivery that fails changes nothing. A
    /// vault with a key refuses unless `replace`; the old key then stops working. Nothing else
    /// keeps the key. A failure to set it after delivery is `RecoveryKeyNotSet`.
    public func create(
        replace: Bool, deliver: (RecoveryKey) throws -> Void = { _ in }
    ) throws -> RecoveryKeyCreated {
        // Refused before the passphrase is asked for (checked again once the vault is open).
        if !replace, case .active = try session.inspect().recovery { throw VaultError.recoveryKeyExists }
        let (vault, passphrase) = try session.openWithPassphrase()
        return try create(in: vault, passphrase: passphrase, replace: replace, deliver: deliver)
    }

    /// The same, on a vault already open with `passphrase` (`init`, right after creating it).
    public func create(
        in vault: Vault, passphrase: SecretBytes, replace: Bool, deliver: (RecoveryKey) throws -> Void = { _ in }
    ) throws -> RecoveryKeyCreated {
        if case .active = vault.recoveryStatus, !replace { throw VaultError.recoveryKeyExists }
        try SyncLifecycle.checkHeaderInForce(vault: vault, stateDirectory: session.stateDirectory)
        let key = try RecoveryKey.generate()
        try deliver(key)
        let change = try setDelivered(key, in: vault, replace: replace, passphrase: passphrase)
        return RecoveryKeyCreated(
            key: key, vault: vault.directory, status: vault.recoveryStatus, syncNotTold: tellSync(change))
    }

    /// Sets `key`, already delivered. On failure, the vault as it now stands (a journal the
    /// failed change left is replayed by the reading) says whether the key landed: in force,
    /// `RecoveryKeySetDespiteError` (what was delivered must be kept); not in force,
    /// `RecoveryKeyNotSet`; unreadable, `RecoveryKeySetDespiteError` unsure (kept as well: it
    /// may open the vault).
    func setDelivered(
        _ key: RecoveryKey, in vault: Vault, replace: Bool, passphrase: SecretBytes
    ) throws -> PassphraseChange {
        do {
            return try setKey(vault, key, replace, passphrase)
        } catch {
            let landed: Bool?
            do {
                landed = try Vault.recoveryKeyMatches(at: vault.directory, key)
            } catch VaultError.noRecoveryKey {
                landed = false
            } catch {
                landed = nil
            }
            switch landed {
            case false?: throw RecoveryKeyNotSet(underlying: error)
            case true?: throw RecoveryKeySetDespiteError(underlying: error, certain: true)
            case nil: throw RecoveryKeySetDespiteError(underlying: error, certain: false)
            }
        }
    }

    /// Whether the vault has a recovery key, as its header says once checked against the index
    /// (the agent's key will do).
    public func status() throws -> RecoveryStatus {
        try session.read { $0.recoveryStatus }
    }

    /// Removes the recovery key: it stops working, here and, after their next sync, on the
    /// other machines.
    public func remove() throws -> RecoveryKeyRemoved {
        let (vault, passphrase) = try session.openWithPassphrase()
        try SyncLifecycle.checkHeaderInForce(vault: vault, stateDirectory: session.stateDirectory)
        let change = try vault.removeRecoveryKey(passphrase: passphrase)
        return RecoveryKeyRemoved(vault: vault.directory, status: vault.recoveryStatus, syncNotTold: tellSync(change))
    }

    /// True when `key` is the vault's recovery key (checked against the header's public half;
    /// nothing is opened). Throws `VaultError.noRecoveryKey` when the vault has none.
    public func matches(_ key: RecoveryKey) throws -> Bool {
        try Vault.recoveryKeyMatches(at: session.directory, key)
    }

    /// Sets a new passphrase with the recovery key, the old one forgotten: the key is checked
    /// against the vault first (before a new passphrase is asked for), then the vault is opened
    /// with it and the index proves it, then the header gets the new passphrase. The vault key
    /// stays the same, so an unlocked session keeps going. A synced vault publishes the new
    /// header at its next sync, as after `passwd`. Works with the vault locked.
    ///
    /// A vault that lost entries this machine saw is refused, unless `acceptOlder`: the reset
    /// then goes on (it changes only the header) and the loss comes back in the outcome, for
    /// `reindex --accept-older` with the new passphrase to accept.
    public func reset(
        with key: RecoveryKey, newPassphrase: NewPassphraseSource, kdf: KDFParameters? = nil,
        acceptOlder: Bool = false
    ) throws -> PassphraseResetOutcome {
        let directory = session.directory
        session.checkSettings(try session.inspect(), kdfChanging: kdf != nil)
        guard try matches(key) else { throw VaultError.wrongRecoveryKey }
        // Compared with this machine's witness like every other open: a vault put back whole
        // (header and index) to before a key was replaced is refused here too.
        let opened = try Vault.open(at: directory, recoveryKey: key)
        let report = try session.entrySet.opened(opened, mode: acceptOlder ? .report : .enforce)
        let passphrase = try session.newPassphrase(
            fileOption: newPassphrase.fileOption, allowWeak: newPassphrase.allowWeak,
            triesOnMismatch: DiarySession.passphraseTries)
        let change = try Vault.resetPassphrase(at: directory, recoveryKey: key, new: passphrase, kdf: kdf)
        return PassphraseResetOutcome(
            vault: directory, syncNotTold: tellSync(change), loss: report.isLoss ? report : nil)
    }

    /// Tells sync of a header change; the change stands whether or not sync heard of it.
    func tellSync(_ change: PassphraseChange) -> Error? {
        do {
            try SyncLifecycle.notePassphraseChange(
                change, vaultDirectory: session.directory, stateDirectory: session.stateDirectory)
            return nil
        } catch {
            return error
        }
    }
}

/// What `RecoveryKeys.create` did: `key` is the new recovery key, to show or write once.
public struct RecoveryKeyCreated {
    public let key: RecoveryKey
    public let vault: URL
    public let status: RecoveryStatus
    /// Why sync could not be told, when it could not (the key stands).
    public let syncNotTold: Error?
}

/// The key was delivered (written or shown) but could not be set: it opens nothing, and the
/// vault's recovery key is what it was.
public struct RecoveryKeyNotSet: Error {
    public let underlying: Error
}

/// The key was delivered and is the vault's recovery key (`certain`), or may be (the vault
/// could not be read to tell), although setting it reported `underlying`: what holds it must
/// be kept.
public struct RecoveryKeySetDespiteError: Error {
    public let underlying: Error
    public let certain: Bool
}

/// What `RecoveryKeys.remove` did.
public struct RecoveryKeyRemoved {
    public let vault: URL
    public let status: RecoveryStatus
    public let syncNotTold: Error?
}

/// What `RecoveryKeys.reset` did: the passphrase of `vault` is the new one.
public struct PassphraseResetOutcome {
    public let vault: URL
    public let syncNotTold: Error?
    /// With `acceptOlder`: the entries this machine saw that the vault lacks (still to accept).
    public let loss: EntrySetReport?
}
