import Foundation

extension SyncLifecycle {
    /// Refuses what `initialize` would refuse before it needs any key: a vault that already
    /// syncs here, a git remote that cannot be reached (or is missing), a folder that holds
    /// other files or another vault, a remote of this vault without an invite.
    ///
    /// Why: `sync init` asks for the passphrase (Argon2id costs about a second, and a person's
    /// typing); a refusal that needs none of it comes first. A git remote is asked for its refs
    /// (`git ls-remote`); one that holds commits is cloned now, as the start would clone it
    /// after the question anyway, so that its marker (another vault, this vault without an
    /// invite) is read first. The clone comes back in the `StartCheck` for `initialize`.
    @discardableResult
    public static func checkBeforeStart(
        vaultID: UUID, vaultDirectory: URL, remote: RemoteLocation, stateDirectory: URL, hasInvite: Bool
    ) throws -> StartCheck {
        let setup = SyncSetup(stateDirectory: stateDirectory, vaultID: vaultID, vaultDirectory: vaultDirectory)
        if let existing = try setup.remote() { throw SyncError.alreadySetUp(remote: existing.description) }
        switch remote {
        case .git(let url):
            let refs = try GitRemote.run(["ls-remote", "--quiet", "--", url], in: nil)
            guard !refs.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return StartCheck(scratch: nil) }
            let check = StartCheck(
                scratch: stateDirectory.appendingPathComponent("sync", isDirectory: true)
                    .appendingPathComponent(".start-\(UUID().uuidString.lowercased())", isDirectory: true))
            do {
                try SyncSetup.makeDirectories(check.scratch!)
                try GitRemote(url: url, tree: check.clone!).cloneIfNeeded()
                let fresh = try checkUsable(RemoteTree(root: check.clone!), vaultID: vaultID)
                if !fresh, !hasInvite { throw SyncError.inviteNeeded }
            } catch {
                check.discard()
                throw error
            }
            return check
        case .folder(let path):
            let root = URL(fileURLWithPath: path, isDirectory: true)
            // A missing folder is made by the start itself (the CLI refuses one first: a typo).
            guard FileManager.default.fileExists(atPath: root.path) else { return StartCheck(scratch: nil) }
            let fresh = try checkUsable(RemoteTree(root: root), vaultID: vaultID)
            if !fresh, !hasInvite { throw SyncError.inviteNeeded }
            return StartCheck(scratch: nil)
        }
    }
}

/// What `SyncLifecycle.checkBeforeStart` fetched: the clone of a git remote that holds commits,
/// in a scratch directory under the state directory, for `initialize` to take instead of
/// cloning again. `discard()` removes what is left of it (the start moved the clone away, or
/// did not happen).
public struct StartCheck: Sendable {
    let scratch: URL?

    var clone: URL? { scratch?.appendingPathComponent("git", isDirectory: true) }

    public func discard() {
        if let scratch { try? FileManager.default.removeItem(at: scratch) }
    }
}
