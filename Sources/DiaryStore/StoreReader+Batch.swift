import Foundation
import GRDB

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
    /// `readEntry` for each id through one prepared statement: preparing it (and GRDB's
    /// authorizer pass over it) for every id cost more than the lookups. The checks are
    /// `readEntry`'s; the blob is copied once, straight from SQLite's row, as `forEachEntry`
    /// copies it, and an entry's name is formatted only for an error.
    func readEntriesWithOneStatement(_ ids: some Collection<UUID>) throws -> [[UInt8]?] {
        let sql =
            "SELECT id, length(sealed), typeof(sealed) = 'blob', \(SQLiteSchema.bounded) FROM entry WHERE id = ?2"
        let statement = try db.cachedStatement(sql: sql)
        // Looked up in an order of their own (an export's is by date), the ids land on leaf
        // pages all over the table: with SQLite's default 2 MB cache nearly every lookup read
        // its page again. A larger cache, bounded, holds a diary of 10,000 entries whole.
        try db.execute(sql: "PRAGMA cache_size = -\(Self.batchReadCacheKiB)")
        return try ids.map { id in
            let rows = try Row.fetchCursor(statement, arguments: [ReadLimits.entry, SQLiteSchema.key(id)])
            guard let row = try rows.next() else { return nil }
            // The id is read back, as `readEntry` does: a damaged B-tree can land on another row.
            guard try SQLiteSchema.entryID(row[0], path: path) == id else {
                throw StoreError.corrupt(path: path, detail: "\(name(id)): the lookup returned another row")
            }
            if let length = row[1] as Int?, length > ReadLimits.entry {
                throw StoreError.corrupt(path: path, detail: "\(name(id)) is larger than \(ReadLimits.entry) bytes")
            }
            guard row[2] as Bool? == true else {
                throw StoreError.corrupt(path: path, detail: "\(name(id)) is not a blob")
            }
            return try row.withUnsafeData(atIndex: 3) { data in data.map { [UInt8]($0) } ?? [] }
        }
    }

    /// The page cache a batch read asks for, in KiB.
    static let batchReadCacheKiB = 32 << 10

    private func name(_ id: UUID) -> String { "entry \(id.uuidString.lowercased())" }
}

extension UUID {
    /// Whether this id sorts before `other` as SQLite orders their 16-byte keys (memcmp).
    func precedesInKeyOrder(_ other: UUID) -> Bool {
        withUnsafeBytes(of: uuid) { a in
            withUnsafeBytes(of: other.uuid) { b in memcmp(a.baseAddress!, b.baseAddress!, 16) < 0 }
        }
    }
}
