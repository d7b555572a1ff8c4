import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// Index pages in the backup container: record type 5 (type 4 for an index of version 2),
/// carried through backup and restore, refused when duplicated or malformed, and optional so
/// that older backups still restore.
final class VaultBackupIndexPageTests: VaultTestCase {
    private func records(of file: URL) throws -> [BackupContainer.Record] { try BackupContainer.records(of: file) }

    /// A well-formed container (magic, version, end record with the right count and hash)
    /// around `records`, so only what the records say is under test.
    private func writeBackup(_ records: [BackupContainer.Record], to file: URL) throws {
        try Data(BackupContainer.bytes(records)).write(to: file)
    }

    /// The backup read as verify and restore read it: `BackupReader`, the format's one reader,
    /// which reports what a reader MUST reject (docs/FORMAT.md §10) as findings.
    private func scanned(_ file: URL) throws -> BackupReader {
        let reader = try BackupReader(file)
        try reader.scan()
        return reader
    }

    /// A vault with two entries (and so its 64 first index pages), and a backup of it.
    private func backedUpVault(_ kind: StoreKind) throws -> (Vault, [Entry], URL) {
        let vault = try makeVault(kind)
        let entries = [try vault.add(text: "first"), try vault.add(text: "second")]
        let file = path("pages-\(kind.rawValue).diarybak")
        try vault.backup(to: file)
        return (vault, entries, file)
    }

    func testBackupCarriesEveryIndexPageAndRestorePutsThemBack() throws {
        forEachStoreKind { kind in
            let (vault, entries, file) = try backedUpVault(kind)
            let stored = try vault.backend.readIndexPages()
            XCTAssertEqual(Set(stored.keys), IndexLayout.firstStored, "the pages and directory 1")
            XCTAssertEqual(try scanned(file).indexPages, stored)
            XCTAssertEqual(
                try records(of: file).filter { $0.type == BackupFile.wideIndexPageType }.map { number($0.payload) },
                stored.keys.sorted(), "one record per page, in page order")
            XCTAssertFalse(try records(of: file).contains { $0.type == BackupFile.indexPageType })
            for target in StoreKind.allCases {
                let directory = path("restored-\(kind.rawValue)-\(target.rawValue)")
                _ = try Vault.restore(backup: file, to: directory, passphrase: secret("correct horse"), store: target)
                XCTAssertEqual(try StoreLayout.open(at: directory).readIndexPages(), stored, "\(kind) → \(target)")
                let reopened = try Vault.open(at: directory, passphrase: secret("correct horse"))
                XCTAssertEqual(try reopened.entry(entries[1].id), entries[1])
                XCTAssertTrue(try reopened.verify().isClean)
            }
        }
    }

    func testABackupMissingAPageRecordIsDamaged() throws {
        let (_, entries, file) = try backedUpVault(.files)
        let page = IndexLayout.firstPage(of: entries[0].id)
        let cut = path("cut.diarybak")
        try writeBackup(
            try records(of: file).filter { !($0.type == BackupFile.wideIndexPageType && number($0.payload) == page) },
            to: cut)
        let report = try Vault.verifyBackup(cut, passphrase: secret("correct horse"))
        XCTAssertTrue(
            report.damaged.contains { $0.object == .index && $0.reason.hasPrefix("page \(page):") }, "\(report.damaged)"
        )
    }

    func testDuplicateOrMalformedPageRecordsMakeTheBackupDamaged() throws {
        let (_, _, file) = try backedUpVault(.files)
        let original = try records(of: file)
        let page = { (number: UInt8) in (type: BackupFile.indexPageType, payload: [number] + blob()) }
        let cases: [(String, [(type: UInt8, payload: [UInt8])])] = [
            ("duplicate page", original + [page(7), page(7)]),
            ("empty payload", original + [(type: BackupFile.indexPageType, payload: [])]),
            ("page before the header", [page(0)] + original),
        ]
        for (name, records) in cases {
            let bad = path("bad-\(name.replacingOccurrences(of: " ", with: "-")).diarybak")
            try writeBackup(records, to: bad)
            XCTAssertFalse(try scanned(bad).findings.isEmpty, "\(name): the reader finds no damage")
            let report = try Vault.verifyBackup(bad, passphrase: secret("correct horse"))
            // Named by position (the records name no entry), never as a damaged entry.
            XCTAssertFalse(report.isClean, name)
            XCTAssertTrue(report.damaged.allSatisfy { $0.object.entryID == nil }, "\(name): \(report.damaged)")
            let target = path("never-\(name.replacingOccurrences(of: " ", with: "-"))")
            XCTAssertThrowsError(try Vault.restore(backup: bad, to: target, passphrase: secret("correct horse")), name)
            { error in
                guard case VaultError.backupDamaged = error else { return XCTFail("\(name): \(error)") }
            }
            XCTAssertFalse(FileManager.default.fileExists(atPath: target.path), "\(name): nothing restored")
        }
        // The same records, once each, are fine: the refusals above are about the records alone.
        let good = path("good.diarybak")
        try writeBackup(original, to: good)
        let reader = try scanned(good)
        XCTAssertEqual(reader.findings.map(\.detail), [])
        XCTAssertEqual(Set(reader.indexPages.keys), IndexLayout.firstStored)
    }

    func testEveryFlippedByteOfABackupWithPagesIsDetected() throws {
        let (_, _, file) = try backedUpVault(.sqlite)
        let original = Array(try Data(contentsOf: file))
        // The first two page records (pages 64 and 65), framing included.
        let pageRecords = try records(of: file).filter { $0.type == BackupFile.wideIndexPageType }
        let length = 5 + pageRecords[0].payload.count
        let first = try XCTUnwrap(
            Data(original).range(of: Data([BackupFile.wideIndexPageType] + u32(length - 5) + u32(64))))
        let flipped = path("flipped.diarybak")
        for offset in first.lowerBound..<(first.lowerBound + length + 5 + pageRecords[1].payload.count) {
            var bytes = original
            bytes[offset] ^= 0x01
            try? FileManager.default.removeItem(at: flipped)
            try Data(bytes).write(to: flipped)
            XCTAssertFalse(try scanned(flipped).findings.isEmpty, "flip at \(offset) went unnoticed")
        }
    }

    private func u32(_ v: Int) -> [UInt8] { withUnsafeBytes(of: UInt32(v).bigEndian) { Array($0) } }
    private func number(_ payload: [UInt8]) -> Int { payload.prefix(4).reduce(0) { $0 << 8 | Int($1) } }
}
