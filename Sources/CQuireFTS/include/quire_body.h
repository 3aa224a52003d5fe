#ifndef QUIRE_BODY_H
#define QUIRE_BODY_H

#include <stddef.h>
#include <stdint.h>

struct sqlite3;

/// Stored bodies. A document's body is stored as its canonical JSON with one change: an object
/// key that is a plain identifier (an ASCII letter or `_`, then letters, digits and `_`) is
/// written without its quotes, `{name:"Ada"}`, as JSON5 writes it. Keys are most of a small
/// document's bytes, and their quotes two of every key's; nothing else changes, so a stored
/// body is read by the path scanner as it is, and made JSON again in one pass.
///
/// Both directions work without any context: a bare key is an identifier followed by `:`
/// (a value never is), and a quoted key is a string followed by `:`. Text in which nothing is
/// bare (every body stored before this form, and `{}`) is its own JSON.

/// Whether `c` may start a bare key: an ASCII letter or `_`.
static inline int quire_body_is_key_start(uint8_t c) {
    return (unsigned)((c | 0x20) - 'a') < 26 || c == '_';
}

/// Whether `c` may continue a bare key: an ASCII letter, digit or `_`.
static inline int quire_body_is_key_byte(uint8_t c) {
    return quire_body_is_key_start(c) || (unsigned)(c - '0') < 10;
}

/// Writes `json` (`length` bytes, compact JSON such as the canonical writer's) with its
/// identifier keys bare into `out`, which has room for `length` bytes; returns the bytes
/// written. Keys with escapes, and strings that are not keys, are copied as they are.
size_t quire_body_pack(const uint8_t *json, size_t length, uint8_t *out);

/// The number of bare keys in the stored body `body` (`length` bytes): 0 when it is JSON as it
/// is. Its JSON takes `length` + 2 × that many bytes.
size_t quire_body_bare_keys(const uint8_t *body, size_t length);

/// Writes the JSON of the stored body `body` into `out`, which has room for `length` + 2 ×
/// quire_body_bare_keys(body, length) bytes (2 × `length` always suffices: a bare key takes at
/// least two bytes, `k:`); returns the bytes written.
size_t quire_body_unpack(const uint8_t *body, size_t length, uint8_t *out);

/// The JSON of the stored body `body` in a new buffer of `sqlite3_malloc64`, for an SQL
/// function to answer with: SQLITE_OK and `*json` NULL when nothing is bare (the body is its own
/// JSON); SQLITE_OK with `*json` (freed with `sqlite3_free`) and `*json_length`; SQLITE_NOMEM.
int quire_body_json(const uint8_t *body, size_t length, uint8_t **json, size_t *json_length);

/// Registers, on one database connection, `quire_body(body)`, the JSON text of a stored body
/// (what SQLite's JSON functions read), and `quire_body_pack(json)`, the stored form of compact
/// JSON text; both answer NULL for NULL and any other non-text value as it is. Deterministic
/// and innocuous. Returns an SQLite result code.
int quire_body_register(struct sqlite3 *db);

#endif
