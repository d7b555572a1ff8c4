import Foundation

/// Why a sync did not happen, as values: the CLI words each one and picks its hint and exit
/// status.
public enum SyncError: Error, Equatable {
    /// This vault has no sync remote on this machine (start or join first).
    case notSetUp
    /// Starting to sync a vault that already syncs.
    case alreadySetUp(remote: String)
    /// The remote cannot be used: missing, not empty and not a diary remote, git failed.
    case remoteUnusable(RemoteProblem)
    /// The remote holds another vault.
    case otherVault(UUID)
    /// What the remote shows contradicts what this machine saw before, or is forged.
    case untrustedRemote([RemoteFinding])
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
    /// The sealed sync state file at `path` does not open with this vault's key.
    case stateUnreadable(path: String)
    /// Resolving an entry that is not in conflict.
    case noConflict(UUID)
    /// Resolving with a choice that does not apply.
    case cannotResolve(ResolveRefusal)
    /// The join target at `path` exists and is not empty.
    case targetNotEmpty(path: String)
}
