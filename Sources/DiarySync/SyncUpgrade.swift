import DiaryCrypto
import DiaryStore
import DiaryVault
import Foundation

/// Moves a remote from sync format 1 to format 2 (docs/FORMAT.md §12.10): format 1's files go,
/// a new chain starts with this machine its only member, and every entry of the local vault is
/// published afresh. The local vault is not touched, so nothing written on this machine is lost;
/// the other machines join again with an invite and publish theirs.
///
/// Cut short anywhere, it is run again: until this machine's format-2 state exists, the
/// format-1 state (or none) and a remote without a format-2 marker mean an upgrade under way,
/// and the remote is cleared again; once the state exists, the next sync finishes the job.
public enum SyncUpgrade {
    public static func upgrade(
        vault: Vault, machineName: String, passphrase: SecretBytes, stateDirectory: URL,
        progress: @escaping (SyncProgress) -> Void = { _ in }
    ) throws -> SyncReport {
        let setup = SyncSetup(stateDirectory: stateDirectory, vaultID: vault.id, vaultDirectory: vault.directory)
        guard let remote = try setup.remote() else { throw SyncError.notSetUp }
        try setup.lock.withLock(exclusive: true) {
            guard try !stateIsFormat2(setup: setup, vault: vault) else { throw SyncError.alreadyFormat2 }
            try clearFormat1(remote, setup: setup, vaultID: vault.id)
        }
        return try SyncLifecycle.start(
            vault: vault, remote: remote, machineName: machineName, passphrase: passphrase,
            stateDirectory: stateDirectory, invite: nil, progress: progress)
    }

    /// Removes format 1's files and marker from the remote (for git: commits and pushes that).
    private static func clearFormat1(_ remote: RemoteLocation, setup: SyncSetup, vaultID: UUID) throws {
        let tree = RemoteTree(root: setup.tree(for: remote))
        var git: GitRemote?
        if case .git(let url) = remote {
            git = GitRemote(url: url, tree: setup.gitTree)
            try git?.cloneIfNeeded()
            _ = try git?.fetchAndMerge(last: "")
        }
        switch try tree.marker() {
        // Another machine upgraded it: this one joins again with an invite.
        case .vault: throw SyncError.stateOfFormat1
        case .format1(let id): guard id == vaultID else { throw SyncError.otherVault(id) }
        case .absent: break
        case .unreadable: throw SyncError.remoteUnusable(.notAMarker(path: tree.url(RemoteLayout.marker).path))
        }
        for name in [RemoteLayout.logDirectory, RemoteLayout.keysDirectory, RemoteLayout.chainDirectory] {
            try tree.removeAll(name)
        }
        try SyncFaults.point("upgrade.logsRemoved")
        try tree.removeAll(RemoteLayout.marker)
        if let git, try git.commitAndPush() == nil {
            throw SyncError.remoteUnusable(.otherMachinesPushedFirst(attempts: 1))
        }
        try SyncFaults.point("upgrade.format1Gone")
    }

    /// True when this machine's sync state is format 2's (false for format 1's, or none).
    static func stateIsFormat2(setup: SyncSetup, vault: Vault) throws -> Bool {
        let key = try SyncKey(vaultKey: vault.vaultKey, generation: vault.keyGeneration, vaultID: vault.id)
        do {
            _ = try StateStore(directory: setup.directory, vaultID: vault.id, key: key).readMain()
            return true
        } catch SyncError.stateOfFormat1, SyncError.notSetUp {
            return false
        }
    }
}
