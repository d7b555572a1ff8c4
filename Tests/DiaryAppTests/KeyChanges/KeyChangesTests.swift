import DiaryApp
import DiaryStore
import DiarySync
import DiaryTestSupport
import DiaryVault
import Foundation
import XCTest

/// One flow for passwd, rekey and a key followed in sync: the vault changes, sync is told (the
/// next sync publishes the change), and a running agent is handed the new key.
final class KeyChangesTests: SessionTestCase {
    private let newPassphrase = "seven quiet herons crossing a frozen lake"

    /// A vault that syncs with a folder remote, as `sync init` leaves it.
    private func syncedVault(_ kind: StoreKind) throws -> Vault {
        let vault = try makeVault(kind)
        let remote = path("remote")
        try FileManager.default.createDirectory(at: remote, withIntermediateDirectories: true)
        _ = try SyncLifecycle.initialize(
            vault: vault, remote: .folder(remote.path), machineName: "here", passphrase: secret("correct horse"),
            stateDirectory: environment.stateDirectory)
        return vault
    }

    /// `passwd --no-rekey`: the passphrase only.
    func testAPassphraseChangeWithoutRekeyTellsSyncAndLeavesTheAgentsKey() throws {
        let vault = try syncedVault(.sqlite)
        let agent = FakeAgent(running: true)
        let changes = KeyChanges(session(vault.directory, asker: ScriptedAsker(["correct horse"]), agent: agent))
        let outcome = try changes.changePassphrase(
            kdf: nil, new: NewPassphraseSource(fileOption: try passphraseFile(newPassphrase), allowWeak: false),
            rekey: false)
        XCTAssertEqual(outcome.vault, vault.directory)
        XCTAssertNil(outcome.syncNotTold as Error?)
        XCTAssertNil(outcome.rotation)
        XCTAssertTrue(agent.handed.isEmpty, "the vault key did not change")
        XCTAssertThrowsVaultError(
            .wrongPassphrase, try Vault.open(at: vault.directory, passphrase: secret("correct horse")))
        let reopened = try Vault.open(at: vault.directory, passphrase: secret(newPassphrase))
        let report = try SyncEngine(vault: reopened, stateDirectory: environment.stateDirectory).sync()
        XCTAssertTrue(report.keyChangePublished, "sync was told of the change")
    }

    /// `passwd` on a synced vault rotates the key too (issue 21): the old passphrase, and a key
    /// opened with it, read nothing written from then on.
    func testAPassphraseChangeOnASyncedVaultRotatesTheKey() throws {
        let vault = try syncedVault(.files)
        let before = vault.keyGeneration
        let agent = FakeAgent(running: true)
        let outcome = try KeyChanges(session(vault.directory, asker: ScriptedAsker(["correct horse"]), agent: agent))
            .changePassphrase(
                kdf: nil, new: NewPassphraseSource(fileOption: try passphraseFile(newPassphrase), allowWeak: false))
        XCTAssertEqual(outcome.rotation?.agentHoldsNewKey, true)
        let reopened = try Vault.open(at: vault.directory, passphrase: secret(newPassphrase))
        XCTAssertEqual(reopened.keyGeneration, before + 1)
        XCTAssertEqual(agent.handed.count, 1)
        let report = try SyncEngine(vault: reopened, stateDirectory: environment.stateDirectory).sync()
        XCTAssertTrue(report.keyChangePublished)
    }

    func testAWeakNewPassphraseChangesNothing() throws {
        let vault = try makeVault(.files)
        let changes = KeyChanges(session(vault.directory, asker: ScriptedAsker(["correct horse"])))
        XCTAssertThrowsError(
            try changes.changePassphrase(
                kdf: nil, new: NewPassphraseSource(fileOption: try passphraseFile("password1"), allowWeak: false))
        ) { error in
            XCTAssertEqual(error as? AppError, .weakPassphrase(.common))
        }
        XCTAssertNoThrow(try Vault.open(at: vault.directory, passphrase: secret("correct horse")))
    }

    func testARotationTellsSyncAndHandsTheAgentTheNewKey() throws {
        let vault = try syncedVault(.files)
        _ = try vault.add(text: "sealed again")
        let before = vault.keyGeneration
        let agent = FakeAgent(running: true)
        let outcome = try KeyChanges(session(vault.directory, asker: ScriptedAsker(["correct horse"]), agent: agent))
            .rotateKey()
        XCTAssertTrue(outcome.agentHoldsNewKey)
        XCTAssertEqual(outcome.unsealable, [])
        XCTAssertEqual(agent.handed.map(\.generation), [before + 1])
        XCTAssertEqual(agent.handed.map(\.vaultID), [vault.id])
        let reopened = try Vault.open(at: vault.directory, passphrase: secret("correct horse"))
        XCTAssertEqual(reopened.keyGeneration, before + 1)
        XCTAssertEqual(try reopened.list().count, 1)
        let report = try SyncEngine(vault: reopened, stateDirectory: environment.stateDirectory).sync()
        XCTAssertTrue(report.keyChangePublished, "sync was told of the new key")
    }

    func testWithoutAnAgentTheRotationSaysSo() throws {
        let vault = try makeVault(.sqlite)
        let outcome = try KeyChanges(session(vault.directory, asker: ScriptedAsker(["correct horse"]))).rotateKey()
        XCTAssertFalse(outcome.agentHoldsNewKey)
        XCTAssertFalse(events.contains(.finishingInterruptedRotation))
    }

    func testAKeyFollowedInSyncIsHandedToTheAgent() throws {
        let vault = try makeVault(.sqlite)
        let agent = FakeAgent(running: true)
        XCTAssertTrue(try KeyChanges(session(vault.directory, agent: agent)).keyFollowed(vault))
        XCTAssertEqual(agent.handed.map(\.generation), [vault.keyGeneration])
        XCTAssertFalse(try KeyChanges(session(vault.directory, agent: FakeAgent())).keyFollowed(vault))
    }
}
