#ifndef QUIRE_FTS_H
#define QUIRE_FTS_H

struct sqlite3;
struct fts5_api;

/// Registers, on one database connection, the FTS5 ranking function `quire_rank`: Couchbase
/// Lite's relevance (each phrase's hits in the row over its hits in all rows, summed), negated
/// as FTS5's rank column orders. Per connection, not as an auto-extension: Apple's SQLite does
/// not run process-wide auto-extensions. Returns an SQLite result code; a connection whose
/// SQLite has no FTS5 gets nothing and SQLITE_OK.
int quire_fts_register(struct sqlite3 *db);

/// The FTS5 API of a connection, or NULL when its SQLite has no FTS5 (version 2 or later).
struct fts5_api *quire_fts5_api(struct sqlite3 *db);

#endif
