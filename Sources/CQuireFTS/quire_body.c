// Stored bodies with bare identifier keys: see quire_body.h.

#include "quire_body.h"

#include <sqlite3.h>
#include <string.h>

/// Byte classes: what may start an identifier key, what may continue one, and what a number
/// is made of (so that the `e` of `1e5` is not read as the start of a key).
enum { OTHER = 0, IDENTIFIER_START = 1, IDENTIFIER = 2, NUMBER = 4 };

static unsigned char byte_class(uint8_t c) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_') return IDENTIFIER_START | IDENTIFIER;
    if (c >= '0' && c <= '9') return IDENTIFIER | NUMBER;
    if (c == '-' || c == '+' || c == '.') return NUMBER;
    return OTHER;
}

/// `p` at a string's opening quote: its closing quote, or `end` when it has none. Sets
/// `*identifier` to whether the string is a non-empty identifier without escapes.
static const uint8_t *string_end(const uint8_t *p, const uint8_t *end, int *identifier) {
    const uint8_t *q = p + 1;
    int plain = q < end && (byte_class(*q) & IDENTIFIER_START);
    while (q < end) {
        uint8_t c = *q;
        if (c == '"') {
            *identifier = plain;
            return q;
        }
        if (c == '\\') {
            plain = 0;
            q += 2;
            continue;
        }
        if (!(byte_class(c) & IDENTIFIER)) plain = 0;
        q++;
    }
    *identifier = 0;
    return end;
}

size_t quire_body_pack(const uint8_t *json, size_t length, uint8_t *out) {
    const uint8_t *p = json, *end = json + length;
    uint8_t *o = out;
    while (p < end) {
        const uint8_t *quote = memchr(p, '"', (size_t)(end - p));
        if (quote == NULL) quote = end;
        memcpy(o, p, (size_t)(quote - p));
        o += quote - p;
        p = quote;
        if (p == end) break;
        int identifier = 0;
        const uint8_t *close = string_end(p, end, &identifier);
        if (close == end) {
            memcpy(o, p, (size_t)(end - p));
            o += end - p;
            break;
        }
        if (identifier && close + 1 < end && close[1] == ':') {
            memcpy(o, p + 1, (size_t)(close - p - 1));
            o += close - p - 1;
        } else {
            memcpy(o, p, (size_t)(close + 1 - p));
            o += close + 1 - p;
        }
        p = close + 1;
    }
    return (size_t)(o - out);
}

/// Walks the stored body: calls back for every run of bytes to copy and every bare key (when
/// `out` is not NULL, writes the JSON there); returns the number of bare keys.
static size_t walk(const uint8_t *body, size_t length, uint8_t *out, size_t *written) {
    const uint8_t *p = body, *end = body + length, *copied = body;
    uint8_t *o = out;
    size_t keys = 0;
    while (p < end) {
        uint8_t c = *p;
        unsigned char kind = byte_class(c);
        if (c == '"') {
            int identifier = 0;
            p = string_end(p, end, &identifier);
            if (p < end) p++;
        } else if (kind & IDENTIFIER_START) {
            const uint8_t *start = p;
            while (p < end && (byte_class(*p) & IDENTIFIER)) p++;
            if (p < end && *p == ':') {
                keys++;
                if (out != NULL) {
                    memcpy(o, copied, (size_t)(start - copied));
                    o += start - copied;
                    *o++ = '"';
                    memcpy(o, start, (size_t)(p - start));
                    o += p - start;
                    *o++ = '"';
                    copied = p;
                }
            }
        } else if (kind & NUMBER) {
            while (p < end && (byte_class(*p) & (NUMBER | IDENTIFIER))) p++;
        } else {
            p++;
        }
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

static void quire_body(sqlite3_context *context, int argc, sqlite3_value **argv) {
    (void)argc;
    if (sqlite3_value_type(argv[0]) != SQLITE_TEXT) {
        sqlite3_result_value(context, argv[0]);
        return;
    }
    size_t length = 0;
    const uint8_t *body = text_bytes(context, argv[0], &length);
    if (body == NULL) return;
    size_t keys = quire_body_bare_keys(body, length);
    if (keys == 0) {
        sqlite3_result_value(context, argv[0]);
        return;
    }
    uint8_t *json = sqlite3_malloc64(length + 2 * keys);
    if (json == NULL) {
        sqlite3_result_error_nomem(context);
        return;
    }
    size_t written = quire_body_unpack(body, length, json);
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
