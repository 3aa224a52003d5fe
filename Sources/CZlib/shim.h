#ifndef QUIRE_CZLIB_SHIM_H
#define QUIRE_CZLIB_SHIM_H

#include <zlib.h>

// inflateInit2 is a macro, which Swift cannot import. 15 + 16: the largest window, gzip
// framing only (a zlib or raw deflate stream is a data error).
static inline int quire_inflate_init_gzip(z_streamp stream) {
    return inflateInit2(stream, 15 + 16);
}

// The same for deflateInit2: gzip framing, default level and memory (the tests make gzip
// bodies with it).
static inline int quire_deflate_init_gzip(z_streamp stream) {
    return deflateInit2(stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

#endif
