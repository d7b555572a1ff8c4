import Foundation
import GRDB
import GRDBSQLite

extension StoreReader {
    /// The sealed entries `ids`, in this order (nil where there is none), read as `readEntry`
    /// reads each one. A store that can look many up faster than one by one says so.
    public func readEntries(_ ids: some Collection<UUID>) throws -> [[UInt8]?] {
        if let reader = self as? SQLiteReader { return try reader.readEntriesWithOneStatement(ids) }
        if let reader = self as? FileReader { return try reader.readEntriesInDirectory(ids) }
        return try ids.map { try readEntry($0) }
    }
}

extension SQLiteReader {
    /// `readEntry` for each id through one prepared statement, stepped with SQLite's own calls:
    /// preparing it for every id (and GRDB's authorizer pass over it) cost more than the
    /// lookups, and so did a GRDB cursor, its arguments and its row values for every id. The
    /// checks are `readEntry`'s, in its words; the blob is copied once, straight from SQLite's
    /// row, and an entry's name is formatted only for an error.
    func readEntriesWithOneStatement(_ ids: some Collection<UUID>) throws -> [[UInt8]?] {
        let sql =
            "SELECT id, length(sealed), typeof(sealed) = 'blob', \(SQLiteSchema.bounded) FROM entry WHERE id = ?2"
        // A statement of its own (not GRDB's cached one), so the bindings made below are never
        // mistaken by GRDB for arguments it set; prepared once per batch.
        let statement = try db.makeStatement(sql: sql)
        // Looked up in an order of their own (an export's is by date), the ids land on leaf
        // pages all over the table: with SQLite's default 2 MB cache nearly every lookup read
        // its page again. A larger cache, bounded, holds a diary of 10,000 entries whole. Ids
        // in key order (a rekey's batch) walk the leaves one after another and need no more
        // than the default: the larger cache would only add its 32 MiB to the caller's memory.
        if !zip(ids, ids.dropFirst()).allSatisfy({ $0.precedesInKeyOrder($1) }) {
            try db.execute(sql: "PRAGMA cache_size = -\(Self.batchReadCacheKiB)")
        }
        let raw = statement.sqliteStatement
        return try withExtendedLifetime(statement) {
            // Not left on a row: a statement that is not reset keeps its read open.
            defer { sqlite3_reset(raw) }
            return try ids.map { try lookUp($0, with: raw) }
        }
    }

    /// One id through the statement `raw` of `readEntriesWithOneStatement`.
    private func lookUp(_ id: UUID, with raw: OpaquePointer) throws -> [UInt8]? {
        sqlite3_reset(raw)
        var code = sqlite3_bind_int64(raw, 1, Int64(ReadLimits.entry))
        if code == SQLITE_OK {
            code = withUnsafeBytes(of: id.uuid) { key in
                sqlite3_bind_blob(raw, 2, key.baseAddress, 16, transient)
            }
        }
        if code == SQLITE_OK { code = sqlite3_step(raw) }
        if code == SQLITE_DONE { return nil }
        guard code == SQLITE_ROW else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage)
        }
        // The id is read back, as `readEntry` does: a damaged B-tree can land on another row.
        guard sqlite3_column_type(raw, 0) == SQLITE_BLOB, sqlite3_column_bytes(raw, 0) == 16,
            let stored = sqlite3_column_blob(raw, 0)
        else {
            throw StoreError.corrupt(path: path, detail: "an entry row has an invalid id")
        }
        let same = withUnsafeBytes(of: id.uuid) { memcmp($0.baseAddress!, stored, 16) == 0 }
        guard same else { throw StoreError.corrupt(path: path, detail: "\(name(id)): the lookup returned another row") }
        if sqlite3_column_type(raw, 1) != SQLITE_NULL, sqlite3_column_int64(raw, 1) > Int64(ReadLimits.entry) {
            throw StoreError.corrupt(path: path, detail: "\(name(id)) is larger than \(ReadLimits.entry) bytes")
        }
        guard sqlite3_column_type(raw, 2) != SQLITE_NULL, sqlite3_column_int64(raw, 2) != 0 else {
            throw StoreError.corrupt(path: path, detail: "\(name(id)) is not a blob")
        }
        let count = Int(sqlite3_column_bytes(raw, 3))
        guard count > 0, let blob = sqlite3_column_blob(raw, 3) else { return [] }
        return [UInt8](UnsafeRawBufferPointer(start: blob, count: count))
    }

    /// SQLite's `SQLITE_TRANSIENT`: it copies the bound bytes (the id's live on this stack).
    private var transient: sqlite3_destructor_type {
        unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
    }

    /// The page cache a batch read asks for, in KiB.
    static let batchReadCacheKiB = 32 << 10

    private func name(_ id: UUID) -> String { "entry \(id.uuidString.lowercased())" }
}

extension UUID {
    /// Whether this id sorts before `other` as SQLite orders their 16-byte keys (memcmp).
    package func precedesInKeyOrder(_ other: UUID) -> Bool {
        withUnsafeBytes(of: uuid) { a in
            withUnsafeBytes(of: other.uuid) { b in memcmp(a.baseAddress!, b.baseAddress!, 16) < 0 }
        }
    }
}
