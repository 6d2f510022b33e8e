/* Digits and line ends found a word (or 16 and 32 bytes) at a time, for
 * the minimalloc CSV reader (problem_csv.c): helpers of its row loop,
 * inline there. */
#ifndef AB_IMPORT_DIGITS_H
#define AB_IMPORT_DIGITS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* The value of eight decimal digits, one a byte, the first (the most
 * significant) in the lowest byte: neighbouring digits paired into 16-bit
 * lanes (10 a + b), pairs into 32-bit lanes (100 a + b), then the two
 * halves (10^4 a + b); no lane carries into the next, as every partial
 * value stays below its lane's size.  The technique of Langdale and
 * Lemire, "Parsing gigabytes of JSON per second" (VLDB Journal 2019). */
static inline uint64_t eight_digit_value(uint64_t d)
{
	d = (d * 10 + (d >> 8)) & 0x00FF00FF00FF00FFull;
	d = (d * 100 + (d >> 16)) & 0x0000FFFF0000FFFFull;
	return (d * 10000 + (d >> 32)) & 0xFFFFFFFFull;
}

/* Reads the digits at *q into *x (x * 10 + digit each) eight bytes a
 * step while eight bytes remain before end, and stops at the first byte
 * that is not a digit (or when fewer than eight remain: the caller's
 * byte loop goes on from *q).  A field of more than 18 digits is refused
 * by its width, so *x may wrap then. */
static inline void digits_by_eight(const char **q, const char *end, uint64_t *x)
{
	static const uint64_t pow10[9] = { 1, 10, 100, 1000, 10000, 100000,
					   1000000, 10000000, 100000000 };

	while (end - *q >= 8) {
		uint64_t w, d, other;
		unsigned k;

		memcpy(&w, *q, 8);
		/* a digit byte becomes 0..9; a byte whose low seven bits
		 * pass 9, or whose top bit is set, is another byte */
		d = w ^ 0x3030303030303030ull;
		other = (((d & 0x7F7F7F7F7F7F7F7Full) + 0x7676767676767676ull) | d) &
			0x8080808080808080ull;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		k = other ? (unsigned)__builtin_ctzll(other) / 8 : 8;
#else
		k = other ? (unsigned)__builtin_clzll(other) / 8 : 8;
		d = __builtin_bswap64(d);
#endif
		if (k)  /* the k digits to the top bytes: zeros before them */
			*x = *x * pow10[k] + eight_digit_value(d << (8 * (8 - k)));
		*q += k;
		if (k < 8)
			return;
	}
}

/* The '\n' bytes in text[0, len): 16 bytes a step (GCC's vectors, one
 * SSE2 compare on x86-64), each byte lane counting up to 255 matches
 * before the lanes are added up, instead of a memchr call a line (perf's
 * samples at 10^6 rows: 7-11 ms for the calls, about 6 for this pass,
 * most of it the text's first read from memory). */
static inline size_t count_newlines(const char *text, size_t len)
{
	typedef unsigned char bytes16 __attribute__((vector_size(16)));
	size_t n = 0, i = 0;

	while (len - i >= 16) {
		bytes16 lanes = { 0 };

		for (int k = 0; k < 255 && len - i >= 16; k++, i += 16) {
			bytes16 v;

			memcpy(&v, text + i, 16);
			lanes -= (bytes16)(v == '\n'); /* a match is -1: adds one */
		}
		for (int b = 0; b < 16; b++)
			n += lanes[b];
	}
	for (; i < len; i++)
		n += text[i] == '\n';
	return n;
}

#ifdef __SSE2__
#define AB_HAVE_MASKS_OF_32 1
/* The bytes of 32 at text that equal c, as bits (SSE2's byte compare and
 * mask). */
static inline uint32_t bytes_equal(__m128i lo, __m128i hi, char c)
{
	__m128i cc = _mm_set1_epi8(c);

	return (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(lo, cc)) |
	       (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(hi, cc)) << 16;
}

/* The 32 bytes at q as three bit masks, bit i for byte i: newlines,
 * commas and decimal digits. */
static inline void masks_of_32(const char *q, uint32_t *nl, uint32_t *commas,
			       uint32_t *digits)
{
	__m128i lo = _mm_loadu_si128((const __m128i *)q);
	__m128i hi = _mm_loadu_si128((const __m128i *)(q + 16));
	/* a digit: the byte minus '0', unsigned, below 10 */
	__m128i zero = _mm_set1_epi8('0'), nine = _mm_set1_epi8(9);
	__m128i dl = _mm_sub_epi8(lo, zero), dh = _mm_sub_epi8(hi, zero);

	*nl = bytes_equal(lo, hi, '\n');
	*commas = bytes_equal(lo, hi, ',');
	*digits = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(dl, nine), dl)) |
		  (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(dh, nine), dh)) << 16;
}
#endif

#endif
