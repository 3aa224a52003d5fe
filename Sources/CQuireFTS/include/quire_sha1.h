#ifndef QUIRE_SHA1_H
#define QUIRE_SHA1_H

#include <stddef.h>
#include <stdint.h>

/// Which of this file's SHA-1 (FIPS 180-4) compressions the processor runs: 2 with the x86
/// SHA instructions (SHA, SSSE3, SSE4.1), 1 with the message schedule in AVX vectors and the
/// rounds in BMI instructions, 0 for neither (another architecture, an older processor),
/// where callers digest with another implementation.
int quire_sha1_support(void);

/// Writes the SHA-1 digest of `count` bytes at `data` to `digest`, compressing the way
/// `support` (1 or 2, at most quire_sha1_support()) names; tests compare the two.
void quire_sha1_digest(const void *data, size_t count, int support, uint8_t digest[20]);

/// Writes the 40 lower-case hex digits of a new revision's digest to `hex`: SHA-1 over the
/// parent revision ID (`parent_count` bytes, none for a first revision), a NUL byte, 1 for a
/// deletion or 0, a NUL byte, then the canonical body. Nothing is allocated. Returns 0 and
/// writes nothing when quire_sha1_support() is 0.
int quire_revision_digest_hex(
    const uint8_t *parent, size_t parent_count, int deleted, const uint8_t *body, size_t body_count,
    uint8_t hex[40]);

#endif
