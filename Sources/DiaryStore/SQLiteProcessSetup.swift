import CSQLiteSetup

/// SQLite's process-wide settings, made once, before the process opens its first connection
/// (`SQLiteSchema.configuration` asks for them). A search calls into SQLite several times for
/// every entry, on two threads: with the library's defaults each call took its connection's
/// mutex and each allocation a process-wide one, only to keep statistics no one reads.
enum SQLiteProcessSetup {
    /// True when SQLite took both settings; false when it had started before (a connection
    /// opened by other code in the same process), and then it runs on its defaults, which are
    /// as correct, only slower.
    static let applied: Bool = {
        // No mutex per call: GRDB lets one thread at a time use a connection, and a scan gives
        // each of its threads a connection of its own.
        let threads = diary_sqlite_config_multithread()
        let statistics = diary_sqlite_config_no_memstatus()
        return threads == 0 && statistics == 0  // SQLITE_OK
    }()
}
