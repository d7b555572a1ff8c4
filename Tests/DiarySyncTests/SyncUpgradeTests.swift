import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import DiaryVault
import Foundation
import XCTest

@testable import DiarySync

/// A format-1 remote becomes format 2 (issue 21: "an existing remote is upgraded by the first
/// machine that runs the new version"), and an upgrade cut short anywhere loses nothing.
final class SyncUpgradeTests: VaultTestCase {
    var remoteRoot: URL { path("remote") }
    var state: URL { path("state-laptop") }

    override func tearDown() {
        SyncFaults.hook = nil
        super.tearDown()
    }

    /// A machine as format 1 left it: its vault, a format-1 state, and a remote of format 1.
    private func formatOneMachine(entries: [String]) throws -> Vault {
        let vault = try makeVault(.sqlite, name: "laptop")
        for text in entries { _ = try vault.add(text: text) }
        let setup = SyncSetup(stateDirectory: state, vaultID: vault.id, vaultDirectory: vault.directory)
        try setup.makeDirectories()
        try setup.writeConfig(.folder(remoteRoot.path))
        let key = try SyncKey(vaultKey: vault.vaultKey, generation: vault.keyGeneration, vaultID: vault.id)
        // Format 1 sealed its state under a 16-byte key id; the rest does not matter here.
        try Data(key.formerID + [UInt8](repeating: 7, count: 200)).write(
            to: setup.directory.appendingPathComponent("state"))
        let machine = RemoteLayout.hex(UUID())
        try FileManager.default.createDirectory(
            at: remoteRoot.appendingPathComponent("log/\(machine)"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: remoteRoot.appendingPathComponent("keys"), withIntermediateDirectories: true)
        try Data("diary-sync 1\n\(vault.id.uuidString.lowercased())\n".utf8).write(
            to: remoteRoot.appendingPathComponent("diary-sync"))
        try Data([UInt8](repeating: 1, count: 700)).write(
            to: remoteRoot.appendingPathComponent("log/\(machine)/000000000001"))
        try Data([UInt8](repeating: 2, count: 300)).write(
            to: remoteRoot.appendingPathComponent("keys/\(machine)-000000000001.files"))
        return vault
    }

    private func upgrade(_ vault: Vault) throws {
        _ = try SyncUpgrade.upgrade(
            vault: vault, machineName: "laptop", passphrase: secret("correct horse"), stateDirectory: state)
    }

    /// What a machine joining the upgraded remote gets.
    func joinerTexts(_ vault: Vault, name: String) throws -> [String] {
        let code = try SyncMembership.invite(vault: vault, stateDirectory: state, name: name)
        let (joined, _) = try SyncLifecycle.join(
            remote: .folder(remoteRoot.path), to: path(name), store: .files, machineName: name,
            passphrase: secret("correct horse"), invite: try InviteCode(text: code),
            stateDirectory: path("state-\(name)"))
        return try joined.list().map { try joined.entry($0.id).text }.sorted()
    }

    func testAFormatOneMachineIsToldToUpgrade() throws {
        let vault = try formatOneMachine(entries: ["one"])
        XCTAssertThrowsError(try SyncEngine(vault: vault, stateDirectory: state)) {
            XCTAssertEqual($0 as? SyncError, .stateOfFormat1)
        }
    }

    func testAnUpgradePublishesEveryEntryAndOthersJoinWithAnInvite() throws {
        let vault = try formatOneMachine(entries: ["one", "two"])
        try upgrade(vault)
        let marker = try String(contentsOf: remoteRoot.appendingPathComponent("diary-sync"), encoding: .utf8)
        XCTAssertTrue(marker.hasPrefix("diary-sync 2\n"))
        XCTAssertFalse(
            try FileManager.default.contentsOfDirectory(atPath: remoteRoot.appendingPathComponent("keys").path)
                .contains { $0.hasSuffix("-000000000001.files") }, "format 1's files are gone")
        XCTAssertEqual(try joinerTexts(vault, name: "desktop"), ["one", "two"])
        XCTAssertThrowsError(try upgrade(vault)) { XCTAssertEqual($0 as? SyncError, .alreadyFormat2) }
    }

    /// A crash at each point of the upgrade, then the upgrade (or, once this machine's format-2
    /// state exists, a sync) run again: every entry reaches a machine that joins after.
    func testAnUpgradeCutShortAnywhereLosesNothing() throws {
        for point in ["upgrade.logsRemoved", "upgrade.format1Gone", "start.genesisWritten", "sync.published"] {
            try? FileManager.default.removeItem(at: remoteRoot)
            try? FileManager.default.removeItem(at: state)
            try? FileManager.default.removeItem(at: path("laptop"))
            try? FileManager.default.removeItem(at: path("desktop"))
            try? FileManager.default.removeItem(at: path("state-desktop"))
            let vault = try formatOneMachine(entries: ["one", "two", "three"])
            SyncFaults.hook = { if $0 == point { throw SyncFaults.Crash.crashed } }
            XCTAssertThrowsError(try upgrade(vault), point)
            SyncFaults.hook = nil
            do {
                try upgrade(vault)
            } catch SyncError.alreadyFormat2 {
                _ = try SyncEngine(vault: vault, stateDirectory: state).sync()
            }
            XCTAssertEqual(try joinerTexts(vault, name: "desktop"), ["one", "three", "two"], point)
        }
    }
}

extension SyncUpgradeTests {
    /// `sync init` cut short after its first statement reached an empty remote, before any
    /// marker: the next `sync init` starts afresh instead of refusing a remote that is "not
    /// empty".
    func testAStartCutShortBeforeItsMarkerIsStartedAgain() throws {
        let vault = try makeVault(.files, name: "fresh")
        _ = try vault.add(text: "kept")
        SyncFaults.hook = { if $0 == "start.genesisWritten" { throw SyncFaults.Crash.crashed } }
        XCTAssertThrowsError(
            try SyncLifecycle.initialize(
                vault: vault, remote: .folder(remoteRoot.path), machineName: "fresh",
                passphrase: secret("correct horse"),
                stateDirectory: state))
        SyncFaults.hook = nil
        _ = try SyncLifecycle.initialize(
            vault: vault, remote: .folder(remoteRoot.path), machineName: "fresh", passphrase: secret("correct horse"),
            stateDirectory: state)
        XCTAssertEqual(try joinerTexts(vault, name: "other"), ["kept"])
    }
}
