import Foundation
import GRDB
import GRDBSQLite

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The structured store: one SQLite database, `<dir>/vault.sqlite`, through GRDB.
///
/// Tables `header` and `sealed_index` hold one row each; `entry(id BLOB PRIMARY KEY, sealed
/// BLOB) WITHOUT ROWID` holds one row per entry, keyed by the 16 raw bytes of its UUID, and
/// `index_page(page INTEGER PRIMARY KEY, sealed BLOB)` (a rowid table since schema 2) one row per index page
/// (see `SQLiteSchema.createSQL`). The
/// database runs in WAL mode with `synchronous = FULL` and `secure_delete = ON` on every
/// connection (see `SQLiteSchema.configuration(path:)`). Each process uses one `DatabaseQueue`;
/// SQLite's own file locking coordinates processes, and `vault.lock` serialises the vault
/// layer's read-modify-write sequences.
public final class SQLiteStore: VaultStore {
    package static let databaseName = "vault.sqlite"

    public let kind = StoreKind.sqlite
    public let directory: URL
    private let databaseURL: URL
    private let dbQueue: DatabaseQueue
    private let lock: FileLock

    private var path: String { databaseURL.path }

    /// Opens the SQLite vault in `directory`, refusing a database that is not a vault's.
    init(openingAt directory: URL) throws {
        self.directory = directory
        self.databaseURL = directory.appendingPathComponent(Self.databaseName)
        self.lock = FileLock(url: directory.appendingPathComponent(StoreLayout.lockName))
        // Opening would create a missing file; a vault's database must already be there.
        var info = stat()
        guard lstat(databaseURL.path, &info) == 0 else { throw StoreError.noVault(path: directory.path) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw StoreError.corrupt(path: databaseURL.path, detail: "is not a regular file")
        }
        let path = databaseURL.path
        self.dbQueue = try SQLiteSchema.mapping(path: path) {
            try DatabaseQueue(path: path, configuration: SQLiteSchema.configuration(path: path))
        }
        try SQLiteSchema.mapping(path: path) {
            try dbQueue.read { try SQLiteSchema.verify($0, path: path) }
        }
    }

    /// Creates the database holding `initial` in an existing, empty 0700 `directory`.
    ///
    /// The database is built and closed under a temporary name, then renamed into place:
    /// `vault.sqlite` appears complete or not at all. The caller holds the vault lock
    /// (`StoreLayout.create` does).
    static func create(at directory: URL, initial: StoreChange) throws -> SQLiteStore {
        guard initial.header != nil else {
            throw StoreError.io(path: directory.path, detail: "a new vault needs a header")
        }
        try initial.validate(path: directory.path)
        let temp = try createEmptyFile(in: directory, suffix: ".sqlite")
        do {
            let queue = try SQLiteSchema.mapping(path: temp.path) {
                try DatabaseQueue(path: temp.path, configuration: SQLiteSchema.configuration(path: temp.path))
            }
            try SQLiteSchema.mapping(path: temp.path) {
                try queue.write { db in
                    try db.execute(sql: SQLiteSchema.createSQL)
                    try write(initial, in: db)
                }
                try queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
                try queue.close()
            }
            try syncFile(temp)
            try DurableFile.commit(temp, to: directory.appendingPathComponent(databaseName))
            try DurableFile.removeTempFiles(in: directory)
            try DurableFile.syncDirectory(directory)
        } catch {
            try? DurableFile.removeTempFiles(in: directory)
            throw error
        }
        try FileLock(url: directory.appendingPathComponent(StoreLayout.lockName)).createFile()
        return try SQLiteStore(openingAt: directory)
    }

    public func withWriteLock<T>(_ body: () throws -> T) throws -> T {
        try lock.withLock(exclusive: true, body)
    }

