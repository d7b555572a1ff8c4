import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// Backup, verify and restore, run against both stores.
final class VaultBackupTests: VaultTestCase {
    func testBackupRestoresIntoEitherStoreWithTheSameEntries() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let a = try vault.add(text: "한국어 일기\n본문 ✨", date: date("2023-09-15T09:00:00Z"), starred: true, tags: ["x"])
            let b = try vault.add(text: "second")
            let file = path("backup-\(kind.rawValue).diarybak")
            try vault.backup(to: file)
            XCTAssertTrue(try Vault.verifyBackup(file, passphrase: secret("correct horse")).isClean)
            for target in StoreKind.allCases {
                let restored = try Vault.restore(
                    backup: file, to: path("restored-\(kind.rawValue)-\(target.rawValue)"),
                    passphrase: secret("correct horse"), store: target)
                XCTAssertEqual(restored.store, target)
                let reopened = try Vault.open(at: restored.directory, passphrase: secret("correct horse"))
                XCTAssertEqual(try reopened.entry(a.id), a)
                XCTAssertEqual(try reopened.entry(b.id), b)
                XCTAssertEqual(reopened.id, vault.id)
            }
        }
    }

    func testBackupContainsNoPlaintextAndNeverOverwrites() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            _ = try vault.add(text: "SECRET-MARKER-42 diary text")
            let file = path("b-\(kind.rawValue).diarybak")
            try vault.backup(to: file)
            let bytes = try Data(contentsOf: file)
            XCTAssertNil(bytes.range(of: Data("SECRET-MARKER-42".utf8)))
            XCTAssertThrowsVaultError(.backupExists(path: file.path), try vault.backup(to: file))
            let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
            XCTAssertEqual(mode, 0o600)
        }
    }

    func testRestoreRefusesAnExistingVaultAndAWrongPassphrase() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            _ = try vault.add(text: "one")
            let file = path("r-\(kind.rawValue).diarybak")
            try vault.backup(to: file)
            XCTAssertThrowsVaultError(
                .alreadyExists(path: vault.directory.path),
                try Vault.restore(backup: file, to: vault.directory, passphrase: secret("correct horse")))
            XCTAssertThrowsVaultError(
                .wrongPassphrase,
                try Vault.restore(backup: file, to: path("new-\(kind.rawValue)"), passphrase: secret("nope")))
            XCTAssertFalse(
                FileManager.default.fileExists(
                    atPath: path("new-\(kind.rawValue)").appendingPathComponent("vault.header").path))
        }
    }

    func testEveryFlippedByteOfABackupIsDetected() throws {
        let vault = try makeVault(.files)
        _ = try vault.add(text: "one")
        _ = try vault.add(text: "two")
        let file = path("flip.diarybak")
        try vault.backup(to: file)
        let original = Array(try Data(contentsOf: file))
        let flipped = path("flipped.diarybak")
        // Every 7th byte under Scripts/soak; else a sample spread over the whole file.
        var sweep = Sweep("VaultBackupTests flips")
        for offset in sweep.pick(64, from: Array(stride(from: 0, to: original.count, by: 7))) {
            var bytes = original
            bytes[offset] ^= 0x01
            try? FileManager.default.removeItem(at: flipped)
            try Data(bytes).write(to: flipped)
            do {
                let report = try Vault.verifyBackup(flipped, passphrase: secret("correct horse"))
                XCTAssertFalse(report.isClean, "flip at \(offset) went unnoticed (\(sweep.replay))")
            } catch {
                // Refusing the file outright (not a backup, unsupported version) also counts.
            }
        }
    }

    func testTruncatedBackupIsDamaged() throws {
        let vault = try makeVault(.sqlite)
        _ = try vault.add(text: "one")
        let file = path("t.diarybak")
        try vault.backup(to: file)
        let bytes = try Data(contentsOf: file)
        try bytes.prefix(bytes.count - 10).write(to: path("short.diarybak"))
        XCTAssertFalse(try Vault.verifyBackup(path("short.diarybak"), passphrase: secret("correct horse")).isClean)
    }

    func testMissingOrDamagedIndexStillOpensAndReindexRepairsIt() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let e = try vault.add(text: "survives", tags: ["t"])
            // Replace the index with garbage of a valid envelope shape.
            try vault.backend.withWriteLock {
                try vault.backend.apply(StoreChange(index: Array(repeating: 1, count: 600)))
            }
            let damaged = try Vault.open(at: vault.directory, passphrase: secret("correct horse"))
            XCTAssertEqual(damaged.indexState, .damaged)
            XCTAssertEqual(try damaged.list().map(\.id), [e.id])
            XCTAssertFalse(try damaged.verify().isClean)
            XCTAssertEqual(try damaged.reindex(), 1)
            let repaired = try Vault.open(at: vault.directory, passphrase: secret("correct horse"))
            XCTAssertEqual(repaired.indexState, .ok)
            XCTAssertEqual(try repaired.list().first?.tags, ["t"])
            XCTAssertTrue(try repaired.verify().isClean)
        }
    }

    func testVerifyNamesADamagedEntryAndOthersStayReadable() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let good = try vault.add(text: "good")
            let bad = try vault.add(text: "bad")
            var sealed: [UInt8] = []
            try vault.backend.withSnapshot { sealed = try $0.readEntry(bad.id)! }
            sealed[sealed.count - 1] ^= 0x80
            try vault.backend.withWriteLock { try vault.backend.apply(StoreChange(putEntries: [bad.id: sealed])) }
            let report = try vault.verify()
            XCTAssertEqual(report.damaged.map(\.object), [.entry(bad.id)])
            XCTAssertEqual(try vault.entry(good.id).text, "good")
            XCTAssertThrowsError(try vault.entry(bad.id)) { error in
                guard case VaultError.entryDamaged(let id, _) = error else { return XCTFail("\(error)") }
                XCTAssertEqual(id, bad.id)
            }
        }
    }

    func testSwappedEntriesAreDetected() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let a = try vault.add(text: "alpha")
            let b = try vault.add(text: "beta")
            var blobs: [UUID: [UInt8]] = [:]
            try vault.backend.withSnapshot { r in try r.forEachEntry { blobs[$0] = $1 } }
            try vault.backend.withWriteLock {
                try vault.backend.apply(StoreChange(putEntries: [a.id: blobs[b.id]!, b.id: blobs[a.id]!]))
            }
            XCTAssertThrowsError(try vault.entry(a.id))
            XCTAssertThrowsError(try vault.entry(b.id))
            XCTAssertEqual(try vault.verify().damaged.count, 2)
        }
    }

    func testNewerFormatVersionAndForeignDirectoryAreRefused() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            var header = try vault.backend.readHeader()
            header[9] = 3  // version 3
            let body = Array(header[..<(header.count - 32)])
            header = body + BLAKE2b.hash(body)
            try vault.backend.withWriteLock { try vault.backend.apply(StoreChange(header: header)) }
            XCTAssertThrowsVaultError(
                .unsupportedVersion(found: 3, supported: 2),
                try Vault.open(at: vault.directory, passphrase: secret("correct horse")))
        }
        let foreign = path("foreign")
        try FileManager.default.createDirectory(at: foreign, withIntermediateDirectories: true)
        try Data("hello".utf8).write(to: foreign.appendingPathComponent("notes.txt"))
        XCTAssertThrowsVaultError(.notAVault(path: foreign.path), try Vault.open(at: foreign, passphrase: secret("x")))
        XCTAssertThrowsVaultError(
            .noVault(path: path("missing").path), try Vault.open(at: path("missing"), passphrase: secret("x")))
    }
}

