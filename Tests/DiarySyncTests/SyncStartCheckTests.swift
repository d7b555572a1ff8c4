import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import DiaryVault
import Foundation
import XCTest

@testable import DiarySync

/// What `sync init` and `sync join` refuse before any passphrase is asked for: the checks run
/// without a key, and a join asks (through its `openingHeader`) only once the remote holds a
/// vault.
final class SyncStartCheckTests: VaultTestCase {
    private var state: URL { path("state") }

    private func check(_ vault: Vault, _ remote: RemoteLocation, hasInvite: Bool = false) throws {
        try SyncLifecycle.checkBeforeStart(
            vaultID: vault.id, vaultDirectory: vault.directory, remote: remote, stateDirectory: state,
            hasInvite: hasInvite)
    }

    func testAnEmptyOrMissingFolderAndAnEmptyGitRepositoryPass() throws {
        let vault = try makeVault(.sqlite)
        try check(vault, .folder(path("not-yet").path))
        try FileManager.default.createDirectory(at: path("empty"), withIntermediateDirectories: true)
        try check(vault, .folder(path("empty").path))
        _ = try GitRemote.run(["init", "--quiet", "--bare", path("empty.git").path], in: nil)
        try check(vault, .git(path("empty.git").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("not-yet").path), "a check writes nothing")
    }

    func testAVaultThatSyncsAlreadyIsRefusedWithItsRemote() throws {
        let vault = try makeVault(.sqlite)
        _ = try SyncLifecycle.initialize(
            vault: vault, remote: .folder(path("remote").path), machineName: "a", passphrase: secret("correct horse"),
            stateDirectory: state)
        XCTAssertThrowsError(try check(vault, .folder(path("other").path))) { error in
            guard case .alreadySetUp(let remote)? = error as? SyncError else { return XCTFail("\(error)") }
            XCTAssertEqual(remote, RemoteLocation.folder(path("remote").path).description)
        }
    }

    func testAMissingGitRepositoryIsRefusedWithGitsLinesOnePerLine() throws {
        let vault = try makeVault(.sqlite)
        XCTAssertThrowsError(try check(vault, .git(path("nowhere.git").path))) { error in
            guard case .remoteUnusable(.gitFailed("ls-remote", let message?, _))? = error as? SyncError else {
                return XCTFail("\(error)")
            }
            XCTAssertTrue(message.contains("\n"), message)
            XCTAssertFalse(message.contains("; "), message)
        }
    }

    func testAFolderOfThisVaultNeedsAnInviteAndOneOfAnotherVaultIsRefused() throws {
        let vault = try makeVault(.sqlite)
        _ = try SyncLifecycle.initialize(
            vault: vault, remote: .folder(path("remote").path), machineName: "a", passphrase: secret("correct horse"),
            stateDirectory: path("first-state"))
        XCTAssertThrowsError(try check(vault, .folder(path("remote").path))) {
            XCTAssertEqual($0 as? SyncError, .inviteNeeded)
        }
        try check(vault, .folder(path("remote").path), hasInvite: true)
        let other = try makeVault(.sqlite, name: "other")
        XCTAssertThrowsError(try check(other, .folder(path("remote").path))) {
            XCTAssertEqual($0 as? SyncError, .otherVault(vault.id))
        }
    }

    /// A git remote with commits is cloned by the check, so another vault there is refused
    /// before any key; the clone of this vault's remote is what `initialize` then takes.
    func testAGitRemoteOfAnotherVaultIsRefusedAndThisVaultsCloneIsTakenByTheStart() throws {
        let vault = try makeVault(.sqlite)
        let remote = RemoteLocation.git(path("remote.git").path)
        _ = try GitRemote.run(["init", "--quiet", "--bare", path("remote.git").path], in: nil)
        _ = try SyncLifecycle.initialize(
            vault: vault, remote: remote, machineName: "a", passphrase: secret("correct horse"),
            stateDirectory: path("first-state"))
        let other = try makeVault(.sqlite, name: "other")
        XCTAssertThrowsError(try check(other, remote)) { XCTAssertEqual($0 as? SyncError, .otherVault(vault.id)) }
        let scratch = state.appendingPathComponent("sync")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: scratch.path)) ?? []
        XCTAssertEqual(left.filter { $0.hasPrefix(".start-") }, [], "a refused check leaves no clone")

        let fresh = try makeVault(.sqlite, name: "fresh")
        _ = try GitRemote.run(["init", "--quiet", "--bare", path("fresh.git").path], in: nil)
        let checked = try SyncLifecycle.checkBeforeStart(
            vaultID: vault.id, vaultDirectory: vault.directory, remote: remote, stateDirectory: state,
            hasInvite: true)
        XCTAssertNotNil(checked.clone, "a remote with commits is cloned")
        XCTAssertTrue(FileManager.default.fileExists(atPath: checked.clone!.appendingPathComponent(".git").path))
        checked.discard()
        XCTAssertNil(
            try SyncLifecycle.checkBeforeStart(
                vaultID: fresh.id, vaultDirectory: fresh.directory, remote: .git(path("fresh.git").path),
                stateDirectory: state, hasInvite: false
            ).clone, "an empty repository is not cloned")
    }

    func testAJoinAsksForThePassphraseOnlyOnceTheRemoteHoldsAVault() throws {
        let vault = try makeVault(.sqlite)
        _ = try SyncLifecycle.initialize(
            vault: vault, remote: .folder(path("remote").path), machineName: "a", passphrase: secret("correct horse"),
            stateDirectory: state)
        let code = try InviteCode(text: try SyncMembership.invite(vault: vault, stateDirectory: state, name: "b"))
        var asked = 0
        XCTAssertThrowsError(
            try SyncLifecycle.join(
                remote: .git(path("nowhere.git").path), to: path("joined"), store: .files, machineName: "b",
                invite: code, stateDirectory: path("state-b"),
                openingHeader: { open in
                    asked += 1
                    return (try open(self.secret("correct horse")), self.secret("correct horse"))
                }))
        XCTAssertEqual(asked, 0)

        // A wrong passphrase, then the right one: the opening decides how often to ask.
        var tried: [String] = []
        let (joined, _) = try SyncLifecycle.join(
            remote: .folder(path("remote").path), to: path("joined"), store: .files, machineName: "b", invite: code,
            stateDirectory: path("state-b"),
            openingHeader: { open in
                for candidate in ["not it", "correct horse"] {
                    tried.append(candidate)
                    if let header = try? open(self.secret(candidate)) { return (header, self.secret(candidate)) }
                }
                throw VaultError.wrongPassphrase
            })
        XCTAssertEqual(tried, ["not it", "correct horse"])
        XCTAssertEqual(joined.id, vault.id)
    }
}
