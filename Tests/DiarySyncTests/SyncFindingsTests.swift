import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import DiaryVault
import Foundation
import XCTest

@testable import DiarySync

/// What a sync reports about a folder remote, as values: findings that stop it, notes that do
/// not, and the problems that make a remote unusable.
final class SyncFindingsTests: VaultTestCase {
    private var vault: Vault!
    private var remote: URL { path("remote") }
    private var state: URL { path("state") }
    private var tree: RemoteTree { RemoteTree(root: remote) }

    /// A vault with one entry that syncs with a folder, after its first sync.
    private func startSyncing() throws {
        vault = try makeVault(.sqlite)
        _ = try vault.add(text: "first entry")
        let report = try SyncLifecycle.initialize(
            vault: vault, remote: .folder(remote.path), machineName: "laptop", passphrase: secret("correct horse"),
            stateDirectory: state)
        XCTAssertEqual(report.sent, 1)
    }

    private func sync() throws -> SyncReport { try SyncEngine(vault: vault, stateDirectory: state).sync() }

    private func assertSyncFails(_ expected: SyncError, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try sync(), file: file, line: line) { error in
            XCTAssertEqual(error as? SyncError, expected, "\(error)", file: file, line: line)
        }
    }

    private var ownLog: String { "log/" + tree.logFolders()[0] }

    func testAMarkerGoneAfterRecordsWereReadIsAFinding() throws {
        try startSyncing()
        XCTAssertTrue(tree.remove(RemoteLayout.marker))
        assertSyncFails(.untrustedRemote([.markerGone(file: "diary-sync")]))
    }

    func testAForgedMarkerMakesTheRemoteUnusable() throws {
        try startSyncing()
        try tree.write(Array("diary-sync 9\n\(vault.id.uuidString.lowercased())\n".utf8), to: RemoteLayout.marker)
        assertSyncFails(.remoteUnusable(.unknownMarker(path: tree.url(RemoteLayout.marker).path)))
    }

    func testAMarkerOfAnotherVaultIsRefused() throws {
        try startSyncing()
        let other = UUID()
        try tree.writeMarker(vaultID: other)
        assertSyncFails(.otherVault(other))
    }

    func testARemovedRecordIsAFindingThatNamesTheMachine() throws {
        try startSyncing()
        XCTAssertTrue(tree.remove("\(ownLog)/000000000001"))
        assertSyncFails(.untrustedRemote([.recordRemoved(machine: "laptop", seq: 1, readUpTo: 1)]))
    }

    func testARecordReplacedByAnotherIsAFinding() throws {
        try startSyncing()
        let path = "\(ownLog)/000000000001"
        var bytes = try XCTUnwrap(tree.read(path, limit: RecordCodec.maximumFileBytes))
        bytes[bytes.count - 1] ^= 1
        XCTAssertTrue(tree.remove(path))
        try tree.write(bytes, to: path)
        assertSyncFails(.untrustedRemote([.recordReplaced(machine: "laptop", seq: 1)]))
    }

    func testStrayFilesAreNotesAndAnIdenticalConflictCopyIsRemoved() throws {
        try startSyncing()
        let record = "\(ownLog)/000000000001"
        let copy = "\(record) (1)"
        try tree.write(try XCTUnwrap(tree.read(record, limit: RecordCodec.maximumFileBytes)), to: copy)
        try tree.write(Array("hello".utf8), to: "notes.txt")
        let report = try sync()
        XCTAssertEqual(report.notes, [.identicalRecordCopyRemoved(path: copy), .unexpectedFile(path: "notes.txt")])
        XCTAssertNil(tree.stamp(copy))
        XCTAssertNotNil(tree.stamp("notes.txt"), "a file the layout has no place for is left alone")
    }

    func testAFolderHoldingOtherFilesCannotBecomeARemote() throws {
        vault = try makeVault(.files)
        try FileManager.default.createDirectory(at: remote, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: remote.appendingPathComponent("photo.jpg"))
        XCTAssertThrowsError(
            try SyncLifecycle.initialize(
                vault: vault, remote: .folder(remote.path), machineName: "laptop", passphrase: secret("correct horse"),
                stateDirectory: state)
        ) { error in
            XCTAssertEqual(error as? SyncError, .remoteUnusable(.notEmptyAndNoMarker(path: tree.root.path)))
        }
    }

    func testJoiningAFolderWithoutAMarkerFindsNothingToJoin() throws {
        try FileManager.default.createDirectory(at: remote, withIntermediateDirectories: true)
        XCTAssertThrowsError(
            try SyncLifecycle.join(
                remote: .folder(remote.path), to: path("joined"), store: .files, machineName: "desktop",
                passphrase: secret("correct horse"),
                invite: try InviteCode.draw(head: [UInt8](repeating: 0, count: 32)),
                stateDirectory: state)
        ) { error in
            XCTAssertEqual(error as? SyncError, .remoteUnusable(.nothingToJoin(markerFile: "diary-sync")))
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("joined").path), "nothing is left behind")
    }
}
