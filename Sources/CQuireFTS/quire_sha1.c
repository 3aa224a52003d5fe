// SHA-1 (FIPS 180-4, section 6.1.2) on x86-64 without allocating: compression with the SHA
// instructions where the processor has them, else with AVX and BMI instructions, and the
// padding and hex output around them. Elsewhere quire_sha1_support() is 0 and callers use
// another implementation.

#include "quire_sha1.h"

#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

#include <cpuid.h>
#include <immintrin.h>

typedef void (*quire_sha1_compress)(uint32_t state[5], const uint8_t *data, size_t blocks);

static int quire_sha1_detect(void) {
    unsigned int eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    const int ssse3 = (ecx >> 9) & 1, sse41 = (ecx >> 19) & 1;
    const int osxsave = (ecx >> 27) & 1, avx = (ecx >> 28) & 1;
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return 0;
    const int bmi1 = (ebx >> 3) & 1, bmi2 = (ebx >> 8) & 1, sha = (ebx >> 29) & 1;
    if (sha && ssse3 && sse41) return 2;
    if (!(osxsave && avx && bmi1 && bmi2)) return 0;
    // The operating system saves the vector registers' upper halves (XCR0 bits 1 and 2).
    unsigned int xcr0_low, xcr0_high;
    __asm__("xgetbv" : "=a"(xcr0_low), "=d"(xcr0_high) : "c"(0));
    return (xcr0_low & 6) == 6 ? 1 : 0;
}

// -1 unknown; threads that race store the same answer.
static int quire_sha1_found = -1;

int quire_sha1_support(void) {
    int support = __atomic_load_n(&quire_sha1_found, __ATOMIC_RELAXED);
    if (support < 0) {
        support = quire_sha1_detect();
        __atomic_store_n(&quire_sha1_found, support, __ATOMIC_RELAXED);
    }
    return support;
}

#define QUIRE_ROL(x, n) (((x) << (n)) | ((x) >> (32 - (n))))

static inline uint32_t quire_load_be32(const uint8_t *p) {
    uint32_t word;
    memcpy(&word, p, 4);
    return __builtin_bswap32(word);
}

// Without the SHA instructions: the message schedule four words at a time in vectors, each
// with its round constant added, then the rounds in general registers, reading them. Word
// t + 3 of a group depends on word t of the same group: it is computed without it, then
// corrected (rol(x ^ y, 1) = rol(x, 1) ^ rol(y, 1)).
#define QUIRE_CHOOSE(a, b, c, d, e, t) \
    e += QUIRE_ROL(a, 5) + (d ^ (b & (c ^ d))) + wk[t]; \
    b = QUIRE_ROL(b, 30);
#define QUIRE_PARITY(a, b, c, d, e, t) \
    e += QUIRE_ROL(a, 5) + (b ^ c ^ d) + wk[t]; \
    b = QUIRE_ROL(b, 30);
#define QUIRE_MAJORITY(a, b, c, d, e, t) \
    e += QUIRE_ROL(a, 5) + ((b & c) | (d & (b | c))) + wk[t]; \
    b = QUIRE_ROL(b, 30);
// Five rounds bring the five words back to their roles.
#define QUIRE_FIVE(R, t) \
    R(a, b, c, d, e, (t)) R(e, a, b, c, d, (t) + 1) R(d, e, a, b, c, (t) + 2) R(c, d, e, a, b, (t) + 3) \
        R(b, c, d, e, a, (t) + 4)

