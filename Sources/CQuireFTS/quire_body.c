// Stored bodies with bare identifier keys: see quire_body.h.

#include "quire_body.h"

#include <sqlite3.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// The first `"` at or after `p`, or `end`: 16 bytes at a time with SSE2 (short strings are
/// most of a small body's text, and a call to `memchr` for each costs more than its scan).
static inline const uint8_t *find_quote(const uint8_t *p, const uint8_t *end) {
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"');
    while (end - p >= 16) {
        int mask = _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)p), quote));
        if (mask != 0) return p + __builtin_ctz((unsigned)mask);
        p += 16;
    }
#endif
    while (p < end && *p != '"') p++;
    return p;
}

/// `p` at a string's opening quote: the byte after its closing quote, or `end`. A quote ends
/// the string unless an odd number of backslashes comes before it.
static const uint8_t *after_string(const uint8_t *p, const uint8_t *end) {
    const uint8_t *q = p + 1;
    for (;;) {
        const uint8_t *quote = find_quote(q, end);
        if (quote == end) return end;
        const uint8_t *b = quote;
        while (b > p + 1 && b[-1] == '\\') b--;
        if (((quote - b) & 1) == 0) return quote + 1;
        q = quote + 1;
    }
}

/// Whether `start` .. `stop` is a non-empty identifier: a letter or `_`, then letters, digits
/// and `_` (no escapes, then).
static int is_identifier(const uint8_t *start, const uint8_t *stop) {
    if (start == stop || !quire_body_is_key_start(*start)) return 0;
    for (const uint8_t *q = start + 1; q < stop; q++)
        if (!quire_body_is_key_byte(*q)) return 0;
    return 1;
}

size_t quire_body_pack(const uint8_t *json, size_t length, uint8_t *out) {
    const uint8_t *p = json, *end = json + length;
    uint8_t *o = out;
    while (p < end) {
        const uint8_t *quote = find_quote(p, end);
        memcpy(o, p, (size_t)(quote - p));
        o += quote - p;
        p = quote;
        if (p == end) break;
        const uint8_t *after = after_string(p, end);
        // A string followed by `:` is a key (an unterminated one ends the text).
        if (after < end && *after == ':' && is_identifier(p + 1, after - 1)) {
            memcpy(o, p + 1, (size_t)(after - p - 2));
            o += after - p - 2;
        } else {
            memcpy(o, p, (size_t)(after - p));
            o += after - p;
        }
        p = after;
    }
    return (size_t)(o - out);
}

/// The first `"` or `:` at or after `p`, or `end`.
static inline const uint8_t *find_quote_or_colon(const uint8_t *p, const uint8_t *end) {
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"'), colon = _mm_set1_epi8(':');
    while (end - p >= 16) {
        __m128i bytes = _mm_loadu_si128((const __m128i *)p);
        int mask = _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(bytes, quote), _mm_cmpeq_epi8(bytes, colon)));
        if (mask != 0) return p + __builtin_ctz((unsigned)mask);
        p += 16;
    }
#endif
    while (p < end && *p != '"' && *p != ':') p++;
    return p;
}

/// Walks the stored body and counts its bare keys; with `out`, also writes its JSON there and
/// the number of bytes written to `*written`. Only strings and colons stop the walk: a colon
/// outside strings ends a key, bare when the byte before it is not a quote, and the key is the
/// identifier that ends there (numbers, literals and punctuation are passed over in bulk).
static size_t walk(const uint8_t *body, size_t length, uint8_t *out, size_t *written) {
    const uint8_t *p = body, *end = body + length, *copied = body;
    uint8_t *o = out;
    size_t keys = 0;
    while (p < end) {
        const uint8_t *q = find_quote_or_colon(p, end);
        if (q == end) break;
        if (*q == '"') {
            p = after_string(q, end);
            continue;
        }
        const uint8_t *start = q;
        while (start > p && quire_body_is_key_byte(start[-1])) start--;
        if (start < q && quire_body_is_key_start(*start)) {
            keys++;
            if (out != NULL) {
                memcpy(o, copied, (size_t)(start - copied));
                o += start - copied;
                *o++ = '"';
                memcpy(o, start, (size_t)(q - start));
                o += q - start;
                *o++ = '"';
                copied = q;
            }
        }
        p = q + 1;
    }
    if (out != NULL) {
        memcpy(o, copied, (size_t)(end - copied));
        o += end - copied;
        *written = (size_t)(o - out);
    }
    return keys;
}

size_t quire_body_bare_keys(const uint8_t *body, size_t length) { return walk(body, length, NULL, NULL); }

size_t quire_body_unpack(const uint8_t *body, size_t length, uint8_t *out) {
    size_t written = 0;
    walk(body, length, out, &written);
    return written;
}

/// The bytes of a text argument without the terminating copy `sqlite3_value_text` makes.
static const uint8_t *text_bytes(sqlite3_context *context, sqlite3_value *value, size_t *length) {
    const uint8_t *bytes = (const uint8_t *)sqlite3_value_blob(value);
    *length = (size_t)sqlite3_value_bytes(value);
    if (bytes == NULL) {
        if (*length != 0) sqlite3_result_error_nomem(context);
        return *length == 0 ? (const uint8_t *)"" : NULL;
    }
    return bytes;
}

int quire_body_json(const uint8_t *body, size_t length, uint8_t **json, size_t *json_length) {
    *json = NULL;
    size_t keys = quire_body_bare_keys(body, length);
    if (keys == 0) return SQLITE_OK;
    *json = sqlite3_malloc64(length + 2 * keys);
    if (*json == NULL) return SQLITE_NOMEM;
    *json_length = quire_body_unpack(body, length, *json);
    return SQLITE_OK;
}

static void quire_body(sqlite3_context *context, int argc, sqlite3_value **argv) {
    (void)argc;
    if (sqlite3_value_type(argv[0]) != SQLITE_TEXT) {
        sqlite3_result_value(context, argv[0]);
        return;
    }
    size_t length = 0;
    const uint8_t *body = text_bytes(context, argv[0], &length);
    if (body == NULL) return;
    uint8_t *json = NULL;
    size_t written = 0;
    if (quire_body_json(body, length, &json, &written) != SQLITE_OK)
        sqlite3_result_error_nomem(context);
    else if (json == NULL)
        sqlite3_result_value(context, argv[0]);
    else
        sqlite3_result_text64(context, (const char *)json, written, sqlite3_free, SQLITE_UTF8);
}

static void quire_body_pack_function(sqlite3_context *context, int argc, sqlite3_value **argv) {
    (void)argc;
    if (sqlite3_value_type(argv[0]) != SQLITE_TEXT) {
        sqlite3_result_value(context, argv[0]);
        return;
    }
    size_t length = 0;
    const uint8_t *json = text_bytes(context, argv[0], &length);
    if (json == NULL) return;
    uint8_t *body = sqlite3_malloc64(length > 0 ? length : 1);
    if (body == NULL) {
        sqlite3_result_error_nomem(context);
        return;
    }
    size_t written = quire_body_pack(json, length, body);
    sqlite3_result_text64(context, (const char *)body, written, sqlite3_free, SQLITE_UTF8);
}

int quire_body_register(sqlite3 *db) {
    int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
    int rc = sqlite3_create_function_v2(db, "quire_body", 1, flags, NULL, quire_body, NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_function_v2(db, "quire_body_pack", 1, flags, NULL, quire_body_pack_function, NULL, NULL,
                                        NULL);
    return rc;
}
