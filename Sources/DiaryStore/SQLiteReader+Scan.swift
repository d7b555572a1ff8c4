import Dispatch
import Foundation
import GRDB
import GRDBSQLite

extension SQLiteReader: EntryScanning {
    /// The table split by key into ranges, read by one thread per worker, each range by a
    /// cursor of its own and handed over straight from SQLite's row (no copy, no array per
    /// entry): this snapshot's connection reads on this thread, and each other thread reads
    /// with a connection of its own. Checks what `forEachEntry` checks, in the same words.
    ///
    /// Why several connections are sound here: every entry is read once, in exactly one range
    /// (the ranges partition the key order, damaged keys included: they sort first and fall in
    /// the first range), and each cursor is one statement, so one committed state.
    /// The states of two connections may differ if a writer commits between their starts; the
    /// caller (`Vault.search`) takes an entry only when it is the copy the index recorded, and
    /// reads any other one, and any entry the index lists that no cursor lent (deleted
    /// meanwhile), again in this snapshot, so what it reports is what this snapshot gives.
    func scanEntries(workers: Int, _ body: EntryScanBody) throws {
        let threads = max(1, min(workers, 16))
        // Ranges by the first byte of the id (ids are random, so they are even), several per
        // thread and taken in turn: a thread the system runs less takes fewer. Small ones (64,
        // not 16), so the threads end nearly together: with 16, one thread waited for the
        // other's last range 1.3 ms on average of a 10,000-entry search.
        let ranges = RangeQueue(count: threads == 1 ? 1 : 64)
        let path = self.path
        let failure = FirstFailure()
        withoutActuallyEscaping(body) { body in
            let group = DispatchGroup()
            for k in 1..<threads {
                DispatchQueue.global(qos: .userInitiated).async(group: group) {
                    // No connection when the calling thread has taken every range already.
                    guard !failure.isSet, let first = ranges.next() else { return }
                    failure.catching {
                        try SQLiteSchema.mapping(path: path) {
                            // Opened on its own thread (about 0.5 ms), while this one scans
                            // already; a failure stops both, as one while reading does.
                            let queue = try DatabaseQueue(
                                path: path, configuration: SQLiteSchema.configuration(path: path))
                            defer { try? queue.close() }
                            try queue.read { db in
                                // Best effort, as in `withCacheSize`: only a speed.
                                try? db.execute(sql: "PRAGMA cache_size = -\(Self.scanCacheKiB)")
                                let reader = SQLiteReader(db: db, path: path)
                                var next: Range<Int>? = first
                                while !failure.isSet, let range = next {
                                    try reader.scan(range) { _ = body(k, $0, $1) }
                                    next = ranges.next()
                                }
                            }
                        }
                    }
                }
            }
            failure.catching {
                try withCacheSize(Self.scanCacheKiB) {
                    while !failure.isSet, let range = ranges.next() { try scan(range) { _ = body(0, $0, $1) } }
                }
            }
            group.wait()
        }
        try failure.rethrow()
    }

    /// The page cache of a scan's connections, in KiB: a few pages. A scan reads each page of
    /// the table once, in order, so a larger cache (the default's 2 MiB) only spread its reads
    /// over fresh memory: 125 more pages of 16 KiB to fault in per connection, each read into
    /// a buffer no cache held. A small one reuses the same few buffers.
    static let scanCacheKiB = 256

    /// Runs `body` with this connection's page cache set to `kib`, then puts the size back.
    /// Best effort: a size that cannot be read or set leaves the cache as it is, since it only
    /// changes how fast the scan reads, never what it reads.
    private func withCacheSize(_ kib: Int, _ body: () throws -> Void) throws {
        guard let previous = try? Int.fetchOne(db, sql: "PRAGMA cache_size"),
            (try? db.execute(sql: "PRAGMA cache_size = -\(kib)")) != nil
        else { return try body() }
        defer { try? db.execute(sql: "PRAGMA cache_size = \(previous)") }
        try body()
    }

