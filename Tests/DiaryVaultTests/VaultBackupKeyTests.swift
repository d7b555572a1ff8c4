import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// A backup opened with the vault key it was made under (the unlock agent's), not only with
/// the passphrase: what the header says without a key, and every key that is not that one
/// refused as `wrongKey` before anything is reported or written.
final class VaultBackupKeyTests: VaultTestCase {
    private func backedUp(_ kind: StoreKind) throws -> (Vault, URL) {
        let vault = try makeVault(kind)
        _ = try vault.add(text: "one")
        _ = try vault.add(text: "two")
        let file = path("k-\(kind.rawValue).diarybak")
        try vault.backup(to: file)
        return (vault, file)
    }

    func testTheHeaderNamesTheVaultAndTheKeyGenerationWithoutAKey() throws {
        let (vault, file) = try backedUp(.sqlite)
        XCTAssertEqual(
            try Vault.backupKeyInfo(file), BackupKeyInfo(vaultID: vault.id, keyGeneration: vault.keyGeneration))
    }

    func testTheVaultKeyVerifiesAndRestoresABackupMadeUnderIt() throws {
        forEachStoreKind { kind in
            let (vault, file) = try backedUp(kind)
            let key = BackupKey.vaultKey(vault.vaultKey, generation: vault.keyGeneration)
            let report = try Vault.verifyBackup(file, key: key)
            XCTAssertTrue(report.isClean)
            XCTAssertEqual(report.checkedEntries, 2)
            let restored = try Vault.restore(backup: file, to: path("r-\(kind.rawValue)"), key: key)
            XCTAssertEqual(restored.entryCount, 2)
            // The restored vault still opens with the backup's passphrase.
            XCTAssertEqual(try Vault.open(at: restored.directory, passphrase: secret("correct horse")).entryCount, 2)
            let salvaged = try Vault.salvage(backup: file, to: path("s-\(kind.rawValue)"), key: key)
            XCTAssertEqual(salvaged.vault.entryCount, 2)
        }
    }

    func testAnyOtherKeyIsWrongKeyAndWritesNothing() throws {
        let (vault, file) = try backedUp(.files)
        let other = try makeVault(.files, name: "other")
        let target = path("never")
        for key in [
            BackupKey.vaultKey(vault.vaultKey, generation: vault.keyGeneration + 1),
            BackupKey.vaultKey(other.vaultKey, generation: other.keyGeneration),
        ] {
            XCTAssertThrowsVaultError(.wrongKey, try Vault.verifyBackup(file, key: key))
            XCTAssertThrowsVaultError(.wrongKey, try Vault.restore(backup: file, to: target, key: key))
        }
        // Another store kind seals the header anew, which only the passphrase can do.
        XCTAssertThrowsVaultError(
            .wrongKey,
            try Vault.restore(
                backup: file, to: target, key: .vaultKey(vault.vaultKey, generation: vault.keyGeneration),
                store: .sqlite))
        XCTAssertFalse(FileManager.default.fileExists(atPath: target.path))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: target.deletingLastPathComponent().path)
        XCTAssertFalse(leftovers.contains { $0.hasPrefix(".tmp-restore-") }, "\(leftovers)")
    }

    func testAfterARotationTheNewKeyDoesNotOpenTheOlderBackup() throws {
        let (vault, file) = try backedUp(.sqlite)
        try vault.rotateKey(passphrase: secret("correct horse"))
        let rotated = try Vault.open(at: vault.directory, passphrase: secret("correct horse"))
        XCTAssertThrowsVaultError(
            .wrongKey,
            try Vault.verifyBackup(file, key: .vaultKey(rotated.vaultKey, generation: rotated.keyGeneration)))
        XCTAssertTrue(try Vault.verifyBackup(file, key: .passphrase(secret("correct horse"))).isClean)
    }
}
