import Foundation

/// Why a sync did not happen. The CLI words each for people; `untrustedRemote` lists what
/// was seen, one finding per line.
public enum SyncError: Error, Equatable {
    /// This vault has no sync remote on this machine (`diary sync init` or `join` first).
    case notSetUp
    /// `sync init` on a vault that already syncs.
    case alreadySetUp(remote: String)
    /// The remote cannot be used: missing, not empty and not a diary remote, git failed.
    case remoteUnusable(String)
    /// The remote holds another vault.
    case otherVault(UUID)
    /// What the remote shows contradicts what this machine saw before, or is forged.
    case untrustedRemote([String])
    /// Another machine rotated the vault key: the passphrase is needed to follow it.
    case needsPassphrase(machine: String)
    /// This machine and another rotated the vault key at the same time.
    case concurrentRotation(machine: String)
    /// The passphrase does not open the remote's current header. `ownChangeLost`: a
    /// passphrase change made on this machine was replaced by that machine's key rotation.
    case passphraseChangedElsewhere(machine: String, ownChangeLost: Bool)
    /// This vault's passphrase was changed here without sync being told; publishing it needs
    /// the passphrase.
    case needsPassphraseToPublish
    /// The sealed sync state of this machine does not open with this vault's key.
    case stateUnreadable(String)
    /// `resolve` of an entry that is not in conflict, or with a choice that does not apply.
    case noConflict(String)
    case cannotResolve(String)
    /// The join target exists and is not empty.
    case targetNotEmpty(String)
}
