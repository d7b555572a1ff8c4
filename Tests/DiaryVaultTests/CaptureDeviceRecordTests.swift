import DiaryCrypto
import DiaryStore
import DiaryTestSupport
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
            revoked: time.addingTimeInterval(5), counters: CaptureCounterSet([7...7, 1...3, 5...5]))
        let bytes = EntryCodec.encode(original.entry)
        XCTAssertEqual(bytes.first, 4)
        XCTAssertEqual(Array(bytes[1..<17]), id.bytes, "the device id follows the version")
        let intervals = UInt32(3).bigEndianBytes + [1, 3, 5, 5, 7, 7].flatMap { UInt64($0).bigEndianBytes }
        XCTAssertEqual(Array(bytes.suffix(intervals.count)), intervals, "u32 k ‖ k × (u64 first ‖ u64 last)")
        let decoded = try EntryCodec.decode(bytes, id: id, textLimit: 1 << 20)
        XCTAssertEqual(decoded.captureDevice, original)
        XCTAssertFalse(decoded.isEntry)
        XCTAssertEqual(decoded.captureDevice?.counters.intervals, [1...3, 5...5, 7...7])
        let unrevoked = try EntryCodec.decode(EntryCodec.encode(try record().entry), id: id, textLimit: 1 << 20)
        XCTAssertNil(unrevoked.captureDevice?.revoked)
        XCTAssertEqual(unrevoked.captureDevice?.counters, CaptureCounterSet())
    }

    func testCopiesMergeByUnionAndTheEarliestRevocation() throws {
        let first = try record(revoked: time.addingTimeInterval(60), counters: CaptureCounterSet([1...2]))
        let second = try record(revoked: time.addingTimeInterval(30), counters: CaptureCounterSet([4...4, 9...9]))
        let third = try record(counters: CaptureCounterSet([3...3]))
        let merged = try XCTUnwrap(CaptureDeviceRecord.merged([first, second, third]))
        XCTAssertEqual(merged.counters.intervals, [1...4, 9...9])
        XCTAssertEqual(merged.revoked, time.addingTimeInterval(30))
        XCTAssertEqual(CaptureDeviceRecord.merged([third, second, first]), merged, "order does not matter")
        XCTAssertNil(CaptureDeviceRecord.merged([first, try record(name: "other")]), "another name")
        XCTAssertNil(
            CaptureDeviceRecord.merged([first, try record(inbox: Array(repeating: 1, count: 32))]), "another key")
    }

    /// Copies whose union needs more intervals than a record may store do not merge (a person
    /// settles the conflict) rather than make a record no reader accepts.
    func testCopiesWhoseUnionIsTooLargeDoNotMerge() throws {
        let cap = UInt64(CaptureCounterSet.maximumIntervals)
        let odd = CaptureCounterSet((0..<cap).map { 4 * $0 + 1...4 * $0 + 1 })
        let other = CaptureCounterSet((0..<cap).map { 4 * $0 + 3...4 * $0 + 3 })
        XCTAssertTrue(odd.isStorable && other.isStorable)
        XCTAssertNil(CaptureDeviceRecord.merged([try record(counters: odd), try record(counters: other)]))
        let filling = CaptureCounterSet((0..<cap).map { 4 * $0 + 2...4 * $0 + 3 })
        let merged = try XCTUnwrap(
            CaptureDeviceRecord.merged([try record(counters: odd), try record(counters: filling)]))
        XCTAssertEqual(merged.counters.intervals.count, Int(cap), "joined intervals fit")
    }

    /// Each change makes a plaintext a writer could not have written.
    func testAReaderRefusesWhatNoWriterWrites() throws {
        let good = EntryCodec.encode(try record(counters: CaptureCounterSet([1...1, 3...5])).entry)
        let countAt = good.count - 4 - 32
        /// The record with its intervals replaced by `intervals` (the count follows them).
        func with(_ intervals: [(UInt64, UInt64)], count: UInt32? = nil) -> [UInt8] {
            Array(good[..<countAt]) + (count ?? UInt32(intervals.count)).bigEndianBytes
                + intervals.flatMap { $0.0.bigEndianBytes + $0.1.bigEndianBytes }
        }
        XCTAssertEqual(with([(1, 1), (3, 5)]), good)
        var cases: [(String, [UInt8])] = []
        cases.append(("trailing byte", good + [0]))
        cases.append(("truncated", Array(good.dropLast())))
        var otherID = good
        otherID[1] ^= 1
        cases.append(("another device id", otherID))
        cases.append(("a count past the end", with([(1, 1), (3, 5)], count: 3)))
        cases.append(("a count of 2^32 - 1", with([(1, 1), (3, 5)], count: .max)))
        for (what, intervals) in Self.unnormalised {
            cases.append((what, with(intervals)))
        }
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
        let top = CaptureCounterSet.maximumCounter
        XCTAssertNoThrow(try EntryCodec.decode(with([(1, 1), (3, top)]), id: id, textLimit: 1), "up to 2^62")
    }

    /// Interval lists a writer never writes: each set has one encoding.
    static let unnormalised: [(String, [(UInt64, UInt64)])] = [
        ("overlapping", [(1, 4), (3, 5)]),
        ("adjacent", [(1, 2), (3, 5)]),
        ("unsorted", [(3, 5), (1, 1)]),
        ("repeated", [(3, 5), (3, 5)]),
        ("zero", [(0, 1), (3, 5)]),
        ("reversed", [(1, 1), (5, 3)]),
        ("above 2^62", [(1, 1), (3, (1 << 62) + 1)]),
        ("at UInt64.max", [(1, 1), (UInt64.max, UInt64.max)]),
    ]

    /// The independent reader (Scripts/decrypt-vault.py) reads the same counter set from the
    /// same record, and refuses what the codec refuses.
    func testThePythonReaderReadsTheSameSet() throws {
        try PythonReader.requireSecretstream()
        var g = SeededGenerator(seed: SeededGenerator.announcedSeed("counter sets through Python"))
        var sets = [
            CaptureCounterSet(),
            CaptureCounterSet([1...5, 7...10_006, CaptureCounterSet.maximumCounter...CaptureCounterSet.maximumCounter]),
        ]
        for _ in 0..<20 { sets.append(CaptureCounterSetTests.randomSet(using: &g)) }
        let records = try sets.map { PythonReader.hex(EntryCodec.encode(try record(counters: $0).entry)) }
        let program = """
            import importlib.util, json, sys
            spec = importlib.util.spec_from_file_location("reader", sys.argv[1])
            reader = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(reader)
            for record in sys.argv[2:]:
                try:
                    print(json.dumps(reader.parse_device(bytes.fromhex(record))["intervals"]))
                except AssertionError:
                    print("refused")
            """
        let good = EntryCodec.encode(try record().entry)
        let badBytes = Self.unnormalised.map { _, intervals in
            Array(good.dropLast(4)) + UInt32(intervals.count).bigEndianBytes
                + intervals.flatMap { $0.0.bigEndianBytes + $0.1.bigEndianBytes }
        }
        let bad = badBytes.map(PythonReader.hex)
        let result = try PythonReader.run(["-c", program, PythonReader.script.path] + records + bad)
        XCTAssertEqual(result.status, 0, result.output)
        let lines = result.output.split(separator: "\n").map(String.init)
        let expected =
            sets.map { set in
                "[" + set.intervals.map { "[\($0.lowerBound), \($0.upperBound)]" }.joined(separator: ", ") + "]"
            }
            + bad.map { _ in "refused" }
        XCTAssertEqual(lines, expected)
        for (what, bytes) in zip(Self.unnormalised.map(\.0), badBytes) {
            XCTAssertThrowsError(try EntryCodec.decode(bytes, id: id, textLimit: 1), what)
        }
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
