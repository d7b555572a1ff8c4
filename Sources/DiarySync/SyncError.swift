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

    // Sync format 2: signatures and the membership chain (docs/FORMAT.md §12).
    /// This machine's sync state is format 1's: the remote was (or must be) upgraded.
    case stateOfFormat1
    /// The remote is in format 1: `sync upgrade` moves it to format 2.
    case remoteOfFormat1
    /// An upgrade of a remote (or a state) already in format 2.
    case alreadyFormat2
    /// Joining a remote that already has members takes an invite from one of them.
    case inviteNeeded
    /// The invite names a chain statement the remote does not hold: another remote, or a host
    /// showing this machine something else than the member who invited it saw.
    case inviteNotForThisChain
    /// Only a member can invite (this machine waits to be admitted).
    case notAMember
    /// This machine was removed from the members: it can no longer invite or write.
    case thisMachineRemoved
    case noSuchMember(name: String)
    /// Two members have that name; `sync members` shows them apart.
    case ambiguousMember(name: String)
    case cannotRemoveThisMachine
    /// Two members changed the chain from the same statement (`machines`): a rekey on any
    /// member settles it.
    case chainForked(machines: [String])
    /// A statement this machine was about to write breaks the chain's rules (a bug guard).
    case cannotState(StatementFault)
    /// A key rotated here would be published under this machine's passphrase, which the
    /// passphrase set on `machine` has replaced: `passwd` here to that passphrase first.
    case keyChangeUnderOldPassphrase(machine: String)
    /// `machine` published a key or passphrase change (its statement signed, its header the one
    /// named) whose header carries an older recovery key than this vault records: it was made
    /// before that machine took in a recovery key change made here. Taking it would bring the
    /// replaced key back, so nothing is synced until `machine` sets a newer one.
    case recoveryKeyChangeOverridden(machine: String)
    /// The recovery key was replaced or removed on `machine` (its header is in force) while
    /// this machine changed the vault key or passphrase before taking that in, and its block
    /// cannot be taken over (the same epoch as a recovery change made here, or a tag that does
    /// not verify): publishing would seal to the replaced key, so nothing is synced until a
    /// newer one is set here.
    case recoveryKeyReplacedElsewhere(machine: String)
    /// The lamport clock reached its bound: a forged record pushed it there.
    case lamportExhausted
}
