#ifndef DIARY_CSQLITESETUP_SHIM_H
#define DIARY_CSQLITESETUP_SHIM_H
// sqlite3_config is variadic, which Swift cannot call: these fixed-argument forms can be.
// They only work before SQLite initializes (before the process's first connection); later they
// return SQLITE_MISUSE and change nothing.
#include <sqlite3.h>

// Multi-thread mode: no mutex on each call into a connection. GRDB already lets one thread at a
// time use a connection (every access goes through its serial queue), and a scan gives each
// thread a connection of its own.
static inline int diary_sqlite_config_multithread(void) { return sqlite3_config(SQLITE_CONFIG_MULTITHREAD); }

// No memory statistics: they take one process-wide mutex on every allocation and free.
static inline int diary_sqlite_config_no_memstatus(void) { return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); }
#endif
