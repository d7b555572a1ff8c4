import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryStore

/// An edit that keeps an entry's sealed size empties the segment of the scan copy holding it
/// (zeros in place, docs/FORMAT.md §2.2) instead of removing the copy, so the next search
/// still reads the rest of the copy and opens only that segment's entry files. What removes
/// the copy instead is in `StoreEntryPackRemovalTests`.
final class StoreEntryPackEmptyTests: PackTestCase {
    func testSameSizeEditsEmptyTheirSegmentsAndTheCopyStaysInUse() throws {
        let (store, entries) = try store()
        var current = entries
        let full = try fullSegments(store)
        // A segment's first id too: it stays in `entries/`, so the trailer shows nothing new.
        let (edited, edge, untouched) = (full[0].ids[5], full[1].ids[0], full[2].ids[9])
        let emptied = [full[0].index, full[1].index]
        let before = try copyBytes(store)
        let copy = inode(store)

        for id in [edited, edge] {
            current[id] = sameSize(entries[id])
            try store.apply(StoreChange(putEntries: [id: current[id]!]))
        }
        XCTAssertEqual(inode(store), copy, "emptied in place, not removed")
        let pack = try pack(store)
        XCTAssertEqual(pack.segments.map(\.count).enumerated().filter { $0.element == 0 }.map(\.offset), emptied)
        let bytes = try copyBytes(store)
        for (i, segment) in pack.segments.enumerated() {
            let range = segment.offset..<segment.offset + segment.length
            if emptied.contains(i) {
                XCTAssertTrue(bytes[range].allSatisfy { $0 == 0 }, "segment \(i) is zeros")
                XCTAssertEqual(pack.holdsOnlyZeros(segment).read, segment.length, "written zeros are read")
            } else {
                XCTAssertEqual(bytes[range], before[range], "segment \(i) as it was")
            }
        }
        XCTAssertEqual(try copyCheck(store).problems, [])
        XCTAssertEqual(try copyCheck(store).stale, [])

        // The next scan lends the rest from the same copy and reads the emptied segments' files.
        XCTAssertEqual(try scan(store, among: Array(current.keys)), current)
        XCTAssertEqual(inode(store), copy, "not written again for two segments")
        try Data([9]).write(to: entryFile(store, untouched))
        XCTAssertEqual(try scan(store, among: Array(current.keys))[untouched], entries[untouched], "read from the copy")
    }

    /// In a change written in parts, the parts that only add leave the copy as it was, and the
    /// change's last step (all of an ordinary edit) empties as an edit does.
    func testAChangeInPartsThatOnlyAddsKeepsTheCopyAndItsLastStepEmpties() throws {
        let (store, entries) = try store()
        var current = entries
        let full = try fullSegments(store)
        let copy = inode(store)
        let unchanged = try copyBytes(store)
        let new = UUID()
        try store.apply(inParts: { put in
            try put([new: [1]])
            return StoreChange()
        })
        current[new] = [1]
        XCTAssertEqual(try copyBytes(store), unchanged, "an add leaves the copy as it was")
        let edited = full[0].ids[3]
        current[edited] = sameSize(entries[edited])
        try store.apply(inParts: { put in
            try put([UUID(): [2]])
            return StoreChange(putEntries: [edited: current[edited]!])
        })
        XCTAssertEqual(inode(store), copy)
        XCTAssertEqual(try pack(store).segments.filter { $0.count == 0 }.count, 1)
        XCTAssertEqual(try copyCheck(store).stale, [])
    }

    /// An emptied segment that is not zeros (a hand, or a crash of an older diary, left it)
    /// is reported with the way out. A search never reads it (it lends nothing), and the next
    /// change in its range writes the zeros again. In version 1, a count of 0 refuses the copy.
    func testAnEmptiedSegmentThatIsNotZerosIsReportedAndZeroedAgain() throws {
        let (store, entries) = try store()
        let full = try fullSegments(store)
        var current = entries
        current[full[0].ids[4]] = sameSize(entries[full[0].ids[4]])
        try store.apply(StoreChange(putEntries: [full[0].ids[4]: current[full[0].ids[4]]!]))
        let emptied = try pack(store).segments[full[0].index]
        var bytes = try copyBytes(store)
        bytes[emptied.offset + emptied.length / 2] = 1
        try Data(bytes).write(to: packURL(store))
        XCTAssertEqual(
            try copyCheck(store).problems,
            [
                "entries.pack: segment \(full[0].index) is emptied but not zeros"
                    + " (remove it; the next search then writes a new copy)"
            ])
        XCTAssertEqual(try scan(store, among: Array(current.keys)), current)
        current[full[0].ids[5]] = sameSize(entries[full[0].ids[5]])
        try store.apply(StoreChange(putEntries: [full[0].ids[5]: current[full[0].ids[5]]!]))
        XCTAssertEqual(try copyCheck(store).problems, [], "zeroed again")
        XCTAssertEqual(try scan(store, among: Array(current.keys)), current)

        bytes = try copyBytes(store)
        bytes[8] = 1
        try Data(bytes).write(to: packURL(store))
        XCTAssertEqual(try copyCheck(store).problems.count, 1)
        XCTAssertEqual(try scan(store, among: Array(current.keys)), current)
    }

