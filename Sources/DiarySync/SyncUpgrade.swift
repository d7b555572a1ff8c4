import DiaryCrypto
import DiaryStore
import DiaryVault
import Foundation

/// Moves a remote from sync format 1 to format 2 (docs/FORMAT.md §12): format 1's files go, a
/// new chain starts with this machine its only member, and every entry of the local vault is
/// published afresh. The local vault is not touched, so nothing written on this machine is lost;
/// the other machines join again with an invite and publish theirs.
///
/// Each step can be cut short and run again: the format-1 state stays until the format-2
/// state replaces it, and a remote without a marker, with this machine's format-1 state, is an
/// upgrade under way.
public enum SyncUpgrade {
    public static func upgrade(
        vault: Vault, machineName: String, passphrase: SecretBytes, stateDirectory: URL,
        progress: @escaping (SyncProgress) -> Void = { _ in }
    ) throws -> SyncReport {
        let setup = SyncSetup(stateDirectory: stateDirectory, vaultID: vault.id, vaultDirectory: vault.directory)
        guard let remote = try setup.remote() else { throw SyncError.notSetUp }
        try setup.lock.withLock(exclusive: true) {
            guard try stateIsFormat1(setup: setup, vault: vault) else { throw SyncError.alreadyFormat2 }
            let tree = RemoteTree(root: setup.tree(for: remote))
            var git: GitRemote?
            if case .git(let url) = remote {
                git = GitRemote(url: url, tree: setup.gitTree)
                try git?.cloneIfNeeded()
                _ = try git?.fetchAndMerge(last: "")
            }
            switch try tree.marker() {
            case .format1(let id), .vault(let id): guard id == vault.id else { throw SyncError.otherVault(id) }
            case .absent: break
            case .unreadable: throw SyncError.remoteUnusable(.notAMarker(path: tree.url(RemoteLayout.marker).path))
            }
            if case .vault = try tree.marker() { throw SyncError.alreadyFormat2 }
            for name in [RemoteLayout.logDirectory, RemoteLayout.keysDirectory, RemoteLayout.marker] {
                try tree.removeAll(name)
            }
            try SyncFaults.point("upgrade.format1Removed")
            if let git, try git.commitAndPush() == nil {
                throw SyncError.remoteUnusable(.otherMachinesPushedFirst(attempts: 1))
            }
            try SyncFaults.point("upgrade.format1Pushed")
        }
        // The remote is now empty: this machine starts format 2 there, replacing its state.
        return try SyncLifecycle.start(
            vault: vault, remote: remote, machineName: machineName, passphrase: passphrase,
            stateDirectory: stateDirectory, invite: nil, progress: progress)
    }

    /// True when this machine's sync state is format 1's (its `state` names no signing key).
    static func stateIsFormat1(setup: SyncSetup, vault: Vault) throws -> Bool {
        let key = try SyncKey(vaultKey: vault.vaultKey, generation: vault.keyGeneration, vaultID: vault.id)
        do {
            _ = try StateStore(directory: setup.directory, vaultID: vault.id, key: key).readMain()
            return false
        } catch SyncError.stateOfFormat1 {
            return true
        }
    }
}
