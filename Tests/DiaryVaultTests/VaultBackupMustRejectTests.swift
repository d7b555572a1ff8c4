import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// What a reader MUST reject in a backup file (docs/FORMAT.md §10), each rule on its own,
/// through `BackupReader`: the one reader, so these are the rules `verify` and `restore` apply.
/// Each broken file is found damaged by the reader and refused by `restore`, which writes nothing.
final class VaultBackupMustRejectTests: VaultTestCase {
    private typealias Record = BackupContainer.Record

    /// The records of a good backup (two entries, so an index, its pages and two entry
    /// records), without the end record.
    private func goodRecords() throws -> [Record] {
        let vault = try makeVault(.files)
        _ = try vault.add(text: "first")
        _ = try vault.add(text: "second")
        let file = path("good.diarybak")
        try vault.backup(to: file)
        return try BackupContainer.records(of: file)
    }

    private func container(_ records: [Record], count: Int? = nil) -> [UInt8] {
        BackupContainer.bytes(records, count: count)
    }

    /// The reader's findings for `bytes` written to a file, and what `restore` makes of it.
    private func assertRejected(_ bytes: [UInt8], _ rule: String, finding: String? = nil) throws {
        let name = rule.replacingOccurrences(of: " ", with: "-")
        let file = path("\(name).diarybak")
        try Data(bytes).write(to: file)
        let reader = try BackupReader(file)
        try reader.scan()
        let details = reader.findings.map(\.detail)
        XCTAssertFalse(details.isEmpty, "\(rule): the reader finds no damage")
        if let finding { XCTAssertTrue(details.contains(finding), "\(rule): \(details)") }
        let target = path("restored-\(name)")
        XCTAssertThrowsError(try Vault.restore(backup: file, to: target, passphrase: secret("correct horse"))) {
            guard case VaultError.backupDamaged = $0 else { return XCTFail("\(rule): \($0)") }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: target.path), "\(rule): nothing restored")
    }

    func testTheGoodContainerIsAccepted() throws {
        let file = path("rebuilt.diarybak")
        try Data(container(try goodRecords())).write(to: file)
        let reader = try BackupReader(file)
        try reader.scan()
        XCTAssertEqual(reader.findings.map(\.detail), [])
        XCTAssertEqual(reader.entries.count, 2)
        _ = try Vault.restore(backup: file, to: path("restored"), passphrase: secret("correct horse"))
    }

    func testAMissingOrWrongEndRecordIsRejected() throws {
        let good = container(try goodRecords())
        try assertRejected(Array(good.dropLast(45)), "no end record", finding: "no end record (truncated?)")
        var wrongType = good
        wrongType[good.count - 45] = BackupFile.entryType
        try assertRejected(wrongType, "end record of another type")
        try assertRejected(good + [0], "a byte after the end record")
    }

    func testACountOrHashMismatchIsRejected() throws {
        let records = try goodRecords()
        try assertRejected(
            container(records, count: records.count + 1), "count mismatch", finding: "end record: record count mismatch"
        )
        var badHash = container(records)
        badHash[badHash.count - 1] ^= 0x01
        try assertRejected(badHash, "hash mismatch", finding: "end record: checksum mismatch")
    }

    func testARecordLongerThanTheLimitIsRejected() throws {
        let records = try goodRecords()
        var bytes = container(records)
        // The first entry record claims one byte more than any record may hold.
        let offset = 10 + records.prefix { $0.type != BackupFile.entryType }.reduce(0) { $0 + 5 + $1.payload.count }
        XCTAssertEqual(bytes[offset], BackupFile.entryType)
        let length = withUnsafeBytes(of: UInt32(BackupFile.maximumRecordLength + 1).bigEndian) { Array($0) }
        bytes.replaceSubrange((offset + 1)...(offset + 4), with: length)
        try assertRejected(bytes, "record too long")
    }

    func testUnknownTypesAndMalformedPageRecordsAreRejected() throws {
        let records = try goodRecords()
        let page = try XCTUnwrap(records.first { $0.type == BackupFile.wideIndexPageType })
        let number = page.payload.prefix(4).reduce(0) { $0 << 8 | Int($1) }
        try assertRejected(container(records + [(type: 9, payload: blob())]), "unknown type")
        try assertRejected(container(records + [(type: BackupFile.indexPageType, payload: [])]), "empty page payload")
        try assertRejected(
            container(records + [(type: BackupFile.wideIndexPageType, payload: [0, 0, 0])]), "short page number")
        try assertRejected(
            container(records + [page]), "page number twice", finding: "index page \(number) appears twice")
        // Page 63 in a wide record would be a second name for a page of version 2.
        try assertRejected(
            container(records + [(type: BackupFile.wideIndexPageType, payload: [0, 0, 0, 63] + page.payload[4...])]),
            "a wide record for a narrow number")
    }
}
