import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// `SealedVault`: one store opened for the header and then for the key, run against both stores.
final class VaultOpeningTests: VaultTestCase {
    func testSealedVaultTellsTheHeaderAndOpensWithTheAgentKey() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let e = try vault.add(text: "via key")
            let sealed = try SealedVault(at: vault.directory)
            XCTAssertEqual(sealed.info, try Vault.inspect(at: vault.directory))
            let opened = try sealed.open(vaultKey: vault.vaultKey, keyGeneration: vault.keyGeneration)
            XCTAssertEqual(try opened.entry(e.id).text, "via key")
        }
    }

    func testWrongAgentKeyIsRefusedAndTheSameSealedVaultThenOpensWithThePassphrase() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let e = try vault.add(text: "after a refusal")
            let sealed = try SealedVault(at: vault.directory)
            XCTAssertThrowsVaultError(
                .wrongKey, try sealed.open(vaultKey: SecretBytes(randomCount: 32), keyGeneration: vault.keyGeneration))
            XCTAssertThrowsVaultError(
                .wrongKey, try sealed.open(vaultKey: vault.vaultKey, keyGeneration: vault.keyGeneration + 1))
            XCTAssertThrowsVaultError(.wrongPassphrase, try sealed.open(passphrase: secret("wrong")))
            let opened = try sealed.open(passphrase: secret("correct horse"))
            XCTAssertEqual(try opened.entry(e.id).text, "after a refusal")
        }
    }

    func testAPassphraseChangedAfterInspectionIsTheOneThatOpens() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let sealed = try SealedVault(at: vault.directory)
            // Another process runs `passwd` while this one waits at its prompt.
            try vault.changePassphrase(current: secret("correct horse"), new: secret("changed meanwhile"))
            XCTAssertThrowsVaultError(.wrongPassphrase, try sealed.open(passphrase: secret("correct horse")))
            XCTAssertEqual(try sealed.open(passphrase: secret("changed meanwhile")).id, vault.id)
        }
    }

    func testMissingVaultIsRefusedBeforeAnyKey() throws {
        XCTAssertThrowsError(try SealedVault(at: path("nowhere")))
    }
}
