import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// Passphrases, keys and rotation, run against both stores.
final class VaultKeyTests: VaultTestCase {
    func testWrongPassphraseIsReportedAsSuch() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            XCTAssertThrowsVaultError(
                .wrongPassphrase, try Vault.open(at: vault.directory, passphrase: secret("wrong")))
        }
    }

    func testNFDSpellingOfPassphraseOpensVaultCreatedWithNFC() throws {
        forEachStoreKind { kind in
            let nfc = "비밀번호 café".precomposedStringWithCanonicalMapping
            let nfd = nfc.decomposedStringWithCanonicalMapping
            XCTAssertNotEqual(Array(nfc.utf8), Array(nfd.utf8))
            let vault = try makeVault(kind, passphrase: nfc)
            _ = try vault.add(text: "hello")
            XCTAssertEqual(try Vault.open(at: vault.directory, passphrase: secret(nfd)).list().count, 1)
        }
    }

    func testPassphraseChangeRewritesOnlyTheHeader() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let e = try vault.add(text: "kept")
            let before = try snapshotOfEntries(vault)
            try vault.changePassphrase(current: secret("correct horse"), new: secret("new passphrase"))
            XCTAssertEqual(try snapshotOfEntries(vault), before, "entries must not be re-encrypted")
            XCTAssertThrowsVaultError(
                .wrongPassphrase, try Vault.open(at: vault.directory, passphrase: secret("correct horse")))
            let reopened = try Vault.open(at: vault.directory, passphrase: secret("new passphrase"))
            XCTAssertEqual(try reopened.entry(e.id).text, "kept")
            XCTAssertThrowsVaultError(
                .wrongPassphrase,
                try reopened.changePassphrase(current: secret("bad"), new: secret("other")))
        }
    }

    func testHeaderOnlyPassphraseChangeReusesACheckOnlyForTheSameHeader() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let e = try vault.add(text: "kept")
            let checked = try Vault.checkPassphrase(at: vault.directory, passphrase: secret("correct horse"))
            XCTAssertEqual(checked.info.id, vault.id)
            XCTAssertThrowsVaultError(
                .wrongPassphrase, try Vault.checkPassphrase(at: vault.directory, passphrase: secret("nope")))
            try Vault.changePassphrase(
                at: vault.directory, checked: checked, current: secret("correct horse"), new: secret("second"))
            // The header changed: the old check no longer stands in for the current passphrase.
            XCTAssertThrowsVaultError(
                .wrongPassphrase,
                try Vault.changePassphrase(
                    at: vault.directory, checked: checked, current: secret("correct horse"), new: secret("third")))
            XCTAssertEqual(try Vault.open(at: vault.directory, passphrase: secret("second")).entry(e.id).text, "kept")
        }
    }

    func testAgentKeyOpensVaultAndWrongKeyIsRefused() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let e = try vault.add(text: "via key")
            let viaKey = try Vault.open(
                at: vault.directory, vaultKey: vault.vaultKey, keyGeneration: vault.keyGeneration)
            XCTAssertEqual(try viaKey.entry(e.id).text, "via key")
            XCTAssertThrowsVaultError(
                .wrongKey,
                try Vault.open(
                    at: vault.directory, vaultKey: SecretBytes(randomCount: 32), keyGeneration: vault.keyGeneration))
            XCTAssertThrowsVaultError(
                .wrongKey,
                try Vault.open(at: vault.directory, vaultKey: vault.vaultKey, keyGeneration: vault.keyGeneration + 1))
        }
    }

    func testKeyRotationReSealsEverythingAndOldKeyNoLongerOpens() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            var ids: [UUID] = []
            for n in 0..<20 { ids.append(try vault.add(text: "entry \(n)", tags: ["t\(n % 3)"]).id) }
            let oldKey = try vault.vaultKey.slice(0..<32)
            let before = try snapshotOfEntries(vault)
            var progress: [(Int, Int)] = []
            try vault.rotateKey(passphrase: secret("correct horse"), batchSize: 7) { progress.append(($0, $1)) }
            XCTAssertEqual(vault.keyGeneration, 2)
            XCTAssertFalse(vault.rotationInterrupted)
            XCTAssertEqual(progress.last?.0, 20)
            // Three batches: the files store's second and third wrote into the files the one
            // before replaced (`SpareFiles`), and none of them is left.
            let names = try FileManager.default.contentsOfDirectory(atPath: vault.directory.path)
            XCTAssertEqual(names.filter { $0.hasPrefix(".tmp-") }, [])
            let after = try snapshotOfEntries(vault)
            for id in ids { XCTAssertNotEqual(before[id], after[id]) }
            let reopened = try Vault.open(at: vault.directory, passphrase: secret("correct horse"))
            XCTAssertEqual(Set(try reopened.list().map(\.id)), Set(ids))
            for (n, id) in ids.enumerated() { XCTAssertEqual(try reopened.entry(id).text, "entry \(n)") }
            XCTAssertTrue(try reopened.verify().isClean)
            XCTAssertThrowsError(try Vault.open(at: vault.directory, vaultKey: oldKey, keyGeneration: 1))
        }
    }

    func testInterruptedRotationOpensAndASecondRunFinishesIt() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            var ids: [UUID] = []
            for n in 0..<10 { ids.append(try vault.add(text: "entry \(n)").id) }
            // Simulate a crash after step 1 and one batch: header with two slots, some entries
            // under the new generation.
            var header = try Vault.readHeader(vault.backend)
            let kek = try header.deriveKEK(secret("correct horse"))
            let old = try header.unwrap(kek: kek)
            let next = try GenerationKeys(generation: 2, vaultKey: SecretBytes(randomCount: 32))
            try header.setSlots(old.all + [next], kek: kek)
            try vault.backend.apply(StoreChange(header: header.encoded()))
            let half = try Vault.open(at: vault.directory, passphrase: secret("correct horse"))
            XCTAssertTrue(half.rotationInterrupted)
            for id in ids.prefix(4) { _ = try half.update(id, starred: true) }  // sealed under gen 2
            XCTAssertThrowsVaultError(
                .rotationInterrupted,
                try Vault.open(at: vault.directory, vaultKey: vault.vaultKey, keyGeneration: 1))
            let again = try Vault.open(at: vault.directory, passphrase: secret("correct horse"))
            for (n, id) in ids.enumerated() { XCTAssertEqual(try again.entry(id).text, "entry \(n)") }
            try again.rotateKey(passphrase: secret("correct horse"))
            XCTAssertEqual(again.keyGeneration, 2)
            XCTAssertFalse(try Vault.open(at: vault.directory, passphrase: secret("correct horse")).rotationInterrupted)
            XCTAssertTrue(try again.verify().isClean)
        }
    }

    /// The sealed bytes of every entry, by id.
    func snapshotOfEntries(_ vault: Vault) throws -> [UUID: [UInt8]] {
        var out: [UUID: [UInt8]] = [:]
        try vault.backend.withSnapshot { reader in try reader.forEachEntry { out[$0] = $1 } }
        return out
    }
}
