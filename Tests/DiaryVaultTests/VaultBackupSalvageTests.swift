import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// A damaged backup costs only its damaged records: `verifyBackup` names each one, and
/// `salvage` restores everything else, never with wrong plaintext.
final class VaultBackupSalvageTests: VaultTestCase {
    /// Where each record of a backup lies: [start, end) including its type and length.
    private struct Layout {
        var preambleAndHeaderEnd = 0
        var entries: [(id: UUID, range: Range<Int>)] = []
        var indexRanges: [Range<Int>] = []
        var endRecord: Range<Int> = 0..<0
    }

    private func layout(of bytes: [UInt8]) throws -> Layout {
        var layout = Layout()
        var r = ByteReader(bytes, offset: 10)
        while !r.isAtEnd {
            let start = r.offset
            let type = try r.u8()
            let payload = try r.take(Int(try r.u32()))
            let range = start..<r.offset
            switch type {
            case BackupFile.headerType: layout.preambleAndHeaderEnd = range.upperBound
            case BackupFile.entryType: layout.entries.append((UUID(bytes: Array(payload[0..<16])), range))
            case BackupFile.endType: layout.endRecord = range
            default: layout.indexRanges.append(range)
            }
        }
        return layout
    }

    private func vaultWithEntries(_ count: Int) throws -> (Vault, [UUID: Entry]) {
        let vault = try makeVault(.files)
        var entries: [UUID: Entry] = [:]
        for n in 0..<count {
            let e = try vault.add(
                text: "entry \(n)\n" + String(repeating: "words \(n) ", count: n * 7), tags: ["t\(n % 3)"])
            entries[e.id] = e
        }
        return (vault, entries)
    }

    func testRandomBitFlipsSalvageEveryIntactEntryAndNameEveryOther() throws {
        let (vault, originals) = try vaultWithEntries(30)
        let file = path("good.diarybak")
        try vault.backup(to: file)
        let bytes = Array(try Data(contentsOf: file))
        let layout = try layout(of: bytes)
        XCTAssertEqual(layout.entries.count, 30)
        var sweep = Sweep("VaultBackupSalvageTests random flips")
        for (round, bit) in randomFlips(layout, size: bytes.count, sweep: &sweep).enumerated() {
            let at = bit / 8
            var damaged = bytes
            damaged[at] ^= UInt8(1 << (bit % 8))
            let flipped = path("flip-\(round).diarybak")
            try Data(damaged).write(to: flipped)
            let target = path("salvaged-\(round)")
            let hit = layout.entries.first { $0.range.contains(at) }?.id
            let context = "round \(round), byte \(at), bit \(bit % 8) (\(sweep.replay))"

            try sweep.check(context) {
                try checkSalvage(
                    of: flipped, to: target, inHeader: at < layout.preambleAndHeaderEnd, hit: hit, originals: originals,
                    context: context)
            }
            try? FileManager.default.removeItem(at: target)
            try? FileManager.default.removeItem(at: flipped)
        }
    }

    /// Verifies and salvages `flipped` (damaged at one bit, in entry `hit` if any): refused
    /// when the header was hit; else verify names the damage, and salvage restores every other
    /// entry exactly and lists the hit one as lost.
    private func checkSalvage(
        of flipped: URL, to target: URL, inHeader: Bool, hit: UUID?, originals: [UUID: Entry], context: String
    ) throws {
        if inHeader {
            // No header, nothing to salvage: refused, and nothing written.
            XCTAssertThrowsError(
                try Vault.salvage(backup: flipped, to: target, passphrase: secret("correct horse")), context)
            XCTAssertFalse(
                FileManager.default.fileExists(atPath: target.appendingPathComponent("vault.header").path), context)
            return
        }
        let report = try Vault.verifyBackup(flipped, passphrase: secret("correct horse"))
        XCTAssertFalse(report.isClean, context)
        if let hit {
            XCTAssertTrue(
                report.damaged.contains { $0.object == .entry(hit) },
                "\(context): verify names \(hit): \(report.damaged)")
        }
        let salvage = try Vault.salvage(backup: flipped, to: target, passphrase: secret("correct horse"))
        let restored = try Vault.open(at: target, passphrase: secret("correct horse"))
        XCTAssertTrue(try restored.verify().isClean, context)
        let restoredIDs = Set(try restored.list().map(\.id))
        let lostIDs = Set(salvage.lost.compactMap(\.object.entryID))
        // Every entry but the hit one is back, exactly as it was.
        XCTAssertEqual(restoredIDs, Set(originals.keys).subtracting(hit.map { [$0] } ?? []), context)
        for id in restoredIDs { XCTAssertEqual(try restored.entry(id), originals[id], context) }
        if let hit { XCTAssertTrue(lostIDs.contains(hit), "\(context): \(salvage.lost)") }
        // Nothing the restored vault holds is listed as lost.
        XCTAssertTrue(lostIDs.isDisjoint(with: restoredIDs), context)
    }