    /// Applies `change` in one immediate write transaction. An id both put and deleted ends
    /// up put. Takes the write lock itself if the caller does not hold it.
    public func apply(_ change: StoreChange) throws {
        if change.isEmpty { return }
        try change.validate(path: path)
        try withWriteLock {
            // A killed `create` or `backup` into this directory may have left temporary files.
            try DurableFile.removeTempFiles(in: directory)
            try write { db in
                try db.inTransaction(.immediate) {
                    try Self.write(change, in: db)
                    return .commit
                }
            }
            if !change.deleteEntries.isEmpty || !change.deleteAttachments.isEmpty {
                // Old WAL frames still hold the deleted rows' pages; truncating the log after a
                // checkpoint drops them. Best effort: another process's read may keep it busy.
                try? write { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
            }
        }
    }

    /// `apply`, with the parts written into its one transaction as they come: rolled back
    /// whole if `produce` throws, so no part is ever seen without the rest.
    public func apply(inParts produce: (_ put: ([UUID: [UInt8]]) throws -> Void) throws -> StoreChange) throws {
        try withWriteLock {
            try DurableFile.removeTempFiles(in: directory)
            var deletes = false
            try write { db in
                try db.inTransaction(.immediate) {
                    let change = try produce { part in try Self.write(StoreChange(putEntries: part), in: db) }
                    try change.validate(path: path)
                    try Self.write(change, in: db)
                    deletes = !change.deleteEntries.isEmpty || !change.deleteAttachments.isEmpty
                    return .commit
                }
            }
            // As `apply` does: drop the deleted rows' pages from the log.
            if deletes { try? write { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") } }
        }
    }

    public func withSnapshot<T>(_ body: (any StoreReader) throws -> T) throws -> T {
        let path = self.path
        // One read transaction: in WAL mode it sees a single committed state throughout.
        return try read { db in try body(SQLiteReader(db: db, path: path)) }
    }

    public func auditLayout() throws -> [String] {
        try read { try SQLiteSchemaAudit.findings($0) }
    }

    public func storeFiles() throws -> [String] {
        let names = Set(try DurableFile.names(in: directory) ?? [])
        let own = [
            Self.databaseName, Self.databaseName + "-wal", Self.databaseName + "-shm",
            Self.databaseName + "-journal", StoreLayout.lockName,
        ]
        return own.filter(names.contains).sorted()
    }

    /// Rebuilds the database and truncates its log, so ciphertext under an old key (after key
    /// rotation) or of deleted entries is no longer in any page of the files.
    public func compact() throws {
        try withWriteLock {
            try write { db in
                // VACUUM gives its copy of the database the connection's page cache size: a
                // batch read's larger cache (`batchReadCacheKiB`) twice over would make a
                // rekey's memory grow with the diary. The default cache does the copy as fast.
                try db.execute(sql: "PRAGMA cache_size = -2000")
                try db.execute(sql: "VACUUM")
                let busy = try Int.fetchOne(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)") ?? 1
                guard busy == 0 else {
                    throw StoreError.io(path: path, detail: "could not truncate the log: database is busy")
                }
            }
        }
    }

    /// Runs `body` on the store's own connection (tests inspect its pragmas this way).
    func inspect<T>(_ body: (Database) throws -> T) throws -> T {
        try read(body)
    }

    /// Runs `body` in one read transaction — or, when this thread is already inside one (a
    /// read or snapshot nested in a snapshot), in that same transaction: GRDB connections are
    /// not reentrant, and the outer snapshot already fixes the state.
    private func read<T>(_ body: (Database) throws -> T) throws -> T {
        try SQLiteSchema.mapping(path: path) {
            try dbQueue.unsafeReentrantRead { db in
                if db.isInsideTransaction { return try body(db) }
                return try db.readOnly {
                    var result: T?
                    try db.inTransaction(.deferred) {
                        result = try body(db)
                        return .commit
                    }
                    guard let result else { throw StoreError.io(path: path, detail: "read transaction failed") }
                    return result
                }
            }
        }
    }

    /// Runs `body` on the connection outside any transaction; refuses inside a snapshot,
    /// whose state must not change under it.
    func write(_ body: (Database) throws -> Void) throws {
        try SQLiteSchema.mapping(path: path) {
            try dbQueue.unsafeReentrantWrite { db in
                guard !db.isInsideTransaction else {
                    throw StoreError.io(path: path, detail: "cannot write inside a snapshot")
                }
                try body(db)
            }
        }
    }

    private static func write(_ change: StoreChange, in db: Database) throws {
        if let header = change.header {
            try db.execute(sql: "INSERT OR REPLACE INTO header (id, sealed) VALUES (1, ?)", arguments: [Data(header)])
        }
        if let index = change.index {
            try db.execute(
                sql: "INSERT OR REPLACE INTO sealed_index (id, sealed) VALUES (1, ?)", arguments: [Data(index)])
        }
        let delete = try db.cachedStatement(sql: "DELETE FROM entry WHERE id = ?")
        for id in change.deleteEntries { try delete.execute(arguments: [SQLiteSchema.key(id)]) }
        if !change.deleteAttachments.isEmpty, try SQLiteSchema.hasAttachmentTable(db) {
            let sql = "DELETE FROM attachment_chunk WHERE id = ?"
            for id in change.deleteAttachments { try db.execute(sql: sql, arguments: [SQLiteSchema.key(id)]) }
        }
        let put = try db.cachedStatement(sql: "INSERT OR REPLACE INTO entry (id, sealed) VALUES (?, ?)")
        // In key order: a large change (an import, a rekey's batch) then fills the table's
        // B-tree pages one after another instead of splitting pages all over it.
        for (id, bytes) in change.putEntries.sorted(by: { $0.key.precedesInKeyOrder($1.key) }) {
            try put.execute(arguments: [SQLiteSchema.key(id), Data(bytes)])
        }
        if !change.putIndexPages.isEmpty || !change.deleteIndexPages.isEmpty {
            try SQLiteSchema.upgrade(db)
            let deletePage = try db.cachedStatement(sql: "DELETE FROM index_page WHERE page = ?")
            for page in change.deleteIndexPages.subtracting(change.putIndexPages.keys) {
                try deletePage.execute(arguments: [page])
            }
        }
        if !change.putIndexPages.isEmpty {
            let putPage = try db.cachedStatement(sql: "INSERT OR REPLACE INTO index_page (page, sealed) VALUES (?, ?)")
            for (page, bytes) in change.putIndexPages { try putPage.execute(arguments: [page, Data(bytes)]) }
        }
    }

    /// Creates an empty 0600 `.tmp-…` file: SQLite gives its journal and log files the
    /// database file's mode, so this fixes the mode of all of them regardless of the umask.
    private static func createEmptyFile(in directory: URL, suffix: String) throws -> URL {
        let url = directory.appendingPathComponent(DurableFile.tempPrefix + SecureRandomName.make() + suffix)
        let fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, DurableFile.fileMode)
        guard fd >= 0 else { throw StoreError.io(path: url.path, detail: DurableFile.errnoText()) }
        defer { close(fd) }
        guard fchmod(fd, DurableFile.fileMode) == 0 else {
            throw StoreError.io(path: url.path, detail: DurableFile.errnoText())
        }
        return url
    }

    private static func syncFile(_ url: URL) throws {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw StoreError.io(path: url.path, detail: DurableFile.errnoText()) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw StoreError.io(path: url.path, detail: DurableFile.errnoText()) }
    }
}

/// Reads inside one read transaction of the SQLite store; valid only during the snapshot.
struct SQLiteReader: StoreReader {
    let db: Database
    let path: String

