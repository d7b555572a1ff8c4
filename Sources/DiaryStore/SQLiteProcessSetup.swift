import CSQLiteSetup

/// SQLite's process-wide settings, made once, before the process opens its first connection
/// (`SQLiteSchema.configuration` asks for them): no memory statistics. With the library's
/// default, every SQLite allocation and free took one mutex shared by the whole process, to
/// keep statistics no one reads; a search allocates for every entry, on two threads.
///
/// (Connections need no setting for the other mutex, the one per connection: GRDB opens each
/// with `SQLITE_OPEN_NOMUTEX` and lets one thread at a time use it.)
enum SQLiteProcessSetup {
    /// True when SQLite took the setting; false when it had started before (a connection
    /// opened by other code in the same process), and then it runs on its defaults, which are
    /// as correct, only slower.
    static let applied: Bool = diary_sqlite_config_no_memstatus() == 0  // SQLITE_OK
}
