import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// A capture device's counters taken in, as normalised intervals (FORMAT.md §7.7): a gap or a
/// jump costs one interval, insertion and union keep the set normalised, and the cap holds.
final class CaptureCounterSetTests: XCTestCase {
    private let top = CaptureCounterSet.maximumCounter

    /// A record of the set's size on disk: what the set costs a device record.
    private func encodedSize(_ counters: CaptureCounterSet) throws -> Int {
        var secret = [UInt8](repeating: 9, count: 32)
        let record = CaptureDeviceRecord(
            id: UUID(), name: "phone", enrolled: Date(millisecondsSince1970: 0),
            devicePublicKey: [UInt8](repeating: 5, count: 32), inboxSecretKey: try SecretBytes(consuming: &secret),
            counters: counters)
        let bytes = EntryCodec.encode(record.entry)
        XCTAssertEqual(
            try EntryCodec.decode(bytes, id: record.id, textLimit: 1).captureDevice?.counters, counters, "round trip")
        return bytes.count
    }

    func testAGapThenTenThousandCapturesKeepsTwoIntervals() throws {
        var set = CaptureCounterSet()
        for counter in UInt64(1)...5 { set = set.inserting(counter) }
        // Item 6 was never taken in (a capture killed after taking its number).
        for counter in UInt64(7)...10_006 { set = set.inserting(counter) }
        XCTAssertEqual(set.intervals, [1...5, 7...10_006])
        XCTAssertEqual(set.count, 10_005)
        XCTAssertFalse(set.contains(6))
        XCTAssertEqual(try encodedSize(set), try encodedSize(CaptureCounterSet()) + 32)
        XCTAssertEqual(set.inserting(6).intervals, [1...10_006], "the late item closes the gap")
    }

    func testACounterJumpToTheTopKeepsTheRecordSmall() throws {
        let jumped = CaptureCounterSet([1...2]).inserting(top)
        XCTAssertEqual(jumped.intervals, [1...2, top...top])
        XCTAssertEqual(try encodedSize(jumped), try encodedSize(CaptureCounterSet()) + 32)
        let below = jumped.inserting(top - 1).inserting(3)
        XCTAssertEqual(below.intervals, [1...3, top - 1...top])
        XCTAssertEqual(below.count, 5)
        XCTAssertTrue(below.contains(top) && !below.contains(top - 2) && !below.contains(top + 1))
    }

    /// A counter at the top is an item; one above is not, and a credential stops there.
    func testCountersAbove2To62AreRefusedAtTheItemAndTheCredential() throws {
        func header(counter: UInt64) -> [UInt8] {
            var w = ByteWriter(capacity: CaptureItem.prefixLength)
            w.append(CaptureItem.magic)
            w.u8(CaptureItem.version)
            w.uuid(UUID())
            w.uuid(UUID())
            w.u64(counter)
            return w.bytes + [UInt8](repeating: 0, count: 32 + 24 + LengthPadding.minimumBucket + 16)
        }
        XCTAssertEqual(try CaptureItem(header(counter: top)).counter, top)
        for counter in [0, top + 1, UInt64.max] {
            XCTAssertThrowsError(try CaptureItem(header(counter: counter))) {
                XCTAssertEqual($0 as? CaptureItemDamage, .notAnItem, "counter \(counter)")
            }
        }
        let credential = CaptureCredential(
            vaultID: UUID(), deviceID: UUID(), name: "phone", inboxPublicKey: [UInt8](repeating: 1, count: 32),
            device: try X25519KeyPair.generate(), counter: top - 1)
        let last = try credential.advanced()
        XCTAssertEqual(last.counter, top)
        XCTAssertThrowsError(try last.advanced()) { XCTAssertEqual($0 as? CaptureError, .counterExhausted) }
        XCTAssertEqual(try CaptureCredential.parse(last.encoded()).counter, top)
        let over = String(decoding: last.encoded(), as: UTF8.self)
            .replacingOccurrences(of: "counter \(top)", with: "counter \(top + 1)")
        XCTAssertThrowsError(try CaptureCredential.parse(Array(over.utf8)))
    }