/// Findings of the independent review, pinned down.
final class VaultReviewRegressionTests: VaultTestCase {
    func testAnOlderSealedCopyOfAnEntryPutBackIsRefusedAndNotBlessedByAWrite() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let e = try vault.add(text: "version one")
            var old: [UInt8] = []
            try vault.backend.withSnapshot { old = try $0.readEntry(e.id)! }
            _ = try vault.update(e.id, text: "version two")
            try vault.backend.withWriteLock { try vault.backend.apply(StoreChange(putEntries: [e.id: old])) }
            let reopened = try Vault.open(at: vault.directory, passphrase: secret("correct horse"))
            XCTAssertThrowsError(try reopened.entry(e.id)) { error in
                guard case VaultError.entryDamaged(let id, _) = error else { return XCTFail("\(error)") }
                XCTAssertEqual(id, e.id)
            }
            XCTAssertThrowsError(try reopened.update(e.id, starred: true), "a write must not re-seal the old copy")
            try reopened.rotateKey(passphrase: secret("correct horse"))
            XCTAssertFalse(try reopened.verify().isClean, "rotation must not bless the old copy either")
        }
    }

    func testATitleOfOneHugeCharacterIsCutByBytesAndTheEntryIsStored() throws {
        let vault = try makeVault(.files)
        let huge = "a" + String(repeating: "\u{0301}", count: 40_000) + "\nbody"
        let e = try vault.add(text: huge)
        XCTAssertEqual(try vault.entry(e.id).text, huge)
        XCTAssertLessThanOrEqual(try vault.list().first!.title.utf8.count, EntryText.maximumTitleBytes)
    }

    func testOverlongTagsAndSourcesAreRefusedAndEmptySourcesAreNone() throws {
        let vault = try makeVault(.sqlite)
        let long = String(repeating: "t", count: 201)
        XCTAssertThrowsVaultError(.invalidTag(bytes: 201, limit: 200), try vault.add(text: "x", tags: [long]))
        XCTAssertThrowsVaultError(
            .tooManyTags(count: 256, limit: 255), try vault.add(text: "x", tags: (0...255).map { "t\($0)" }))
        let d = Date(millisecondsSince1970: 1_600_000_000_000)
        func entry(_ source: String?) -> Entry {
            Entry(
                id: UUID(), text: "imported", date: d, created: d, modified: d, starred: false, tags: [], source: source
            )
        }
        XCTAssertThrowsError(try vault.importEntries([entry(String(repeating: "s", count: 70_000))]))
        let outcome = try vault.importEntries([entry(""), entry("")])
        XCTAssertEqual(outcome.imported.count, 2, "an empty source is no source, so not a duplicate")
        XCTAssertNil(try vault.entry(outcome.imported[0]).source)
    }
}

extension VaultReviewRegressionTests {
    func testSearchReportsAnOlderCopyPutBackInsteadOfMatchingItsStaleText() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let e = try vault.add(text: "stale word")
            var old: [UInt8] = []
            try vault.backend.withSnapshot { old = try $0.readEntry(e.id)! }
            _ = try vault.update(e.id, text: "fresh word")
            try vault.backend.withWriteLock { try vault.backend.apply(StoreChange(putEntries: [e.id: old])) }
            let stale = try vault.search("stale")
            XCTAssertEqual(stale.matches, [])
            XCTAssertEqual(stale.damaged, [e.id])
            // A write by another vault instance is picked up, not reported as damage.
            let other = try Vault.open(at: vault.directory, passphrase: secret("correct horse"))
            let f = try vault.add(text: "first text")
            _ = try other.update(f.id, text: "second text")
            let second = try vault.search("second")
            XCTAssertEqual(second.matches.map(\.id), [f.id])
            XCTAssertEqual(second.damaged, [e.id])
        }
    }
}
