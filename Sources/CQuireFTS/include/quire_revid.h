#ifndef QUIRE_REVID_H
#define QUIRE_REVID_H

#include <stddef.h>
#include <stdint.h>

struct sqlite3;

/// The longest packed revision ID: a generation of up to 5 varint bytes and a 20-byte digest.
#define QUIRE_REVID_PACKED_MAX 25
/// The longest revision ID text a packed one stands for: 10 digits, `-`, 40 hex digits.
#define QUIRE_REVID_TEXT_MAX 51

/// Packs a revision ID of Quire's own form, `<generation>-<40 lower-case hex digits>` with a
/// generation of 1 to 2^32 − 1 in decimal without a leading zero, into `packed`: the
/// generation as an unsigned LEB128 varint, then the 20 bytes the hex digits spell. Returns
/// the packed length (21 to 25), or 0 for any other text, which is stored as it is.
/// `quire_revid_unpack` gives back exactly the text packed.
int quire_revid_pack(const uint8_t *text, size_t count, uint8_t packed[QUIRE_REVID_PACKED_MAX]);

/// Writes the text a packed revision ID stands for to `text`. Returns its length, or 0 when
/// the bytes are not a packed revision ID (a varint of more than 5 bytes, a generation of 0
/// or above 2^32 − 1, or anything but 20 bytes after it).
int quire_revid_unpack(const uint8_t *packed, size_t count, uint8_t text[QUIRE_REVID_TEXT_MAX]);

/// Registers, on one database connection, `quire_revid(x)`: the text of a revision ID as a
/// document table stores it (a blob from `quire_revid_pack` made text again; text and NULL
/// as they are; an error for a blob that is not a packed revision ID), and
/// `quire_revid_pack(x)`: the packed blob of a text `quire_revid_pack` accepts, else `x` as
/// it is. Deterministic and innocuous, so index expressions may use them. Returns an SQLite
/// result code.
int quire_revid_register(struct sqlite3 *db);

#endif
