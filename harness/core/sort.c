/* LSD radix sort on 64-bit keys; stable.  Only the bits that differ
 * between keys are sorted on, in passes of at most 11 bits (8 below 65536
 * items): a pass scatters into at most 2048 runs, which stay in cache and
 * in the TLB where 65536 runs would not.  One read counts every pass's
 * digits. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/arenabench.h"

#define MAX_PASSES 8 /* 64 bits in passes of 8 or more */

static void insertion_sort(struct ab_key_index *a, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		struct ab_key_index x = a[i];
		size_t j = i;

		while (j > 0 && a[j - 1].key > x.key) {
			a[j] = a[j - 1];
			j--;
		}
		a[j] = x;
	}
}

/* The passes for n keys whose differing bits are `differ` (nonzero), the
 * keys' bit 0 at bit `low` of the sorted words: each pass's shift in
 * shift[], their count returned, the digit width in *bits. */
static int plan_passes(uint64_t differ, size_t n, unsigned low,
		       int shift[MAX_PASSES], int *bits)
{
	int lo = __builtin_ctzll(differ);
	int width = 64 - __builtin_clzll(differ) - lo;
	int b = n < 65536 ? 8 : 11, passes = (width + b - 1) / b, used = 0;

	b = (width + passes - 1) / passes; /* even passes */
	/* A digit equal in every key does not reorder anything. */
	for (int k = 0; k < passes; k++)
		if (((differ >> (lo + k * b)) & (((uint64_t)1 << b) - 1)) != 0)
			shift[used++] = (int)low + lo + k * b;
	*bits = b;
	return used;
}

/* Counts of digit values into the first place of each (a pass's
 * scatter then advances them). */
static void exclusive_sums(size_t *c, size_t radix)
{
	size_t sum = 0;

	for (size_t d = 0; d < radix; d++) {
		size_t x = c[d];

		c[d] = sum;
		sum += x;
	}
}

int ab_sort_key_index(struct ab_key_index *a, size_t n)
{
	struct ab_key_index *tmp, *src = a, *dst;
	size_t *count;
	uint64_t all_or = 0, all_and = ~0ull, differ, mask;
	size_t radix;
	int bits, shift[MAX_PASSES], used;

	if (n < 64) {
		insertion_sort(a, n);
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		all_or |= a[i].key;
		all_and &= a[i].key;
	}
	differ = all_or ^ all_and;
	if (!differ)
		return 0; /* all keys equal: already in order */
	used = plan_passes(differ, n, 0, shift, &bits);
	radix = (size_t)1 << bits;
	mask = radix - 1;
	tmp = ab_alloc_large(n * sizeof(*tmp));
	count = calloc((size_t)used * radix, sizeof(*count));
	if (!tmp || !count) {
		free(tmp);
		free(count);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < used; k++)
			count[(size_t)k * radix + ((a[i].key >> shift[k]) & mask)]++;
	dst = tmp;
	for (int k = 0; k < used; k++) {
		size_t *c = count + (size_t)k * radix;
		int s = shift[k];

		exclusive_sums(c, radix);
		for (size_t i = 0; i < n; i++)
			dst[c[(src[i].key >> s) & mask]++] = src[i];
		struct ab_key_index *t = src;
		src = dst;
		dst = t;
	}
	if (src != a)
		memcpy(a, src, n * sizeof(*a));
	free(tmp);
	free(count);
	return 0;
}

