import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// The bytes of a version-5 root and of a directory (docs/FORMAT.md §7): what decodes encodes
/// back to the same bytes, and what a reader must refuse is refused.
final class IndexDirectoryCodecTests: XCTestCase {
    private func tag(_ seed: UInt8) -> [UInt8] { (0..<16).map { UInt8($0) &+ seed } }

    private func pageRecord(_ rows: Int, date: Int64 = 1_000) -> PageRecord {
        PageRecord(
            rows: rows, newest: rows == 0 ? ListKey(date: 0, created: 0) : ListKey(date: date, created: 5),
            tag: tag(UInt8(rows)))
    }

    /// Directory 2 (the first half of the heads) naming pages 64...95.
    private var firstHalf: [(number: Int, record: PageRecord)] {
        (64..<96).map { ($0, pageRecord($0 % 3, date: Int64($0) * 1_000)) }
    }

    private func directoryRecord(_ pages: [(number: Int, record: PageRecord)]) -> DirectoryRecord {
        let (rows, newest) = IndexDirectory.summary(of: pages.map(\.record))
        return DirectoryRecord(pages: pages.count, rows: rows, newest: newest, tag: tag(9))
    }

    private func root(_ directories: [(number: Int, record: DirectoryRecord)]) -> [UInt8] {
        IndexRoot(version: 3, generation: 7, pages: [], directories: directories).encoded()
    }

    private func twoDirectories() -> [(number: Int, record: DirectoryRecord)] {
        let second = (96..<128).map { (number: $0, record: pageRecord(1)) }
        return [(2, directoryRecord(firstHalf)), (3, directoryRecord(second))]
    }

    func testARootOfVersion5RoundTripsAndRefusesWhatItMust() throws {
        let good = root(twoDirectories())
        XCTAssertEqual(good[0], 5)
        let decoded = try IndexRoot.decode(good)
        XCTAssertEqual(decoded.encoded(), good)
        XCTAssertEqual(decoded.directories?.map(\.number), [2, 3])
        XCTAssertEqual(decoded.recovery, .none)
        let epoch = 1 + 8
        let count = epoch + 4 + 32
        var keyWithoutEpoch = good
        keyWithoutEpoch[epoch + 4] = 1
        XCTAssertThrowsError(try IndexRoot.decode(keyWithoutEpoch), "epoch 0 with a key")
        XCTAssertThrowsError(try IndexRoot.decode(root([twoDirectories()[0]])), "a gap: directory 3 missing")
        XCTAssertThrowsError(try IndexRoot.decode(root(twoDirectories().reversed())), "out of order")
        var overlapping = twoDirectories()
        overlapping[1].number = 1
        XCTAssertThrowsError(try IndexRoot.decode(root(overlapping)), "directory 1 overlaps 2")
        var deep = twoDirectories()
        deep[0].number = 1 << 9
        XCTAssertThrowsError(try IndexRoot.decode(root(deep)), "depth 9")
        XCTAssertThrowsError(try IndexRoot.decode(good + [0]), "trailing byte")
        var none = good
        none[count + 3] = 0
        XCTAssertThrowsError(try IndexRoot.decode(Array(none.prefix(count + 4))), "no directory")
        var few = twoDirectories()
        few[0].record.pages = 1
        few[1].record.pages = 1
        XCTAssertThrowsError(try IndexRoot.decode(root(few)), "fewer than 64 pages in all")
        var emptyWithNewest = twoDirectories()
        emptyWithNewest[1].record.rows = 0
        XCTAssertThrowsError(try IndexRoot.decode(root(emptyWithNewest)), "no rows but a newest key")
    }

    func testADirectoryDecodesOnlyWhatItsRootRecords() throws {
        let pages = firstHalf
        let record = directoryRecord(pages)
        let good = IndexDirectory.encode(number: 2, pages: pages[...])
        let decoded = try IndexDirectory.decode(good, number: 2, record: record)
        XCTAssertTrue(decoded.elementsEqual(pages, by: ==))
        XCTAssertThrowsError(try IndexDirectory.decode(good, number: 3, record: record), "another number")
        XCTAssertThrowsError(try IndexDirectory.decode(good + [0], number: 2, record: record), "trailing byte")
        var wrongVersion = good
        wrongVersion[0] = 3
        XCTAssertThrowsError(try IndexDirectory.decode(wrongVersion, number: 2, record: record))
        for change in [
            { (r: inout DirectoryRecord) in r.pages += 1 }, { $0.rows += 1 }, { $0.newest.date += 1 },
            { $0.newest.created -= 1 },
        ] {
            var other = record
            change(&other)
            XCTAssertThrowsError(try IndexDirectory.decode(good, number: 2, record: other), "\(other)")
        }
        let gap = Array(pages.dropFirst())
        XCTAssertThrowsError(
            try IndexDirectory.decode(
                IndexDirectory.encode(number: 2, pages: gap[...]), number: 2, record: directoryRecord(gap)))
        let outside = pages + [(96, pageRecord(1))]
        XCTAssertThrowsError(
            try IndexDirectory.decode(
                IndexDirectory.encode(number: 2, pages: outside[...]), number: 2, record: directoryRecord(outside)),
            "page 96 is directory 3's")
    }

    /// Dates before 1970 are negative: the newest key is the greatest over pages with rows,
    /// not over the zero key of an empty page.
    func testTheNewestKeyOfADirectoryIgnoresEmptyPages() {
        let pages = [pageRecord(0), pageRecord(2, date: -5_000), pageRecord(1, date: -9_000)]
        let (rows, newest) = IndexDirectory.summary(of: pages)
        XCTAssertEqual(rows, 3)
        XCTAssertEqual(newest, ListKey(date: -5_000, created: 5))
        XCTAssertEqual(IndexDirectory.summary(of: [pageRecord(0)]).newest, ListKey(date: 0, created: 0))
    }
}