    /// The bits to flip, one per round: 200 anywhere in the file in a full sweep; in a sample,
    /// one in the preamble and header, and one in each of a few entry records, index records
    /// and the end record (so every kind of record is hit).
    private func randomFlips(_ layout: Layout, size: Int, sweep: inout Sweep) -> [Int] {
        if sweep.isFull { return (0..<200).map { _ in Int.random(in: 0..<(size * 8), using: &sweep) } }
        let strata = [
            [0..<layout.preambleAndHeaderEnd], layout.entries.map(\.range), layout.indexRanges, [layout.endRecord],
        ]
        return zip(strata, [1, 6, 2, 1]).flatMap { records, count in
            sweep.pick(count, from: records).map {
                Int.random(in: ($0.lowerBound * 8)..<($0.upperBound * 8), using: &sweep)
            }
        }
    }

    /// The type, length and id bytes are what a reader needs to find the records after the
    /// damaged one; every single-bit flip there must still cost only that record (every bit
    /// in a full sweep, a few of each field's bits in a sample).
    func testEveryFlipInARecordsFramingCostsOnlyThatRecord() throws {
        let (vault, originals) = try vaultWithEntries(6)
        let file = path("framing.diarybak")
        try vault.backup(to: file)
        let bytes = Array(try Data(contentsOf: file))
        let layout = try layout(of: bytes)
        var sweep = Sweep("VaultBackupSalvageTests framing")
        // The type byte, the four length bytes and the sixteen id bytes, as bit ranges.
        let fields = [0..<8, 8..<40, 40..<168]
        // A middle and the last entry record (the last is followed by the end record).
        for index in [layout.entries.count / 2, layout.entries.count - 1] {
            let record = layout.entries[index]
            for recordBit in zip(fields, [2, 3, 3]).flatMap({ sweep.pick($1, from: Array($0)) }) {
                let (at, bit) = (record.range.lowerBound + recordBit / 8, recordBit % 8)
                var damaged = bytes
                damaged[at] ^= UInt8(1 << bit)
                let flipped = path("f.diarybak")
                try Data(damaged).write(to: flipped)
                let context = "entry record \(index), byte \(recordBit / 8), bit \(bit) (\(sweep.replay))"
                let target = path("s")
                try sweep.check(context) {
                    let report = try Vault.verifyBackup(flipped, passphrase: secret("correct horse"))
                    XCTAssertTrue(
                        report.damaged.contains { $0.object == .entry(record.id) }, "\(context): \(report.damaged)")
                    let salvage = try Vault.salvage(backup: flipped, to: target, passphrase: secret("correct horse"))
                    let restored = try Vault.open(at: target, passphrase: secret("correct horse"))
                    let restoredIDs = Set(try restored.list().map(\.id))
                    XCTAssertEqual(restoredIDs, Set(originals.keys).subtracting([record.id]), context)
                    for id in restoredIDs { XCTAssertEqual(try restored.entry(id), originals[id], context) }
                    XCTAssertTrue(
                        salvage.lost.contains { $0.object == .entry(record.id) }, "\(context): \(salvage.lost)")
                }
                try FileManager.default.removeItem(at: target)
                try FileManager.default.removeItem(at: flipped)
            }
        }
    }

    func testVerifyNamesEachDamagedEntryOfABackupNotOnlyTheChecksum() throws {
        let (vault, _) = try vaultWithEntries(5)
        let file = path("b.diarybak")
        try vault.backup(to: file)
        var bytes = Array(try Data(contentsOf: file))
        let layout = try layout(of: bytes)
        let first = layout.entries[1], second = layout.entries[3]
        bytes[first.range.upperBound - 3] ^= 0x10
        bytes[second.range.upperBound - 40] ^= 0x01
        try Data(bytes).write(to: file)
        let report = try Vault.verifyBackup(file, passphrase: secret("correct horse"))
        let named = Set(report.damaged.compactMap(\.object.entryID))
        XCTAssertEqual(named, [first.id, second.id], "\(report.damaged)")
        XCTAssertTrue(report.damaged.contains { $0.object == .backupFile && $0.reason.contains("checksum") })
        XCTAssertEqual(report.checkedEntries, 5)
    }