    /// A crash in the middle of emptying (done before the entry's file changes, and durable
    /// first) leaves any mix of the segment's bytes and zeros, with its count written or not.
    /// Whatever is left, no scan lends an id twice, every record it lends is the entry's bytes
    /// or turned away, and nothing of the entry files is lost; the next change in that
    /// segment's range writes the zeros again.
    func testEmptyingCutShortAnywhereLosesNothing() throws {
        let (store, entries) = try store()
        let good = try copyBytes(store)
        let pack = try pack(store)
        let full = try fullSegments(store)[0]
        let segment = pack.segments[full.index]
        let countAt = pack.trailerOffset + 4 + full.index * EntryPack.trailerRecordLength + 12
        var generator = SeededGenerator(seed: 38)
        for round in 0..<40 {
            var bytes = good
            for at in segment.offset..<segment.offset + segment.length where Bool.random(using: &generator) {
                bytes[at] = 0
            }
            if round % 2 == 0 { bytes.replaceSubrange(countAt..<countAt + 4, with: [0, 0, 0, 0]) }
            try Data(bytes).write(to: packURL(store))
            let lent = try scan(store, among: Array(entries.keys)) { id, bytes in bytes == entries[id] }
            XCTAssertEqual(Set(lent.keys), Set(entries.keys), "round \(round)")
            for id in full.ids { XCTAssertEqual(try store.readEntry(id), entries[id], "round \(round)") }
        }
        // Left with its count 0 and some bytes not zero: the next change in its range zeroes it.
        var bytes = good
        bytes.replaceSubrange(countAt..<countAt + 4, with: [0, 0, 0, 0])
        try Data(bytes).write(to: packURL(store))
        try store.apply(StoreChange(putEntries: [full.ids[3]: sameSize(entries[full.ids[3]])]))
        let after = try copyBytes(store)
        XCTAssertTrue(after[segment.offset..<segment.offset + segment.length].allSatisfy { $0 == 0 })
        XCTAssertEqual(try copyCheck(store).problems, [])
    }

    /// `verify` reads an emptied segment only where the file holds data: a hole reads as zeros,
    /// so a crafted copy of terabytes of holes costs no read. A byte written in it is found.
    func testAnEmptiedSegmentIsReadOnlyWhereItHoldsData() throws {
        let (store, entries) = try store()
        let full = try fullSegments(store)[0]
        try store.apply(StoreChange(putEntries: [full.ids[1]: sameSize(entries[full.ids[1]])]))
        let segment = try pack(store).segments[full.index]
        // The same copy, its emptied segment left a hole (written around it).
        let bytes = try copyBytes(store)
        let sparse = store.directory.appendingPathComponent("sparse")
        let fd = open(sparse.path, O_RDWR | O_CREAT | O_EXCL, 0o600)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        XCTAssertEqual(ftruncate(fd, off_t(bytes.count)), 0)
        XCTAssertTrue(EntryPack.writeFully(fd, Array(bytes[..<segment.offset]), at: 0))
        let end = segment.offset + segment.length
        XCTAssertTrue(EntryPack.writeFully(fd, Array(bytes[end...]), at: end))
        XCTAssertEqual(rename(sparse.path, packURL(store).path), 0)
        guard case .opened(let copy) = EntryPack.open(in: store.directory, writable: true) else {
            return XCTFail("refused")
        }
        let (zeros, read) = copy.holdsOnlyZeros(segment)
        XCTAssertTrue(zeros)
        XCTAssertLessThan(read, 2 * 4096 + 1, "read the hole (\(read) of \(segment.length) bytes)")
        XCTAssertEqual(try copyCheck(store).problems, [])
        XCTAssertTrue(EntryPack.writeFully(copy.fd, [7], at: segment.offset + segment.length / 2))
        XCTAssertFalse(copy.holdsOnlyZeros(segment).zeros, "a byte written in the hole")
    }
}
