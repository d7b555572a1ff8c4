import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// `Vault.search` reads the store in one scan, in the store's order: results must still come
/// newest first with the limit applied, and damage must still be contained and reported.
final class VaultSearchScanTests: VaultTestCase {
    private func day(_ n: Int) -> Date { Date(millisecondsSince1970: 1_700_000_000_000 + Int64(n) * 86_400_000) }

    func testMatchesComeNewestFirstWithTheLimitAppliedWhateverTheStoreOrder() {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            // Random ids, so the store's order (by id) has nothing to do with the dates.
            var added: [(Date, UUID)] = []
            for n in 0..<12 {
                let e = try vault.add(
                    text: n % 3 == 0 ? "plain day \(n)" : "saw a Quetzalcoatlus, day \(n)", date: day(n))
                if n % 3 != 0 { added.append((e.date, e.id)) }
            }
            let newestFirst = added.sorted { $0.0 > $1.0 }.map(\.1)
            XCTAssertEqual(try vault.search("quetzalcoatlus").matches.map(\.id), newestFirst)
            XCTAssertEqual(
                try vault.search("QUETZAL", filter: EntryFilter(limit: 3)).matches.map(\.id),
                Array(newestFirst.prefix(3)))
            XCTAssertEqual(try vault.search("quetzal", filter: EntryFilter(limit: 0)).matches, [])
            XCTAssertEqual(try vault.search(" ").matches.count, 12, "an empty query matches every entry it can open")
        }
    }

    /// The fast pass (`ParallelSearch`) decides every entry of a healthy vault itself, leaving
    /// none to be read again: a fast pass that failed for every entry would give the same
    /// answers through the slow one, only slower, and nothing else would notice.
    func testTheFastPassDecidesEveryEntryOfAHealthyVault() {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            for n in 0..<300 { _ = try vault.add(text: n % 7 == 0 ? "saw a Quetzal, day \(n)" : "plain day \(n)") }
            try vault.sealedIndex.ensureAllPages()
            let matcher = EntryBatchMatcher(
                vaultID: vault.header.vaultID, keyRing: vault.keyRing, queries: [TextMatcher.Query("quetzal")])
            let fast = ParallelSearch(index: vault.sealedIndex.index, filter: EntryFilter(), matcher: matcher)
            try vault.backend.withSnapshot { reader in
                let scanner = try XCTUnwrap(reader as? EntryScanning)
                try scanner.scanEntries(workers: fast.workerCount) { w, id, sealed in fast.take(w, id, sealed) }
            }
            XCTAssertEqual(fast.suspects, [])
            XCTAssertEqual(fast.matches.count, 43)
        }
    }

    func testDamagedEntriesAreReportedNewestFirstAndTheRestAreSearched() {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let entries = try (0..<6).map { try vault.add(text: "entry number \($0)", date: day($0)) }
            var change = StoreChange()
            for e in [entries[1], entries[4]] {
                var sealed = try XCTUnwrap(try vault.backend.readEntry(e.id))
                sealed[sealed.count - 1] ^= 1  // the tag: fails to open, and no longer the indexed copy
                change.putEntries[e.id] = sealed
            }
            try vault.backend.withWriteLock { try vault.backend.apply(change) }
            let found = try vault.search("number")
            XCTAssertEqual(found.matches.map(\.id), [5, 3, 2, 0].map { entries[$0].id })
            XCTAssertEqual(found.damaged, [entries[4].id, entries[1].id])
        }
    }

    func testAnEntryFileThatCannotBeReadDoesNotStopTheSearch() throws {
        let vault = try makeVault(.files)
        let a = try vault.add(text: "first lake", date: day(1))
        let b = try vault.add(text: "second lake", date: day(2))
        let c = try vault.add(text: "third lake", date: day(3))
        // A directory where b's file should be: the scan's read fails, and the search falls
        // back to one lookup per entry, which reports b alone.
        let file = vault.directory.appendingPathComponent("entries").appendingPathComponent(
            FileStore.fileName(for: b.id))
        try FileManager.default.removeItem(at: file)
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
        let found = try vault.search("lake")
        XCTAssertEqual(found.matches.map(\.id), [c.id, a.id])
        XCTAssertEqual(found.damaged, [b.id])
    }

    func testNonASCIIQueriesStillFollowFoundation() {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let korean = try vault.add(text: "오늘 박물관에서 익룡을 봤다", date: day(1))
            let french = try vault.add(text: "Un CAFÉ noir à Paris", date: day(2))
            _ = try vault.add(text: "nothing to see", date: day(3))
            XCTAssertEqual(try vault.search("박물관").matches.map(\.id), [korean.id])
            XCTAssertEqual(try vault.search("café").matches.map(\.id), [french.id])
            XCTAssertEqual(try vault.search("a PARIS").matches.map(\.id), [french.id], "à folds to a")
        }
    }

    /// The scan reads entry files in place with one `read` each; a FIFO there must neither
    /// hang the search nor pass for the entry: it is damaged, as a file that cannot be read is.
    func testAFIFOWhereAnEntryFileShouldBeIsDamaged() throws {
        let vault = try makeVault(.files)
        let a = try vault.add(text: "first pond", date: day(1))
        let b = try vault.add(text: "second pond", date: day(2))
        let file = vault.directory.appendingPathComponent("entries").appendingPathComponent(
            FileStore.fileName(for: b.id))
        try FileManager.default.removeItem(at: file)
        XCTAssertEqual(mkfifo(file.path, 0o600), 0)
        let found = try vault.search("pond")
        XCTAssertEqual(found.matches.map(\.id), [a.id])
        XCTAssertEqual(found.damaged, [b.id])
    }

    /// Entries of many sizes, more than one batch or share of the scan, with a tag filter.
    func testManyEntriesAreSearchedWithAFilter() {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            var tagged: [UUID] = []
            for n in 0..<150 {
                let text =
                    "entry \(n) " + String(repeating: n % 10 == 0 ? "long text with a heron " : "x", count: n * 3)
                let e = try vault.add(text: text, date: day(n), tags: n % 2 == 0 ? ["Birds"] : [])
                if n % 10 == 0 && n > 0 { tagged.append(e.id) }
            }
            let found = try vault.search("HERON", filter: EntryFilter(tag: "birds"))
            XCTAssertEqual(Set(found.matches.map(\.id)), Set(tagged))
            XCTAssertEqual(found.damaged, [])
            XCTAssertEqual(try vault.search("heron").matches.count, 14)
        }
    }

    /// The scan builds each entry's associated data on the stack; it must be the spec's bytes.
    func testAssociatedDataOnTheStackIsTheSameBytes() throws {
        for generation: UInt32 in [0, 1, 0x0102_0304, .max] {
            for kind in [ObjectKind.entry, .index, .indexPage] {
                let (vault, object) = (UUID(), UUID())
                let expected = Envelope.associatedData(
                    vaultID: vault, kind: kind, generation: generation, objectID: object)
                let built = try Envelope.withAssociatedData(
                    vaultID: vault, kind: kind, generation: generation, objectID: object
                ) { Array($0) }
                XCTAssertEqual(built, expected)
            }
        }
    }

    /// An entry the index lists but the scan was not lent (gone from the store behind the
    /// index's back, or read by another of the store's snapshots) is looked up again in the
    /// search's own snapshot: gone there too, it is not reported, and the rest are searched.
    func testAnEntryTheScanDidNotSeeIsLookedUpAgain() {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let entries = try (0..<5).map { try vault.add(text: "walk number \($0)", date: day($0)) }
            try vault.backend.withWriteLock {
                try vault.backend.apply(StoreChange(deleteEntries: [entries[2].id]))
            }
            let found = try vault.search("walk")
            XCTAssertEqual(found.matches.map(\.id), [4, 3, 1, 0].map { entries[$0].id })
            XCTAssertEqual(found.damaged, [])
        }
    }

    /// Only the entries the index lists are searched: the files store's scan opens their files
    /// by name, so a file in `entries/` the index does not list (here a copy of a matching
    /// entry's file under another id) is neither matched nor reported.
    func testAFileTheIndexDoesNotListIsNotSearched() throws {
        let vault = try makeVault(.files)
        let a = try vault.add(text: "first marsh", date: day(1))
        let b = try vault.add(text: "second marsh", date: day(2))
        let entries = vault.directory.appendingPathComponent("entries")
        try FileManager.default.copyItem(
            at: entries.appendingPathComponent(FileStore.fileName(for: a.id)),
            to: entries.appendingPathComponent(FileStore.fileName(for: UUID())))
        try FileManager.default.createDirectory(
            at: entries.appendingPathComponent(FileStore.fileName(for: UUID())), withIntermediateDirectories: false)
        let found = try vault.search("marsh")
        XCTAssertEqual(found.matches.map(\.id), [b.id, a.id])
        XCTAssertEqual(found.damaged, [])
    }

    /// An entry whose sealed copy is larger than a scan worker's first buffer (64 KiB) is read
    /// whole and matched, its word past the first buffer's end.
    func testAnEntryLargerThanTheScanBufferIsMatched() {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let large = try vault.add(text: String(repeating: "grass ", count: 20_000) + "ibis", date: day(1))
            _ = try vault.add(text: "small ibis", date: day(0))
            _ = try vault.add(text: "no bird", date: day(2))
            let found = try vault.search("IBIS")
            XCTAssertEqual(found.matches.count, 2)
            XCTAssertEqual(found.matches.first?.id, large.id)
            XCTAssertEqual(found.damaged, [])
        }
    }
}
