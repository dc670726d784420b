// SQLite for Swift on Linux, where no `SQLite3` module exists.
//
// The destructor sentinels SQLITE_STATIC / SQLITE_TRANSIENT are macros that Swift does not import,
// and sqlite3_config is variadic; the helpers below give Swift plain functions.
#ifndef LINKHOST_CSQLITE_SHIM_H
#define LINKHOST_CSQLITE_SHIM_H

#include <sqlite3.h>

/// Binds text that SQLite copies at once, so the Swift buffer may go away after the call.
static inline int linkhost_sqlite_bind_text_copy(sqlite3_stmt *statement, int index, const char *text, int length) {
    return sqlite3_bind_text(statement, index, text, length, SQLITE_TRANSIENT);
}

/// Binds text that SQLite does not copy: the bytes must stay valid and unchanged until the statement
/// is stepped and reset (the log writer binds from a buffer it reuses row after row, which saves an
/// allocation and a free per value).
static inline int linkhost_sqlite_bind_text_static(sqlite3_stmt *statement, int index, const char *text, int length) {
    return sqlite3_bind_text(statement, index, text, length, SQLITE_STATIC);
}

/// Turns off SQLite's memory statistics before the library initialises. With them on, every
/// allocation takes a process-wide mutex, which the log writer paid several times per row; nothing
/// here reads them. Returns SQLITE_MISUSE (and changes nothing) once SQLite is initialised.
static inline int linkhost_sqlite_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

#endif
