import DiaryCrypto
import DiarySync
import DiaryVault
import Foundation

/// The one flow for a change of the vault's key or passphrase, wherever it starts (`passwd`,
/// `rekey`, or a sync that follows another machine's change): the vault changes, sync is told
/// so that it publishes the change, and the unlock agent is handed the new key. What happened
/// comes back as a value for the CLI to word.
public struct KeyChanges {
    let session: DiarySession

    public init(_ session: DiarySession) { self.session = session }

    /// Changes the passphrase, checking the current one first (the header alone is read: the
    /// cost does not grow with the diary). `kdf`, when given, replaces the cost. The vault key
    /// is unchanged, so the agent keeps the key it holds.
    ///
    /// On a vault that syncs, the key is rotated too (`rekey`, unless the caller says not to):
    /// whoever knew the old passphrase may have kept the key it opened, and a new key is what
    /// makes the change hold for what is written from now on (docs/SECURITY.md).
    public func changePassphrase(
        kdf: KDFParameters?, new: NewPassphraseSource, rekey: Bool = true,
        progress: ((_ done: Int, _ total: Int) -> Void)? = nil
    ) throws -> PassphraseChangeOutcome {
        let directory = session.directory
        session.checkSettings(try session.inspect(), kdfChanging: kdf != nil)
        let (current, checked) = try session.withCurrentPassphrase { passphrase in
            (passphrase, try Vault.checkPassphrase(at: directory, passphrase: passphrase))
        }
        // Mid-rotation the header holds two keys: `rekey` finishes first (and a synced vault
        // could not publish a two-key header to the other machines).
        guard checked.info.keyGenerations.count == 1 else { throw VaultError.rotationInterrupted }
        // A header behind the chain's would publish a change the others refuse.
        try SyncLifecycle.checkHeaderInForce(checked, vaultDirectory: directory, stateDirectory: session.stateDirectory)
        // The current passphrase was accepted: a mistyped repeat asks again rather than start over.
        let passphrase = try session.newPassphrase(
            fileOption: new.fileOption, allowWeak: new.allowWeak, triesOnMismatch: DiarySession.passphraseTries)
        let change = try Vault.changePassphrase(
            at: directory, checked: checked, current: current, new: passphrase, kdf: kdf)
        // A synced vault publishes the new header at its next sync; the other machines then
        // open with the new passphrase only. The change stands whether or not sync heard of it.
        do {
            try SyncLifecycle.notePassphraseChange(
                change, vaultDirectory: directory, stateDirectory: session.stateDirectory)
        } catch {
            return PassphraseChangeOutcome(vault: directory, syncNotTold: error, rotation: nil)
        }
        guard rekey,
            SyncLifecycle.syncs(
                vaultID: change.vaultID, vaultDirectory: directory, stateDirectory: session.stateDirectory)
        else { return PassphraseChangeOutcome(vault: directory, syncNotTold: nil, rotation: nil) }
        let vault = try session.open(checkedPassphrase: passphrase)
        let rotation = try rotate(vault, passphrase: passphrase, progress: progress)
        return PassphraseChangeOutcome(vault: directory, syncNotTold: nil, rotation: rotation)
    }

    /// Removes the member called `name` from a synced vault: the key is rotated (as `rotateKey`)
    /// and the next sync states the removal with the new key, so the removed machine can no
    /// longer write, nor read what is written from then on.
    public func removeMember(named name: String, progress: ((_ done: Int, _ total: Int) -> Void)? = nil) throws
        -> KeyRotationOutcome
    {
        let (vault, passphrase) = try session.openWithPassphrase()
        guard !vault.rotationInterrupted else { throw VaultError.rotationInterrupted }
        _ = try SyncMembership.markRemoval(name: name, vault: vault, stateDirectory: session.stateDirectory)
        return try rotate(vault, passphrase: passphrase, progress: progress)
    }

    /// Rotates the vault key (or finishes a rotation that was interrupted): every entry is
    /// sealed again under a new key, sync is told before the old key is dropped, and an agent
    /// holding the old key is given the new one.
    public func rotateKey(progress: ((_ done: Int, _ total: Int) -> Void)? = nil) throws -> KeyRotationOutcome {
        let (vault, passphrase) = try session.openWithPassphrase()
        return try rotate(vault, passphrase: passphrase, progress: progress)
    }

