import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// The recovery key (docs/FORMAT.md §3, §7): it outlives `passwd` and `rekey`, resets the
/// passphrase, and a header edited or put back by someone with file access is refused.
final class RecoveryKeyTests: VaultTestCase {
    private let passphrase = "correct horse"

    private func headerBytes(_ vault: Vault) throws -> [UInt8] { try vault.backend.readHeader() }

    /// The version byte of the sealed index root as stored.
    /// The stored root's version byte and the recovery epoch it records (root version 5
    /// always carries the epoch; 0 when the vault never had a recovery key).
    private func rootVersion(_ vault: Vault) throws -> (version: UInt8, epoch: UInt32) {
        let sealed = try XCTUnwrap(try vault.backend.readIndex())
        let plaintext = try Envelope.open(
            sealed, kind: .index, objectID: Envelope.indexObjectID, vaultID: vault.id, keyRing: vault.keyRing)
        return (plaintext[0], try IndexRoot.decode(plaintext).recovery.epoch)
    }

    func testVaultWithoutRecoveryKeyKeepsVersionOneBytes() throws {
        try forEachStoreKind { kind in
            let vault = try makeVault(kind)
            _ = try vault.add(text: "one")
            try vault.changePassphrase(current: secret(passphrase), new: secret("second"))
            try vault.rotateKey(passphrase: secret("second"))
            let bytes = try headerBytes(vault)
            XCTAssertEqual(Array(bytes[8..<10]), [0, 1])
            XCTAssertEqual(bytes.count, 61 + 76 + 32, "version 1 layout, one slot")
            XCTAssertEqual(try VaultHeader.decode(bytes).encoded(), bytes)
            XCTAssertEqual(try rootVersion(vault).version, 5)
            XCTAssertEqual(try rootVersion(vault).epoch, 0)
            XCTAssertEqual(vault.recoveryStatus, .none)
        }
    }

