// Revision IDs of Quire's own form stored in 21 to 25 bytes instead of 42 to 51 characters:
// see quire_revid.h.

#include "quire_revid.h"
#include <sqlite3.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// The value of a lower-case hex digit, 0xFF for any other byte.
static inline uint8_t hex_value(uint8_t byte) {
    if (byte >= '0' && byte <= '9') return (uint8_t)(byte - '0');
    if (byte >= 'a' && byte <= 'f') return (uint8_t)(byte - 'a' + 10);
    return 0xFF;
}

/// Decodes 2 × `count` lower-case hex digits at `hex` into `count` bytes; 0 when any byte is
/// not one.
static int quire_revid_decode_hex(const uint8_t *hex, uint8_t *bytes, int count) {
    int i = 0;
#if defined(__SSE2__)
    const __m128i zero = _mm_set1_epi8('0'), a = _mm_set1_epi8('a');
    const __m128i nine = _mm_set1_epi8(9), five = _mm_set1_epi8(5), ten = _mm_set1_epi8(10);
    const __m128i low_byte = _mm_set1_epi16(0x00FF);
    for (; count - i >= 8; i += 8) {
        const __m128i chars = _mm_loadu_si128((const __m128i *)(hex + 2 * i));
        // A digit is 0 to 9 after subtracting '0', a letter 0 to 5 after subtracting 'a'
        // (unsigned: the smaller of it and the bound is itself).
        const __m128i digits = _mm_sub_epi8(chars, zero), letters = _mm_sub_epi8(chars, a);
        const __m128i is_digit = _mm_cmpeq_epi8(_mm_min_epu8(digits, nine), digits);
        const __m128i is_letter = _mm_cmpeq_epi8(_mm_min_epu8(letters, five), letters);
        if (_mm_movemask_epi8(_mm_or_si128(is_digit, is_letter)) != 0xFFFF) return 0;
        const __m128i values = _mm_or_si128(
            _mm_and_si128(is_digit, digits), _mm_and_si128(is_letter, _mm_add_epi8(letters, ten)));
        // Each 16-bit lane holds a high nibble (the first digit) and a low one (the second).
        const __m128i pairs = _mm_or_si128(
            _mm_slli_epi16(_mm_and_si128(values, low_byte), 4), _mm_srli_epi16(values, 8));
        _mm_storel_epi64((__m128i *)(bytes + i), _mm_packus_epi16(pairs, pairs));
    }
#endif
    // What the vectors left (all of it without SSE2).
    uint8_t invalid = 0;
    for (; i < count; i++) {
        const uint8_t high = hex_value(hex[2 * i]), low = hex_value(hex[2 * i + 1]);
        invalid |= (uint8_t)(high | low);
        bytes[i] = (uint8_t)(high << 4 | (low & 0x0F));
    }
    return (invalid & 0xF0) == 0;
}

/// Writes the 2 × `count` lower-case hex digits of `count` bytes.
static void quire_revid_encode_hex(const uint8_t *bytes, uint8_t *hex, int count) {
    static const char digits[] = "0123456789abcdef";
    int i = 0;
#if defined(__SSE2__)
    const __m128i nibble = _mm_set1_epi8(0x0F), nine = _mm_set1_epi8(9);
    const __m128i zero = _mm_set1_epi8('0'), letter_gap = _mm_set1_epi8('a' - '0' - 10);
    for (; count - i >= 16; i += 16) {
        const __m128i value = _mm_loadu_si128((const __m128i *)(bytes + i));
        const __m128i high = _mm_and_si128(_mm_srli_epi16(value, 4), nibble), low = _mm_and_si128(value, nibble);
        // Interleaved, high nibble first; then '0' added, and the gap to 'a' above 9.
        const __m128i first = _mm_unpacklo_epi8(high, low), second = _mm_unpackhi_epi8(high, low);
        const __m128i first_text = _mm_add_epi8(
            _mm_add_epi8(first, zero), _mm_and_si128(_mm_cmpgt_epi8(first, nine), letter_gap));
        const __m128i second_text = _mm_add_epi8(
            _mm_add_epi8(second, zero), _mm_and_si128(_mm_cmpgt_epi8(second, nine), letter_gap));
        _mm_storeu_si128((__m128i *)(hex + 2 * i), first_text);
        _mm_storeu_si128((__m128i *)(hex + 2 * i + 16), second_text);
    }
#endif
    for (; i < count; i++) {
        hex[2 * i] = (uint8_t)digits[bytes[i] >> 4];
        hex[2 * i + 1] = (uint8_t)digits[bytes[i] & 0x0F];
    }
}

