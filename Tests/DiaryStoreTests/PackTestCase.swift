import DiaryTestSupport
import Foundation
import Synchronization
import XCTest

@testable import DiaryStore

/// What the tests of the scan copy's emptying and removal share: a files store of 1,100
/// entries whose copy a scan has written, and ways to look into the copy.
class PackTestCase: XCTestCase {
    var scratch: StoreScratch!

    override func setUpWithError() throws { scratch = try StoreScratch() }
    override func tearDown() { scratch.cleanUp() }

    func store() throws -> (FileStore, [UUID: [UInt8]]) {
        let (store, entries) = try scratch.packedFilesStore(entries: EntryPack.minimumEntries + 76)
        _ = try scan(store, among: Array(entries.keys))
        return (store, entries)
    }

    func pack(_ store: FileStore) throws -> EntryPack {
        guard case .opened(let pack) = EntryPack.open(in: store.directory) else { throw POSIXError(.ENOENT) }
        return pack
    }

    /// The ids of each segment's records, in trailer order.
    func segmentIDs(_ store: FileStore) throws -> [[UUID]] {
        let pack = try pack(store)
        return try pack.segments.map { segment in
            let bytes = try XCTUnwrap(EntryPack.readAt(pack.fd, segment.offset, segment.length))
            var ids: [UUID] = []
            XCTAssertTrue(bytes.withUnsafeBytes { pack.records(in: $0, of: segment) { id, _ in ids.append(id) } })
            return ids
        }
    }

    /// The segments of at least 12 records, by their index in the trailer (segments end where
    /// a writer's thread ends its share of ids, so some hold only a few).
    func fullSegments(_ store: FileStore) throws -> [(index: Int, ids: [UUID])] {
        try segmentIDs(store).enumerated().filter { $0.element.count >= 12 }.map { ($0.offset, $0.element) }
    }

    /// A scan of `ids` (each lent once, or the test fails), as id → bytes; `accept` is the
    /// caller's answer (whether the bytes are the copy its index records).
    func scan(
        _ store: FileStore, among ids: [UUID], accept: @escaping @Sendable (UUID, [UInt8]) -> Bool = { _, _ in true },
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> [UUID: [UInt8]] {
        let seen = Mutex<([UUID: [UInt8]], Int)>(([:], 0))
        try store.withSnapshot { reader in
            let scanner = try XCTUnwrap(reader as? EntryScanning)
            try scanner.scanEntries(among: ids.sorted { $0.sortKey < $1.sortKey }, workers: 3) { _, id, sealed in
                let bytes = [UInt8](sealed)
                seen.withLock { if $0.0.updateValue(bytes, forKey: id) != nil { $0.1 += 1 } }
                return accept(id, bytes)
            }
        }
        let (lent, twice) = seen.withLock { $0 }
        XCTAssertEqual(twice, 0, "an entry was lent twice", file: file, line: line)
        return lent
    }

    func packURL(_ store: FileStore) -> URL { store.directory.appendingPathComponent(EntryPack.fileName) }
    func hasPack(_ store: FileStore) -> Bool { FileManager.default.fileExists(atPath: packURL(store).path) }
    func inode(_ store: FileStore) -> UInt64 {
        var info = stat()
        return stat(packURL(store).path, &info) == 0 ? UInt64(info.st_ino) : 0
    }
    func copyBytes(_ store: FileStore) throws -> [UInt8] { [UInt8](try Data(contentsOf: packURL(store))) }
    func entryFile(_ store: FileStore, _ id: UUID) -> URL {
        store.directory.appendingPathComponent("entries/" + FileStore.fileName(for: id))
    }

    /// New bytes for an entry, as many as `old` (an edit whose sealed size stays), and unlike them.
    func sameSize(_ old: [UInt8]?) -> [UInt8] { (old ?? [0]).map { $0 ^ 0x5A } }

    /// The verify view: the copy's form, and its records that are not their entry's file.
    func copyCheck(_ store: FileStore) throws -> (problems: [String], stale: [UUID]) {
        try store.withSnapshot { reader in
            var stale: [UUID] = []
            let problems = try XCTUnwrap(reader as? ScanCopyReading).forEachScanCopyRecord { id, sealed in
                if (try? reader.readEntry(id)) != [UInt8](sealed) { stale.append(id) }
            }
            return (problems, stale)
        }
    }
}
