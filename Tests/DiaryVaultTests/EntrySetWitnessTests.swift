import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import Foundation
import GRDB
import XCTest

@testable import DiaryVault

/// The entry set is authenticated by this machine's witness of the index, not by the index
/// alone: deleting the index together with entries, or putting older copies back, is reported
/// by name and blocks writes until accepted.
final class EntrySetWitnessTests: VaultTestCase {
    private func witness(for vault: Vault) -> IndexWitness {
        IndexWitness(stateDirectory: path("state"), vaultID: vault.id, vaultDirectory: vault.directory)
    }

    private func open(_ directory: URL) throws -> Vault {
        let vault = try Vault.open(at: directory, passphrase: secret("correct horse"))
        vault.attach(IndexWitness(stateDirectory: path("state"), vaultID: vault.id, vaultDirectory: directory))
        return vault
    }

    /// The review's attack: entries A, B, C; A edited and D added; then the index deleted, D's
    /// sealed entry deleted and A's older sealed copy put back.
    private func attackedVault(_ kind: StoreKind) throws -> (directory: URL, a: UUID, d: UUID) {
        let created = try makeVault(kind)
        let directory = created.directory
        let vault = try open(directory)
        XCTAssertEqual(try vault.checkEntrySet(), EntrySetReport(), "first sight records, says nothing")
        let a = try vault.add(text: "A")
        _ = try vault.add(text: "B")
        _ = try vault.add(text: "C")
        let oldA = try XCTUnwrap(try vault.backend.readEntry(a.id))
        try vault.update(a.id, text: "A, edited")
        let d = try vault.add(text: "D")
        XCTAssertEqual(try vault.checkEntrySet(), EntrySetReport())
        switch kind {
        case .files:
            let fm = FileManager.default
            try fm.removeItem(at: directory.appendingPathComponent("vault.index"))
            try fm.removeItem(at: directory.appendingPathComponent("index"))
            try fm.removeItem(at: directory.appendingPathComponent("entries/" + FileStore.fileName(for: d.id)))
            try Data(oldA).write(to: directory.appendingPathComponent("entries/" + FileStore.fileName(for: a.id)))
        case .sqlite:
            let queue = try DatabaseQueue(path: directory.appendingPathComponent("vault.sqlite").path)
            try queue.write { db in
                try db.execute(sql: "DELETE FROM sealed_index; DELETE FROM index_page")
                try db.execute(sql: "DELETE FROM entry WHERE id = ?", arguments: [SQLiteKey.of(d.id)])
                try db.execute(
                    sql: "UPDATE entry SET sealed = ? WHERE id = ?", arguments: [Data(oldA), SQLiteKey.of(a.id)])
            }
            try queue.close()
        }
        return (directory, a.id, d.id)
    }

    func testDeletingTheIndexWithEntriesIsReportedByNameAndBlocksWrites() {
        forEachStoreKind { kind in
            let (directory, a, d) = try attackedVault(kind)
            let vault = try open(directory)
            let report = try vault.checkEntrySet()
            XCTAssertTrue(report.indexDamaged, "\(kind)")
            XCTAssertTrue(report.isLoss, "\(kind)")
            XCTAssertEqual(report.missing.map(\.id), [d], "\(kind): D is named as missing")
            XCTAssertEqual(report.older.map(\.id), [a], "\(kind): A is named as older")
            XCTAssertThrowsVaultError(.indexNeedsRepair, try vault.add(text: "E"))
            let damage = try vault.verify().damaged
            XCTAssertTrue(damage.contains { $0.object == .entry(d) && $0.reason.hasPrefix("missing") }, "\(damage)")
            XCTAssertTrue(
                damage.contains { $0.object == .entry(a) && $0.reason.hasPrefix("an older copy") }, "\(damage)")
            // Still reported when opened again: nothing was written meanwhile.
            XCTAssertEqual(try open(directory).checkEntrySet().missing.map(\.id), [d])
        }
    }

    func testAcceptingARepairContinuesAboveTheSeenGenerationAndEndsTheAlarm() {
        forEachStoreKind { kind in
            let (directory, _, _) = try attackedVault(kind)
            let vault = try open(directory)
            let report = try vault.checkEntrySet()
            let seen = try XCTUnwrap(report.seenGeneration)
            XCTAssertEqual(try vault.reindex(minimumGeneration: seen), 3)
            XCTAssertGreaterThan(vault.indexGeneration, seen, "\(kind): the counter never goes back")
            let reopened = try open(directory)
            XCTAssertEqual(try reopened.checkEntrySet(), EntrySetReport(), "\(kind)")
            XCTAssertTrue(try reopened.verify().isClean, "\(kind)")
            _ = try reopened.add(text: "E")
        }
    }

    func testAnOlderCopyOfTheWholeVaultIsReportedAsOlder() {
        forEachStoreKind { kind in
            let vault = try open(try makeVault(kind).directory)
            _ = try vault.checkEntrySet()
            let first = try vault.add(text: "first")
            let old = path("old-\(kind.rawValue)")
            try FileManager.default.copyItem(at: vault.directory, to: old)
            let second = try vault.add(text: "second")
            try vault.update(first.id, text: "first, edited")
            try FileManager.default.removeItem(at: vault.directory)
            try FileManager.default.moveItem(at: old, to: vault.directory)
            let report = try open(vault.directory).checkEntrySet()
            XCTAssertNotNil(report.olderIndex, "\(kind)")
            XCTAssertFalse(report.indexDamaged)
            XCTAssertEqual(report.missing.map(\.id), [second.id], "\(kind)")
            XCTAssertEqual(report.older.map(\.id), [first.id], "\(kind)")
        }
    }

