import DiaryApp
import DiaryStore
import DiarySync
import DiaryTestSupport
import DiaryVault
import Foundation
import XCTest

/// The one way a command deletes (`delete`, an edit that empties an entry) tells sync first,
/// so the deletion reaches the other machines; an older state accepted is told to sync too.
final class DeletingTests: SessionTestCase {
    /// A vault that syncs with a folder remote, as `sync init` leaves it, with `entries`.
    private func syncedVault(entries: [String]) throws -> (Vault, [UUID]) {
        let vault = try makeVault(.files)
        let ids = try entries.map { try vault.add(text: $0).id }
        let remote = path("remote")
        try FileManager.default.createDirectory(at: remote, withIntermediateDirectories: true)
        _ = try SyncLifecycle.initialize(
            vault: vault, remote: .folder(remote.path), machineName: "here", passphrase: secret("correct horse"),
            stateDirectory: environment.stateDirectory)
        return (vault, ids)
    }

    func testADeletionReachesTheRemote() throws {
        let (vault, ids) = try syncedVault(entries: ["kept", "deleted"])
        try session(vault.directory).delete([ids[1]], from: vault)
        XCTAssertEqual(try vault.list().map(\.id), [ids[0]])
        let report = try SyncEngine(vault: vault, stateDirectory: environment.stateDirectory).sync()
        XCTAssertEqual(report.sent, 1)
        XCTAssertEqual(report.notes, [], "nothing fetched back")
        let code = try SyncMembership.invite(vault: vault, stateDirectory: environment.stateDirectory, name: "other")
        let (joined, _) = try SyncLifecycle.join(
            remote: .folder(path("remote").path), to: path("other"), store: .files, machineName: "other",
            passphrase: secret("correct horse"), invite: try InviteCode(text: code), stateDirectory: path("other-state")
        )
        XCTAssertEqual(try joined.list().map(\.id), [ids[0]])
    }

    func testAnOlderStateAcceptedIsToldToSync() throws {
        try olderCopyIsToldToSync { session, vault in try session.acceptOlderState(of: vault) }
    }

    func testARestoredVaultIsToldToSync() throws {
        try olderCopyIsToldToSync { session, vault in try session.restored(vault) }
    }

    /// An older copy of a synced vault put back in place, then `tell`: the next sync publishes
    /// its older copy of the entry beside the newer version.
    private func olderCopyIsToldToSync(_ tell: (DiarySession, Vault) throws -> Void) throws {
        let (vault, ids) = try syncedVault(entries: ["one"])
        let backup = path("copy")
        try FileManager.default.copyItem(at: vault.directory, to: backup)
        try vault.update(ids[0], text: "one, edited")
        _ = try SyncEngine(vault: vault, stateDirectory: environment.stateDirectory).sync()
        try FileManager.default.removeItem(at: vault.directory)
        try FileManager.default.copyItem(at: backup, to: vault.directory)
        let older = try Vault.open(at: vault.directory, passphrase: secret("correct horse"))
        try tell(session(older.directory), older)
        let report = try SyncEngine(vault: older, stateDirectory: environment.stateDirectory).sync()
        XCTAssertEqual(report.notes, [.olderEntriesPublishedBeside(count: 1)])
        XCTAssertEqual(report.conflicts, [ids[0]])
    }

    func testWithoutSyncADeletionIsOnlyADeletion() throws {
        let vault = try makeVault(.files)
        let id = try vault.add(text: "alone").id
        try session(vault.directory).delete([id], from: vault)
        try session(vault.directory).acceptOlderState(of: vault)
        XCTAssertEqual(try vault.list().count, 0)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: environment.stateDirectory.appendingPathComponent("sync").path))
    }
}
