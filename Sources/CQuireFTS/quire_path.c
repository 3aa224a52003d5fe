// quire_extract and quire_type: json_extract and json_type with one path, by scanning the
// JSON text; quire_result: both answers for a result column in one scan. SQLite's JSON functions (3.40) parse the whole text into an array of nodes before
// they follow a path; a stored document is read for one or two properties, so here the path
// is followed through the text and everything it does not enter is skipped at the level of
// bytes (strings by their quotes, containers by their brackets), building nothing.
//
// Every answer must be SQLite's own, since index expressions and queries compare them with
// values SQLite made. The scanner answers where the conversion is plain (text without
// escapes, 64-bit integers, true, false, null, compact containers, MISSING); everything else
// (reals, whose conversion is SQLite's own, escaped strings, long integers, containers with
// white space, unusual or malformed paths and text) goes to json_extract or json_type itself,
// on a private in-memory connection, over the value's text alone where that is known.
//
// A stored body (quire_body.h) holds its identifier keys bare: the scan takes a bare key where
// it takes a quoted one, and a container it answers with, or text it hands to SQLite, has its
// keys quoted again first, so every answer is the one SQLite gives over the body's JSON.
//
// The text is checked only where the scan goes: a document malformed after the value found,
// or inside a value skipped, answers as if it were whole, where SQLite's functions fail. The
// bodies these functions read are stored by Quire, always valid canonical JSON; over those
// the answers equal SQLite's (PathScannerTests).

#include "quire_path.h"
#include "quire_body.h"

#include <sqlite3.h>
#include <stdint.h>
#include <string.h>

/// The subtype SQLite's JSON functions give JSON text they return (so that another JSON
/// function reads it as JSON, not as a string).
#define QUIRE_JSON_SUBTYPE 74

typedef const unsigned char *Cursor;

/// Per function and connection: the private connection and statement for the answers the
/// scanner leaves to SQLite. A connection is used by one thread at a time, so this is too.
typedef struct PathState {
    const char *sql;
    sqlite3 *aside;
    sqlite3_stmt *statement;
} PathState;

static void path_state_free(void *pointer) {
    PathState *state = (PathState *)pointer;
    if (state == NULL) return;
    sqlite3_finalize(state->statement);
    sqlite3_close(state->aside);
    sqlite3_free(state);
}