    func testRecoveryKeyMadeBeforeTwoPasswdsAndARekeyStillResetsThePassphrase() throws {
        try forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let ids = try (0..<5).map { try vault.add(text: "entry \($0)").id }
            let key = try RecoveryKey.generate()
            _ = try vault.setRecoveryKey(publicKeyOf: key, replace: false, passphrase: secret(passphrase))
            XCTAssertEqual(Array(try headerBytes(vault)[8..<10]), [0, 2])
            XCTAssertEqual(try rootVersion(vault).version, 5)
            XCTAssertEqual(try rootVersion(vault).epoch, 1)
            try vault.changePassphrase(current: secret(passphrase), new: secret("second"))
            try vault.changePassphrase(current: secret("second"), new: secret("third"))
            try vault.rotateKey(passphrase: secret("third"))
            XCTAssertEqual(vault.keyGeneration, 2)
            guard case .active(epoch: 1, _) = vault.recoveryStatus else {
                return XCTFail("\(vault.recoveryStatus)")
            }
            let text = key.text
            _ = try Vault.resetPassphrase(
                at: vault.directory, recoveryKey: try RecoveryKey(text: text.lowercased()), new: secret("reset"),
                kdf: .insecureForTesting)
            XCTAssertThrowsVaultError(
                .wrongPassphrase, try Vault.open(at: vault.directory, passphrase: secret("third")))
            let reopened = try Vault.open(at: vault.directory, passphrase: secret("reset"))
            XCTAssertEqual(try ids.map { try reopened.entry($0).text }, (0..<5).map { "entry \($0)" })
            XCTAssertEqual(reopened.recoveryStatus, vault.recoveryStatus)
            // The block outlives the reset too: the key opens the vault again.
            _ = try Vault.resetPassphrase(at: vault.directory, recoveryKey: key, new: secret("again"))
            XCTAssertEqual(try Vault.open(at: vault.directory, passphrase: secret("again")).list().count, 5)
        }
    }

    func testResetMidRotationOpensBothGenerations() throws {
        let vault = try makeVault(.files)
        _ = try vault.add(text: "kept")
        let key = try RecoveryKey.generate()
        _ = try vault.setRecoveryKey(publicKeyOf: key, replace: false, passphrase: secret(passphrase))
        struct Stop: Error {}
        XCTAssertThrowsError(try vault.rotateKey(passphrase: secret(passphrase), beforeRetiring: { _ in throw Stop() }))
        XCTAssertEqual(try VaultHeader.decode(try headerBytes(vault)).recovery?.slots.map(\.generation), [1, 2])
        _ = try Vault.resetPassphrase(at: vault.directory, recoveryKey: key, new: secret("new one"))
        let reopened = try Vault.open(at: vault.directory, passphrase: secret("new one"))
        XCTAssertTrue(reopened.rotationInterrupted)
        try reopened.rotateKey(passphrase: secret("new one"))
        XCTAssertEqual(try reopened.list().map(\.title), ["kept"])
    }

    func testCreateRefusesAnExistingKeyUnlessReplacedAndTheOldKeyStopsWorking() throws {
        let vault = try makeVault(.sqlite)
        let first = try RecoveryKey.generate()
        _ = try vault.setRecoveryKey(publicKeyOf: first, replace: false, passphrase: secret(passphrase))
        XCTAssertThrowsVaultError(
            .recoveryKeyExists,
            try vault.setRecoveryKey(
                publicKeyOf: RecoveryKey.generate(), replace: false, passphrase: secret(passphrase)))
        XCTAssertThrowsVaultError(
            .wrongPassphrase,
            try vault.setRecoveryKey(publicKeyOf: RecoveryKey.generate(), replace: true, passphrase: secret("nope")))
        let second = try RecoveryKey.generate()
        _ = try vault.setRecoveryKey(publicKeyOf: second, replace: true, passphrase: secret(passphrase))
        guard case .active(epoch: 2, let fingerprint) = vault.recoveryStatus else {
            return XCTFail("\(vault.recoveryStatus)")
        }
        XCTAssertEqual(fingerprint, RecoveryKey.fingerprint(ofPublicKey: try second.publicKey))
        XCTAssertThrowsVaultError(
            .wrongRecoveryKey, try Vault.resetPassphrase(at: vault.directory, recoveryKey: first, new: secret("x")))
        XCTAssertTrue(try Vault.recoveryKeyMatches(at: vault.directory, second))
        XCTAssertFalse(try Vault.recoveryKeyMatches(at: vault.directory, first))
    }

    func testRemovedKeyNoLongerResets() throws {
        try forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let key = try RecoveryKey.generate()
            _ = try vault.setRecoveryKey(publicKeyOf: key, replace: false, passphrase: secret(passphrase))
            _ = try vault.removeRecoveryKey(passphrase: secret(passphrase))
            XCTAssertEqual(vault.recoveryStatus, .removed(epoch: 2))
            XCTAssertThrowsVaultError(
                .noRecoveryKey, try Vault.resetPassphrase(at: vault.directory, recoveryKey: key, new: secret("x")))
            XCTAssertThrowsVaultError(.noRecoveryKey, try vault.removeRecoveryKey(passphrase: secret(passphrase)))
            try vault.rotateKey(passphrase: secret(passphrase))
            let reopened = try Vault.open(at: vault.directory, passphrase: secret(passphrase))
            XCTAssertEqual(reopened.recoveryStatus, .removed(epoch: 2))
            XCTAssertEqual(try VaultHeader.decode(try headerBytes(vault)).recovery?.slots, [])
        }
    }

    /// Someone with file access swaps the public key (and the boxes) and recomputes the
    /// checksum: no open accepts the header, and a rotation seals nothing to the new key.
    func testSwappedPublicKeyIsRefusedBeforeAnythingIsSealedToIt() throws {
        try forEachStoreKind { kind in
            let vault = try makeVault(kind)
            _ = try vault.add(text: "secret")
            _ = try vault.setRecoveryKey(
                publicKeyOf: RecoveryKey.generate(), replace: false, passphrase: secret(passphrase))
            let attacker = try BoxKeyPair(seed: SecretBytes(randomCount: 32))
            var forged = try VaultHeader.decode(try headerBytes(vault))
            forged.recovery?.publicKey = attacker.publicKey
            forged.recovery?.slots = try forged.slots.map {
                .init(
                    generation: $0.generation,
                    box: try SealedBox.seal(SecretBytes(randomCount: 52), to: attacker.publicKey))
            }
            try vault.backend.apply(StoreChange(header: forged.encoded()))
            XCTAssertThrowsVaultError(
                .recoveryKeyMismatch,
                try Vault.open(at: vault.directory, vaultKey: vault.vaultKey, keyGeneration: vault.keyGeneration))
            // The passphrase slots bind the block: the passphrase no longer opens them either.
            XCTAssertThrowsVaultError(
                .wrongPassphrase, try Vault.open(at: vault.directory, passphrase: secret(passphrase)))
            XCTAssertThrowsError(try vault.rotateKey(passphrase: secret(passphrase)))
            XCTAssertThrowsError(try vault.add(text: "more"))
            XCTAssertEqual(try headerBytes(vault), forged.encoded(), "nothing was sealed to the swapped key")
        }
    }

    /// An old header put back after `create --replace` has a valid tag and slots that open:
    /// the epoch the index root records refuses it.
    func testOldHeaderPutBackAfterReplaceIsRefused() throws {
        try forEachStoreKind { kind in
            let vault = try makeVault(kind)
            _ = try vault.setRecoveryKey(
                publicKeyOf: RecoveryKey.generate(), replace: false, passphrase: secret(passphrase))
            let old = try headerBytes(vault)
            _ = try vault.setRecoveryKey(
                publicKeyOf: RecoveryKey.generate(), replace: true, passphrase: secret(passphrase))
            try vault.backend.apply(StoreChange(header: old))
            XCTAssertThrowsVaultError(
                .recoveryKeyMismatch, try Vault.open(at: vault.directory, passphrase: secret(passphrase)))
            XCTAssertThrowsVaultError(
                .recoveryKeyMismatch,
                try Vault.open(at: vault.directory, vaultKey: vault.vaultKey, keyGeneration: vault.keyGeneration))
            XCTAssertThrowsError(try vault.rotateKey(passphrase: secret(passphrase)))
            XCTAssertEqual(try headerBytes(vault), old)
        }
    }

    /// A header of version 1 put back over a vault that had a recovery key: refused too.
    func testVersionOneHeaderPutBackIsRefused() throws {
        let vault = try makeVault(.files)
        let old = try headerBytes(vault)
        _ = try vault.setRecoveryKey(
            publicKeyOf: RecoveryKey.generate(), replace: false, passphrase: secret(passphrase))
        try vault.backend.apply(StoreChange(header: old))
        XCTAssertThrowsVaultError(
            .recoveryKeyMismatch, try Vault.open(at: vault.directory, passphrase: secret(passphrase)))
    }

    func testReindexKeepsTheHeadersRecoveryKey() throws {
        let vault = try makeVault(.files)
        _ = try vault.add(text: "one")
        let key = try RecoveryKey.generate()
        _ = try vault.setRecoveryKey(publicKeyOf: key, replace: false, passphrase: secret(passphrase))
        try vault.reindex()
        let reopened = try Vault.open(at: vault.directory, passphrase: secret(passphrase))
        XCTAssertEqual(try rootVersion(reopened).version, 5)
        XCTAssertEqual(try rootVersion(reopened).epoch, 1)
        XCTAssertEqual(reopened.recoveryStatus, vault.recoveryStatus)
    }

    func testHeaderVersionTwoParsesStrictly() throws {
        let vault = try makeVault(.files)
        _ = try vault.setRecoveryKey(
            publicKeyOf: RecoveryKey.generate(), replace: false, passphrase: secret(passphrase))
        let bytes = try headerBytes(vault)
        XCTAssertEqual(bytes.count, 128 + 1 + 76 + 104 + 32)
        XCTAssertEqual(try VaultHeader.decode(bytes).encoded(), bytes)
        // Epoch 0 and a recovery slot of another generation, each with a valid checksum.
        for (offset, value) in [(60, [UInt8](repeating: 0, count: 4)), (205, [0, 0, 0, 9])] {
            var edited = Array(bytes.dropLast(32))
            edited.replaceSubrange(offset..<offset + value.count, with: value)
            edited += BLAKE2b.hash(edited)
            XCTAssertThrowsError(try VaultHeader.decode(edited), "offset \(offset)")
        }
        XCTAssertThrowsError(
            try VaultHeader.decode(Array(bytes.dropLast(33)) + BLAKE2b.hash(Array(bytes.dropLast(33)))))
    }
}

