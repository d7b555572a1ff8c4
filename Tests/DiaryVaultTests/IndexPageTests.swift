import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// The paged index's codecs and the listing that reads rows in place (docs/FORMAT.md §7).
final class IndexPageTests: XCTestCase {
    private var rng = SeededGenerator(seed: 0)

    override func setUp() {
        // Seeded in setUp, not at construction: XCTest builds every test case just to list them.
        rng = SeededGenerator(seed: SeededGenerator.announcedSeed(name))
    }

    private func id(onPage page: Int) -> UUID {
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &rng) }
        bytes[0] = UInt8(page << 2) | (bytes[0] & 3)
        return UUID(bytes: bytes)
    }

    private func row(
        _ id: UUID, date ms: Int64 = 1_700_000_000_000, starred: Bool = false,
        title: String = "A title", tags: [String] = [], source: String? = nil
    ) -> IndexRow {
        IndexRow(
            summary: EntrySummary(
                id: id, title: title, date: Date(millisecondsSince1970: ms),
                created: Date(millisecondsSince1970: ms + 1), modified: Date(millisecondsSince1970: ms + 2),
                starred: starred, tags: tags, size: 42, source: source),
            sealTag: (0..<16).map { _ in UInt8.random(in: 0...255) })
    }

    func testPageRoundTripsAndFindsEveryRow() throws {
        var page = IndexPage(number: 69)
        var rows: [IndexRow] = []
        for n in 0..<200 {
            let r = row(
                id(onPage: 5), date: Int64(n) * 86_400_000 + 3_600_000, starred: n % 7 == 0,
                title: n % 3 == 0 ? "둘째 날 🌧️ \(n)" : "Day \(n)", tags: n % 2 == 0 ? ["a", "태그"] : [],
                source: n % 5 == 0 ? "jrnl:\(n)" : nil)
            rows.append(r)
            page.upsert(r)
        }
        let decoded = try IndexPage.decode(page.encoded(), number: 69, version: 3, expectedCount: 200)
        XCTAssertEqual(decoded, page)
        for r in rows { XCTAssertEqual(decoded.row(r.summary.id), r) }
        let ids = (0..<decoded.count).map { decoded.id(ofRowAt: $0).sortKey }
        XCTAssertTrue(zip(ids, ids.dropFirst()).allSatisfy { $0 < $1 }, "rows are kept in id order")
    }

    /// A scan's hint (the row after the last one found) is only tried: a wrong one, one out of
    /// range or one for an id the page lacks gives what the binary search gives.
    func testAPositionHintNeverChangesTheAnswer() {
        var page = IndexPage(number: 69)
        for _ in 0..<40 { page.upsert(row(id(onPage: 5))) }
        let listed = (0..<page.count).map { page.id(ofRowAt: $0) }
        let absent = id(onPage: 5)
        for id in listed + [absent] {
            for hint in -2...(page.count + 2) {
                let found = page.position(of: id, hint: hint)
                XCTAssertTrue(found == page.position(of: id), "hint \(hint)")
            }
        }
        XCTAssertTrue(page.position(of: listed[7], hint: 7) == (true, 7))
        XCTAssertFalse(page.position(of: absent, hint: 0).found)
    }

    func testUpsertReplacesAndRemoveDeletes() throws {
        var page = IndexPage(number: 64)
        let a = row(id(onPage: 0), title: "short")
        let b = row(id(onPage: 0), title: "b")
        page.upsert(a)
        page.upsert(b)
        var longer = a
        longer.summary.title = String(repeating: "much longer title ", count: 20)
        page.upsert(longer)
        XCTAssertEqual(page.count, 2)
        XCTAssertEqual(page.row(a.summary.id), longer)
        XCTAssertEqual(page.row(b.summary.id), b)
        XCTAssertTrue(page.remove(a.summary.id))
        XCTAssertFalse(page.remove(a.summary.id))
        XCTAssertNil(page.row(a.summary.id))
        XCTAssertEqual(
            try IndexPage.decode(page.encoded(), number: 64, version: 3, expectedCount: 1).row(b.summary.id), b)
    }

    func testPageDecodeRefusesMalformedPlaintext() throws {
        var page = IndexPage(number: 73)
        let first = row(id(onPage: 9))
        let second = row(id(onPage: 9), title: "é")
        page.upsert(first)
        page.upsert(second)
        let good = page.encoded()
        XCTAssertThrowsError(
            try IndexPage.decode(good, number: 72, version: 3, expectedCount: 2), "another page's number")
        XCTAssertThrowsError(
            try IndexPage.decode(good, number: 73, version: 3, expectedCount: 1), "a count the root does not name")
        XCTAssertThrowsError(
            try IndexPage.decode(good + [0], number: 73, version: 3, expectedCount: 2), "trailing bytes")
        XCTAssertThrowsError(
            try IndexPage.decode(Array(good.dropLast()), number: 73, version: 3, expectedCount: 2), "truncated")
        var badVersion = good
        badVersion[0] = 1
        XCTAssertThrowsError(try IndexPage.decode(badVersion, number: 73, version: 3, expectedCount: 2))
        // Rows out of order: swap the two encoded rows.
        let rowsStart = 9
        let a = IndexPage.encode(page.row(at: 0))
        let b = IndexPage.encode(page.row(at: 1))
        let swapped = Array(good[..<rowsStart]) + b + a
        XCTAssertThrowsError(try IndexPage.decode(swapped, number: 73, version: 3, expectedCount: 2), "unsorted rows")
        XCTAssertThrowsError(
            try IndexPage.decode(Array(good[..<rowsStart]) + a + a, number: 73, version: 3, expectedCount: 2),
            "a duplicate id")
        // A row whose id belongs on another page.
        var stray = IndexPage(number: 73)
        stray.upsert(first)
        var strayBytes = stray.encoded()
        strayBytes[rowsStart] = 0
        XCTAssertThrowsError(try IndexPage.decode(strayBytes, number: 73, version: 3, expectedCount: 1))
        // Unknown flag bits and invalid UTF-8 in the title.
        var flags = stray.encoded()
        flags[rowsStart + 40] = 0x80
        XCTAssertThrowsError(try IndexPage.decode(flags, number: 73, version: 3, expectedCount: 1))
        var utf8 = stray.encoded()
        utf8[rowsStart + IndexPage.fixedRowLength + 2] = 0xFF
        XCTAssertThrowsError(try IndexPage.decode(utf8, number: 73, version: 3, expectedCount: 1))
    }

    func testHexPrefixesNameThePagesThatCanHoldThem() {
        let index = PagedIndex(generation: 1)
        for page in [0, 1, 31, 63] {
            let id = id(onPage: page)
            XCTAssertEqual(index.pageNumber(of: id), 64 + page)
            let hex = id.compactHex
            XCTAssertEqual(index.pageNumbers(forHexPrefix: Substring(hex.prefix(4))), [64 + page])
            XCTAssertTrue(index.pageNumbers(forHexPrefix: Substring(hex.prefix(1))).contains(64 + page))
            XCTAssertEqual(index.pageNumbers(forHexPrefix: Substring(hex.prefix(1))).count, 4)
            XCTAssertTrue(id.hasHexPrefix(hex.prefix(7).compactMap(\.hexDigitValue).map(UInt8.init)))
        }
    }

    func testListingPicksTheNewestRowsAcrossPagesLikeASortWould() throws {
        var all: [IndexRow] = []
        for n in 0..<500 {
            // Many equal dates, so the created and id tie-breaks are exercised.
            all.append(
                row(UUID(), date: Int64(n % 37) * 1000 + 500, starred: n % 4 == 0, tags: n % 3 == 0 ? ["Work"] : []))
        }
        let index = PagedIndex(generation: 1, rows: all)
        let filters = [
            EntryFilter(), EntryFilter(limit: 10), EntryFilter(limit: 0), EntryFilter(starred: true, limit: 7),
            EntryFilter(tag: "work"),
            EntryFilter(from: Date(millisecondsSince1970: 5000), to: Date(millisecondsSince1970: 9000)),
            EntryFilter(limit: 1000),
        ]
        for filter in filters {
            var expected = all.map(\.summary).filter(filter.matches).sorted(by: EntrySummary.newestFirst)
            if let limit = filter.limit { expected = Array(expected.prefix(limit)) }
            var listing = IndexListing(filter: filter)
            for page in index.pages.values { listing.add(page) }
            XCTAssertEqual(listing.summaries(from: index), expected, "\(filter)")
        }
    }

    func testLimitedListsReadOnlyThePagesThatCanHoldTheNewestRows() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("index-listing-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let vault = try Vault.create(at: dir, store: .files, passphrase: secret(), kdf: .insecureForTesting)
        var all: [Entry] = []
        for n in 0..<400 {
            all.append(
                try vault.add(
                    text: "Entry \(n)", date: Date(timeIntervalSince1970: Double(n % 97) * 86_400),
                    starred: n % 9 == 0, tags: n % 4 == 0 ? ["work"] : []))
        }
        let reopened = try Vault.open(at: dir, passphrase: secret())
        let filters = [
            EntryFilter(limit: 10), EntryFilter(limit: 1), EntryFilter(starred: true, limit: 5),
            EntryFilter(tag: "work", limit: 3), EntryFilter(limit: 0), EntryFilter(limit: 500),
        ]
        for filter in filters {
            var expected = all.map(\.summary).filter(filter.matches).sorted(by: EntrySummary.newestFirst)
            expected = Array(expected.prefix(filter.limit!))
            XCTAssertEqual(try reopened.list(filter), expected, "\(filter)")
        }
        let fresh = try Vault.open(at: dir, passphrase: secret())
        _ = try fresh.list(EntryFilter(limit: 10))
        XCTAssertLessThan(
            fresh.sealedIndex.index.pages.count, 40, "a limited list reads a few pages, not all 64")
    }

    private func secret() -> SecretBytes {
        var bytes = Array("correct horse".utf8)
        return try! SecretBytes(consuming: &bytes)
    }

    func testUTF8CheckAgreesWithTheStandardLibrary() {
        var samples: [[UInt8]] = [
            [], Array("plain".utf8), Array("둘째 날 🌧️ é".utf8), [0xC0, 0x80], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80],
            [0xF4, 0x90, 0x80, 0x80], [0xF0, 0x9F, 0x8C], [0x80], [0xC3], [0xF8, 0x88, 0x80, 0x80, 0x80],
        ]
        for _ in 0..<5000 {
            samples.append((0..<Int.random(in: 0...8)).map { _ in UInt8.random(in: 0...255) })
        }
        for bytes in samples {
            XCTAssertEqual(
                bytes.withUnsafeBytes(UTF8Check.isValid), String(validating: bytes, as: UTF8.self) != nil, "\(bytes)")
        }
    }
}
