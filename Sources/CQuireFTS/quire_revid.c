// Revision IDs of Quire's own form stored in 21 to 25 bytes instead of 42 to 51 characters:
// see quire_revid.h.

#include "quire_revid.h"
#include <sqlite3.h>

static int hex_value(uint8_t c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
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
    const uint8_t *hex = text + digits + 1;
    for (int i = 0; i < 20; i++) {
        int high = hex_value(hex[2 * i]), low = hex_value(hex[2 * i + 1]);
        if (high < 0 || low < 0) return 0;
        packed[length + i] = (uint8_t)(high << 4 | low);
    }
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
    static const char hex[] = "0123456789abcdef";
    for (int i = 0; i < 20; i++) {
        uint8_t byte = packed[length + (size_t)i];
        text[written++] = (uint8_t)hex[byte >> 4];
        text[written++] = (uint8_t)hex[byte & 0x0F];
    }
    return written;
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
