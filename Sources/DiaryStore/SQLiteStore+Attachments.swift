import Foundation
import GRDB

/// Attachment objects in a SQLite vault: rows of `attachment_chunk` (`SQLiteSchema`), one per
/// stored piece, written before the entry change that references them.
extension SQLiteStore {
    /// Pieces are committed in transactions of about this many bytes: one transaction for a
    /// 4 GiB object would grow the log to 4 GiB before its first checkpoint.
    static let attachmentBatchBytes = 64 << 20

    /// Writes the object in transactions of at most `attachmentBatchBytes`. Readers may see the
    /// rows of an unfinished object between batches; nothing references it until the entry
    /// change that follows. If `write` throws, the batch in flight is rolled back and the rows
    /// of earlier batches are deleted; a crash leaves them as an unreferenced object, which
    /// the vault reports and removes.
    /// Temporary files a killed `create` or `backup` left, as `apply` removes them. (Rows a
    /// killed `putAttachment` committed are an object cut short: the vault fetches it again.)
    public func removeLeftovers() throws {
        try withWriteLock { try DurableFile.removeTempFiles(in: directory) }
    }

    public func putAttachment(_ id: UUID, _ write: (_ chunk: ([UInt8]) throws -> Void) throws -> Void) throws {
        let key = SQLiteSchema.key(id)
        let path = directory.appendingPathComponent(Self.databaseName).path
        try withWriteLock {
            try self.write { db in
                do {
                    try db.execute(sql: "BEGIN IMMEDIATE")
                    try SQLiteSchema.addAttachmentTable(db)
                    try db.execute(sql: "DELETE FROM attachment_chunk WHERE id = ?", arguments: [key])
                    var writer = AttachmentRows(db: db, key: key, path: path)
                    try write { try writer.insert($0) }
                    guard writer.pieces > 0 else {
                        throw StoreError.io(path: path, detail: "an attachment object holds no bytes")
                    }
                    try db.execute(sql: "COMMIT")
                } catch {
                    if db.isInsideTransaction { try? db.execute(sql: "ROLLBACK") }
                    // Earlier batches are committed: remove them (best effort: on a full disk
                    // this may fail too, and the rows stay as an unreferenced object).
                    if (try? SQLiteSchema.hasAttachmentTable(db)) == true {
                        try? db.execute(sql: "DELETE FROM attachment_chunk WHERE id = ?", arguments: [key])
                    }
                    throw error
                }
            }
        }
    }
}

/// Inserts one object's pieces in order, committing every `attachmentBatchBytes`.
private struct AttachmentRows {
    let db: Database
    let key: Data
    let path: String
    private(set) var pieces = 0
    private var total = 0
    private var batch = 0

    init(db: Database, key: Data, path: String) {
        self.db = db
        self.key = key
        self.path = path
    }

    mutating func insert(_ piece: [UInt8]) throws {
        total += piece.count
        guard total <= ReadLimits.attachment, piece.count <= ReadLimits.attachmentRow else {
            throw StoreError.io(path: path, detail: "an attachment object is larger than the store keeps")
        }
        let insert = try db.cachedStatement(
            sql: "INSERT INTO attachment_chunk (rowid, id, chunk, sealed) VALUES (?, ?, ?, ?)")
        // A random rowid (the table's order must not follow insertion); a collision among 2^63
        // values is retried, not trusted never to happen.
        for attempt in 0..<8 {
            do {
                let rowid = Int64.random(in: 1...Int64.max)
                try insert.execute(arguments: [rowid, key, pieces, Data(piece)])
                break
            } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY {
                if attempt == 7 { throw error }
            }
        }
        pieces += 1
        batch += piece.count
        if batch >= SQLiteStore.attachmentBatchBytes {
            try db.execute(sql: "COMMIT")
            try db.execute(sql: "BEGIN IMMEDIATE")
            batch = 0
        }
    }
}

extension SQLiteReader {
    func readAttachment(_ id: UUID, _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        guard let length = try attachmentLength(id) else { return false }
        let sql = """
            SELECT chunk, CASE WHEN length(sealed) <= ? THEN sealed END FROM attachment_chunk
            WHERE id = ? ORDER BY chunk
            """
        let rows = try Row.fetchCursor(db, sql: sql, arguments: [ReadLimits.attachmentRow, SQLiteSchema.key(id)])
        var expected: Int64 = 0
        var total = 0
        while let row = try rows.next() {
            guard row[0] as Int64? == expected, case .blob(let data) = (row[1] as DatabaseValue).storage else {
                throw damage(id, "its rows are not in order")
            }
            total += data.count
            guard total <= length else { throw damage(id, "its rows changed while read") }
            try data.withUnsafeBytes { try body($0) }
            expected += 1
        }
        guard total == length else { throw damage(id, "its rows changed while read") }
        return true
    }

    /// The object's length from its rows' lengths, after checking in SQL, without loading a
    /// blob, that its rows are pieces 0…n-1, blobs, each at most `ReadLimits.attachmentRow` and
    /// together at most `ReadLimits.attachment`.
    func attachmentLength(_ id: UUID) throws -> Int? {
        guard try SQLiteSchema.hasAttachmentTable(db) else { return nil }
        let sql = """
            SELECT count(*), min(chunk), max(chunk), sum(length(sealed)), max(length(sealed)),
                   min(typeof(sealed) = 'blob' AND typeof(chunk) = 'integer')
            FROM attachment_chunk WHERE id = ?
            """
        guard let row = try Row.fetchOne(db, sql: sql, arguments: [SQLiteSchema.key(id)]),
            let count = row[0] as Int64?, count > 0
        else { return nil }
        guard row[1] as Int64? == 0, row[2] as Int64? == count - 1, row[5] as Int64? == 1 else {
            throw damage(id, "its rows are not the pieces of one object")
        }
        guard let length = row[3] as Int64?, length <= ReadLimits.attachment,
            let longest = row[4] as Int64?, longest <= ReadLimits.attachmentRow
        else { throw damage(id, "it is larger than \(ReadLimits.attachment) bytes or has an oversized row") }
        return Int(length)
    }

    func attachmentIDs() throws -> [UUID] {
        guard try SQLiteSchema.hasAttachmentTable(db) else { return [] }
        return try DatabaseValue.fetchAll(db, sql: "SELECT DISTINCT id FROM attachment_chunk").map { value in
            guard case .blob(let data) = value.storage, data.count == 16 else {
                throw StoreError.corrupt(path: path, detail: "an attachment row has an invalid id")
            }
            return UUID(bytes: [UInt8](data))
        }
    }

    private func damage(_ id: UUID, _ detail: String) -> StoreError {
        .corrupt(path: path, detail: "attachment \(id.lowercaseString): \(detail)")
    }
}
