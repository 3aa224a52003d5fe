// SHA-1 compression with the x86 SHA extensions (FIPS 180-4, section 6.1.2).
//
// The four chaining words A..D live in one vector, A in the highest lane; E lives in the
// highest lane of another. Each sha1rnds4 runs four rounds; sha1nexte derives the next E
// from the A of four rounds earlier and adds it to the next four message words; sha1msg1 and
// sha1msg2 extend the message schedule four words at a time.

#include "quire_digest.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

#include <cpuid.h>
#include <immintrin.h>

int quire_sha1_hardware_available(void) {
    unsigned int eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    const int ssse3 = (ecx >> 9) & 1, sse41 = (ecx >> 19) & 1;
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return 0;
    const int sha = (ebx >> 29) & 1;
    return ssse3 && sse41 && sha;
}

// Four rounds with the round function and constant of group `f` (0..3): the message vector
// `w` for them is ready; `previous` is A..D as it was before the last four rounds.
#define QUIRE_SHA1_FOUR_ROUNDS(f, w)                      \
    do {                                                  \
        __m128i e = _mm_sha1nexte_epu32(previous, (w));  \
        previous = abcd;                                  \
        abcd = _mm_sha1rnds4_epu32(abcd, e, (f));         \
    } while (0)

// The next four message words from the last sixteen, held in w[0..3] oldest first; the
// result replaces the oldest.
#define QUIRE_SHA1_NEXT_WORDS(i)                                                               \
    (w[(i) & 3] = _mm_sha1msg2_epu32(                                                          \
         _mm_xor_si128(_mm_sha1msg1_epu32(w[(i) & 3], w[((i) + 1) & 3]), w[((i) + 2) & 3]),    \
         w[((i) + 3) & 3]))

__attribute__((target("sha,ssse3,sse4.1")))
void quire_sha1_compress_blocks(uint32_t state[5], const uint8_t *data, size_t blocks) {
    // Reverses all sixteen bytes: big-endian words, the first of them in the highest lane.
    const __m128i reverse = _mm_set_epi64x(0x0001020304050607LL, 0x08090a0b0c0d0e0fLL);
    __m128i abcd = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)state), 0x1B);
    __m128i e0 = _mm_set_epi32((int)state[4], 0, 0, 0);

    for (; blocks > 0; blocks--, data += 64) {
        const __m128i abcd_start = abcd, e_start = e0;
        __m128i w[4];
        for (int i = 0; i < 4; i++) {
            w[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16 * i)), reverse);
        }

        // Rounds 0-3: E is added to the first message words directly.
        __m128i previous = abcd;
        abcd = _mm_sha1rnds4_epu32(abcd, _mm_add_epi32(e0, w[0]), 0);
        QUIRE_SHA1_FOUR_ROUNDS(0, w[1]);
        QUIRE_SHA1_FOUR_ROUNDS(0, w[2]);
        QUIRE_SHA1_FOUR_ROUNDS(0, w[3]);
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

#else

int quire_sha1_hardware_available(void) { return 0; }

void quire_sha1_compress_blocks(uint32_t state[5], const uint8_t *data, size_t blocks) {
    (void)state;
    (void)data;
    (void)blocks;
}

#endif
