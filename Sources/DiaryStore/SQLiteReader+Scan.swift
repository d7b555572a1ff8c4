import Dispatch
import Foundation
import GRDB
import GRDBSQLite

extension SQLiteReader: EntryScanning {
    /// One cursor over the table, read on this thread straight from SQLite's row into a batch
    /// buffer (no array or `Data` per entry), while `workers` threads go through the batch
    /// read before. Checks what `forEachEntry` checks, in the same words.
    func scanEntries(workers: Int, _ body: EntryScanBody) throws {
        let statement = try db.makeStatement(
            sql: "SELECT id, \(SQLiteSchema.bounded), typeof(sealed) = 'blob', length(sealed) FROM entry")
        let rows = try Row.fetchCursor(statement, arguments: [ReadLimits.entry])
        let raw = statement.sqliteStatement
        try withoutActuallyEscaping(body) { body in
            var filling = EntryScanBatch()
            var spare = EntryScanBatch()
            var running: DispatchGroup?
            // Never leave with workers still reading a batch: its memory goes with this scope.
            defer { running?.wait() }
            func handOver() {
                running?.wait()
                let batch = filling
                let group = DispatchGroup()
                DispatchQueue.global(qos: .userInitiated).async(group: group) { batch.process(workers: workers, body) }
                running = group
                swap(&filling, &spare)
                filling.removeAll()
            }
            while try rows.next() != nil {
                let id = try entryID(raw)
                filling.append(id, try sealedBytes(raw, id))
                if filling.isFull { handOver() }
            }
            if !filling.isEmpty { handOver() }
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

    /// Columns 1 to 3 of the current row: the sealed blob, in place (valid until the next
    /// step), refused when it is not a blob or longer than the limit, in `forEachEntry`'s order.
    private func sealedBytes(_ raw: OpaquePointer, _ id: UUID) throws -> UnsafeRawBufferPointer {
        guard sqlite3_column_type(raw, 2) == SQLITE_INTEGER, sqlite3_column_int64(raw, 2) == 1 else {
            throw StoreError.corrupt(path: path, detail: "entry \(id.uuidString.lowercased()) is not a blob")
        }
        guard sqlite3_column_type(raw, 3) == SQLITE_INTEGER, sqlite3_column_int64(raw, 3) <= ReadLimits.entry,
            sqlite3_column_type(raw, 1) == SQLITE_BLOB
        else {
            throw StoreError.corrupt(
                path: path, detail: "entry \(id.uuidString.lowercased()) is larger than \(ReadLimits.entry) bytes")
        }
        let count = Int(sqlite3_column_bytes(raw, 1))
        return UnsafeRawBufferPointer(start: count == 0 ? nil : sqlite3_column_blob(raw, 1), count: count)
    }
}