__attribute__((target("avx,bmi,bmi2"))) static void quire_sha1_compress_vector(
    uint32_t state[5], const uint8_t *data, size_t blocks) {
    static const uint32_t constants[4] = {0x5A827999u, 0x6ED9EBA1u, 0x8F1BBCDCu, 0xCA62C1D6u};
    __attribute__((aligned(16))) uint32_t w[16];
    __attribute__((aligned(16))) uint32_t wk[80];
    for (; blocks > 0; blocks--, data += 64) {
        for (int i = 0; i < 16; i++) w[i] = quire_load_be32(data + 4 * i);
        __m128i x0 = _mm_load_si128((const __m128i *)w), x1 = _mm_load_si128((const __m128i *)(w + 4));
        __m128i x2 = _mm_load_si128((const __m128i *)(w + 8)), x3 = _mm_load_si128((const __m128i *)(w + 12));
        __m128i k = _mm_set1_epi32((int)constants[0]);
        _mm_store_si128((__m128i *)wk, _mm_add_epi32(x0, k));
        _mm_store_si128((__m128i *)(wk + 4), _mm_add_epi32(x1, k));
        _mm_store_si128((__m128i *)(wk + 8), _mm_add_epi32(x2, k));
        _mm_store_si128((__m128i *)(wk + 12), _mm_add_epi32(x3, k));
#pragma clang loop unroll(full)
        for (int t = 16; t < 80; t += 4) {
            if (t % 20 == 0) k = _mm_set1_epi32((int)constants[t / 20]);
            // Words t-3..t-1 and 0 for t (not known yet), t-8.., t-14.. and t-16..
            __m128i x = _mm_xor_si128(_mm_srli_si128(x3, 4), x2);
            x = _mm_xor_si128(x, _mm_castpd_si128(_mm_shuffle_pd(_mm_castsi128_pd(x0), _mm_castsi128_pd(x1), 1)));
            x = _mm_xor_si128(x, x0);
            __m128i r = _mm_or_si128(_mm_slli_epi32(x, 1), _mm_srli_epi32(x, 31));
            __m128i first = _mm_slli_si128(x, 12);
            r = _mm_xor_si128(r, _mm_or_si128(_mm_slli_epi32(first, 2), _mm_srli_epi32(first, 30)));
            _mm_store_si128((__m128i *)(wk + t), _mm_add_epi32(r, k));
            x0 = x1;
            x1 = x2;
            x2 = x3;
            x3 = r;
        }
        uint32_t a = state[0], b = state[1], c = state[2], d = state[3], e = state[4];
        QUIRE_FIVE(QUIRE_CHOOSE, 0)
        QUIRE_FIVE(QUIRE_CHOOSE, 5)
        QUIRE_FIVE(QUIRE_CHOOSE, 10)
        QUIRE_FIVE(QUIRE_CHOOSE, 15)
        QUIRE_FIVE(QUIRE_PARITY, 20)
        QUIRE_FIVE(QUIRE_PARITY, 25)
        QUIRE_FIVE(QUIRE_PARITY, 30)
        QUIRE_FIVE(QUIRE_PARITY, 35)
        QUIRE_FIVE(QUIRE_MAJORITY, 40)
        QUIRE_FIVE(QUIRE_MAJORITY, 45)
        QUIRE_FIVE(QUIRE_MAJORITY, 50)
        QUIRE_FIVE(QUIRE_MAJORITY, 55)
        QUIRE_FIVE(QUIRE_PARITY, 60)
        QUIRE_FIVE(QUIRE_PARITY, 65)
        QUIRE_FIVE(QUIRE_PARITY, 70)
        QUIRE_FIVE(QUIRE_PARITY, 75)
        state[0] += a;
        state[1] += b;
        state[2] += c;
        state[3] += d;
        state[4] += e;
    }
}

// With the SHA instructions: the four chaining words A..D live in one vector, A in the
// highest lane; E lives in the highest lane of another. Each sha1rnds4 runs four rounds;
// sha1nexte derives the next E from the A of four rounds earlier and adds it to the next four
// message words; sha1msg1 and sha1msg2 extend the message schedule four words at a time.
#define QUIRE_SHA1_FOUR_ROUNDS(f, words)                    \
    do {                                                    \
        __m128i e = _mm_sha1nexte_epu32(previous, (words)); \
        previous = abcd;                                    \
        abcd = _mm_sha1rnds4_epu32(abcd, e, (f));           \
    } while (0)

// The next four message words from the last sixteen, held in m[0..3] oldest first; the
// result replaces the oldest.
#define QUIRE_SHA1_NEXT_WORDS(i)                                                            \
    (m[(i) & 3] = _mm_sha1msg2_epu32(                                                       \
         _mm_xor_si128(_mm_sha1msg1_epu32(m[(i) & 3], m[((i) + 1) & 3]), m[((i) + 2) & 3]), \
         m[((i) + 3) & 3]))

__attribute__((target("sha,ssse3,sse4.1"))) static void quire_sha1_compress_hardware(
    uint32_t state[5], const uint8_t *data, size_t blocks) {
    // Reverses all sixteen bytes: big-endian words, the first of them in the highest lane.
    const __m128i reverse = _mm_set_epi64x(0x0001020304050607LL, 0x08090a0b0c0d0e0fLL);
    __m128i abcd = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)state), 0x1B);
    __m128i e0 = _mm_set_epi32((int)state[4], 0, 0, 0);

    for (; blocks > 0; blocks--, data += 64) {
        const __m128i abcd_start = abcd, e_start = e0;
        __m128i m[4];
        for (int i = 0; i < 4; i++) {
            m[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16 * i)), reverse);
        }

        // Rounds 0-3: E is added to the first message words directly.
        __m128i previous = abcd;
        abcd = _mm_sha1rnds4_epu32(abcd, _mm_add_epi32(e0, m[0]), 0);
        QUIRE_SHA1_FOUR_ROUNDS(0, m[1]);
        QUIRE_SHA1_FOUR_ROUNDS(0, m[2]);
        QUIRE_SHA1_FOUR_ROUNDS(0, m[3]);
        QUIRE_SHA1_FOUR_ROUNDS(0, QUIRE_SHA1_NEXT_WORDS(4));
        for (int i = 5; i < 10; i++) QUIRE_SHA1_FOUR_ROUNDS(1, QUIRE_SHA1_NEXT_WORDS(i));
        for (int i = 10; i < 15; i++) QUIRE_SHA1_FOUR_ROUNDS(2, QUIRE_SHA1_NEXT_WORDS(i));
        for (int i = 15; i < 20; i++) QUIRE_SHA1_FOUR_ROUNDS(3, QUIRE_SHA1_NEXT_WORDS(i));

        // E after round 79 comes from the A of round 75, then the block's sums.
        e0 = _mm_sha1nexte_epu32(previous, e_start);
        abcd = _mm_add_epi32(abcd, abcd_start);
    }

    _mm_storeu_si128((__m128i *)state, _mm_shuffle_epi32(abcd, 0x1B));
    state[4] = (uint32_t)_mm_extract_epi32(e0, 3);
}