/// Answers with SQLite's own function over `json` and `path`.
static void answer_by_sqlite(sqlite3_context *context, PathState *state, sqlite3_value *json, const char *text,
                             int length, const char *path, int pathLength) {
    if (state->statement == NULL) {
        int rc = state->aside ? SQLITE_OK : sqlite3_open_v2(":memory:", &state->aside,
                                                             SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
        if (rc == SQLITE_OK) rc = sqlite3_prepare_v2(state->aside, state->sql, -1, &state->statement, NULL);
        if (rc != SQLITE_OK) {
            sqlite3_result_error(context, "quire_extract: SQLite's JSON functions are unavailable", -1);
            return;
        }
    }
    sqlite3_stmt *statement = state->statement;
    if (text == NULL && sqlite3_value_type(json) == SQLITE_TEXT) {
        text = (const char *)sqlite3_value_blob(json);
        length = sqlite3_value_bytes(json);
        if (text == NULL) text = "";
    }
    // SQLite reads JSON: a stored body's bare keys (quire_body.h) are quoted again first.
    uint8_t *unpacked = NULL;
    if (text != NULL) {
        size_t unpackedLength = 0;
        if (quire_body_json((const uint8_t *)text, (size_t)length, &unpacked, &unpackedLength) != SQLITE_OK) {
            sqlite3_result_error_nomem(context);
            return;
        }
        if (unpacked != NULL) {
            text = (const char *)unpacked;
            length = (int)unpackedLength;
        }
        sqlite3_bind_text(statement, 1, text, length, SQLITE_STATIC);
    } else {
        sqlite3_bind_value(statement, 1, json);
    }
    if (path != NULL)
        sqlite3_bind_text(statement, 2, path, pathLength, SQLITE_STATIC);
    else
        sqlite3_bind_null(statement, 2);
    int rc = sqlite3_step(statement);
    if (rc == SQLITE_ROW) {
        sqlite3_value *value = sqlite3_column_value(statement, 0);
        if (sqlite3_column_type(statement, 0) == SQLITE_TEXT && sqlite3_value_subtype(value) == QUIRE_JSON_SUBTYPE) {
            sqlite3_result_text(context, (const char *)sqlite3_column_text(statement, 0),
                                sqlite3_column_bytes(statement, 0), SQLITE_TRANSIENT);
            sqlite3_result_subtype(context, QUIRE_JSON_SUBTYPE);
        } else {
            sqlite3_result_value(context, value);
        }
    } else {
        sqlite3_result_error(context, sqlite3_errmsg(state->aside), -1);
    }
    sqlite3_reset(statement);
    sqlite3_clear_bindings(statement);
    sqlite3_free(unpacked);
}

/// The bytes a scan stops at: in a string its closing quote and escapes, in a container what
/// opens, closes or starts a string, and white space (which makes a container loose); a
/// number or literal ends at any byte that is not plain.
enum { PLAIN = 0, QUOTE = 1, OPEN = 2, CLOSE = 3, SPACE = 4, COMMA = 5 };
static const unsigned char byte_class[256] = {
    [' '] = SPACE, ['\n'] = SPACE, ['\r'] = SPACE, ['\t'] = SPACE,
    ['"'] = QUOTE, ['{'] = OPEN,  ['['] = OPEN,   ['}'] = CLOSE, [']'] = CLOSE, [','] = COMMA,
};

static inline Cursor skip_space(Cursor p, Cursor end) {
    while (p < end && byte_class[*p] == SPACE) p++;
    return p;
}

#if defined(__SSE2__)
#include <emmintrin.h>
#define QUIRE_VECTOR_SCAN 1
#elif defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/// Bit 7 of each byte of `word` that equals the byte repeated in `pattern`; exact for the
/// lowest such byte (a borrow can only mark bytes above a true match).
static inline uint64_t bytes_equal(uint64_t word, uint64_t pattern) {
    uint64_t v = word ^ pattern;
    return (v - 0x0101010101010101ULL) & ~v & 0x8080808080808080ULL;
}
#define QUIRE_WORD_SCAN 1
#endif

/// `p` at a string's opening quote: the byte after its closing quote, or NULL. Sets
/// `*escaped` when the string holds a backslash. Sixteen bytes at a time (SSE2), or eight
/// elsewhere, up to the first quote or backslash: the long text of descriptions and reviews
/// is most of a stored body, and most keys and short values end in the first block.
static inline Cursor skip_string(Cursor p, Cursor end, int *escaped) {
    p++;
    for (;;) {
#if defined(QUIRE_VECTOR_SCAN)
        const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
        while (end - p >= 16) {
            __m128i block = _mm_loadu_si128((const __m128i *)(const void *)p);
            unsigned stops = (unsigned)_mm_movemask_epi8(
                _mm_or_si128(_mm_cmpeq_epi8(block, quote), _mm_cmpeq_epi8(block, backslash)));
            if (stops != 0) {
                p += __builtin_ctz(stops);
                break;
            }
            p += 16;
        }
#elif defined(QUIRE_WORD_SCAN)
        while (end - p >= 8) {
            uint64_t word;
            memcpy(&word, p, 8);
            uint64_t stops = bytes_equal(word, 0x2222222222222222ULL) | bytes_equal(word, 0x5C5C5C5C5C5C5C5CULL);
            if (stops != 0) {
                p += __builtin_ctzll(stops) >> 3;
                break;
            }
            p += 8;
        }
#endif
        while (p < end && *p != '"' && *p != '\\') p++;
        if (p >= end) return NULL;
        if (*p == '"') return p + 1;
        *escaped = 1;
        p += 2;
        if (p > end) return NULL;
    }
}

/// `p` at a value: the byte after it, or NULL. Sets `*loose` when a container holds white
/// space outside its strings.
static Cursor skip_value(Cursor p, Cursor end, int *loose) {
    if (p >= end) return NULL;
    unsigned char c = *p;
    if (c == '"') {
        int escaped = 0;
        return skip_string(p, end, &escaped);
    }
    if (c == '{' || c == '[') {
        int depth = 0;
        while (p < end) {
            switch (byte_class[*p]) {
            case PLAIN:
            case COMMA:
                p++;
                continue;
            case QUOTE: {
                int escaped = 0;
                p = skip_string(p, end, &escaped);
                if (p == NULL) return NULL;
                continue;
            }
            case OPEN:
                depth++;
                break;
            case CLOSE:
                if (--depth == 0) return p + 1;
                break;
            default:
                *loose = 1;
                break;
            }
            p++;
        }
        return NULL;
    }
    while (p < end && byte_class[*p] == PLAIN) p++;
    return p;
}

/// Reads decimal digits (at most 9) at `*q`; -1 when there are none or too many.
static long read_index(const char **q, const char *end) {
    long value = 0;
    int digits = 0;
    while (*q < end && **q >= '0' && **q <= '9') {
        if (++digits > 9) return -1;
        value = value * 10 + (**q - '0');
        (*q)++;
    }
    return digits == 0 ? -1 : value;
}

/// Skips the element at `p` (a value in an array, or a member's value in an object) and the
/// comma after it: returns where the next element starts, or NULL when there is none, with
/// `*closed` set when `close` ended the container (cleared when the text is malformed).
static Cursor next_element(Cursor p, Cursor end, unsigned char close, int *closed) {
    int loose = 0;
    p = skip_value(p, end, &loose);
    *closed = 0;
    if (p == NULL) return NULL;
    // Compact text (every stored body) has no space to skip around the comma.
    if (p < end && *p != ',') p = skip_space(p, end);
    if (p >= end || *p != ',') {
        *closed = p < end && *p == close;
        return NULL;
    }
    p++;
    return p < end && byte_class[*p] == SPACE ? skip_space(p, end) : p;
}

/// One step of a path: a member's key, or (when `key` is NULL) an array index, counted from
/// the end when `fromEnd` (`[#-N]`).
typedef struct PathStep {
    const char *key;
    size_t keyLength;
    long index;
    int fromEnd;
} PathStep;

/// Steps a path may have for the scanner to follow it; a longer one is SQLite's to read.
#define QUIRE_MAX_STEPS 32

/// A path read once into its steps, for all the rows a statement reads with it: the scanner
/// follows `count` steps and then, when `leftToSQLite`, hands the answer to SQLite, because the
/// next step is one it does not read (malformed, unusual, or past `QUIRE_MAX_STEPS`). As in
/// SQLite, a path counts only as far as the document goes: one that leads nowhere before its
/// malformed step is MISSING.
typedef struct CompiledPath {
    int count;
    int leftToSQLite;
    PathStep steps[QUIRE_MAX_STEPS];
} CompiledPath;

/// Reads `path` into `compiled`; its keys point into `path`.
static void compile_path(const char *path, int pathLength, CompiledPath *compiled) {
    const char *q = path, *qEnd = path + pathLength;
    compiled->count = 0;
    compiled->leftToSQLite = 1;
    if (q == qEnd || *q != '$') return;
    q++;
    while (q < qEnd) {
        if (compiled->count == QUIRE_MAX_STEPS) return;
        PathStep *step = &compiled->steps[compiled->count];
        if (*q == '.') {
            const char *key;
            size_t keyLength;
            q++;
            if (q < qEnd && *q == '"') {
                key = ++q;
                while (q < qEnd && *q != '"') q++;
                if (q == qEnd) return;
                keyLength = (size_t)(q - key);
                q++;
            } else {
                key = q;
                while (q < qEnd && *q != '.' && *q != '[') q++;
                keyLength = (size_t)(q - key);
                if (keyLength == 0) return;
            }
            if (q < qEnd && *q != '.' && *q != '[') return;
            if (memchr(key, 0, keyLength) != NULL) return;
            step->key = key;
            step->keyLength = keyLength;
            step->index = 0;
            step->fromEnd = 0;
        } else if (*q == '[') {
            q++;
            int fromEnd = 0;
            if (q < qEnd && *q == '#') {
                if (q + 1 >= qEnd || q[1] != '-') return;
                fromEnd = 1;
                q += 2;
            }
            long index = read_index(&q, qEnd);
            if (index < 0 || q >= qEnd || *q != ']') return;
            q++;
            if (q < qEnd && *q != '.' && *q != '[') return;
            step->key = NULL;
            step->keyLength = 0;
            step->index = index;
            step->fromEnd = fromEnd;
        } else {
            return;
        }
        compiled->count++;
    }
    compiled->leftToSQLite = 0;
}

/// `path` read into steps on the heap, for `sqlite3_set_auxdata`: one allocation holding the
/// steps and a copy of the path they point into, freed with `sqlite3_free`; NULL when memory
/// is short.
static CompiledPath *keep_path(const char *path, int pathLength) {
    CompiledPath *kept = (CompiledPath *)sqlite3_malloc64(sizeof(CompiledPath) + (size_t)pathLength + 1);
    if (kept == NULL) return NULL;
    char *text = (char *)kept + sizeof(CompiledPath);
    memcpy(text, path, (size_t)pathLength);
    text[pathLength] = 0;
    compile_path(text, pathLength, kept);
    return kept;
}

/// Whether the `length` bytes at `a` and `b` are equal, compared in words that may overlap
/// (the keys of documents are short, and a call to `memcmp` costs more than the comparison).
static inline int same_bytes(const unsigned char *a, const char *b, size_t length) {
    if (length >= 8) {
        uint64_t x, y;
        for (size_t i = 0; i + 8 < length; i += 8) {
            memcpy(&x, a + i, 8);
            memcpy(&y, b + i, 8);
            if (x != y) return 0;
        }
        memcpy(&x, a + length - 8, 8);
        memcpy(&y, b + length - 8, 8);
        return x == y;
    }
    if (length >= 4) {
        uint32_t x, y, u, v;
        memcpy(&x, a, 4);
        memcpy(&y, b, 4);
        memcpy(&u, a + length - 4, 4);
        memcpy(&v, b + length - 4, 4);
        return x == y && u == v;
    }
    for (size_t i = 0; i < length; i++)
        if (a[i] != (unsigned char)b[i]) return 0;
    return 1;
}

/// Follows `path` from the value at `p`: 1 with the value's bounds in `*start` and `*stop`,
/// 0 when the path leads nowhere (MISSING), -1 when SQLite must answer.
static int lookup(Cursor p, Cursor end, const CompiledPath *path, Cursor *start, Cursor *stop) {
    p = skip_space(p, end);
    for (int i = 0; i < path->count; i++) {
        const PathStep *step = &path->steps[i];
        if (step->key != NULL) {
            if (p >= end || *p != '{') return p < end ? 0 : -1;
            p = skip_space(p + 1, end);
            if (p < end && *p == '}') return 0;
            for (;;) {
                if (p >= end) return -1;
                Cursor name, nameEnd, afterName;
                if (*p == '"') {
                    name = p + 1;
                    int escaped = 0;
                    afterName = skip_string(p, end, &escaped);
                    if (afterName == NULL) return -1;
                    nameEnd = afterName - 1;
                } else if (quire_body_is_key_start(*p)) {
                    // A stored body's bare key (quire_body.h).
                    name = p;
                    while (p < end && quire_body_is_key_byte(*p)) p++;
                    nameEnd = afterName = p;
                } else {
                    return -1;
                }
                p = afterName < end && *afterName == ':' ? afterName : skip_space(afterName, end);
                if (p >= end || *p != ':') return -1;
                p++;
                if (p < end && byte_class[*p] == SPACE) p = skip_space(p, end);
                if ((size_t)(nameEnd - name) == step->keyLength && same_bytes(name, step->key, step->keyLength))
                    break;
                int closed = 0;
                p = next_element(p, end, '}', &closed);
                if (p == NULL) return closed ? 0 : -1;
            }
        } else {
            long index = step->index;
            if (p >= end || *p != '[') return p < end ? 0 : -1;
            Cursor first = skip_space(p + 1, end);
            if (step->fromEnd) {
                long count = 0;
                p = first;
                if (p < end && *p != ']') {
                    for (;;) {
                        int closed = 0;
                        p = next_element(p, end, ']', &closed);
                        count++;
                        if (p != NULL) continue;
                        if (closed) break;
                        return -1;
                    }
                }
                // As SQLite counts: `#-N` is element count - N, the first when N is the count.
                if (index > count) return 0;
                index = count - index;
            }
            p = first;
            if (p < end && *p == ']') return 0;
            for (long j = 0; j < index; j++) {
                int closed = 0;
                p = next_element(p, end, ']', &closed);
                if (p == NULL) return closed ? 0 : -1;
            }
        }
    }
    if (path->leftToSQLite) return -1;
    int loose = 0;
    Cursor after = skip_value(p, end, &loose);
    if (after == NULL || after == p) return -1;
    *start = p;
    *stop = after;
    return 1;
}

/// Whether `p` .. `end` is a JSON integer that fits in 64 bits (with at most 18 digits, so
/// no overflow check is needed); its value in `*out`.
static int read_integer(Cursor p, Cursor end, sqlite3_int64 *out) {
    int negative = 0;
    if (p < end && *p == '-') {
        negative = 1;
        p++;
    }
    if (p == end || end - p > 18) return 0;
    sqlite3_int64 value = 0;
    for (; p < end; p++) {
        if (*p < '0' || *p > '9') return 0;
        value = value * 10 + (*p - '0');
    }
    *out = negative ? -value : value;
    return 1;
}

/// Whether `p` .. `end` is a number SQLite types as real: digits with a `.` or an exponent.
/// (Long integers without either are integers to `json_type` too; `read_integer` refuses
/// them, and SQLite answers.)
static int is_real(Cursor p, Cursor end) {
    if (p < end && *p == '-') p++;
    if (p == end || *p < '0' || *p > '9') return 0;
    int fraction = 0;
    for (; p < end; p++) {
        unsigned char c = *p;
        if (c == '.' || c == 'e' || c == 'E')
            fraction = 1;
        else if ((c < '0' || c > '9') && c != '+' && c != '-')
            return 0;
    }
    return fraction;
}

/// What both functions do first: answers NULL arguments, non-text arguments (by SQLite),
/// out-of-memory, a missing path (NULL) and paths the scanner leaves (by SQLite), and returns 0
/// then. Returns 1 with the found value in [*start, *stop) for the caller to answer.
static int find_value(sqlite3_context *context, PathState *state, sqlite3_value **argv, Cursor *start,
                      Cursor *stop) {
    if (sqlite3_value_type(argv[0]) != SQLITE_TEXT || sqlite3_value_type(argv[1]) != SQLITE_TEXT) {
        if (sqlite3_value_type(argv[0]) == SQLITE_NULL || sqlite3_value_type(argv[1]) == SQLITE_NULL) {
            sqlite3_result_null(context);
            return 0;
        }
        answer_by_sqlite(context, state, argv[0], NULL, 0, (const char *)sqlite3_value_text(argv[1]),
                         sqlite3_value_bytes(argv[1]));
        return 0;
    }
    // The text as SQLite holds it: `sqlite3_value_blob` gives the bytes of a text value without
    // the copy `sqlite3_value_text` makes to end a value read from a page with a zero byte (the
    // scan goes by length). Quire's databases and bindings are UTF-8, so these bytes are UTF-8.
    Cursor text = (Cursor)sqlite3_value_blob(argv[0]);
    int length = sqlite3_value_bytes(argv[0]);
    if (text == NULL) {
        if (length != 0) {
            sqlite3_result_error_nomem(context);
            return 0;
        }
        text = (Cursor) "";
    }
    // The path is read once per statement: SQLite keeps what is set here for as long as the
    // argument stays the same (a literal or a bound parameter), and drops it otherwise.
    const CompiledPath *compiled = (const CompiledPath *)sqlite3_get_auxdata(context, 1);
    CompiledPath local;
    if (compiled == NULL) {
        const char *path = (const char *)sqlite3_value_text(argv[1]);
        int pathLength = sqlite3_value_bytes(argv[1]);
        if (path == NULL) {
            sqlite3_result_error_nomem(context);
            return 0;
        }
        compile_path(path, pathLength, &local);
        compiled = &local;
        CompiledPath *kept = keep_path(path, pathLength);
        if (kept != NULL) sqlite3_set_auxdata(context, 1, kept, sqlite3_free);
    }
    int found = lookup(text, text + length, compiled, start, stop);
    if (found == 0) {
        sqlite3_result_null(context);
        return 0;
    }
    if (found < 0) {
        answer_by_sqlite(context, state, argv[0], NULL, 0, (const char *)sqlite3_value_text(argv[1]),
                         sqlite3_value_bytes(argv[1]));
        return 0;
    }
    return 1;
}

/// Answers a string value that holds no escape as the text between its quotes, and says whether
/// it did: an escaped string is left to SQLite's reading.
static int answer_unescaped_string(sqlite3_context *context, Cursor start, Cursor stop) {
    int escaped = 0;
    skip_string(start, stop, &escaped);
    if (escaped) return 0;
    sqlite3_result_text(context, (const char *)start + 1, (int)(stop - start) - 2, SQLITE_TRANSIENT);
    return 1;
}

/// Answers a compact container found in a body with its JSON text (a stored body's bare keys
/// quoted again): as text of SQLite's JSON subtype, or as a blob when `asBlob`.
static void answer_container(sqlite3_context *context, Cursor start, size_t size, int asBlob) {
    uint8_t *json = NULL;
    size_t length = size;
    if (quire_body_json(start, size, &json, &length) != SQLITE_OK) {
        sqlite3_result_error_nomem(context);
        return;
    }
    const void *bytes = json != NULL ? (const void *)json : (const void *)start;
    void (*destructor)(void *) = json != NULL ? sqlite3_free : SQLITE_TRANSIENT;
    if (asBlob) {
        sqlite3_result_blob64(context, bytes, length, destructor);
    } else {
        sqlite3_result_text64(context, (const char *)bytes, length, destructor, SQLITE_UTF8);
        sqlite3_result_subtype(context, QUIRE_JSON_SUBTYPE);
    }
}

static void quire_extract(sqlite3_context *context, int argc, sqlite3_value **argv) {
    (void)argc;
    PathState *state = (PathState *)sqlite3_user_data(context);
    Cursor start = NULL, stop = NULL;
    if (find_value(context, state, argv, &start, &stop)) {
        size_t size = (size_t)(stop - start);
        switch (*start) {
        case '"':
            if (answer_unescaped_string(context, start, stop)) return;
            break;
        case '{':
        case '[': {
            int loose = 0;
            skip_value(start, stop, &loose);
            if (!loose) {
                answer_container(context, start, size, 0);
                return;
            }
            break;
        }
        case 't':
            if (size == 4 && memcmp(start, "true", 4) == 0) {
                sqlite3_result_int(context, 1);
                return;
            }
            break;
        case 'f':
            if (size == 5 && memcmp(start, "false", 5) == 0) {
                sqlite3_result_int(context, 0);
                return;
            }
            break;
        case 'n':
            if (size == 4 && memcmp(start, "null", 4) == 0) {
                sqlite3_result_null(context);
                return;
            }
            break;
        default: {
            sqlite3_int64 value;
            if (read_integer(start, stop, &value)) {
                sqlite3_result_int64(context, value);
                return;
            }
            break;
        }
        }
        // The value alone, read by SQLite: a real, an escaped string, a loose container.
        answer_by_sqlite(context, state, NULL, (const char *)start, (int)size, "$", 1);
        return;
    }
}

static void quire_type(sqlite3_context *context, int argc, sqlite3_value **argv) {
    (void)argc;
    PathState *state = (PathState *)sqlite3_user_data(context);
    Cursor start = NULL, stop = NULL;
    if (find_value(context, state, argv, &start, &stop)) {
        const char *name = NULL;
        size_t size = (size_t)(stop - start);
        switch (*start) {
        case '"': name = "text"; break;
        case '{': name = "object"; break;
        case '[': name = "array"; break;
        case 't': name = size == 4 && memcmp(start, "true", 4) == 0 ? "true" : NULL; break;
        case 'f': name = size == 5 && memcmp(start, "false", 5) == 0 ? "false" : NULL; break;
        case 'n': name = size == 4 && memcmp(start, "null", 4) == 0 ? "null" : NULL; break;
        default: {
            sqlite3_int64 value;
            if (read_integer(start, stop, &value))
                name = "integer";
            else if (is_real(start, stop))
                name = "real";
            break;
        }
        }
        if (name != NULL) {
            sqlite3_result_text(context, name, -1, SQLITE_STATIC);
            return;
        }
        answer_by_sqlite(context, state, NULL, (const char *)start, (int)size, "$", 1);
        return;
    }
}

/// quire_result: a selected property's value and type from one scan, for a result column that
/// Swift reads (where quire_extract and quire_type would each look the path up): NULL for
/// MISSING, text for a string and an integer or a real for a number (quire_extract's answers),
/// and a blob holding the JSON text of null, true, false, an array or an object, which the
/// reader tells apart by that text.
static void quire_result(sqlite3_context *context, int argc, sqlite3_value **argv) {
    (void)argc;
    PathState *state = (PathState *)sqlite3_user_data(context);
    Cursor start = NULL, stop = NULL;
    if (!find_value(context, state, argv, &start, &stop)) return;
    size_t size = (size_t)(stop - start);
    switch (*start) {
    case '"':
        if (answer_unescaped_string(context, start, stop)) return;
        break;
    case '{':
    case '[':
        answer_container(context, start, size, 1);
        return;
    case 't':
    case 'f':
    case 'n':
        if ((size == 4 && (memcmp(start, "true", 4) == 0 || memcmp(start, "null", 4) == 0)) ||
            (size == 5 && memcmp(start, "false", 5) == 0)) {
            sqlite3_result_blob(context, start, (int)size, SQLITE_TRANSIENT);
            return;
        }
        break;
    default: {
        sqlite3_int64 value;
        if (read_integer(start, stop, &value)) {
            sqlite3_result_int64(context, value);
            return;
        }
        break;
    }
    }
    // The value alone, read by SQLite: a real, an escaped string, malformed text.
    answer_by_sqlite(context, state, NULL, (const char *)start, (int)size, "$", 1);
}

static int register_one(sqlite3 *db, const char *name, const char *sql,
                        void (*function)(sqlite3_context *, int, sqlite3_value **)) {
    PathState *state = (PathState *)sqlite3_malloc(sizeof(PathState));
    if (state == NULL) return SQLITE_NOMEM;
    state->sql = sql;
    state->aside = NULL;
    state->statement = NULL;
    int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
#ifdef SQLITE_RESULT_SUBTYPE
    // SQLite 3.45 and later keep a result's subtype only for functions that declare it.
    flags |= SQLITE_RESULT_SUBTYPE;
#endif
    // On failure SQLite calls path_state_free itself.
    return sqlite3_create_function_v2(db, name, 2, flags, state, function, NULL, NULL, path_state_free);
}

int quire_path_register(sqlite3 *db) {
    int rc = register_one(db, "quire_extract", "SELECT json_extract(?1, ?2)", quire_extract);
    if (rc == SQLITE_OK) rc = register_one(db, "quire_type", "SELECT json_type(?1, ?2)", quire_type);
    if (rc == SQLITE_OK)
        rc = register_one(db, "quire_result",
                          "SELECT CASE json_type(?1, ?2) WHEN 'null' THEN CAST('null' AS BLOB)"
                          " WHEN 'true' THEN CAST('true' AS BLOB) WHEN 'false' THEN CAST('false' AS BLOB)"
                          " WHEN 'array' THEN CAST(json_extract(?1, ?2) AS BLOB)"
                          " WHEN 'object' THEN CAST(json_extract(?1, ?2) AS BLOB) ELSE json_extract(?1, ?2) END",
                          quire_result);
    return rc;
}
