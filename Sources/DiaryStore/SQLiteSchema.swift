import Foundation
import GRDB

/// The SQLite store's schema, connection settings and strict row parsing.
enum SQLiteSchema {
    /// `PRAGMA application_id`: "DRY1", so `file(1)` and we can tell a diary database apart.
    static let applicationID: Int32 = 0x4452_5931
    /// `PRAGMA user_version`: the schema version this code writes. Version 1 differs only in
    /// `index_page`'s CHECK (page numbers 0...255); it is still read, and is upgraded in the
    /// transaction of the first change that touches index pages (the index's migration to
    /// version 3, docs/FORMAT.md §2). Others are refused.
    /// Version 3 is version 2 with `attachment_chunk` (`attachmentTableSQL`), which the first
    /// attachment write creates; a vault without attachments stays at version 2.
    static let version: Int32 = 2
    static let attachmentVersion: Int32 = 3
    static let readableVersions: ClosedRange<Int32> = 1...3

    /// Attachment objects, one row per stored piece (`chunk` 0 = the object's prefix, `chunk`
    /// i+1 = its sealed chunk i). Rows are inserted with random rowids, so the table's order
    /// reveals nothing about when objects were written.
    static let attachmentTableSQL = """
        CREATE TABLE attachment_chunk (
            id BLOB NOT NULL CHECK (typeof(id) = 'blob' AND length(id) = 16),
            chunk INTEGER NOT NULL CHECK (typeof(chunk) = 'integer' AND chunk >= 0),
            sealed BLOB NOT NULL CHECK (typeof(sealed) = 'blob'));
        CREATE UNIQUE INDEX attachment_chunk_key ON attachment_chunk (id, chunk);
        """

    /// `index_page` of schema version 2: a page number is any u32 (docs/FORMAT.md §7), and the
    /// table is an ordinary rowid table whose rowid is the page number. Version 1's was WITHOUT
    /// ROWID: an index B-tree, whose interior cells carry whole rows, so every lookup of a page
    /// (a blob of tens of KiB) walked overflow chains: about 12 preads a page, 90 for the 8
    /// pages `list -n 10` reads at once. The page number reveals nothing, as before.
    static let indexPageTableSQL = """
        CREATE TABLE index_page (
            page INTEGER PRIMARY KEY NOT NULL CHECK (typeof(page) = 'integer' AND page BETWEEN 0 AND 4294967295),
            sealed BLOB NOT NULL CHECK (typeof(sealed) = 'blob'));
        """

    /// `index_page` of schema version 1 (page numbers 0...255).
    static let legacyIndexPageTableSQL = """
        CREATE TABLE index_page (
            page INTEGER PRIMARY KEY NOT NULL CHECK (typeof(page) = 'integer' AND page BETWEEN 0 AND 255),
            sealed BLOB NOT NULL CHECK (typeof(sealed) = 'blob')
        ) WITHOUT ROWID;
        """

    /// Tables of the current version. `entry` is WITHOUT ROWID so no rowid reveals insertion
    /// order; the CHECKs keep our own writes canonical (reads still verify, since a file can be
    /// crafted).
    static let createSQL = schemaSQL(version: version)

    /// The schema a database of `version` (1, 2 or 3) has.
    static func schemaSQL(version: Int32) -> String {
        """
        CREATE TABLE header (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            sealed BLOB NOT NULL CHECK (typeof(sealed) = 'blob'));
        CREATE TABLE sealed_index (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            sealed BLOB NOT NULL CHECK (typeof(sealed) = 'blob'));
        CREATE TABLE entry (
            id BLOB PRIMARY KEY CHECK (typeof(id) = 'blob' AND length(id) = 16),
            sealed BLOB NOT NULL CHECK (typeof(sealed) = 'blob')
        ) WITHOUT ROWID;
        \(version == 1 ? legacyIndexPageTableSQL : indexPageTableSQL)
        \(version >= attachmentVersion ? attachmentTableSQL : "")
        PRAGMA application_id = \(applicationID);
        PRAGMA user_version = \(version);
        """
    }

