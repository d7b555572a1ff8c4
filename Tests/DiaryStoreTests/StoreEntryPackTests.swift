import DiaryTestSupport
import Foundation
import Synchronization
import XCTest

@testable import DiaryStore

/// The files store's scan copy, `entries.pack` (docs/FORMAT.md §2.2): a large scan writes it,
/// the next scan lends from it, a change that replaces or removes an entry empties its segment
/// or removes the copy first,
/// and whatever it holds, each listed entry is lent once and a record the caller turns away
/// makes the scan write it again.
final class StoreEntryPackTests: XCTestCase {
    private var scratch: StoreScratch!

    override func setUpWithError() throws { scratch = try StoreScratch() }
    override func tearDown() { scratch.cleanUp() }

    private func store(entries count: Int = EntryPack.minimumEntries + 76) throws -> (FileStore, [UUID: [UInt8]]) {
        try scratch.packedFilesStore(entries: count)
    }

    /// What one scan lent, as id → bytes; `accept` says what the caller answers for each.
    /// An id lent twice fails the test.
    private func scan(
        _ store: FileStore, among ids: [UUID], accept: @escaping @Sendable (UUID, [UInt8]) -> Bool = { _, _ in true },
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> [UUID: [UInt8]] {
        let seen = Mutex<([UUID: [UInt8]], [UUID])>(([:], []))
        try store.withSnapshot { reader in
            let scanner = try XCTUnwrap(reader as? EntryScanning)
            try scanner.scanEntries(among: ids.sorted { $0.sortKey < $1.sortKey }, workers: 3) { _, id, sealed in
                let bytes = [UInt8](sealed)
                seen.withLock { state in
                    if state.0.updateValue(bytes, forKey: id) != nil { state.1.append(id) }
                }
                return accept(id, bytes)
            }
        }
        let (lent, twice) = seen.withLock { $0 }
        XCTAssertEqual(twice, [], "an entry was handed over twice", file: file, line: line)
        return lent
    }

    /// What the copy's form is found to be, and its records that are not their entry's file.
    private func copyCheck(_ store: FileStore) throws -> (problems: [String], stale: [UUID]) {
        try store.withSnapshot { reader in
            let copy = try XCTUnwrap(reader as? ScanCopyReading)
            var stale: [UUID] = []
            let problems = copy.forEachScanCopyRecord { id, sealed in
                if (try? reader.readEntry(id)) != [UInt8](sealed) { stale.append(id) }
            }
            return (problems, stale)
        }
    }

    private func packURL(_ store: FileStore) -> URL { store.directory.appendingPathComponent(EntryPack.fileName) }
    private func hasPack(_ store: FileStore) -> Bool { FileManager.default.fileExists(atPath: packURL(store).path) }
    private func entryFile(_ store: FileStore, _ id: UUID) -> URL {
        store.directory.appendingPathComponent(FileStore.entriesName).appendingPathComponent(
            FileStore.fileName(for: id))
    }
    private func inode(_ url: URL) -> UInt64 {
        var info = stat()
        return stat(url.path, &info) == 0 ? UInt64(info.st_ino) : 0
    }

    func testALargeScanWritesTheCopyAndTheNextScanLendsFromIt() throws {
        let (store, entries) = try store()
        let ids = Array(entries.keys)
        XCTAssertFalse(hasPack(store))
        XCTAssertEqual(try scan(store, among: ids), entries)
        XCTAssertTrue(hasPack(store))
        XCTAssertEqual(try mode(of: packURL(store)), 0o600)
        XCTAssertEqual(try FileStoreAudit.findings(in: store.directory), [], "the copy is one of the store's files")
        XCTAssertEqual(try copyCheck(store).problems, [])
        XCTAssertEqual(try copyCheck(store).stale, [])
        guard case .opened(let pack) = EntryPack.open(in: store.directory) else { return XCTFail("copy refused") }
        XCTAssertEqual(pack.segments.reduce(0) { $0 + $1.count }, entries.count)
        // Behind the store's back (no writer removes the copy): the next scan lends the copy's
        // bytes, so it read the copy, not the file.
        let changed = ids[3]
        try Data([9, 9, 9]).write(to: entryFile(store, changed))
        XCTAssertEqual(try scan(store, among: ids)[changed], entries[changed])
    }

    func testASmallScanOrASmallVaultWritesNoCopy() throws {
        let (store, entries) = try store()
        _ = try scan(store, among: Array(entries.keys.prefix(EntryPack.minimumEntries - 1)))
        XCTAssertFalse(hasPack(store))
        let (small, few) = try self.store(entries: EntryPack.minimumEntries - 1)
        XCTAssertEqual(try scan(small, among: Array(few.keys)), few)
        XCTAssertFalse(hasPack(small))
    }

    /// Whatever a change replaces or removes, the copy (emptied or removed:
    /// `StoreEntryPackEmptyTests`) holds no earlier bytes of it; an add leaves it as it was, and
    /// a change in parts touching more segments than emptying takes (a rekey) removes it.
    func testAChangeThatReplacesOrRemovesAnEntryLeavesNoEarlierCopyOfIt() throws {
        let (store, entries) = try store()
        var current = entries
        let ids = Array(entries.keys)
        _ = try scan(store, among: ids)
        let unchanged = try Data(contentsOf: packURL(store))
        let added = UUID()
        try store.apply(StoreChange(putEntries: [added: [1, 2, 3]]))
        current[added] = [1, 2, 3]
        XCTAssertEqual(try Data(contentsOf: packURL(store)), unchanged, "an added entry leaves the copy")
        XCTAssertEqual(try scan(store, among: Array(current.keys)), current, "the new entry read from its file")

        let changes: [(String, () throws -> Void)] = [
            ("an entry replaced", { try store.apply(StoreChange(putEntries: [ids[0]: [4, 5]])) }),
            ("an entry removed", { try store.apply(StoreChange(deleteEntries: [ids[1]])) }),
            (
                "in parts, replaced",
                {
                    try store.apply(inParts: {
                        try $0([ids[2]: [6]]); return StoreChange()
                    })
                }
            ),
            ("in parts, removed", { try store.apply(inParts: { _ in StoreChange(deleteEntries: [ids[3]]) }) }),
        ]
        (current[ids[0]], current[ids[1]], current[ids[2]], current[ids[3]]) = ([4, 5], nil, [6], nil)
        for (name, change) in changes {
            try change()
            XCTAssertEqual(try copyCheck(store).stale, [], name)
            XCTAssertEqual(try copyCheck(store).problems, [], name)
        }
        XCTAssertEqual(try scan(store, among: Array(current.keys)), current)

        let rekeyed = Dictionary(uniqueKeysWithValues: ids[4...].map { ($0, [UInt8]([9])) })
        try store.apply(inParts: { put in
            try put(rekeyed)
            return StoreChange()
        })
        current.merge(rekeyed) { $1 }
        XCTAssertFalse(hasPack(store), "a change in parts that replaces many (a rekey)")
        XCTAssertEqual(try scan(store, among: Array(current.keys)), current)
        XCTAssertTrue(hasPack(store))
        XCTAssertEqual(try copyCheck(store).stale, [])
    }

    /// A journal left by a writer that did not remove the copy (an older diary) is replayed
    /// only after the copy is gone.
    func testReplayingAJournalRemovesTheCopy() throws {
        let (store, entries) = try store()
        _ = try scan(store, among: Array(entries.keys))
        let id = entries.keys.first!
        let journal = FileJournal(operations: [
            .put(name: FileStore.entriesName + "/" + FileStore.fileName(for: id), bytes: [7]),
            .put(name: FileStore.indexName, bytes: blob(32)),
        ])
        try Data(journal.encoded()).write(to: store.directory.appendingPathComponent(FileJournal.fileName))
        let reopened = try XCTUnwrap(try StoreLayout.open(at: store.directory) as? FileStore)
        XCTAssertFalse(hasPack(reopened))
        XCTAssertEqual(try reopened.readEntry(id), [7])
    }

    /// The caller turning a record away (it is not the entry the index recorded) makes the same
    /// scan read every file and write the copy again; each entry is still lent once.
    func testARecordTurnedAwayMakesTheScanWriteTheCopyAgain() throws {
        let (store, entries) = try store()
        let ids = Array(entries.keys)
        _ = try scan(store, among: ids)
        let before = inode(packURL(store))
        let refused = ids[5]
        XCTAssertEqual(try scan(store, among: ids) { id, _ in id != refused }, entries)
        XCTAssertNotEqual(inode(packURL(store)), before)
        XCTAssertEqual(try scan(store, among: ids), entries)
    }

    /// The copy as `verify` sees it: every record of a well-formed segment is shown (the vault
    /// judges them), and a copy refused whole or a segment that does not parse is reported.
    func testTheCopyShowsItsRecordsAndReportsItsForm() throws {
        let (store, entries) = try store()
        let ids = Array(entries.keys)
        _ = try scan(store, among: ids)
        try Data([1]).write(to: entryFile(store, ids[0]))
        XCTAssertEqual(try copyCheck(store).problems, [])
        XCTAssertEqual(try copyCheck(store).stale, [ids[0]])
        var bytes = [UInt8](try Data(contentsOf: packURL(store)))
        bytes[EntryPack.headerLength + 16] ^= 0xFF  // the first record's length
        try Data(bytes).write(to: packURL(store))
        let problems = try copyCheck(store).problems
        XCTAssertEqual(problems.count, 1, "\(problems)")
        XCTAssertTrue(problems.first?.hasPrefix("entries.pack: segment ") ?? false, "\(problems)")
        XCTAssertTrue(problems.first?.hasSuffix(" is malformed (remove it; a search writes it again)") ?? false)
        try Data("not a copy".utf8).write(to: packURL(store))
        XCTAssertEqual(
            try copyCheck(store).problems, ["entries.pack is too short (remove it; a search writes it again)"])
        XCTAssertEqual(try FileStoreAudit.findings(in: store.directory), [])
    }

    /// Whatever the copy holds (cut short, bytes flipped anywhere), a scan lends each listed
    /// entry once, never crashes, and every record it lends that is not the entry's file is
    /// turned away by the caller; afterwards the copy is rewritten or holds only what the files hold.
    func testADamagedCopyIsNeverTrustedBeyondItsRecords() throws {
        let (store, entries) = try store()
        let ids = Array(entries.keys)
        _ = try scan(store, among: ids)
        let good = try Data(contentsOf: packURL(store))
        var generator = SeededGenerator(seed: 23)
        for round in 0..<60 {
            var bytes = [UInt8](good)
            if round % 4 == 0 {
                bytes.removeLast(Int.random(in: 1..<bytes.count, using: &generator))
            } else {
                for _ in 0..<(1 + round % 3) {
                    let at =
                        round % 2 == 0
                        ? Int.random(in: 0..<bytes.count, using: &generator)
                        : bytes.count - Int.random(in: 1...min(bytes.count, 4096), using: &generator)
                    bytes[at] ^= UInt8.random(in: 1...255, using: &generator)
                }
            }
            try Data(bytes).write(to: packURL(store))
            let before = inode(packURL(store))
            let lent = try scan(store, among: ids) { id, bytes in bytes == entries[id] }
            XCTAssertEqual(Set(lent.keys), Set(ids), "round \(round)")
            if lent.contains(where: { $0.value != entries[$0.key] }) {
                // Turned away by the caller: the same scan wrote the copy again, from the files.
                XCTAssertNotEqual(inode(packURL(store)), before, "round \(round)")
                XCTAssertEqual(try copyCheck(store).stale, [], "round \(round)")
                XCTAssertEqual(try copyCheck(store).problems, [], "round \(round)")
            }
        }
    }

    /// A copy whose trailer lists one segment twice (so an id twice) is refused whole.
    func testACopyListingAnIdTwiceIsRefused() throws {
        let (store, entries) = try store()
        _ = try scan(store, among: Array(entries.keys))
        guard case .opened(let pack) = EntryPack.open(in: store.directory) else { return XCTFail("copy refused") }
        var bytes = [UInt8](try Data(contentsOf: packURL(store)))
        let trailerAt = bytes.count - 16 - 4 - pack.segments.count * EntryPack.trailerRecordLength
        var segments = pack.segments
        segments.insert(segments[0], at: 1)
        bytes = Array(bytes[..<trailerAt]) + EntryPackWriter.trailer(segments, at: trailerAt)
        try Data(bytes).write(to: packURL(store))
        guard case .refused(let reason) = EntryPack.open(in: store.directory) else { return XCTFail("accepted") }
        XCTAssertEqual(reason, "lists segment 1 out of place or order")
        // An offset near the largest integer: refused, not an overflow.
        let first = pack.segments[0]
        segments = [
            EntryPack.Segment(
                offset: Int.max, length: first.length, count: first.count, first: first.first, last: first.last)
        ]
        let base = [UInt8](try Data(contentsOf: packURL(store)))
        try Data(Array(base[..<trailerAt]) + EntryPackWriter.trailer(segments, at: trailerAt)).write(to: packURL(store))
        guard case .refused(let far) = EntryPack.open(in: store.directory) else { return XCTFail("accepted") }
        XCTAssertEqual(far, "lists segment 0 out of place or order")
    }

    /// Bytes outside every segment (where ciphertext could hide from `verify`) refuse the copy.
    func testACopyWithBytesInNoSegmentIsRefused() throws {
        let (store, entries) = try store()
        _ = try scan(store, among: Array(entries.keys))
        guard case .opened(let pack) = EntryPack.open(in: store.directory) else { return XCTFail("copy refused") }
        let bytes = [UInt8](try Data(contentsOf: packURL(store)))
        let trailerAt = bytes.count - 16 - 4 - pack.segments.count * EntryPack.trailerRecordLength
        let hidden = Array(bytes[..<trailerAt]) + [1, 2, 3] + EntryPackWriter.trailer(pack.segments, at: trailerAt + 3)
        try Data(hidden).write(to: packURL(store))
        guard case .refused(let reason) = EntryPack.open(in: store.directory) else { return XCTFail("accepted") }
        XCTAssertEqual(reason, "has bytes in no segment")
        XCTAssertEqual(try scan(store, among: Array(entries.keys)), entries)
        guard case .opened = EntryPack.open(in: store.directory) else { return XCTFail("not written again") }
    }

    /// A search killed while writing the copy leaves only a temporary file: the entries are
    /// untouched, a scan lends them from their files, and the next writer removes it.
    func testACopyLeftUnfinishedChangesNothing() throws {
        let (store, entries) = try store()
        let writer = try XCTUnwrap(EntryPackWriter(in: store.directory))
        let segment = EntryPackWriter.Segment()
        for (id, bytes) in entries.prefix(100) { bytes.withUnsafeBytes { writer.add(id, $0, to: segment) } }
        writer.endShare(segment)
        XCTAssertFalse(hasPack(store))
        let temporaries = { try (DurableFile.names(in: store.directory) ?? []).filter { $0.hasPrefix(".tmp-") } }
        XCTAssertEqual(try temporaries().count, 1)
        XCTAssertEqual(try FileStoreAudit.findings(in: store.directory), [], "a killed writer's leftover")
        try store.apply(StoreChange(putEntries: [UUID(): [1]]))
        XCTAssertEqual(try temporaries(), [])
        XCTAssertEqual(try scan(store, among: Array(entries.keys)).count, entries.count)
    }
}
