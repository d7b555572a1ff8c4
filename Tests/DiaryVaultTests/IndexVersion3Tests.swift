import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// Index version 3 (docs/FORMAT.md §7): pages split as they fill so none grows with the diary,
/// a root that must be an exact partition of the ids, and the migration of version-2 vaults.
final class IndexVersion3Tests: VaultTestCase {
    private var rng = SeededGenerator(seed: 0)

    override func setUpWithError() throws {
        try super.setUpWithError()
        rng = SeededGenerator(seed: SeededGenerator.announcedSeed(name))
    }

    /// An id whose first six bits are `bucket` (so many of them fill one page of depth 6).
    private func id(inBucket bucket: Int) -> UUID {
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &rng) }
        bytes[0] = UInt8(bucket << 2) | (bytes[0] & 3)
        return UUID(bytes: bytes)
    }

    private func entry(_ id: UUID, _ n: Int) -> Entry {
        let date = Date(millisecondsSince1970: 1_700_000_000_000 + Int64(n) * 3_600_000)
        return Entry(
            id: id, text: "Entry \(n)\nbody \(n)", date: date, created: date, modified: date, starred: n % 5 == 0,
            tags: n % 3 == 0 ? ["three"] : [])
    }

    /// Writes `count` entries into bucket 0 (and a few elsewhere) in batches, as sync does.
    private func crowd(_ vault: Vault, count: Int) throws -> [Entry] {
        var entries: [Entry] = []
        for n in 0..<count { entries.append(entry(id(inBucket: n % 10 == 0 ? n % 64 : 0), n)) }
        for batch in stride(from: 0, to: count, by: 100) {
            _ = try vault.applySynced(puts: Array(entries[batch..<min(batch + 100, count)]), deletes: [], expected: [:])
        }
        return entries
    }

    // MARK: Splitting

    func testAFullPageSplitsAndEveryReadStillFindsItsRows() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let entries = try crowd(vault, count: 700)
            let root = vault.sealedIndex.index.root
            XCTAssertEqual(root.version, 3)
            XCTAssertTrue(root.pages.allSatisfy { $0.record.rows <= IndexLayout.maximumRows }, "no page is over")
            XCTAssertGreaterThan(root.pages.count, 64, "bucket 0 was split")
            XCTAssertNil(root.pages.first { $0.number == 64 }, "the split page is gone from the root")
            let stored = try vault.backend.readIndexPages()
            XCTAssertEqual(
                Set(stored.keys), Set(root.pages.map(\.number)).union(IndexLayout.storeNumbers(of: root)),
                "and from the store")
            if kind == .files {
                let names = try FileManager.default.contentsOfDirectory(
                    atPath: vault.directory.appendingPathComponent("index").path)
                XCTAssertTrue(names.allSatisfy { $0.count == 8 }, "\(names)")
            }
            let reopened = try Vault.open(at: vault.directory, passphrase: secret("correct horse"))
            let target = entries[350]
            XCTAssertEqual(try reopened.resolve(String(target.id.compactHex.prefix(8))), target.id)
            XCTAssertEqual(reopened.sealedIndex.index.pages.count, 1, "a prefix reads one page")
            XCTAssertEqual(try reopened.entry(target.id), target)
            XCTAssertEqual(try reopened.list().count, entries.count)
            XCTAssertEqual(
                try reopened.list(EntryFilter(limit: 10)).map(\.id),
                entries.sorted { $0.date > $1.date }.prefix(10).map(\.id))
            try reopened.delete(entries[0].id)
            try reopened.update(entries[1].id, text: "Changed\nafter the split")
            XCTAssertTrue(try reopened.verify().isClean)
            XCTAssertEqual(reopened.entryCount, entries.count - 1)
        }
    }

    func testABackupOfASplitIndexRestoresAndVerifies() throws {
        let vault = try makeVault(.files)
        let entries = try crowd(vault, count: 400)
        let file = path("split.diarybak")
        _ = try vault.backup(to: file)
        XCTAssertTrue(try Vault.verifyBackup(file, passphrase: secret("correct horse")).isClean)
        for target in StoreKind.allCases {
            let directory = path("restored-\(target.rawValue)")
            _ = try Vault.restore(backup: file, to: directory, passphrase: secret("correct horse"), store: target)
            let restored = try Vault.open(at: directory, passphrase: secret("correct horse"))
            XCTAssertEqual(try restored.list().count, entries.count)
            XCTAssertTrue(try restored.verify().isClean, "\(target)")
        }
    }

    /// A version-3 newest key bounds the date a row is shown at in every time zone, so a
    /// limited list may skip a page whose key is older than its last row, with no slack.
    func testTheNewestKeyBoundsTheShownDateInEveryTimeZone() throws {
        let days: [Int64] = [-4_102_444_800_000, -3_786_825_600_000, 0, 1_709_251_200_000, 4_102_444_800_000]
        for identifier in TimeZone.knownTimeZoneIdentifiers {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = try XCTUnwrap(TimeZone(identifier: identifier))
            for day in days {
                let shown = CalendarDay.date(storedMilliseconds: day, local: calendar).millisecondsSince1970
                XCTAssertLessThanOrEqual(shown, day + IndexLayout.dayShownLead, "\(identifier) \(day)")
            }
        }
        var page = IndexPage(number: 64)
        let day = Date(millisecondsSince1970: 1_709_251_200_000)
        var summary = entry(id(inBucket: 0), 1).summary
        summary.date = day
        summary.isCalendarDay = true
        page.upsert(IndexRow(summary: summary, sealTag: [UInt8](repeating: 1, count: 16)))
        XCTAssertEqual(page.newestKey().date, 1_709_251_200_000 + IndexLayout.dayShownLead)
        XCTAssertEqual(IndexPage(number: 0, version: 2).newestKey(), ListKey(date: 0, created: 0))
    }

    func testALimitedListOfDaysAndInstantsMatchesAFullSort() throws {
        let vault = try makeVault(.sqlite)
        var entries: [Entry] = []
        for n in 0..<600 {
            // Days and instants interleaved, many on the same days, so the order turns on the
            // shown dates and the bounds.
            let date = Date(timeIntervalSince1970: 1_700_000_000 + Double(n % 40) * 43_200 + Double(n % 3) * 3_600)
            entries.append(try vault.add(text: "entry \(n)", date: date, dateIsDay: n % 2 == 0))
        }
        let reopened = try Vault.open(at: vault.directory, passphrase: secret("correct horse"))
        let sorted = entries.map(\.summary).sorted(by: EntrySummary.newestFirst)
        for limit in [1, 3, 10, 25] {
            XCTAssertEqual(try reopened.list(EntryFilter(limit: limit)), Array(sorted.prefix(limit)), "\(limit)")
        }
        XCTAssertLessThan(reopened.sealedIndex.index.pages.count, 64, "a limited list skips pages")
    }

    // MARK: The root is an exact partition

    private func record(_ rows: Int = 0) -> PageRecord {
        PageRecord(
            rows: rows, newest: rows == 0 ? ListKey(date: 0, created: 0) : ListKey(date: 1000, created: 1000),
            tag: (0..<16).map { _ in UInt8.random(in: 0...255) })
    }

    private func root(_ numbers: [Int]) -> [UInt8] {
        IndexRoot(version: 3, generation: 9, pages: numbers.map { ($0, record($0 % 3)) }).encoded()
    }

    /// `numbers` sorts a few hundred pages and orders more through a slot per head: both give
    /// the pages in the order of their first ids, for random partitions either side of the switch.
    func testPageNumbersComeInHeadOrderFewPagesOrMany() throws {
        for target in [64, 65, 300, PagedIndex.slotOrderAbove, PagedIndex.slotOrderAbove + 1, 1_500] {
            var numbers = Array(64..<128)
            while numbers.count < target {
                let n = numbers.remove(at: Int.random(in: 0..<numbers.count, using: &rng))
                if IndexLayout.depth(ofPage: n) == IndexLayout.maximumDepth { numbers.append(n); continue }
                numbers += [2 * n, 2 * n + 1]  // its two halves, one level deeper
            }
            func firstHead(_ n: Int) -> Int {
                let depth = Int.bitWidth - n.leadingZeroBitCount - 1
                return (n - 1 << depth) << (16 - depth)
            }
            let expected = numbers.sorted { firstHead($0) < firstHead($1) }
            XCTAssertNoThrow(try IndexRoot.decode(root(expected)), "a root accepts only head order")
            let shuffled = numbers.shuffled(using: &rng).map { ($0, record()) }
            let index = PagedIndex(root: IndexRoot(version: 3, generation: 9, pages: shuffled))
            XCTAssertEqual(index.numbers, expected, "\(target) pages")
        }
    }

    func testARootMustPartitionTheIdsExactly() throws {
        let first = Array(64..<128)
        XCTAssertEqual(try IndexRoot.decode(root(first)).pages.count, 64)
        let split = [128, 129] + Array(65..<128)
        XCTAssertEqual(try IndexRoot.decode(root(split)).pages.map(\.number), split)
        // The leftmost page split down to depth 16, in head order.
        var deep = first
        while deep[0] < 1 << 16 {
            let number = deep.removeFirst()
            deep.insert(contentsOf: [2 * number, 2 * number + 1], at: 0)
        }
        XCTAssertNoThrow(try IndexRoot.decode(root(deep)), "depth 16 is allowed")
        let hostile: [(String, [UInt8])] = [
            ("a gap", root(Array(64..<127))),
            ("an overlap", root([64, 128, 129] + Array(65..<128))),
            ("out of order", root([65, 64] + Array(66..<128))),
            ("a page twice", root([64, 64] + Array(65..<128))),
            ("too shallow", root([32] + Array(66..<128))),
            ("too deep", root([1 << 17, 1 << 17 | 1] + Array(deep.dropFirst(2)))),
            ("a zero page", root([0] + Array(65..<128))),
            ("no pages", root([])),
        ]
        for (name, bytes) in hostile { XCTAssertThrowsError(try IndexRoot.decode(bytes), name) }
        var countLie = root(first)
        countLie[12] = 65  // the page count says 65, 64 follow
        XCTAssertThrowsError(try IndexRoot.decode(countLie), "a count that lies")
        XCTAssertThrowsError(try IndexRoot.decode(root(first) + [0]), "trailing bytes")
        var rowsLie = root(first)
        rowsLie[13 + 4] = 0xFF  // page 64's row count: more rows than any page can hold
        XCTAssertThrowsError(try IndexRoot.decode(rowsLie), "an impossible row count")
        var emptyWithNewest = root(first)
        emptyWithNewest[13 + 2 * 40 + 15] = 1  // page 66 is empty, so its newest key must be zero
        XCTAssertThrowsError(try IndexRoot.decode(emptyWithNewest))
    }

    func testAPageHoldsOnlyTheIdsOfItsPrefix() throws {
        var page = IndexPage(number: 129)  // depth 7, prefix 1: ids 0x02... and 0x03...
        var inside = (0..<16).map { _ in UInt8.random(in: 0...255, using: &rng) }
        inside[0] = 0x03
        let row = IndexRow(
            summary: entry(UUID(bytes: inside), 1).summary, sealTag: (0..<16).map { _ in UInt8.random(in: 0...255) })
        page.upsert(row)
        let good = page.encoded()
        XCTAssertEqual(try IndexPage.decode(good, number: 129, version: 3, expectedCount: 1).row(at: 0), row)
        var outside = good
        outside[9] = 0x04  // the row's id now starts 0b000001 00: page 130's
        XCTAssertThrowsError(try IndexPage.decode(outside, number: 129, version: 3, expectedCount: 1))
        XCTAssertThrowsError(try IndexPage.decode(good, number: 128, version: 3, expectedCount: 1), "another number")
    }

    func testAStoredRootThatOverlapsIsDamageThatReindexRepairs() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let added = try (0..<5).map { try vault.add(text: "entry \($0)") }
            var plaintext = vault.sealedIndex.index.root
            plaintext.directories = nil  // a root of version 3, naming its pages
            plaintext.pages.insert((128, PageRecord.empty), at: 0)  // overlaps page 64
            let sealed = try Envelope.seal(
                plaintext.encoded(), kind: .index, objectID: Envelope.indexObjectID, vaultID: vault.id,
                keys: vault.keyRing.current)
            try vault.backend.apply(StoreChange(index: sealed))
            let reopened = try Vault.open(at: vault.directory, passphrase: secret("correct horse"))
            XCTAssertEqual(reopened.indexState, .damaged)
            XCTAssertEqual(Set(try reopened.list().map(\.id)), Set(added.map(\.id)))
            XCTAssertFalse(try reopened.verify().isClean)
            try reopened.reindex()
            XCTAssertTrue(try Vault.open(at: vault.directory, passphrase: secret("correct horse")).verify().isClean)
        }
    }

    // MARK: Migration from version 2

    /// The example vault of docs/format-example was written by the code before index version 3.
    func testTheVersion2ExampleIsReadThenMigrated() throws {
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/format-example/vault")
        let copy = path("example")
        try FileManager.default.copyItem(at: example, to: copy)
        let passphrase = secret(FormatExampleTests.passphrase)
        let vault = try Vault.open(at: copy, passphrase: passphrase)
        XCTAssertEqual(vault.indexVersion, 2)
        let before = try vault.list()
        XCTAssertTrue(try vault.verify().isClean)
        try vault.migrateIndexIfNeeded()
        XCTAssertEqual(vault.indexVersion, 5)
        XCTAssertEqual(Set(try vault.backend.readIndexPages().keys), IndexLayout.firstStored)
        let reopened = try Vault.open(at: copy, passphrase: passphrase)
        XCTAssertEqual(reopened.indexVersion, 5)
        XCTAssertEqual(try reopened.list(), before)
        XCTAssertTrue(try reopened.verify().isClean)
    }

    func testAVersion2VaultMigratesInOneChangeOnItsFirstWrite() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let entries = try (0..<30).map { try vault.add(text: "entry \($0)\nbody") }
            try LegacyIndexWriter.downgrade(vault)
            XCTAssertEqual(Set(try vault.backend.readIndexPages().keys), Set(0..<64))
            let old = try Vault.open(at: vault.directory, passphrase: secret("correct horse"))
            XCTAssertEqual(old.indexVersion, 2)
            XCTAssertEqual(try old.list().count, 30, "a version-2 index reads")
            XCTAssertEqual(try old.resolve(String(entries[4].id.compactHex.prefix(6))), entries[4].id)
            XCTAssertTrue(try old.verify().isClean)
            let generation = old.sealedIndex.index.generation
            let added = try old.add(text: "written after the upgrade")
            XCTAssertEqual(old.indexVersion, 5)
            XCTAssertEqual(old.sealedIndex.index.generation, generation + 1, "one change")
            XCTAssertEqual(Set(try vault.backend.readIndexPages().keys), IndexLayout.firstStored)
            let reopened = try Vault.open(at: vault.directory, passphrase: secret("correct horse"))
            XCTAssertEqual(Set(try reopened.list().map(\.id)), Set((entries + [added]).map(\.id)))
            XCTAssertTrue(try reopened.verify().isClean)
            XCTAssertEqual(try reopened.backend.auditLayout(), [])
        }
    }

    /// A backup made before index version 3 (records of type 4, a version-2 root) verifies,
    /// restores the old index, and the next open migrates it.
    func testAnOldBackupVerifiesRestoresAndIsMigratedLater() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let entries = try (0..<20).map { try vault.add(text: "entry \($0)") }
            try LegacyIndexWriter.downgrade(vault)
            let file = path("old-\(kind.rawValue).diarybak")
            _ = try vault.backup(to: file)
            let types = Set(try BackupContainer.records(of: file).map(\.type))
            XCTAssertTrue(types.contains(BackupFile.indexPageType))
            XCTAssertFalse(types.contains(BackupFile.wideIndexPageType))
            XCTAssertTrue(try Vault.verifyBackup(file, passphrase: secret("correct horse")).isClean)
            for target in StoreKind.allCases {
                let directory = path("restored-\(kind.rawValue)-\(target.rawValue)")
                _ = try Vault.restore(backup: file, to: directory, passphrase: secret("correct horse"), store: target)
                let restored = try Vault.open(at: directory, passphrase: secret("correct horse"))
                XCTAssertEqual(restored.indexVersion, 2, "the old index as it was")
                XCTAssertTrue(try restored.verify().isClean)
                try restored.migrateIndexIfNeeded()
                let migrated = try Vault.open(at: directory, passphrase: secret("correct horse"))
                XCTAssertEqual(migrated.indexVersion, 5)
                XCTAssertEqual(Set(try migrated.list().map(\.id)), Set(entries.map(\.id)))
                XCTAssertTrue(try migrated.verify().isClean)
            }
        }
    }

    /// The witness held the version-2 index: the migrating write brings it to version 3, and
    /// a loss after the migration is still found.
    func testTheWitnessFollowsTheMigrationAndStillFindsALoss() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let entries = try (0..<12).map { try vault.add(text: "entry \($0)") }
            try LegacyIndexWriter.downgrade(vault)
            let witness = IndexWitness(
                stateDirectory: path("state-\(kind)"), vaultID: vault.id,
                vaultDirectory: vault.directory)
            let old = try Vault.open(at: vault.directory, passphrase: secret("correct horse"))
            old.attach(witness)
            XCTAssertEqual(try old.checkEntrySet(), EntrySetReport(), "first sight: the version-2 index")
            XCTAssertEqual(Set(try witness.open()!.readIndexPages().keys), Set(0..<64))
            try old.migrateIndexIfNeeded()
            XCTAssertEqual(try witness.root(), try vault.backend.readIndex(), "the witness followed")
            XCTAssertEqual(Set(try witness.open()!.readIndexPages().keys), IndexLayout.firstStored)
            let again = try Vault.open(at: vault.directory, passphrase: secret("correct horse"))
            again.attach(witness)
            XCTAssertEqual(try again.checkEntrySet(), EntrySetReport())
            // Someone deletes an entry with its row: the witness (version 3 now) names it.
            let victim = entries[3]
            try again.sealedIndex.ensureAllPages()
            var index = again.sealedIndex.index
            index[victim.id] = nil
            var change = StoreChange(deleteEntries: [victim.id])
            index.generation += 1
            try SealedIndex.seal(&index, into: &change, vaultID: vault.id, keys: again.keyRing.current)
            try vault.backend.apply(change)
            let attacked = try Vault.open(at: vault.directory, passphrase: secret("correct horse"))
            attacked.attach(witness)
            XCTAssertEqual(try attacked.checkEntrySet().missing.map(\.id), [victim.id])
        }
    }

    /// A witness of the version-2 index compared with a vault migrated elsewhere (another
    /// machine, or a copy): the comparison follows ids, not page numbers.
    func testAVersion2WitnessIsComparedWithAMigratedVaultByIds() throws {
        let vault = try makeVault(.files)
        let entries = try (0..<12).map { try vault.add(text: "entry \($0)") }
        try LegacyIndexWriter.downgrade(vault)
        let witness = IndexWitness(stateDirectory: path("state"), vaultID: vault.id, vaultDirectory: vault.directory)
        let old = try Vault.open(at: vault.directory, passphrase: secret("correct horse"))
        old.attach(witness)
        XCTAssertEqual(try old.checkEntrySet(), EntrySetReport())
        // Migrated without this witness attached, then an entry deleted behind its back.
        let elsewhere = try Vault.open(at: vault.directory, passphrase: secret("correct horse"))
        try elsewhere.migrateIndexIfNeeded()
        try elsewhere.sealedIndex.ensureAllPages()
        var index = elsewhere.sealedIndex.index
        index[entries[7].id] = nil
        var change = StoreChange(deleteEntries: [entries[7].id])
        index.generation += 1
        try SealedIndex.seal(&index, into: &change, vaultID: vault.id, keys: elsewhere.keyRing.current)
        try vault.backend.apply(change)
        let now = try Vault.open(at: vault.directory, passphrase: secret("correct horse"))
        now.attach(witness)
        XCTAssertEqual(try now.checkEntrySet().missing.map(\.id), [entries[7].id])
    }
}