int quire_revid_pack(const uint8_t *text, size_t count, uint8_t packed[QUIRE_REVID_PACKED_MAX]) {
    // At least one digit, the dash and 40 hex digits; at most 10 digits.
    if (text == NULL || count < 42 || count > QUIRE_REVID_TEXT_MAX) return 0;
    size_t digits = count - 41;
    if (text[digits] != '-' || text[0] == '0') return 0;
    uint64_t generation = 0;
    for (size_t i = 0; i < digits; i++) {
        if (text[i] < '0' || text[i] > '9') return 0;
        generation = generation * 10 + (uint64_t)(text[i] - '0');
    }
    if (generation == 0 || generation > UINT32_MAX) return 0;
    int length = 0;
    do {
        uint8_t byte = (uint8_t)(generation & 0x7F);
        generation >>= 7;
        packed[length++] = generation != 0 ? (uint8_t)(byte | 0x80) : byte;
    } while (generation != 0);
    if (!quire_revid_decode_hex(text + digits + 1, packed + length, 20)) return 0;
    return length + 20;
}

int quire_revid_unpack(const uint8_t *packed, size_t count, uint8_t text[QUIRE_REVID_TEXT_MAX]) {
    if (packed == NULL || count < 21 || count > QUIRE_REVID_PACKED_MAX) return 0;
    uint64_t generation = 0;
    size_t length = 0;
    for (;;) {
        if (length == 5) return 0;
        uint8_t byte = packed[length];
        generation |= (uint64_t)(byte & 0x7F) << (7 * length);
        length++;
        if ((byte & 0x80) == 0) break;
    }
    if (generation == 0 || generation > UINT32_MAX || count - length != 20) return 0;
    char digits[10];
    int digit_count = 0;
    while (generation != 0) {
        digits[digit_count++] = (char)('0' + generation % 10);
        generation /= 10;
    }
    int written = 0;
    while (digit_count > 0) text[written++] = (uint8_t)digits[--digit_count];
    text[written++] = '-';
    quire_revid_encode_hex(packed + length, text + written, 20);
    return written + 40;
}

static void quire_revid_function(sqlite3_context *context, int argc, sqlite3_value **argv) {
    (void)argc;
    if (sqlite3_value_type(argv[0]) != SQLITE_BLOB) {
        sqlite3_result_value(context, argv[0]);
        return;
    }
    const uint8_t *bytes = (const uint8_t *)sqlite3_value_blob(argv[0]);
    int count = sqlite3_value_bytes(argv[0]);
    uint8_t text[QUIRE_REVID_TEXT_MAX];
    int length = count > 0 ? quire_revid_unpack(bytes, (size_t)count, text) : 0;
    if (length == 0) {
        sqlite3_result_error(context, "quire_revid: a stored revision ID is neither text nor a packed revision ID", -1);
        return;
    }
    sqlite3_result_text(context, (const char *)text, length, SQLITE_TRANSIENT);
}

static void quire_revid_pack_function(sqlite3_context *context, int argc, sqlite3_value **argv) {
    (void)argc;
    if (sqlite3_value_type(argv[0]) == SQLITE_TEXT) {
        const uint8_t *text = sqlite3_value_text(argv[0]);
        int count = sqlite3_value_bytes(argv[0]);
        uint8_t packed[QUIRE_REVID_PACKED_MAX];
        int length = count > 0 ? quire_revid_pack(text, (size_t)count, packed) : 0;
        if (length > 0) {
            sqlite3_result_blob(context, packed, length, SQLITE_TRANSIENT);
            return;
        }
    }
    sqlite3_result_value(context, argv[0]);
}

int quire_revid_register(sqlite3 *db) {
    int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
    int rc = sqlite3_create_function_v2(db, "quire_revid", 1, flags, NULL, quire_revid_function, NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_function_v2(
            db, "quire_revid_pack", 1, flags, NULL, quire_revid_pack_function, NULL, NULL, NULL);
    return rc;
}