/// A digest in progress: the chaining words, the bytes of an incomplete block, the length.
typedef struct {
    uint32_t state[5];
    uint32_t buffered;
    uint64_t length;
    uint8_t buffer[64];
    quire_sha1_compress compress;
} quire_sha1;

static void quire_sha1_start(quire_sha1 *sha, int support) {
    sha->state[0] = 0x67452301u;
    sha->state[1] = 0xEFCDAB89u;
    sha->state[2] = 0x98BADCFEu;
    sha->state[3] = 0x10325476u;
    sha->state[4] = 0xC3D2E1F0u;
    sha->buffered = 0;
    sha->length = 0;
    sha->compress = support == 2 ? quire_sha1_compress_hardware : quire_sha1_compress_vector;
}

static void quire_sha1_feed(quire_sha1 *sha, const uint8_t *bytes, size_t count) {
    sha->length += count;
    if (sha->buffered > 0) {
        size_t take = 64 - sha->buffered;
        if (take > count) take = count;
        memcpy(sha->buffer + sha->buffered, bytes, take);
        sha->buffered += (uint32_t)take;
        bytes += take;
        count -= take;
        if (sha->buffered < 64) return;
        sha->compress(sha->state, sha->buffer, 1);
        sha->buffered = 0;
    }
    if (count >= 64) {
        sha->compress(sha->state, bytes, count / 64);
        bytes += count & ~(size_t)63;
        count &= 63;
    }
    if (count > 0) {
        memcpy(sha->buffer, bytes, count);
        sha->buffered = (uint32_t)count;
    }
}

static void quire_sha1_finish(quire_sha1 *sha, uint8_t digest[20]) {
    const uint64_t bits = sha->length * 8;
    uint32_t used = sha->buffered;
    sha->buffer[used++] = 0x80;
    if (used > 56) {
        memset(sha->buffer + used, 0, 64 - used);
        sha->compress(sha->state, sha->buffer, 1);
        used = 0;
    }
    memset(sha->buffer + used, 0, 56 - used);
    for (int i = 0; i < 8; i++) sha->buffer[56 + i] = (uint8_t)(bits >> (56 - 8 * i));
    sha->compress(sha->state, sha->buffer, 1);
    for (int i = 0; i < 5; i++) {
        digest[4 * i] = (uint8_t)(sha->state[i] >> 24);
        digest[4 * i + 1] = (uint8_t)(sha->state[i] >> 16);
        digest[4 * i + 2] = (uint8_t)(sha->state[i] >> 8);
        digest[4 * i + 3] = (uint8_t)sha->state[i];
    }
}

void quire_sha1_digest(const void *data, size_t count, int support, uint8_t digest[20]) {
    quire_sha1 sha;
    quire_sha1_start(&sha, support);
    quire_sha1_feed(&sha, (const uint8_t *)data, count);
    quire_sha1_finish(&sha, digest);
}

int quire_revision_digest_hex(
    const uint8_t *parent, size_t parent_count, int deleted, const uint8_t *body, size_t body_count,
    uint8_t hex[40]) {
    const int support = quire_sha1_support();
    if (support == 0) return 0;
    quire_sha1 sha;
    quire_sha1_start(&sha, support);
    if (parent_count > 0) quire_sha1_feed(&sha, parent, parent_count);
    const uint8_t separator[3] = {0, deleted ? 1 : 0, 0};
    quire_sha1_feed(&sha, separator, 3);
    quire_sha1_feed(&sha, body, body_count);
    uint8_t digest[20];
    quire_sha1_finish(&sha, digest);
    static const char digits[] = "0123456789abcdef";
    for (int i = 0; i < 20; i++) {
        hex[2 * i] = (uint8_t)digits[digest[i] >> 4];
        hex[2 * i + 1] = (uint8_t)digits[digest[i] & 15];
    }
    return 1;
}

#else

int quire_sha1_support(void) { return 0; }

void quire_sha1_digest(const void *data, size_t count, int support, uint8_t digest[20]) {
    (void)data;
    (void)count;
    (void)support;
    memset(digest, 0, 20);
}

int quire_revision_digest_hex(
    const uint8_t *parent, size_t parent_count, int deleted, const uint8_t *body, size_t body_count,
    uint8_t hex[40]) {
    (void)parent;
    (void)parent_count;
    (void)deleted;
    (void)body;
    (void)body_count;
    (void)hex;
    return 0;
}

#endif