    func readHeader() throws -> [UInt8] {
        let sql = "SELECT length(sealed), \(SQLiteSchema.bounded) FROM header WHERE id = 1"
        guard let row = try Row.fetchOne(db, sql: sql, arguments: [ReadLimits.header]) else {
            throw StoreError.corrupt(path: path, detail: "the header row is missing")
        }
        return try SQLiteSchema.boundedBlob(row, at: 0, limit: ReadLimits.header, path: path, what: "the header")
    }

    func readIndex() throws -> [UInt8]? {
        let sql = "SELECT length(sealed), \(SQLiteSchema.bounded) FROM sealed_index WHERE id = 1"
        guard let row = try Row.fetchOne(db, sql: sql, arguments: [ReadLimits.index]) else { return nil }
        return try SQLiteSchema.boundedBlob(row, at: 0, limit: ReadLimits.index, path: path, what: "the index")
    }

    func readEntry(_ id: UUID) throws -> [UInt8]? {
        // The id is read back too: in a damaged B-tree (a flipped key byte leaves rows out of
        // order, which quick_check does not notice) a lookup can land on another row.
        let sql = "SELECT id, length(sealed), \(SQLiteSchema.bounded) FROM entry WHERE id = ?"
        guard let row = try Row.fetchOne(db, sql: sql, arguments: [ReadLimits.entry, SQLiteSchema.key(id)]) else {
            return nil
        }
        let what = "entry \(id.uuidString.lowercased())"
        guard try SQLiteSchema.entryID(row[0] as DatabaseValue, path: path) == id else {
            throw StoreError.corrupt(path: path, detail: "\(what): the lookup returned another row")
        }
        return try SQLiteSchema.boundedBlob(row, at: 1, limit: ReadLimits.entry, path: path, what: what)
    }

