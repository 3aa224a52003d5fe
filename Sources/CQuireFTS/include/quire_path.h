#ifndef QUIRE_PATH_H
#define QUIRE_PATH_H

struct sqlite3;

/// Registers, on one database connection, `quire_extract(json, path)` and
/// `quire_type(json, path)`: the answers of SQLite's `json_extract` and `json_type` with one
/// path, found by scanning the JSON text and skipping what the path does not enter, without
/// building a node for every value as SQLite's parser does. Values whose conversion is
/// SQLite's own (reals, strings with `\u` escapes, integers beyond 64 bits), containers that
/// are not compact, malformed text and paths are answered by SQLite's JSON functions on a
/// private in-memory connection, so every answer is theirs. A stored body's bare keys
/// (quire_body.h) are read as the JSON's quoted ones. Deterministic and innocuous, so
/// index expressions may use them. Also registers `quire_result(json, path)`, both answers in
/// one scan for a query's result column: NULL for MISSING, `quire_extract`'s text, integer or
/// real for strings and numbers, and a blob of the JSON text of null, booleans, arrays and
/// objects. Returns an SQLite result code.
int quire_path_register(struct sqlite3 *db);

#endif
