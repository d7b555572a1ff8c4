import DiaryCrypto
import DiaryStore
import Foundation
import XCTest

@testable import DiaryVault

/// The capture device record (entry plaintext version 4, FORMAT.md §7.7), its counter set, its
/// merge rule and its index row (flag bit 3).
final class CaptureDeviceRecordTests: XCTestCase {
    private let id = UUID(uuidString: "aaaaaaaa-2222-3333-4444-555555555555")!
    private let time = Date(millisecondsSince1970: 1_700_000_000_000)

    private func record(
        name: String = "phone", revoked: Date? = nil, counters: CaptureCounterSet = CaptureCounterSet(),
        inbox: [UInt8] = Array(repeating: 9, count: 32)
    ) throws -> CaptureDeviceRecord {
        var secret = inbox
        return CaptureDeviceRecord(
            id: id, name: name, enrolled: time, revoked: revoked, devicePublicKey: Array(repeating: 5, count: 32),
            inboxSecretKey: try SecretBytes(consuming: &secret), counters: counters)
    }

    func testARecordRoundTripsAsVersionFour() throws {
        let original = try record(
            revoked: time.addingTimeInterval(5), counters: CaptureCounterSet(floor: 3, extras: [7, 5]))
        let bytes = EntryCodec.encode(original.entry)
        XCTAssertEqual(bytes.first, 4)
        XCTAssertEqual(Array(bytes[1..<17]), id.bytes, "the device id follows the version")
        let decoded = try EntryCodec.decode(bytes, id: id, textLimit: 1 << 20)
        XCTAssertEqual(decoded.captureDevice, original)
        XCTAssertFalse(decoded.isEntry)
        XCTAssertEqual(decoded.captureDevice?.counters.extras, [5, 7])
        let unrevoked = try EntryCodec.decode(EntryCodec.encode(try record().entry), id: id, textLimit: 1 << 20)
        XCTAssertNil(unrevoked.captureDevice?.revoked)
    }

    func testCountersNormaliseIntoTheFloor() {
        let set = CaptureCounterSet(floor: 2, extras: [4, 1, 3, 3, 6])
        XCTAssertEqual(set.floor, 4)
        XCTAssertEqual(set.extras, [6])
        XCTAssertEqual((0...7).map(set.contains), [false, true, true, true, true, false, true, false])
        let filled = set.inserting(5)
        XCTAssertEqual([filled.floor], [6])
        XCTAssertEqual(filled.extras, [])
        XCTAssertEqual(CaptureCounterSet().inserting(2).extras, [2])
        XCTAssertEqual(CaptureCounterSet().inserting(1).floor, 1)
    }

    func testTheUnionHoldsEveryCounterOfEither() {
        let a = CaptureCounterSet(floor: 3, extras: [8, 10])
        let b = CaptureCounterSet(floor: 1, extras: [4, 5, 9, 12])
        let union = a.union(b)
        XCTAssertEqual(union, b.union(a))
        for counter in UInt64(1)...13 {
            XCTAssertEqual(union.contains(counter), a.contains(counter) || b.contains(counter), "counter \(counter)")
        }
        XCTAssertEqual(union.floor, 5)
    }

    func testCopiesMergeByUnionAndTheEarliestRevocation() throws {
        let first = try record(revoked: time.addingTimeInterval(60), counters: CaptureCounterSet(floor: 2, extras: []))
        let second = try record(
            revoked: time.addingTimeInterval(30), counters: CaptureCounterSet(floor: 0, extras: [4]))
        let third = try record(counters: CaptureCounterSet(floor: 3, extras: []))
        let merged = try XCTUnwrap(CaptureDeviceRecord.merged([first, second, third]))
        XCTAssertEqual(merged.counters, CaptureCounterSet(floor: 4, extras: []))
        XCTAssertEqual(merged.revoked, time.addingTimeInterval(30))
        XCTAssertEqual(CaptureDeviceRecord.merged([third, second, first]), merged, "order does not matter")
        XCTAssertNil(CaptureDeviceRecord.merged([first, try record(name: "other")]), "another name")
        XCTAssertNil(
            CaptureDeviceRecord.merged([first, try record(inbox: Array(repeating: 1, count: 32))]), "another key")
    }