    /// Inside a write transaction: brings a version-1 database to the current version. The
    /// pages (at most 256, of an index about to be rewritten) are copied through memory so the
    /// table is created by the very SQL a new vault has (a renamed table's SQL would differ).
    static func upgrade(_ db: Database) throws {
        guard try Int32.fetchOne(db, sql: "PRAGMA user_version") == 1 else { return }
        let rows = try Row.fetchAll(db, sql: "SELECT page, sealed FROM index_page")
        try db.execute(sql: "DROP TABLE index_page")
        try db.execute(sql: indexPageTableSQL)
        for row in rows {
            try db.execute(
                sql: "INSERT INTO index_page (page, sealed) VALUES (?, ?)",
                arguments: [row[0] as DatabaseValue, row[1] as DatabaseValue])
        }
        try db.execute(sql: "PRAGMA user_version = \(version)")
    }

    /// Inside a write transaction: brings the database to version 3 (the attachment table),
    /// upgrading a version-1 database on the way.
    static func addAttachmentTable(_ db: Database) throws {
        guard try !hasAttachmentTable(db) else { return }
        try upgrade(db)
        try db.execute(sql: attachmentTableSQL)
        try db.execute(sql: "PRAGMA user_version = \(attachmentVersion)")
    }

    /// Whether the schema version has the attachment table (a database that claims it without
    /// the table fails its queries as damage).
    static func hasAttachmentTable(_ db: Database) throws -> Bool {
        try (Int32.fetchOne(db, sql: "PRAGMA user_version") ?? 0) >= attachmentVersion
    }

    /// Connection settings applied to every connection, including backups' sources.
    static func configuration(path: String) -> Configuration {
        _ = SQLiteProcessSetup.applied
        var config = Configuration()
        config.label = "diary.vault"
        // Other diary processes may hold the database briefly; wait rather than fail.
        config.busyMode = .timeout(10)
        config.prepareDatabase { db in
            // Freed pages are zeroed, so deleted or replaced ciphertext does not linger.
            try db.execute(sql: "PRAGMA secure_delete = ON")
            // Pages freed by a deletion leave the file at once instead of waiting on the
            // freelist, where one copy of the file would show that something was deleted (an
            // observer test found it). It takes effect on a new database (set here, before the
            // first table and before WAL), and on an older vault at its next VACUUM (rekey).
            // Only set when not already FULL: setting it always runs a write transaction
            // (SQLite rewrites the incremental-vacuum flag on page 1), which made every open,
            // even a reader's, commit to the WAL with three fsyncs and checkpoint it on close.
            // 16 KiB pages on a new database: with 4 KiB pages a WITHOUT ROWID row keeps at
            // most about 1 KB in its page, so every entry of a typical size (1-2 KB) spilled
            // into an overflow page of its own, and a search read each entry in two or three
            // preads. 16 KiB pages hold rows up to about 4 KB in place. (Only a new, empty
            // database takes a page size; an existing one keeps its own.)
            if try Int.fetchOne(db, sql: "PRAGMA page_count") == 0 {
                try db.execute(sql: "PRAGMA page_size = 16384")
            }
            if try Int.fetchOne(db, sql: "PRAGMA auto_vacuum") != 1 {
                try db.execute(sql: "PRAGMA auto_vacuum = FULL")
            }
            // WAL lets readers keep a consistent snapshot while a writer commits.
            // (Set by hand: GRDB's `.wal` setting would also lower `synchronous` to NORMAL.)
            let mode = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
            guard mode == "wal" else {
                throw StoreError.io(path: path, detail: "could not enable write-ahead logging")
            }
            // FULL: a commit is on disk (WAL fsynced) before `apply` returns.
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        return config
    }

    /// Refuses a database that is not ours or of an unknown schema version.
    static func verify(_ db: Database, path: String) throws {
        let appID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        guard appID == applicationID else { throw StoreError.notAVault(path: path) }
        let found = try Int32.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        guard readableVersions.contains(found) else {
            throw StoreError.corrupt(path: path, detail: "unsupported store schema version \(found)")
        }
    }

    /// The 16 raw bytes that key an entry row.
    static func key(_ id: UUID) -> Data {
        withUnsafeBytes(of: id.uuid) { Data($0) }
    }

    /// The entry id in a row's key column; anything but a 16-byte blob is damage.
    static func entryID(_ value: DatabaseValue, path: String) throws -> UUID {
        guard case .blob(let data) = value.storage, data.count == 16 else {
            throw StoreError.corrupt(path: path, detail: "an entry row has an invalid id")
        }
        var raw: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &raw) { $0.copyBytes(from: data) }
        return UUID(uuid: raw)
    }