int ab_sort_u64_above(uint64_t *a, size_t n, unsigned low_bits)
{
	uint64_t *tmp, *src = a, *dst, all_or = 0, all_and = ~0ull, differ, mask;
	size_t *count, radix;
	int bits, shift[MAX_PASSES], used;

	if (n < 64) {
		for (size_t i = 1; i < n; i++) {
			uint64_t x = a[i];
			size_t j = i;

			for (; j > 0 && a[j - 1] >> low_bits > x >> low_bits; j--)
				a[j] = a[j - 1];
			a[j] = x;
		}
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		all_or |= a[i] >> low_bits;
		all_and &= a[i] >> low_bits;
	}
	differ = all_or ^ all_and;
	if (!differ)
		return 0;
	used = plan_passes(differ, n, low_bits, shift, &bits);
	radix = (size_t)1 << bits;
	mask = radix - 1;
	tmp = ab_alloc_large(n * sizeof(*tmp));
	count = calloc((size_t)used * radix, sizeof(*count));
	if (!tmp || !count) {
		free(tmp);
		free(count);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < used; k++)
			count[(size_t)k * radix + ((a[i] >> shift[k]) & mask)]++;
	dst = tmp;
	for (int k = 0; k < used; k++) {
		size_t *c = count + (size_t)k * radix;
		int s = shift[k];

		exclusive_sums(c, radix);
		for (size_t i = 0; i < n; i++)
			dst[c[(src[i] >> s) & mask]++] = src[i];
		uint64_t *t = src;
		src = dst;
		dst = t;
	}
	if (src != a)
		memcpy(a, src, n * sizeof(*a));
	free(tmp);
	free(count);
	return 0;
}

int ab_order_stable_by(uint32_t *order, size_t m, const uint64_t *key)
{
	struct ab_key_index *ki = malloc((m ? m : 1) * sizeof(*ki));
	int rc;

	if (!ki)
		return -ENOMEM;
	for (size_t j = 0; j < m; j++) {
		ki[j].key = key[order[j]];
		ki[j].index = order[j];
	}
	rc = ab_sort_key_index(ki, m);
	if (!rc)
		for (size_t j = 0; j < m; j++)
			order[j] = ki[j].index;
	free(ki);
	return rc;
}

int ab_order_first_use(const struct ab_problem *p, uint32_t *order)
{
	uint64_t *key = malloc((p->n ? p->n : 1) * sizeof(*key));
	int rc;

	if (!key)
		return -ENOMEM;
	for (size_t i = 0; i < p->n; i++) {
		order[i] = (uint32_t)i;
		key[i] = (uint64_t)p->buf[i].first;
	}
	rc = ab_order_stable_by(order, p->n, key);
	free(key);
	return rc;
}

/* The time sorted on: first or last use. */
static inline int32_t time_of(const struct ab_buffer *b, bool by_last)
{
	return by_last ? b->last : b->first;
}

int ab_rank_by_time(const struct ab_problem *p, bool by_last, uint32_t *rank)
{
	size_t n = p->n;
	uint64_t span;
	uint32_t *count;
	struct ab_key_index *a;
	int32_t least = 0, most = -1, before = INT32_MIN;
	bool in_order = true;

	/* the times' range, and whether they already rise in index order
	 * (then each buffer's place is its index); no branch on the data */
	for (size_t i = 0; i < n; i++) {
		int32_t t = time_of(&p->buf[i], by_last);

		least = t < least ? t : least;
		most = t > most ? t : most;
		in_order &= t >= before;
		before = t;
	}
	span = least < 0 ? UINT64_MAX : (uint64_t)most + 1;
	if (in_order) {
		for (size_t i = 0; i < n; i++)
			rank[i] = (uint32_t)i;
		return 0;
	}
	if (span <= 2 * (uint64_t)n + 64) {
		/* counting sort: each time's first place, then the buffers
		 * in index order take the places of their time */
		count = ab_alloc_large((span + 1) * sizeof(*count));
		if (!count)
			return -ENOMEM;
		memset(count, 0, (span + 1) * sizeof(*count));
		for (size_t i = 0; i < n; i++)
			count[time_of(&p->buf[i], by_last)]++;
		for (uint64_t t = 0, sum = 0; t < span; t++) {
			uint32_t c = count[t];

			count[t] = (uint32_t)sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			rank[i] = count[time_of(&p->buf[i], by_last)]++;
		free(count);
		return 0;
	}
	a = ab_alloc_large((n + 1) * sizeof(*a));
	if (!a)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		a[i] = (struct ab_key_index){
			(uint64_t)(int64_t)time_of(&p->buf[i], by_last) ^ (1ull << 63),
			(uint32_t)i };
	if (ab_sort_key_index(a, n)) {
		free(a);
		return -ENOMEM;
	}
	for (size_t j = 0; j < n; j++)
		rank[a[j].index] = (uint32_t)j;
	free(a);
	return 0;
}
