// The canonical-JSON check of a save: one pass over the text an application gave, deciding
// whether it can be stored and digested as it is (see quire_canonical.h).

#include "quire_canonical.h"

#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// One open container: for an object, where its last key is (start -1 before the first).
typedef struct {
    int32_t is_object;
    int32_t key_count;
    int64_t key_start;
} quire_canonical_frame;

/// Moves `*position` past the bytes of a string that need no escape: anything but `"`, `\`
/// and the control characters, sixteen bytes at a time where it can. With `ascii_only` (a key)
/// it stops at every byte above 0x7F too; without it multi-byte characters pass (the text is
/// valid UTF-8, so they need no check). Inlined with a constant flag, each caller gets its own
/// loop.
static inline void quire_skip_unescaped(const uint8_t *text, size_t count, size_t *position, const int ascii_only) {
    size_t p = *position;
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
    const __m128i space = _mm_set1_epi8(0x20), control = _mm_set1_epi8(0x1F);
    while (count - p >= 16) {
        const __m128i bytes = _mm_loadu_si128((const __m128i *)(text + p));
        // Signed, below 0x20 catches the control characters and every byte above 0x7F;
        // unsigned, a byte is at most 0x1F when the smaller of it and 0x1F is itself.
        const __m128i low = ascii_only ? _mm_cmplt_epi8(bytes, space)
                                       : _mm_cmpeq_epi8(_mm_min_epu8(bytes, control), bytes);
        const __m128i stop = _mm_or_si128(
            _mm_or_si128(_mm_cmpeq_epi8(bytes, quote), _mm_cmpeq_epi8(bytes, backslash)), low);
        const unsigned mask = (unsigned)_mm_movemask_epi8(stop);
        if (mask != 0) {
            *position = p + (size_t)__builtin_ctz(mask);
            return;
        }
        p += 16;
    }
#endif
    while (p < count) {
        const uint8_t byte = text[p];
        if (byte < 0x20 || (ascii_only && byte >= 0x80) || byte == '"' || byte == '\\') break;
        p++;
    }
    *position = p;
}

static inline int quire_lower_hex(uint8_t byte) {
    if (byte >= '0' && byte <= '9') return byte - '0';
    if (byte >= 'a' && byte <= 'f') return byte - 'a' + 10;
    return -1;
}

/// A string value from its opening quote: closed, with only the writer's escapes.
static int quire_scan_string(const uint8_t *text, size_t count, size_t *position) {
    size_t p = *position + 1;
    for (;;) {
        quire_skip_unescaped(text, count, &p, 0);
        if (p >= count) return 0;
        const uint8_t byte = text[p];
        if (byte == '"') {
            *position = p + 1;
            return 1;
        }
        if (byte == '\\') {
            if (count - p < 2) return 0;
            switch (text[p + 1]) {
            case '"': case '\\': case 'b': case 't': case 'n': case 'f': case 'r':
                p += 2;
                break;
            case 'u': {
                // `\u00xx` for a control character with no short escape.
                if (count - p < 6 || text[p + 2] != '0' || text[p + 3] != '0') return 0;
                const int high = quire_lower_hex(text[p + 4]), low = quire_lower_hex(text[p + 5]);
                if (high < 0 || high > 1 || low < 0) return 0;
                const int character = high << 4 | low;
                if (character == 0x08 || character == 0x09 || character == 0x0A || character == 0x0C
                    || character == 0x0D) {
                    return 0;
                }
                p += 6;
                break;
            }
            default:
                return 0;
            }
        } else {
            return 0;
        }
    }
}

/// `"key":` with no whitespace: plain ASCII without escapes, greater than the object's
/// previous key, and at the top level not starting with `_`.
static inline int quire_scan_key(const uint8_t *text, size_t count, size_t *position,
                                 quire_canonical_frame *frame, int top_level) {
    size_t p = *position;
    if (p >= count || text[p] != '"') return 0;
    const size_t start = p + 1;
    p = start;
    quire_skip_unescaped(text, count, &p, 1);
    if (p >= count || text[p] != '"') return 0;
    const size_t length = p - start;
    p++;
    if (p >= count || text[p] != ':') return 0;
    p++;
    if (top_level && length > 0 && text[start] == '_') return 0;
    if (frame->key_start >= 0) {
        const size_t previous_length = (size_t)frame->key_count;
        const size_t shorter = previous_length < length ? previous_length : length;
        const uint8_t *previous = text + frame->key_start, *current = text + start;
        size_t i = 0;
        while (i < shorter && previous[i] == current[i]) i++;
        const int order = i < shorter ? (int)previous[i] - (int)current[i] : (previous_length < length ? -1 : 1);
        if (order >= 0) return 0;
    }
    if (length > INT32_MAX) return 0;
    frame->key_start = (int64_t)start;
    frame->key_count = (int32_t)length;
    *position = p;
    return 1;
}

