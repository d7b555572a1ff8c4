#ifndef DIARY_CSQLITESETUP_SHIM_H
#define DIARY_CSQLITESETUP_SHIM_H
// sqlite3_config is variadic, which Swift cannot call: this fixed-argument form can be. It only
// works before SQLite initializes (before the process's first connection); later it returns
// SQLITE_MISUSE and changes nothing.
#include <sqlite3.h>

// No memory statistics: they take one process-wide mutex on every allocation and free.
static inline int diary_sqlite_config_no_memstatus(void) { return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); }
#endif
