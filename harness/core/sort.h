/* Stable radix sort of (key, index) pairs: the one sort every stage uses. */
#ifndef AB_SORT_H
#define AB_SORT_H

#include <stddef.h>
#include <stdint.h>

struct ab_key_index {
	uint64_t key;
	uint32_t index;
};

/* Sorts by key ascending; equal keys keep their input order (stable).
 * O(n * passes): 16-bit digits (8-bit below 65536 items), digits equal in
 * every key skipped.  Below 64 items, insertion sort. */
int ab_sort_key_index(struct ab_key_index *a, size_t n);

#endif
