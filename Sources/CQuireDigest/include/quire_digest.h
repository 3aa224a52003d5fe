#ifndef QUIRE_DIGEST_H
#define QUIRE_DIGEST_H

#include <stddef.h>
#include <stdint.h>

/// Whether this processor has the SHA extensions that quire_sha1_compress_blocks uses
/// (x86-64 with SHA, SSSE3 and SSE4.1); 0 elsewhere.
int quire_sha1_hardware_available(void);

/// Advances the five SHA-1 chaining words in `state` over `blocks` 64-byte blocks at `data`,
/// with the processor's SHA instructions. Call only when quire_sha1_hardware_available().
void quire_sha1_compress_blocks(uint32_t state[5], const uint8_t *data, size_t blocks);

/// Advances the eight SHA-256 chaining words in `state` over `blocks` 64-byte blocks at
/// `data`, with the processor's SHA instructions (the same extensions as SHA-1's). Call only
/// when quire_sha1_hardware_available().
void quire_sha256_compress_blocks(uint32_t state[8], const uint8_t *data, size_t blocks);

#endif