    func testSalvageLeavesOutAnOlderCopyOfAnEntryAndNamesIt() throws {
        let vault = try makeVault(.files)
        let kept = try vault.add(text: "kept")
        let edited = try vault.add(text: "first version")
        var older: [UInt8] = []
        try vault.backend.withSnapshot { older = try $0.readEntry(edited.id)! }
        _ = try vault.update(edited.id, text: "second version")
        let file = path("replay.diarybak")
        try vault.backup(to: file)
        // Put the older, authentic copy back into the backup in place of the current one.
        var bytes = Array(try Data(contentsOf: file))
        let record = try layout(of: bytes).entries.first { $0.id == edited.id }!
        guard record.range.count == older.count + 21 else { throw XCTSkip("the edit changed the sealed size") }
        bytes.replaceSubrange((record.range.lowerBound + 21)..<record.range.upperBound, with: older)
        try Data(bytes).write(to: file)
        XCTAssertThrowsError(try Vault.restore(backup: file, to: path("plain"), passphrase: secret("correct horse")))
        let report = try Vault.salvage(backup: file, to: path("salvaged"), passphrase: secret("correct horse"))
        XCTAssertEqual(try report.vault.list().map(\.id), [kept.id])
        XCTAssertEqual(report.lost.compactMap(\.object.entryID), [edited.id])
        XCTAssertTrue(report.lost[0].reason.contains("differs from the index"), "\(report.lost)")
    }

    /// Damage found in the last record, after the others were written, must leave nothing:
    /// the vault is built beside the target and renamed into place only when complete.
    func testARestoreRefusedLateLeavesNoVaultAndNoTemporaryDirectory() throws {
        let (vault, _) = try vaultWithEntries(4)
        let file = path("late.diarybak")
        try vault.backup(to: file)
        var bytes = Array(try Data(contentsOf: file))
        let last = try layout(of: bytes).entries.last!
        bytes[last.range.upperBound - 1] ^= 0x01
        try Data(bytes).write(to: file)
        let parent = path("restores")
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: false)
        XCTAssertThrowsError(
            try Vault.restore(backup: file, to: parent.appendingPathComponent("r"), passphrase: secret("correct horse"))
        )
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: parent.path), [])
    }

    func testSalvageOfACleanBackupIsARestore() throws {
        let (vault, originals) = try vaultWithEntries(3)
        let file = path("clean.diarybak")
        try vault.backup(to: file)
        let report = try Vault.salvage(backup: file, to: path("r"), passphrase: secret("correct horse"))
        XCTAssertEqual(report.lost, [])
        XCTAssertEqual(Set(try report.vault.list().map(\.id)), Set(originals.keys))
    }

    func testVerifyingABackupReadsItInBoundedMemory() throws {
        // A record claiming more than the cap is refused before anything is allocated.
        let (vault, _) = try vaultWithEntries(1)
        let file = path("huge.diarybak")
        try vault.backup(to: file)
        var bytes = Array(try Data(contentsOf: file))
        let layout = try layout(of: bytes)
        let at = layout.entries[0].range.lowerBound + 1
        bytes.replaceSubrange(at..<(at + 4), with: [0xFF, 0xFF, 0xFF, 0xF0])
        try Data(bytes).write(to: file)
        let report = try Vault.verifyBackup(file, passphrase: secret("correct horse"))
        XCTAssertTrue(report.damaged.contains { $0.object == .entry(layout.entries[0].id) }, "\(report.damaged)")
    }

    func testABackupIsWrittenWithoutAnyKey() throws {
        let vault = try makeVault(.sqlite)
        let e = try vault.add(text: "locked")
        let file = path("keyless.diarybak")
        let findings = try SealedVault(at: vault.directory).backup(to: file)
        XCTAssertEqual(findings, [])
        let restored = try Vault.restore(backup: file, to: path("r"), passphrase: secret("correct horse"))
        XCTAssertEqual(try restored.entry(e.id), e)
    }

    func testBackupOfAVaultWithAMisshapenEntryCopiesItAndNamesIt() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let good = try vault.add(text: "good")
            let bad = UUID()
            try vault.backend.withWriteLock { try vault.backend.apply(StoreChange(putEntries: [bad: [1, 2, 3]])) }
            let file = path("misshapen-\(kind.rawValue).diarybak")
            let findings = try SealedVault(at: vault.directory).backup(to: file)
            XCTAssertEqual(findings.map(\.object), [.entry(bad)])
            let report = try Vault.salvage(
                backup: file, to: path("s-\(kind.rawValue)"), passphrase: secret("correct horse"))
            XCTAssertEqual(try report.vault.list().map(\.id), [good.id])
            XCTAssertTrue(report.damage.contains { $0.object == .entry(bad) }, "\(report.damage)")
        }
    }
}
