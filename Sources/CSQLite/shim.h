#ifndef QUIRE_CSQLITE_SHIM_H
#define QUIRE_CSQLITE_SHIM_H

#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast of -1 to a function pointer, which Swift cannot import.
static inline sqlite3_destructor_type quire_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

// Variadic configuration calls are not importable; these wrappers fix the argument lists.
static inline int quire_sqlite_db_config_int(sqlite3 *db, int op, int value, int *result) {
    return sqlite3_db_config(db, op, value, result);
}

static inline int quire_sqlite_config_log(void (*callback)(void *, int, const char *), void *context) {
    return sqlite3_config(SQLITE_CONFIG_LOG, callback, context);
}

static inline int quire_sqlite_config_memstatus(int enabled) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, enabled);
}

#endif