    /// Each change makes a plaintext a writer could not have written.
    func testAReaderRefusesWhatNoWriterWrites() throws {
        let good = EntryCodec.encode(try record(counters: CaptureCounterSet(floor: 1, extras: [3, 5])).entry)
        let countersAt = good.count - 8 * 2 - 4 - 8
        var cases: [(String, [UInt8])] = []
        cases.append(("trailing byte", good + [0]))
        cases.append(("truncated", Array(good.dropLast())))
        var otherID = good
        otherID[1] ^= 1
        cases.append(("another device id", otherID))
        var descending = good
        descending.replaceSubrange(
            (good.count - 16)..<good.count, with: UInt64(5).bigEndianBytes + UInt64(3).bigEndianBytes)
        cases.append(("descending counters", descending))
        var belongsToFloor = good
        belongsToFloor.replaceSubrange((good.count - 16)..<(good.count - 8), with: UInt64(2).bigEndianBytes)
        cases.append(("an extra that is floor + 1", belongsToFloor))
        var count = good
        count.replaceSubrange((countersAt + 8)..<(countersAt + 12), with: [0xff, 0xff, 0xff, 0xff])
        cases.append(("a count past the end", count))
        var revoked = good
        let revokedAt = 17 + 2 + 5 + 8
        revoked.replaceSubrange(revokedAt..<revokedAt + 8, with: UInt64(Int64.max).bigEndianBytes)
        cases.append(("revoked out of range", revoked))
        for name in ["", "a\nb", " phone", String(repeating: "n", count: 65)] {
            cases.append(("name \(name.debugDescription)", EntryCodec.encode(try record(name: name).entry)))
        }
        for (what, bytes) in cases {
            XCTAssertThrowsError(try EntryCodec.decode(bytes, id: id, textLimit: 1 << 20), what)
        }
        XCTAssertNoThrow(
            try EntryCodec.decode(
                EntryCodec.encode(try record(name: String(repeating: "n", count: 64)).entry), id: id, textLimit: 1))
    }

    func testADeviceRowIsFlagEightAndEveryListingSkipsIt() throws {
        let row = IndexRow(summary: try record().entry.summary, sealTag: Array(repeating: 7, count: 16))
        XCTAssertTrue(row.summary.isCaptureDevice)
        XCTAssertFalse(row.summary.isEntry)
        XCTAssertEqual([row.summary.title, row.summary.source], ["phone", nil])
        var page = IndexPage(number: 1 << IndexLayout.minimumDepth | IndexLayout.head(of: id) >> 10)
        page.upsert(row)
        let encoded = page.encoded()
        let flagsAt = 9 + 40
        XCTAssertEqual(encoded[flagsAt], 8)
        let decoded = try IndexPage.decode(encoded, number: page.number, version: IndexLayout.version, expectedCount: 1)
        XCTAssertEqual(decoded.row(id), row)
        XCTAssertTrue(decoded.isCaptureDevice(rowAt: 0))
        XCTAssertFalse(decoded.isEntry(rowAt: 0))
        XCTAssertFalse(IndexListing.passes(EntryFilter(), decoded, 0))
        for (what, flags) in [("starred device", UInt8(9)), ("template and device", UInt8(10)), ("bit 4", UInt8(16))] {
            var bytes = encoded
            bytes[flagsAt] = flags
            XCTAssertThrowsError(
                try IndexPage.decode(bytes, number: page.number, version: IndexLayout.version, expectedCount: 1), what)
        }
    }
}

extension FixedWidthInteger {
    fileprivate var bigEndianBytes: [UInt8] { withUnsafeBytes(of: self.bigEndian) { Array($0) } }
}
