#ifndef QUIRE_CANONICAL_H
#define QUIRE_CANONICAL_H

#include <stddef.h>
#include <stdint.h>

/// The deepest nesting quire_canonical_object accepts.
#define QUIRE_CANONICAL_MAXIMUM_DEPTH 512

/// Whether `count` bytes at `text` are one JSON object in Quire's canonical form, in one pass
/// that builds nothing: no whitespace outside strings; object keys of printable ASCII without
/// escapes, each greater in byte order than the one before (sorted, unique), none at the top
/// level starting with `_`; strings whose escapes are the canonical writer's (`\"`, `\\`,
/// `\b`, `\t`, `\n`, `\f`, `\r`, and `\u00xx` in lower case for the other control characters);
/// integers within 64 bits, not `-0`; nesting at most `maximum_depth` (at most
/// QUIRE_CANONICAL_MAXIMUM_DEPTH) deep.
///
/// `text` must be valid UTF-8, as a Swift string's bytes are: multi-byte characters in strings
/// are passed over without a check.
///
/// Numbers with a fraction or an exponent are canonical only in the shortest form that reads
/// back as the same double, which this scan does not decide: it lists each one as two words
/// in `reals` (byte offset, length), at most `real_capacity` of them, sets `*real_count`, and
/// the caller checks them. Returns 1 when the text is canonical but for the listed reals, 0
/// when it is not (invalid JSON included), -1 when there were more than `real_capacity` reals.
int quire_canonical_object(
    const uint8_t *text, size_t count, int maximum_depth, uint32_t *reals, size_t real_capacity,
    size_t *real_count);

#endif