static inline int quire_is_digit(uint8_t byte) { return byte >= '0' && byte <= '9'; }

int quire_canonical_object(
    const uint8_t *text, size_t count, int maximum_depth, uint32_t *reals, size_t real_capacity,
    size_t *real_count) {
    *real_count = 0;
    if (text == NULL || count < 2 || text[0] != '{' || count > UINT32_MAX) return 0;
    if (maximum_depth > QUIRE_CANONICAL_MAXIMUM_DEPTH) maximum_depth = QUIRE_CANONICAL_MAXIMUM_DEPTH;
    quire_canonical_frame stack[QUIRE_CANONICAL_MAXIMUM_DEPTH];
    int depth = 0;
    size_t p = 0;
    size_t listed = 0;
    for (;;) {
        // A value starts at p.
        if (p >= count) return 0;
        const uint8_t first = text[p];
        switch (first) {
        case '{':
        case '[': {
            const int is_object = first == '{';
            if (depth >= maximum_depth) return 0;
            p++;
            if (p >= count) return 0;
            if (text[p] == (is_object ? '}' : ']')) {
                p++;
                break;
            }
            stack[depth].is_object = is_object;
            stack[depth].key_start = -1;
            stack[depth].key_count = 0;
            depth++;
            if (is_object && !quire_scan_key(text, count, &p, &stack[depth - 1], depth == 1)) return 0;
            continue;
        }
        case '"':
            if (!quire_scan_string(text, count, &p)) return 0;
            break;
        case 't':
            if (count - p < 4 || memcmp(text + p, "true", 4) != 0) return 0;
            p += 4;
            break;
        case 'f':
            if (count - p < 5 || memcmp(text + p, "false", 5) != 0) return 0;
            p += 5;
            break;
        case 'n':
            if (count - p < 4 || memcmp(text + p, "null", 4) != 0) return 0;
            p += 4;
            break;
        default: {
            if (first != '-' && !quire_is_digit(first)) return 0;
            const size_t start = p;
            const int negative = first == '-';
            if (negative) p++;
            if (p >= count || !quire_is_digit(text[p])) return 0;
            uint64_t magnitude = 0;
            int overflow = 0;
            if (text[p] == '0') {
                p++;
                if (p < count && quire_is_digit(text[p])) return 0;
            } else {
                while (p < count && quire_is_digit(text[p])) {
                    const uint64_t digit = text[p] - '0';
                    if (magnitude > (UINT64_MAX - digit) / 10) {
                        overflow = 1;
                    } else {
                        magnitude = magnitude * 10 + digit;
                    }
                    p++;
                }
            }
            int is_integer = 1;
            if (p < count && text[p] == '.') {
                is_integer = 0;
                p++;
                if (p >= count || !quire_is_digit(text[p])) return 0;
                while (p < count && quire_is_digit(text[p])) p++;
            }
            if (p < count && (text[p] | 0x20) == 'e') {
                is_integer = 0;
                p++;
                if (p < count && (text[p] == '+' || text[p] == '-')) p++;
                if (p >= count || !quire_is_digit(text[p])) return 0;
                while (p < count && quire_is_digit(text[p])) p++;
            }
            if (is_integer) {
                // Within Int64, and not -0; others are written as doubles, never as digits.
                if (overflow) return 0;
                if (!negative && magnitude > (uint64_t)INT64_MAX) return 0;
                if (negative && (magnitude == 0 || magnitude > (uint64_t)INT64_MAX + 1)) return 0;
            } else {
                if (listed == real_capacity) return -1;
                reals[2 * listed] = (uint32_t)start;
                reals[2 * listed + 1] = (uint32_t)(p - start);
                listed++;
                *real_count = listed;
            }
            break;
        }
        }

        // A value is complete: close what the text closes, or go on to the next member.
        int next_member = 0;
        while (depth > 0) {
            if (p >= count) return 0;
            const uint8_t byte = text[p++];
            quire_canonical_frame *frame = &stack[depth - 1];
            if (byte == ',') {
                if (frame->is_object && !quire_scan_key(text, count, &p, frame, depth == 1)) return 0;
                next_member = 1;
                break;
            }
            if (byte != (frame->is_object ? '}' : ']')) return 0;
            depth--;
        }
        if (!next_member) return p == count ? 1 : 0;
    }
}
