import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryStore

/// What removes the scan copy rather than emptying a segment of it (docs/FORMAT.md §2.2): an
/// emptied segment keeps its length, which is the sum of its records, so a deletion in the
/// copy's range or an edit that changes an entry's size would show, from the sizes in
/// `entries/`, which entry and how large it was; a change touching more than `emptyLimit`
/// segments, a key rotation's, a part of a change in parts that replaces an entry, and any
/// change to a copy of version 1 remove it too. A copy of version 2 is refused.
final class StoreEntryPackRemovalTests: PackTestCase {
    /// The id just after `key` (in a gap between two segments: the copy never held it).
    private func id(after key: (UInt64, UInt64)) -> UUID {
        let next = key.1 == .max ? (key.0 + 1, 0) : (key.0, key.1 + 1)
        var bytes: [UInt8] = []
        withUnsafeBytes(of: next.0.bigEndian) { bytes += $0 }
        withUnsafeBytes(of: next.1.bigEndian) { bytes += $0 }
        return bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
    }

    func testADeletionInTheCopysRangeRemovesItAndOneOutsideItDoesNot() throws {
        let (store, entries) = try store()
        var current = entries
        let pack = try pack(store)
        // Added after the copy was written, between two segments: its deletion leaves no trace.
        let between = id(after: pack.segments[2].last)
        XCTAssertTrue(between.sortKey < pack.segments[3].first)
        try store.apply(StoreChange(putEntries: [between: [1, 2]]))
        let unchanged = try copyBytes(store)
        try store.apply(StoreChange(deleteEntries: [between]))
        XCTAssertEqual(try copyBytes(store), unchanged, "an id in no segment's range")

        let middle = try fullSegments(store)[0].ids[6]
        try store.apply(StoreChange(deleteEntries: [middle]))
        current[middle] = nil
        XCTAssertFalse(hasPack(store), "a deleted entry in a segment's range")
        XCTAssertEqual(try scan(store, among: Array(current.keys)), current)
        XCTAssertTrue(hasPack(store), "written again")
    }

    func testAnEditThatChangesAnEntrysSizeRemovesIt() throws {
        let (store, entries) = try store()
        var current = entries
        let edited = try fullSegments(store)[1].ids[4]
        current[edited] = (entries[edited] ?? []) + [0]
        try store.apply(StoreChange(putEntries: [edited: current[edited]!]))
        XCTAssertFalse(hasPack(store))
        XCTAssertEqual(try scan(store, among: Array(current.keys)), current)
    }

    /// A key rotation re-seals every entry in batches: its first batch removes the copy whole,
    /// where emptying would zero it a batch at a time (a reviewer found the copy all zeros).
    /// So does a part of a change in parts that replaces an entry.
    func testAKeyRotationOrAPartReplacingAnEntryRemovesIt() throws {
        let (store, entries) = try store()
        var current = entries
        let first = try fullSegments(store)[0].ids[2]
        current[first] = sameSize(entries[first])
        var batch = StoreChange(putEntries: [first: current[first]!])
        batch.reseals = true
        try store.apply(batch)
        XCTAssertFalse(hasPack(store), "a rotation's batch")
        XCTAssertEqual(try scan(store, among: Array(current.keys)), current)

        let second = try fullSegments(store)[0].ids[3]
        current[second] = sameSize(entries[second])
        try store.apply(inParts: { put in
            try put([second: current[second]!])
            return StoreChange()
        })
        XCTAssertFalse(hasPack(store), "a part replacing an entry")
        XCTAssertEqual(try scan(store, among: Array(current.keys)), current)
    }

    /// More than `emptyLimit` segments, or a copy of version 1 (as the diary before emptying
    /// wrote it: read, never emptied), and the copy goes; the next one is version 3.
    func testALargeChangeOrAVersion1CopyRemovesIt() throws {
        let (store, entries) = try store()
        var current = entries
        let many = try segmentIDs(store).filter { !$0.isEmpty }.prefix(EntryPack.emptyLimit + 1).map { $0[0] }
        for id in many { current[id] = sameSize(entries[id]) }
        try store.apply(StoreChange(putEntries: current.filter { many.contains($0.key) }))
        XCTAssertFalse(hasPack(store), "\(many.count) segments")
        XCTAssertEqual(try scan(store, among: Array(current.keys)), current)

        var bytes = try copyBytes(store)
        bytes[8] = 1
        try Data(bytes).write(to: packURL(store))
        let inner = try fullSegments(store)[0].ids[2]
        try Data([9]).write(to: entryFile(store, inner))
        XCTAssertEqual(try scan(store, among: Array(current.keys))[inner], current[inner], "version 1 is read")
        current[inner] = sameSize(current[inner])
        try store.apply(StoreChange(putEntries: [inner: current[inner]!]))
        XCTAssertFalse(hasPack(store), "version 1 is not emptied")
        XCTAssertEqual(try scan(store, among: Array(current.keys)), current)
        XCTAssertEqual(try copyBytes(store)[8], 3, "written again as version 3")
    }

    /// Version 2 was written in two forms by development builds (records zeroed one by one, or
    /// segments emptied with no order between zeros and count): refused, so `verify` reports
    /// it, a search writes version 3 over it, and a change removes it.
    func testAVersion2CopyIsRefusedAndReplaced() throws {
        let (store, entries) = try store()
        var bytes = try copyBytes(store)
        bytes[8] = 2
        try Data(bytes).write(to: packURL(store))
        XCTAssertEqual(
            try copyCheck(store).problems,
            ["entries.pack is version 2, not 1 or 3 (remove it; a search writes it again)"])
        XCTAssertEqual(try scan(store, among: Array(entries.keys)), entries)
        XCTAssertEqual(try copyBytes(store)[8], 3)
        XCTAssertEqual(try copyCheck(store).problems, [])

        bytes = try copyBytes(store)
        bytes[8] = 2
        try Data(bytes).write(to: packURL(store))
        let edited = try XCTUnwrap(entries.keys.first)
        try store.apply(StoreChange(putEntries: [edited: sameSize(entries[edited])]))
        XCTAssertFalse(hasPack(store))
    }
}
