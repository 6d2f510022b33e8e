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

/*
 * The radix passes over a[0..n) (elements of type T, their sort key the
 * bits of WORD(x) from bit `low` up): stable, LSD, one pass per digit
 * that differs among the keys (plan_passes).  One body for both element
 * types; a macro, since a call per element would cost the sorts their
 * speed.  Sets rc (0 or -ENOMEM).
 */
#define RADIX_PASSES(T, WORD, low, rc)                                         \
	do {                                                                   \
		T *tmp_, *src_ = a, *dst_;                                     \
		uint64_t all_or_ = 0, all_and_ = ~0ull, differ_, mask_;        \
		size_t *count_, radix_;                                        \
		int bits_, shift_[MAX_PASSES], used_;                          \
                                                                               \
		(rc) = 0;                                                      \
		for (size_t i = 0; i < n; i++) {                               \
			all_or_ |= WORD(a[i]) >> (low);                        \
			all_and_ &= WORD(a[i]) >> (low);                       \
		}                                                              \
		differ_ = all_or_ ^ all_and_;                                  \
		if (!differ_)                                                  \
			break; /* all keys equal: already in order */         \
		used_ = plan_passes(differ_, n, (low), shift_, &bits_);        \
		radix_ = (size_t)1 << bits_;                                   \
		mask_ = radix_ - 1;                                            \
		tmp_ = ab_alloc_large(n * sizeof(*tmp_));                      \
		count_ = calloc((size_t)used_ * radix_, sizeof(*count_));      \
		if (!tmp_ || !count_) {                                        \
			free(tmp_);                                            \
			free(count_);                                          \
			(rc) = -ENOMEM;                                        \
			break;                                                 \
		}                                                              \
		for (size_t i = 0; i < n; i++)                                 \
			for (int k = 0; k < used_; k++)                        \
				count_[(size_t)k * radix_ +                    \
				       ((WORD(a[i]) >> shift_[k]) & mask_)]++; \
		dst_ = tmp_;                                                   \
		for (int k = 0; k < used_; k++) {                              \
			size_t *c = count_ + (size_t)k * radix_;               \
			int s = shift_[k];                                     \
			T *t_;                                                 \
                                                                               \
			exclusive_sums(c, radix_);                             \
			for (size_t i = 0; i < n; i++)                         \
				dst_[c[(WORD(src_[i]) >> s) & mask_]++] =      \
					src_[i];                               \
			t_ = src_;                                             \
			src_ = dst_;                                           \
			dst_ = t_;                                             \
		}                                                              \
		if (src_ != a)                                                 \
			memcpy(a, src_, n * sizeof(*a));                       \
		free(tmp_);                                                    \
		free(count_);                                                  \
	} while (0)

#define PAIR_KEY(x) ((x).key)
#define WHOLE_WORD(x) (x)

int ab_sort_key_index(struct ab_key_index *a, size_t n)
{
	int rc;

	if (n < 64) {
		insertion_sort(a, n);
		return 0;
	}
	RADIX_PASSES(struct ab_key_index, PAIR_KEY, 0, rc);
	return rc;
}

int ab_sort_u64_above(uint64_t *a, size_t n, unsigned low_bits)
{
	int rc;

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
	RADIX_PASSES(uint64_t, WHOLE_WORD, low_bits, rc);
	return rc;
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