    /// Every entry whose id's first byte is in `range`, handed to `body` in place.
    private func scan(_ range: Range<Int>, _ body: (UUID, UnsafeRawBufferPointer) -> Void) throws {
        var conditions: [String] = []
        var arguments: StatementArguments = [ReadLimits.entry]
        if range.lowerBound > 0 {
            conditions.append("id >= ?")
            arguments += [Data([UInt8(range.lowerBound)] + [UInt8](repeating: 0, count: 15))]
        }
        if range.upperBound < 256 {
            conditions.append("id < ?")
            arguments += [Data([UInt8(range.upperBound)] + [UInt8](repeating: 0, count: 15))]
        }
        let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        // The blob alone, bounded: its type and length are checked here, from the row, rather than
        // in SQL (two more function calls and a string comparison per row made a search 8–10%
        // slower, at 10,000 and 100,000 entries); only `bounded`'s NULL needs SQL to tell its two
        // causes apart.
        // Prepared once per connection for each shape (bounded below, above, both, or neither):
        // 64 ranges each preparing its own statement cost as much CPU as the shorter wait at the
        // end saved.
        let statement = try db.cachedStatement(sql: "SELECT id, \(SQLiteSchema.bounded) FROM entry" + filter)
        let rows = try Row.fetchCursor(statement, arguments: arguments)
        let raw = statement.sqliteStatement
        while try rows.next() != nil {
            let id = try entryID(raw)
            body(id, try sealedBytes(raw, id))
        }
    }

    /// Column 0 of the current row: anything but a 16-byte blob is damage.
    private func entryID(_ raw: OpaquePointer) throws -> UUID {
        guard sqlite3_column_type(raw, 0) == SQLITE_BLOB, sqlite3_column_bytes(raw, 0) == 16,
            let bytes = sqlite3_column_blob(raw, 0)
        else {
            throw StoreError.corrupt(path: path, detail: "an entry row has an invalid id")
        }
        var id: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &id) { $0.copyMemory(from: UnsafeRawBufferPointer(start: bytes, count: 16)) }
        return UUID(uuid: id)
    }

    /// Column 1 of the current row: the sealed blob, in place (valid until the next step),
    /// refused as `forEachEntry` refuses it, in the same words: not a blob (first), or longer
    /// than the limit.
    private func sealedBytes(_ raw: OpaquePointer, _ id: UUID) throws -> UnsafeRawBufferPointer {
        switch sqlite3_column_type(raw, 1) {
        case SQLITE_BLOB:
            // `bounded` let it through, so it is within the limit: the count says so again.
            let count = Int(sqlite3_column_bytes(raw, 1))
            guard count <= ReadLimits.entry else { throw tooLarge(id) }
            return UnsafeRawBufferPointer(start: count == 0 ? nil : sqlite3_column_blob(raw, 1), count: count)
        case SQLITE_NULL:
            // `bounded` is NULL for a blob over the limit, and for a NULL: which is it?
            let sql = "SELECT typeof(sealed) = 'blob' FROM entry WHERE id = ?"
            let isBlob = try Bool.fetchOne(db, sql: sql, arguments: [SQLiteSchema.key(id)]) ?? false
            throw isBlob ? tooLarge(id) : notABlob(id)
        default:
            throw notABlob(id)
        }
    }

    private func notABlob(_ id: UUID) -> StoreError {
        StoreError.corrupt(path: path, detail: "entry \(id.uuidString.lowercased()) is not a blob")
    }

    private func tooLarge(_ id: UUID) -> StoreError {
        StoreError.corrupt(
            path: path, detail: "entry \(id.uuidString.lowercased()) is larger than \(ReadLimits.entry) bytes")
    }
}

/// The key ranges of a scan, handed out in order to whichever thread asks.
final class RangeQueue: @unchecked Sendable {
    private let lock = NSLock()
    private let bounds: [Int]
    private var taken = 0

    /// `count` ranges of the first byte of an id, together covering every key.
    init(count: Int) { bounds = (0...count).map { 256 * $0 / count } }

    func next() -> Range<Int>? {
        lock.withLock {
            guard taken + 1 < bounds.count else { return nil }
            defer { taken += 1 }
            return bounds[taken]..<bounds[taken + 1]
        }
    }
}

/// The first error of several threads; later ones are dropped.
final class FirstFailure: @unchecked Sendable {
    private let lock = NSLock()
    private var error: (any Error)?

    var isSet: Bool { lock.withLock { error != nil } }

    func catching(_ body: () throws -> Void) {
        do { try body() } catch { lock.withLock { self.error = self.error ?? error } }
    }

    func rethrow() throws {
        if let error = lock.withLock({ error }) { throw error }
    }
}
