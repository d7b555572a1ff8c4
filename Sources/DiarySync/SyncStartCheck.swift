import Foundation

extension SyncLifecycle {
    /// Refuses what `initialize` would refuse before it needs any key: a vault that already
    /// syncs here, a git remote that cannot be reached (or is missing), a folder that holds
    /// other files or another vault, a remote of this vault without an invite.
    ///
    /// Why: `sync init` asks for the passphrase (Argon2id costs about a second, and a person's
    /// typing); a refusal that needs none of it comes first. A git remote is only asked for its
    /// refs here (`git ls-remote`): what it holds is read once it is cloned, after the question.
    public static func checkBeforeStart(
        vaultID: UUID, vaultDirectory: URL, remote: RemoteLocation, stateDirectory: URL, hasInvite: Bool
    ) throws {
        let setup = SyncSetup(stateDirectory: stateDirectory, vaultID: vaultID, vaultDirectory: vaultDirectory)
        if let existing = try setup.remote() { throw SyncError.alreadySetUp(remote: existing.description) }
        switch remote {
        case .git(let url):
            _ = try GitRemote.run(["ls-remote", "--quiet", "--", url], in: nil)
        case .folder(let path):
            let root = URL(fileURLWithPath: path, isDirectory: true)
            // A missing folder is made by the start itself (the CLI refuses one first: a typo).
            guard FileManager.default.fileExists(atPath: root.path) else { return }
            let fresh = try checkUsable(RemoteTree(root: root), vaultID: vaultID)
            if !fresh, !hasInvite { throw SyncError.inviteNeeded }
        }
    }
}
