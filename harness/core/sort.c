/* LSD radix sort on 64-bit keys with 8- or 16-bit digits; stable. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/arenabench.h"

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

int ab_sort_key_index(struct ab_key_index *a, size_t n)
{
	struct ab_key_index *tmp, *src = a, *dst;
	size_t *count;
	uint64_t all_or = 0, all_and = ~0ull, mask;
	size_t radix;
	int bits;

	if (n < 64) {
		insertion_sort(a, n);
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		all_or |= a[i].key;
		all_and &= a[i].key;
	}
	tmp = ab_alloc_large(n * sizeof(*tmp));
	/* 8-bit digits keep the counting array small for small inputs. */
	bits = n < 65536 ? 8 : 16;
	radix = (size_t)1 << bits;
	count = malloc(radix * sizeof(*count));
	if (!tmp || !count) {
		free(tmp);
		free(count);
		return -ENOMEM;
	}
	dst = tmp;
	mask = radix - 1;
	for (int shift = 0; shift < 64; shift += bits) {
		size_t sum = 0;

		/* A digit equal in every key does not reorder anything. */
		if ((((all_or ^ all_and) >> shift) & mask) == 0)
			continue;
		memset(count, 0, radix * sizeof(*count));
		for (size_t i = 0; i < n; i++)
			count[(src[i].key >> shift) & mask]++;
		for (size_t d = 0; d < radix; d++) {
			size_t c = count[d];

			count[d] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			dst[count[(src[i].key >> shift) & mask]++] = src[i];
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