    /// The page number in an `index_page` row; anything but an integer in range is damage.
    static func pageNumber(_ value: DatabaseValue, path: String) throws -> Int {
        guard case .int64(let number) = value.storage, StoreChange.indexPageRange.contains(Int(number)) else {
            throw StoreError.corrupt(path: path, detail: "an index page row has an invalid page number")
        }
        return Int(number)
    }

    /// A sealed blob column; anything but a blob is damage.
    /// The `sealed` column when its length is within the limit bound as the statement's first
    /// argument, else NULL: SQLite reads a blob's length from the record header without
    /// loading its pages, so an oversized row is refused before it is copied into memory.
    static let bounded = "CASE WHEN length(sealed) <= ?1 THEN sealed END"

    /// The blob of a row selected as `length(sealed), \(bounded)` starting at column `at`:
    /// refused as damage when longer than `limit` or not a blob.
    static func boundedBlob(_ row: Row, at: Int, limit: Int, path: String, what: String) throws -> [UInt8] {
        if let length = row[at] as Int?, length > limit {
            throw StoreError.corrupt(path: path, detail: "\(what) is larger than \(limit) bytes")
        }
        return try blob(row[at + 1] as DatabaseValue, path: path, what: what)
    }

    static func blob(_ value: DatabaseValue, path: String, what: String) throws -> [UInt8] {
        guard case .blob(let data) = value.storage else {
            throw StoreError.corrupt(path: path, detail: "\(what) is not a blob")
        }
        return [UInt8](data)
    }

    /// Whether the file system holding `path` has no block left for an unprivileged write.
    private static func isFull(_ path: String) -> Bool {
        var info = statvfs()
        return statvfs((path as NSString).deletingLastPathComponent, &info) == 0 && info.f_bavail == 0
    }

    /// Maps GRDB's errors to `StoreError`, keeping SQL text and arguments out of the message.
    static func mapping<T>(path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            switch error.resultCode {
            case .SQLITE_NOTADB, .SQLITE_CORRUPT:
                throw StoreError.corrupt(path: path, detail: "not a valid sqlite database")
            case .SQLITE_FULL:
                // The files store's wording (strerror's), so a full disk reads the same in both.
                throw StoreError.io(path: path, detail: DurableFile.errnoText(ENOSPC))
            case .SQLITE_IOERR where isFull(path):
                // SQLite reports a full disk met while opening (its journal, its shared memory
                // file) as a bare "disk I/O error".
                throw StoreError.io(path: path, detail: DurableFile.errnoText(ENOSPC))
            case .SQLITE_BUSY, .SQLITE_LOCKED:
                throw StoreError.io(path: path, detail: "database is locked by another process")
            case .SQLITE_ERROR:
                // "no such table" and the like: the file is a database but not a vault's.
                throw StoreError.corrupt(path: path, detail: error.message ?? "sql error")
            default:
                throw StoreError.io(path: path, detail: error.message ?? "sqlite error \(error.resultCode.rawValue)")
            }
        }
    }
}