    func testTakingInOutOfOrderMergesIntervals() {
        XCTAssertEqual(CaptureCounterSet().inserting(5).inserting(3).intervals, [3...3, 5...5])
        XCTAssertEqual(CaptureCounterSet().inserting(5).inserting(3).inserting(4).intervals, [3...5])
        let set = CaptureCounterSet([3...5, 8...9])
        XCTAssertEqual(set.inserting(1).intervals, [1...1, 3...5, 8...9])
        XCTAssertEqual(set.inserting(6).intervals, [3...6, 8...9], "extends the interval below")
        XCTAssertEqual(set.inserting(7).intervals, [3...5, 7...9], "extends the interval above")
        XCTAssertEqual(set.inserting(6).inserting(7).intervals, [3...9], "joins both")
        XCTAssertEqual(set.inserting(4), set, "a counter held already")
        XCTAssertEqual(set.inserting(11).intervals, [3...5, 8...9, 11...11])
        XCTAssertEqual(CaptureCounterSet([4...6, 1...2, 3...3, 9...12, 10...11]).intervals, [1...6, 9...12])

        var g = SeededGenerator(seed: SeededGenerator.announcedSeed("counters out of order"))
        var taken = CaptureCounterSet()
        var model = Set<UInt64>()
        for counter in (UInt64(1)...300).shuffled(using: &g) {
            taken = taken.inserting(counter)
            model.insert(counter)
            XCTAssertEqual(taken, CaptureCounterSet(model.map { $0...$0 }), "after \(counter)")
        }
        XCTAssertEqual(taken.intervals, [1...300])
    }

    func testTheUnionIsCommutativeAssociativeAndIdempotent() {
        var g = SeededGenerator(seed: SeededGenerator.announcedSeed("counter set unions"))
        for _ in 0..<200 {
            let (a, b, c) = (Self.randomSet(using: &g), Self.randomSet(using: &g), Self.randomSet(using: &g))
            let ab = a.union(b)
            XCTAssertEqual(ab, b.union(a))
            XCTAssertEqual(ab.union(c), a.union(b.union(c)))
            XCTAssertEqual(a.union(a), a)
            XCTAssertEqual(a.union(CaptureCounterSet()), a)
            XCTAssertEqual(ab, CaptureCounterSet(a.intervals + b.intervals), "normalised: one value per set")
            for interval in ab.intervals {
                for counter in [
                    interval.lowerBound - 1, interval.lowerBound, interval.upperBound, interval.upperBound + 1,
                ] {
                    XCTAssertEqual(ab.contains(counter), a.contains(counter) || b.contains(counter), "\(counter)")
                }
            }
            XCTAssertEqual(ab.count, a.count + b.count - Self.overlap(a, b))
        }
    }

    /// At the cap an item that would open a new interval is refused; one that extends or joins
    /// intervals is not.
    func testTheCapRefusesOnlyANewInterval() throws {
        let cap = UInt64(CaptureCounterSet.maximumIntervals)
        let full = CaptureCounterSet((0..<cap).map { 2 * $0 + 1...2 * $0 + 1 })
        XCTAssertTrue(full.isStorable)
        XCTAssertFalse(full.inserting(2 * cap + 3).isStorable, "a new interval past the cap")
        XCTAssertTrue(full.inserting(2 * cap).isStorable, "extends the last")
        XCTAssertEqual(full.inserting(2).intervals.count, Int(cap) - 1, "joins two")
        XCTAssertLessThan(try encodedSize(full), 1_100_000)
    }

    /// A random set: a few runs, from small counters and near the top.
    static func randomSet(using g: inout SeededGenerator) -> CaptureCounterSet {
        let bases: [UInt64] = [1, 1 << 40, CaptureCounterSet.maximumCounter - 100]
        var set = CaptureCounterSet()
        for _ in 0..<Int.random(in: 0...12, using: &g) {
            let base = bases.randomElement(using: &g)!
            let first = base + UInt64.random(in: 0...60, using: &g)
            let last = min(first + UInt64.random(in: 0...4, using: &g), CaptureCounterSet.maximumCounter)
            set = set.union(CaptureCounterSet([first...last]))
        }
        return set
    }

    private static func overlap(_ a: CaptureCounterSet, _ b: CaptureCounterSet) -> UInt64 {
        var total: UInt64 = 0
        for x in a.intervals {
            for y in b.intervals where x.overlaps(y) {
                total += min(x.upperBound, y.upperBound) - max(x.lowerBound, y.lowerBound) + 1
            }
        }
        return total
    }
}