    func testEveryWriteKeepsTheWitnessInStepAndAnotherPlaceIsAnotherRecord() throws {
        let vault = try open(try makeVault(.files).directory)
        _ = try vault.checkEntrySet()
        for n in 0..<5 { _ = try vault.add(text: "entry \(n)") }
        let store = try XCTUnwrap(try witness(for: vault).open())
        XCTAssertEqual(try store.readIndex(), try vault.backend.readIndex(), "the witness holds the vault's root")
        XCTAssertEqual(try store.readIndexPages(), try vault.backend.readIndexPages())
        XCTAssertNotEqual(try store.readHeader(), try vault.backend.readHeader(), "never the wrapped key")
        let elsewhere = IndexWitness(stateDirectory: path("state"), vaultID: vault.id, vaultDirectory: path("restored"))
        XCTAssertNil(try elsewhere.open(), "a restored copy in another directory starts its own record")
    }

    func testAWitnessBehindTheVaultIsBroughtUpToDateNotReported() throws {
        let directory = try makeVault(.sqlite).directory
        let vault = try open(directory)
        _ = try vault.checkEntrySet()
        let plain = try Vault.open(at: directory, passphrase: secret("correct horse"))  // no witness
        _ = try plain.add(text: "written where no witness was kept")
        XCTAssertEqual(try open(directory).checkEntrySet(), EntrySetReport())
        XCTAssertEqual(try witness(for: vault).root(), try plain.backend.readIndex())
    }
}

/// The key of an entry row, as the SQLite store writes it (16 raw bytes).
private enum SQLiteKey {
    static func of(_ id: UUID) -> Data { withUnsafeBytes(of: id.uuid) { Data($0) } }
}

/// Found in review: losses that an intact root, a newer index or an older key would hide.
final class EntrySetWitnessReviewTests: VaultTestCase {
    private func open(_ directory: URL, passphrase: String = "correct horse") throws -> Vault {
        let vault = try Vault.open(at: directory, passphrase: secret(passphrase))
        vault.attach(IndexWitness(stateDirectory: path("state"), vaultID: vault.id, vaultDirectory: directory))
        return vault
    }

    /// A page deleted together with the entries on it, the root left alone: the open is clean,
    /// but the first read of that page finds the damage, and no write may store a shorter index.
    func testADeletedPageWithItsEntriesBlocksWritesAndIsNamedWhenRead() {
        forEachStoreKind { kind in
            let vault = try open(try makeVault(kind).directory)
            _ = try vault.checkEntrySet()
            let entries = try (0..<12).map { try vault.add(text: "entry \($0)") }
            let victim = entries[5]
            let page = IndexLayout.firstPage(of: victim.id)
            switch kind {
            case .files:
                try FileManager.default.removeItem(
                    at: vault.directory.appendingPathComponent("index/" + IndexPageNumber.fileName(for: page)))
                try FileManager.default.removeItem(
                    at: vault.directory.appendingPathComponent("entries/" + FileStore.fileName(for: victim.id)))
            case .sqlite:
                let queue = try DatabaseQueue(path: vault.directory.appendingPathComponent("vault.sqlite").path)
                try queue.write { db in
                    try db.execute(sql: "DELETE FROM index_page WHERE page = ?", arguments: [page])
                    try db.execute(
                        sql: "DELETE FROM entry WHERE id = ?",
                        arguments: [withUnsafeBytes(of: victim.id.uuid) { Data($0) }])
                }
                try queue.close()
            }
            let reopened = try open(vault.directory)
            XCTAssertEqual(try reopened.checkEntrySet(), EntrySetReport(), "\(kind): the root alone looks intact")
            XCTAssertThrowsVaultError(
                .indexNeedsRepair,
                try reopened.importEntries([
                    Entry(
                        id: UUID(), text: "x", date: Date(), created: Date(), modified: Date(), starred: false, tags: []
                    )
                ]))
            XCTAssertEqual(reopened.indexState, .damaged)
            XCTAssertEqual(try reopened.checkEntrySet().missing.map(\.id), [victim.id], "\(kind)")
        }
    }

    /// A copy of the vault from before a rekey, put back: its key is older than the record's.
    func testACopyFromBeforeARekeyIsReported() throws {
        let vault = try open(try makeVault(.files).directory)
        _ = try vault.checkEntrySet()
        _ = try vault.add(text: "before the rekey")
        let old = path("old")
        try FileManager.default.copyItem(at: vault.directory, to: old)
        try vault.rotateKey(passphrase: secret("correct horse"))
        _ = try vault.add(text: "after the rekey")
        try FileManager.default.removeItem(at: vault.directory)
        try FileManager.default.moveItem(at: old, to: vault.directory)
        let report = try open(vault.directory).checkEntrySet()
        XCTAssertTrue(report.olderKey)
        XCTAssertTrue(report.isLoss)
    }

    /// An older copy put back and then written to where no record was kept: the index is newer
    /// than the record, but what the record saw is still gone.
    func testANewerIndexOnTopOfAnOlderCopyStillNamesWhatIsGone() throws {
        let vault = try open(try makeVault(.sqlite).directory)
        _ = try vault.checkEntrySet()
        _ = try vault.add(text: "kept")
        let old = path("old")
        try FileManager.default.copyItem(at: vault.directory, to: old)
        let lost = try vault.add(text: "lost")
        try FileManager.default.removeItem(at: vault.directory)
        try FileManager.default.moveItem(at: old, to: vault.directory)
        let elsewhere = try Vault.open(at: vault.directory, passphrase: secret("correct horse"))  // no record
        for n in 0..<4 { _ = try elsewhere.add(text: "written elsewhere \(n)") }
        let report = try open(vault.directory).checkEntrySet()
        XCTAssertEqual(report.missing.map(\.id), [lost.id])
    }
}
