import DiaryApp
import DiaryTestSupport
import DiaryVault
import Foundation
import XCTest

/// The key-source order: the agent's key if it holds this vault's, else the passphrase file,
/// else the asker (three tries), else `locked`.
final class KeySourceTests: SessionTestCase {
    func testTheAgentsKeyOpensWithoutAskingAnything() throws {
        let vault = try makeVault(.sqlite)
        let key = vault.vaultKey
        let asker = ScriptedAsker(["never asked"])
        let agent = FakeAgent { .key(key, generation: vault.keyGeneration, vaultID: vault.id) }
        let opened = try session(vault.directory, asker: asker, agent: agent).open()
        XCTAssertEqual(opened.id, vault.id)
        XCTAssertTrue(asker.asked.isEmpty)
        XCTAssertEqual(events, [])
    }

    func testAnotherVaultsKeyFallsThroughToThePassphraseFile() throws {
        let vault = try makeVault(.sqlite)
        let other = try makeVault(.sqlite, name: "other")
        let agent = FakeAgent { .key(other.vaultKey, generation: other.keyGeneration, vaultID: other.id) }
        let asker = ScriptedAsker(["never asked"])
        let file = try passphraseFile("correct horse")
        XCTAssertEqual(
            try session(vault.directory, asker: asker, agent: agent, passphraseFile: file).open().id, vault.id)
        XCTAssertTrue(asker.asked.isEmpty, "the file comes before the asker")
    }

    func testAWrongPassphraseFileFailsAtOnce() throws {
        let vault = try makeVault(.files)
        let asker = ScriptedAsker(["correct horse"])
        let file = try passphraseFile("wrong")
        XCTAssertThrowsVaultError(
            .wrongPassphrase, try session(vault.directory, asker: asker, passphraseFile: file).open())
        XCTAssertTrue(asker.asked.isEmpty)
    }

    func testTheAskerHasThreeTries() throws {
        let vault = try makeVault(.sqlite)
        let asker = ScriptedAsker(["one", "two", "correct horse"])
        XCTAssertEqual(try session(vault.directory, asker: asker).open().id, vault.id)
        XCTAssertEqual(asker.asked.map(\.attempt), [1, 2, 3])
        XCTAssertEqual(asker.asked.first?.reason, .unlock(path: vault.directory.path))

        let wrong = ScriptedAsker(["one", "two", "three", "correct horse"])
        XCTAssertThrowsVaultError(.wrongPassphrase, try session(vault.directory, asker: wrong).open())
        XCTAssertEqual(wrong.asked.count, 3, "a fourth is never asked for")
    }

    func testWithNoOneToAskTheVaultIsLocked() throws {
        let vault = try makeVault(.sqlite)
        XCTAssertThrowsError(try session(vault.directory).open()) { error in
            XCTAssertEqual(error as? AppError, .locked(vault: vault.directory.path))
        }
    }

    func testABusyAgentIsSaidAndThePassphraseUsed() throws {
        let vault = try makeVault(.sqlite)
        let opened = try session(vault.directory, asker: ScriptedAsker(["correct horse"]), agent: FakeAgent { .busy })
            .open()
        XCTAssertEqual(opened.id, vault.id)
        XCTAssertEqual(events, [.agentBusyUsingPassphrase])
    }

    func testABusyAgentWithNothingToFallBackOnIsNotLocked() throws {
        let vault = try makeVault(.sqlite)
        XCTAssertThrowsError(try session(vault.directory, agent: FakeAgent { .busy }).open()) { error in
            XCTAssertEqual(error as? AppError, .agentBusy(vault: vault.directory.path))
        }
    }

    /// A rotation interrupted after the agent got its key: the key (one generation) cannot open
    /// the vault, which needs them all. With nothing to ask, the error says so, not "locked"
    /// (a user told to unlock a vault `status` calls unlocked goes round in circles); with an
    /// asker, the passphrase opens it and the rotation is said.
    func testAnInterruptedRotationIsSaidNotCalledLocked() throws {
        let vault = try makeVault(.files)
        let (key, generation) = (try vault.vaultKey.slice(0..<vault.vaultKey.count), vault.keyGeneration)
        struct Stop: Error {}
        XCTAssertThrowsError(
            try vault.rotateKey(passphrase: secret("correct horse"), beforeRetiring: { _ in throw Stop() }))
        let agent = FakeAgent { .key(key, generation: generation, vaultID: vault.id) }
        XCTAssertThrowsError(try session(vault.directory, agent: agent).open()) { error in
            XCTAssertEqual(error as? AppError, .lockedMidRotation(vault: vault.directory.path))
        }
        let opened = try session(vault.directory, asker: ScriptedAsker(["correct horse"]), agent: agent).open()
        XCTAssertTrue(opened.rotationInterrupted)
        XCTAssertEqual(events, [.rotationInterrupted])
    }

    func testAWeakNewPassphraseIsRefusedUnlessAllowedThenSaid() throws {
        let vault = try makeVault(.sqlite)
        let weak = try passphraseFile("abcabcabc")
        XCTAssertThrowsError(try session(vault.directory).newPassphrase(fileOption: weak, allowWeak: false)) { error in
            guard case .weakPassphrase(.repeatedUnit)? = error as? AppError else { return XCTFail("\(error)") }
        }
        _ = try session(vault.directory).newPassphrase(fileOption: weak, allowWeak: true)
        guard case .weakPassphraseAllowed(.repeatedUnit)? = events.last else { return XCTFail("\(events)") }
        XCTAssertThrowsError(try session(vault.directory).newPassphrase(fileOption: nil, allowWeak: false)) { error in
            XCTAssertEqual(error as? AppError, .noTerminalForNewPassphrase)
        }
    }

    func testAPassphraseFileOpenToOthersIsUsedAndSaid() throws {
        let vault = try makeVault(.sqlite)
        let file = try passphraseFile("correct horse")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
        _ = try session(vault.directory, passphraseFile: file).open()
        XCTAssertEqual(events, [.passphraseFileTooOpen(path: file, mode: 0o644)])
    }
}