    func entryIDs() throws -> [UUID] {
        try DatabaseValue.fetchAll(db, sql: "SELECT id FROM entry").map { try SQLiteSchema.entryID($0, path: path) }
    }

    /// One cursor over the table in key order. The sealed bytes are copied once, straight from
    /// SQLite's row into the array handed to `body`; the column's type is checked in SQL
    /// (`typeof`), so a damaged row that is not a blob is still refused, as `SQLiteSchema.blob`
    /// does, and the entry's name is formatted only for that error.
    func forEachEntry(_ body: (UUID, [UInt8]) throws -> Void) throws {
        let sql = "SELECT id, \(SQLiteSchema.bounded), typeof(sealed) = 'blob', length(sealed) FROM entry ORDER BY id"
        let rows = try Row.fetchCursor(db, sql: sql, arguments: [ReadLimits.entry])
        while let row = try rows.next() {
            let id = try SQLiteSchema.entryID(row[0], path: path)
            guard row[2] as Bool? == true else {
                throw StoreError.corrupt(path: path, detail: "entry \(id.uuidString.lowercased()) is not a blob")
            }
            guard let length = row[3] as Int?, length <= ReadLimits.entry else {
                throw StoreError.corrupt(
                    path: path, detail: "entry \(id.uuidString.lowercased()) is larger than \(ReadLimits.entry) bytes")
            }
            let sealed = try row.withUnsafeData(atIndex: 1) { data in data.map { [UInt8]($0) } ?? [] }
            try body(id, sealed)
        }
    }

    func readIndexPage(_ page: Int) throws -> [UInt8]? {
        try IndexPageNumber.check(page, path: path)
        // The page number is read back for the same reason as an entry's id (see `readEntry`).
        let sql = "SELECT page, length(sealed), \(SQLiteSchema.bounded) FROM index_page WHERE page = ?"
        // Prepared once per connection: preparing it (and GRDB's authorizer pass) for each of
        // the hundreds of pages a search opens cost more than reading them.
        let statement = try db.cachedStatement(sql: sql)
        try statement.setArguments([ReadLimits.index, page])
        // Stepped with SQLite's own calls and the blob copied once, from SQLite's row: a GRDB
        // row copied each page (26 KB at 100,000 entries) once more on its way, 512 times a search.
        let raw = statement.sqliteStatement
        defer { sqlite3_reset(raw) }  // a statement left on a row keeps its read open
        let code = sqlite3_step(raw)
        if code == SQLITE_DONE { return nil }
        guard code == SQLITE_ROW else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage)
        }
        guard try SQLiteSchema.pageNumber(DatabaseValue(sqliteStatement: raw, index: 0), path: path) == page else {
            throw StoreError.corrupt(path: path, detail: "index page \(page): the lookup returned another row")
        }
        // `boundedBlob`'s checks, in its order and words.
        if sqlite3_column_type(raw, 1) == SQLITE_INTEGER, sqlite3_column_int64(raw, 1) > Int64(ReadLimits.index) {
            throw StoreError.corrupt(path: path, detail: "index page \(page) is larger than \(ReadLimits.index) bytes")
        }
        guard sqlite3_column_type(raw, 2) == SQLITE_BLOB else {
            throw StoreError.corrupt(path: path, detail: "index page \(page) is not a blob")
        }
        let count = Int(sqlite3_column_bytes(raw, 2))
        guard count > 0, let blob = sqlite3_column_blob(raw, 2) else { return [] }
        return [UInt8](UnsafeRawBufferPointer(start: blob, count: count))
    }

    func readIndexPages() throws -> [Int: [UInt8]] {
        var pages = [Int: [UInt8]]()
        let sql = "SELECT page, length(sealed), \(SQLiteSchema.bounded) FROM index_page ORDER BY page"
        let rows = try Row.fetchCursor(db, sql: sql, arguments: [ReadLimits.index])
        while let row = try rows.next() {
            let page = try SQLiteSchema.pageNumber(row[0], path: path)
            let sealed = try SQLiteSchema.boundedBlob(
                row, at: 1, limit: ReadLimits.index, path: path, what: "index page \(page)")
            // A damaged B-tree can repeat a key; two rows for one page are not one page.
            guard pages.updateValue(sealed, forKey: page) == nil else {
                throw StoreError.corrupt(path: path, detail: "index page \(page) appears twice")
            }
        }
        return pages
    }
}