    /// `rotateKey`, then every attachment object sealed under an older generation is sealed
    /// again under a fresh key (`Vault.resealAttachments`). A run cut short during the second
    /// part is continued by the next one, which then does not rotate again.
    public func rotateKeyAndAttachments(
        progress: ((_ done: Int, _ total: Int) -> Void)? = nil,
        attachmentProgress: ((_ done: Int, _ total: Int) -> Void)? = nil
    ) throws -> (KeyRotationOutcome?, AttachmentResealOutcome) {
        let (vault, passphrase) = try session.openWithPassphrase()
        let marker = AttachmentResealMarker(stateDirectory: session.stateDirectory)
        var rotation: KeyRotationOutcome?
        if vault.rotationInterrupted || marker.pending(vault.id) != vault.keyGeneration {
            rotation = try rotate(vault, passphrase: passphrase, progress: progress)
            try marker.record(vault.id, generation: vault.keyGeneration)
        } else {
            session.events(.continuingAttachmentReseal)
        }
        let outcome = try vault.resealAttachments(progress: attachmentProgress)
        marker.clear(vault.id)
        return (rotation, outcome)
    }

    private func rotate(_ vault: Vault, passphrase: SecretBytes, progress: ((_ done: Int, _ total: Int) -> Void)?)
        throws -> KeyRotationOutcome
    {
        let finishing = vault.rotationInterrupted
        if finishing { session.events(.finishingInterruptedRotation) }
        // Never seal a new key to a recovery key another machine has replaced or removed.
        if !finishing { try SyncLifecycle.checkHeaderInForce(vault: vault, stateDirectory: session.stateDirectory) }
        // The key being retired: the older of the two when an earlier run was interrupted.
        let retired = vault.retiringKey ?? (vault.vaultKey, vault.keyGeneration)
        let stateDirectory = session.stateDirectory
        // Above every key the synced machines have stated, so that each can take this one in.
        let stated = try? SyncLifecycle.highestStatedGeneration(vault: vault, stateDirectory: stateDirectory)
        let unsealable = try vault.rotateKey(
            passphrase: passphrase, minimumGeneration: (stated ?? nil).map { $0 + 1 } ?? 0, progress: progress,
            beforeRetiring: { headers in
                // A synced vault publishes the new key's header, and the retired key sealed under
                // the new one, at its next sync. Told before the old key is dropped, so that an
                // interruption anywhere leaves both keys at hand for the next `diary rekey`.
                try SyncLifecycle.noteKeyRotation(
                    vault: vault, headers: headers, retiredKey: retired.key, retiredGeneration: retired.generation,
                    stateDirectory: stateDirectory, finishing: finishing)
            })
        // The rotation stands whether or not the agent could be given the key.
        do {
            return KeyRotationOutcome(
                vault: vault.directory, unsealable: unsealable, agentHoldsNewKey: try handOverKey(of: vault),
                agentNotTold: nil)
        } catch {
            return KeyRotationOutcome(
                vault: vault.directory, unsealable: unsealable, agentHoldsNewKey: false, agentNotTold: error)
        }
    }

    /// After a sync took in the key another machine rotated to: an agent holding the old key is
    /// given the new one. True when an agent of this vault took it.
    @discardableResult
    public func keyFollowed(_ vault: Vault) throws -> Bool { try handOverKey(of: vault) }

    /// After a sync: when it took in another machine's key (`SyncReport.keyChanged`), the
    /// agent is handed it (`keyFollowed`). True when an agent of this vault took it.
    @discardableResult
    public func afterSync(_ report: SyncReport, vault: Vault) throws -> Bool {
        guard report.keyChanged else { return false }
        return try keyFollowed(vault)
    }

    private func handOverKey(of vault: Vault) throws -> Bool {
        try session.agent.handOver(vault.vaultKey, generation: vault.keyGeneration, vaultID: vault.id)
    }
}

/// Where a new passphrase comes from: a file (`--new-passphrase-file`, else the environment's),
/// else the asker; and whether a weak one may be used.
public struct NewPassphraseSource: Sendable {
    public var fileOption: String?
    public var allowWeak: Bool

    public init(fileOption: String?, allowWeak: Bool) {
        self.fileOption = fileOption
        self.allowWeak = allowWeak
    }
}

/// What `changePassphrase` did: the passphrase of `vault` changed; `syncNotTold`, when set, is
/// why sync could not be told (the change stands; the CLI reports it as the command's error).
public struct PassphraseChangeOutcome {
    public let vault: URL
    public let syncNotTold: Error?
    /// On a vault that syncs: the key rotation that went with the change.
    public let rotation: KeyRotationOutcome?
}

/// What `rotateKey` did.
public struct KeyRotationOutcome {
    public let vault: URL
    /// Entries already damaged, left under the old key.
    public let unsealable: [UUID]
    /// An unlock agent of this vault now holds the new key.
    public let agentHoldsNewKey: Bool
    /// Why the agent could not be reached to be given the new key, if it could not.
    public let agentNotTold: Error?
}