/// Backups keep the recovery block: a restored vault (same store, the other store, salvaged)
/// opens and its recovery key resets the passphrase.
final class RecoveryBackupTests: VaultTestCase {
    func testARestoredVaultKeepsItsRecoveryKey() throws {
        let vault = try makeVault(.files)
        _ = try vault.add(text: "backed up")
        let key = try RecoveryKey.generate()
        _ = try vault.setRecoveryKey(publicKeyOf: key, replace: false, passphrase: secret("correct horse"))
        let file = path("vault.diarybak")
        XCTAssertEqual(try vault.backup(to: file), [])
        XCTAssertTrue(try Vault.verifyBackup(file, passphrase: secret("correct horse")).isClean)
        let restored = [
            try Vault.restore(backup: file, to: path("same"), passphrase: secret("correct horse")),
            try Vault.restore(backup: file, to: path("other"), passphrase: secret("correct horse"), store: .sqlite),
            try Vault.salvage(backup: file, to: path("salvaged"), passphrase: secret("correct horse")).vault,
        ]
        for copy in restored {
            XCTAssertEqual(copy.recoveryStatus, vault.recoveryStatus, copy.directory.path)
            _ = try Vault.resetPassphrase(at: copy.directory, recoveryKey: key, new: secret("restored"))
            let reopened = try Vault.open(at: copy.directory, passphrase: secret("restored"))
            XCTAssertEqual(try reopened.list().map(\.title), ["backed up"], copy.directory.path)
            XCTAssertTrue(try reopened.verify().isClean, copy.directory.path)
        }
    }
}
