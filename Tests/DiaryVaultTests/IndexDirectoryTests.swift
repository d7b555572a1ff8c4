import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// Index root version 5 (docs/FORMAT.md §7): a root naming directories, each naming at most
/// 256 pages, so a write seals one page, one directory and a small root at any size.
final class IndexDirectoryTests: VaultTestCase {
    private var rng = SeededGenerator(seed: 0)

    override func setUpWithError() throws {
        try super.setUpWithError()
        rng = SeededGenerator(seed: SeededGenerator.announcedSeed(name))
    }

    /// Entries in `clusters` tight groups of 260 ids sharing their first 15 bits: each group
    /// splits its page down to depth 16, leaving an empty sibling at every level, so a few
    /// thousand entries make more than 256 pages.
    private func clustered(_ clusters: Int) -> [Entry] {
        var entries: [Entry] = []
        for cluster in 0..<clusters {
            let head = (cluster * (IndexLayout.headCount / clusters)) & ~1
            for n in 0..<260 {
                var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &rng) }
                bytes[0] = UInt8(head >> 8)
                bytes[1] = UInt8(head & 0xFE) | (bytes[1] & 1)
                let date = Date(millisecondsSince1970: 1_700_000_000_000 + Int64(entries.count) * 60_000 + Int64(n))
                entries.append(
                    Entry(
                        id: UUID(bytes: bytes), text: "entry \(cluster)-\(n)", date: date, created: date,
                        modified: date, starred: n % 9 == 0, tags: []))
            }
        }
        return entries
    }

    private func put(_ entries: [Entry], into vault: Vault) throws {
        for batch in stride(from: 0, to: entries.count, by: 1_000) {
            _ = try vault.applySynced(
                puts: Array(entries[batch..<min(batch + 1_000, entries.count)]), deletes: [], expected: [:])
        }
    }

    private func reopen(_ vault: Vault) throws -> Vault {
        try Vault.open(at: vault.directory, passphrase: secret("correct horse"))
    }

    // MARK: A vault with many directories

    func testManyPagesSplitTheDirectoryAndEveryReadStillWorks() throws {
        let vault = try makeVault(.sqlite)
        let entries = clustered(25)
        try put(entries, into: vault)
        let root = vault.sealedIndex.index.root
        let directories = try XCTUnwrap(root.directories)
        XCTAssertGreaterThan(root.pages.count, IndexDirectory.maximumPages)
        XCTAssertGreaterThan(directories.count, 1, "directory 1 was split")
        XCTAssertTrue(directories.allSatisfy { $0.record.pages <= IndexDirectory.maximumPages })
        XCTAssertEqual(directories.reduce(0) { $0 + $1.record.pages }, root.pages.count)
        XCTAssertEqual(directories.reduce(0) { $0 + $1.record.rows }, entries.count)
        XCTAssertEqual(
            Set(try vault.backend.readIndexPages().keys),
            Set(root.pages.map(\.number)).union(IndexLayout.storeNumbers(of: root)), "the split directory is gone")
        let reopened = try reopen(vault)
        XCTAssertEqual(reopened.indexVersion, 5)
        XCTAssertEqual(reopened.sealedIndex.index.unreadDirectories.count, directories.count, "the root alone")
        XCTAssertEqual(reopened.entryCount, entries.count, "counted from the root")
        let target = entries[4_321]
        XCTAssertEqual(try reopened.entry(target.id), target)
        XCTAssertEqual(reopened.sealedIndex.index.unreadDirectories.count, directories.count - 1, "one directory")
        XCTAssertEqual(
            try reopened.resolve(String(target.id.compactHex.prefix(12))), target.id, "a prefix reads its directory")
        let newest = try reopen(vault)
        XCTAssertEqual(
            try newest.list(EntryFilter(limit: 10)).map(\.id),
            entries.sorted { $0.date > $1.date }.prefix(10).map(\.id))
        XCTAssertEqual(newest.sealedIndex.index.unreadDirectories.count, directories.count - 1, "the newest are in one")
        try newest.sealedIndex.ensureAllDirectories()
        XCTAssertEqual(newest.sealedIndex.index.root, root)
        XCTAssertTrue(try newest.verify().isClean)
    }

    /// A limited list reads directories newest first and stops at the first that cannot hold
    /// a newer row, whatever their order in the root.
    func testALimitedListReadsOnlyTheDirectoriesItNeeds() throws {
        let vault = try makeVault(.files)
        var entries = clustered(25)
        // The newest entries spread over every cluster (so every directory) or kept to one.
        for spread in [true, false] {
            for i in 0..<30 {
                let pick = spread ? i * 217 % entries.count : 4_000 + i
                let base: Int64 = spread ? 1_900_000_000_000 : 2_000_000_000_000
                entries[pick].date = Date(millisecondsSince1970: base + Int64(i) * 1_000)
            }
            try put(entries, into: vault)
            for limit in [1, 10, 40] {
                let reopened = try reopen(vault)
                let expected = entries.map(\.summary).sorted(by: EntrySummary.newestFirst).prefix(limit)
                XCTAssertEqual(try reopened.list(EntryFilter(limit: limit)).map(\.id), expected.map(\.id), "\(limit)")
                if !spread, limit <= 30 {
                    let index = reopened.sealedIndex.index
                    XCTAssertEqual(index.unreadDirectories.count, index.directories!.count - 1, "one directory read")
                }
            }
        }
    }

    /// One changed row seals its page and that page's directory, nothing else; a page split
    /// seals both halves into the same directory.
    func testAWriteSealsOnePageAndOneDirectory() throws {
        let vault = try makeVault(.sqlite)
        let entries = clustered(25)
        try put(entries, into: vault)
        try vault.sealedIndex.ensureAllPages()
        var index = vault.sealedIndex.index
        var row = try XCTUnwrap(index[entries[100].id])
        row.summary.title = "changed"
        index[entries[100].id] = row
        var change = StoreChange()
        try SealedIndex.seal(&index, into: &change, vaultID: vault.id, keys: vault.keyRing.current)
        let page = index.pageNumber(of: entries[100].id)
        let directory = try XCTUnwrap(
            index.directories?.keys.first {
                IndexDirectory.heads(of: $0).contains(IndexLayout.head(of: entries[100].id))
            })
        XCTAssertEqual(Set(change.putIndexPages.keys), [page, IndexDirectory.storeBase + directory])
        XCTAssertEqual(change.deleteIndexPages, [])
        XCTAssertLessThan(try XCTUnwrap(change.index).count, 2_048, "the root names directories, not pages")
    }

    /// A directory put back from before a write is not the copy the root names: the index is
    /// damage (read in memory from the entries), `verify` names the directory, and `reindex`
    /// repairs it.
    func testAnOlderDirectoryPutBackIsDamageThatReindexRepairs() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let added = try (0..<8).map { try vault.add(text: "entry \($0)") }
            let stored = IndexDirectory.storeBase + 1
            let before = try XCTUnwrap(try vault.backend.readIndexPages()[stored])
            try vault.delete(added[2].id)
            try vault.backend.apply(StoreChange(putIndexPages: [stored: before]))
            let reopened = try reopen(vault)
            XCTAssertEqual(reopened.indexState, .ok, "the root alone is read on opening")
            XCTAssertEqual(Set(try reopened.list().map(\.id)), Set(added.map(\.id)).subtracting([added[2].id]))
            XCTAssertEqual(reopened.indexState, .damaged, "found when the directory is read")
            XCTAssertThrowsError(try reopened.add(text: "refused until repaired"))
            let report = try reopened.verify()
            XCTAssertTrue(report.damaged.contains { "\($0)".contains("directory 1") }, "\(report.damaged)")
            XCTAssertFalse(
                report.damaged.contains { "\($0)".contains("not part of the index") }, "its pages are not strays")
            try reopened.reindex()
            XCTAssertTrue(try reopen(vault).verify().isClean)
        }
    }

    /// `reindex` leaves only what the new index names: no page of an earlier split, no
    /// directory of the old root.
    func testReindexLeavesNoStrayPageOrDirectory() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let entries = clustered(1)
            try put(entries, into: vault)
            let split = try vault.backend.readIndexPages().count
            let gone = entries.prefix(250).map(\.id)
            let tags = try vault.sealTags(onPages: 0..<Vault.indexPageCount)
            _ = try vault.applySynced(
                puts: [], deletes: gone, expected: Dictionary(uniqueKeysWithValues: gone.map { ($0, tags[$0]) }))
            try vault.reindex()
            let reopened = try reopen(vault)
            try reopened.sealedIndex.ensureAllDirectories()
            let root = reopened.sealedIndex.index.root
            let stored = Set(try vault.backend.readIndexPages().keys)
            XCTAssertLessThan(stored.count, split, "the rebuilt index has fewer pages")
            XCTAssertEqual(stored, Set(root.pages.map(\.number)).union(IndexLayout.storeNumbers(of: root)))
            XCTAssertEqual(reopened.entryCount, 10)
            XCTAssertTrue(try reopened.verify().isClean)
        }
    }

    /// A witness directory that cannot be read is an error, never a record of nothing (which
    /// would hide a loss the witness can show).
    func testAWitnessDirectoryThatCannotBeReadIsAnError() throws {
        let vault = try makeVault(.files)
        let witness = IndexWitness(stateDirectory: path("state"), vaultID: vault.id, vaultDirectory: vault.directory)
        vault.attach(witness)
        _ = try vault.add(text: "seen by the witness")
        // Written where the witness did not follow: the next check compares the two.
        _ = try reopen(vault).add(text: "written elsewhere")
        let copy = try XCTUnwrap(try witness.open()).directory
        let directory = copy.appendingPathComponent("index").appendingPathComponent("01000001")
        try FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        let checked = try reopen(vault)
        checked.attach(witness)
        XCTAssertThrowsError(try checked.checkEntrySet())
    }

    /// A root of version 3 with more than 256 pages migrates to version 5 in one change, its
    /// pages untouched; a backup of either version restores and verifies.
    func testAVersion3RootOfManyPagesMigratesAndBothBackupsRestore() throws {
        let vault = try makeVault(.files)
        let entries = clustered(25)
        try put(entries, into: vault)
        let pages = try vault.backend.readIndexPages().filter { !IndexDirectory.isStoreNumber($0.key) }
        let newBackup = path("v5.diarybak")
        _ = try vault.backup(to: newBackup)
        try LegacyIndexWriter.downgradeToVersion3(vault)
        let oldBackup = path("v3.diarybak")
        _ = try vault.backup(to: oldBackup)
        let old = try reopen(vault)
        XCTAssertEqual(old.indexVersion, 3)
        XCTAssertTrue(try old.verify().isClean)
        let generation = old.sealedIndex.index.generation
        try old.migrateIndexIfNeeded()
        XCTAssertEqual(old.indexVersion, 5)
        XCTAssertEqual(old.sealedIndex.index.generation, generation + 1, "one change")
        XCTAssertGreaterThan(try XCTUnwrap(old.sealedIndex.index.directories).count, 1)
        let stored = try vault.backend.readIndexPages()
        XCTAssertEqual(stored.filter { !IndexDirectory.isStoreNumber($0.key) }, pages, "pages untouched")
        XCTAssertEqual(try reopen(vault).entryCount, entries.count)
        for (file, version) in [(newBackup, 5), (oldBackup, 3)] {
            XCTAssertTrue(try Vault.verifyBackup(file, passphrase: secret("correct horse")).isClean)
            let directory = path("restored-\(version)")
            _ = try Vault.restore(backup: file, to: directory, passphrase: secret("correct horse"), store: .sqlite)
            let restored = try Vault.open(at: directory, passphrase: secret("correct horse"))
            XCTAssertEqual(restored.indexVersion, version)
            XCTAssertEqual(restored.entryCount, entries.count)
            XCTAssertTrue(try restored.verify().isClean)
        }
    }

    /// A root of version 4 (version 3 with the recovery key's epoch) keeps the binding when
    /// it is rewritten as version 5.
    func testARootOfVersion4KeepsItsRecoveryKeyThroughTheMigration() throws {
        let vault = try makeVault(.files)
        _ = try vault.add(text: "one")
        _ = try vault.setRecoveryKey(
            publicKeyOf: try RecoveryKey.generate(), replace: false, passphrase: secret("correct horse"))
        let binding = vault.sealedIndex.index.recovery
        XCTAssertEqual(binding.epoch, 1)
        try LegacyIndexWriter.downgradeToVersion3(vault)
        let old = try reopen(vault)
        XCTAssertEqual(old.indexVersion, 3)
        XCTAssertEqual(old.sealedIndex.index.recovery, binding)
        try old.migrateIndexIfNeeded()
        let migrated = try reopen(vault)
        XCTAssertEqual(migrated.indexVersion, 5)
        XCTAssertEqual(migrated.sealedIndex.index.recovery, binding)
        XCTAssertTrue(try migrated.verify().isClean)
    }

    // MARK: Partition

    /// Random splits of the pages: the directories partition them, none over 256 pages, each
    /// page inside its directory's heads.
    func testDirectoriesPartitionThePagesWithNoneOver256() throws {
        for target in [64, 256, 257, 600, 2_000, 6_000] {
            var numbers = Array(64..<128)
            while numbers.count < target {
                let n = numbers.remove(at: Int.random(in: 0..<numbers.count, using: &rng))
                if IndexLayout.depth(ofPage: n) == IndexLayout.maximumDepth { numbers.append(n); continue }
                numbers += [2 * n, 2 * n + 1]
            }
            numbers.sort {
                IndexLayout.heads(ofPage: $0, version: 3).lowerBound
                    < IndexLayout.heads(ofPage: $1, version: 3).lowerBound
            }
            let directories = PagedIndex.directories(partitioning: numbers[...], within: 1, version: 3)
            XCTAssertEqual(directories.flatMap(\.pages), numbers, "\(target)")
            var nextHead = 0
            for (directory, pages) in directories {
                let heads = IndexDirectory.heads(of: directory)
                XCTAssertEqual(heads.lowerBound, nextHead, "\(target)")
                nextHead = heads.upperBound
                XCTAssertTrue(pages.count <= IndexDirectory.maximumPages || directories.count == 1 && target <= 256)
                for page in pages {
                    let pageHeads = IndexLayout.heads(ofPage: page, version: 3)
                    XCTAssertTrue(heads.contains(pageHeads.lowerBound) && pageHeads.upperBound <= heads.upperBound)
                }
            }
            XCTAssertEqual(nextHead, IndexLayout.headCount)
            if target <= IndexDirectory.maximumPages { XCTAssertEqual(directories.map(\.directory), [1]) }
        }
    }
}
