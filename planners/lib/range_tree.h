/*
 * A range tree over positions [0, n): add a value to a range, read the
 * minimum, the maximum or one position, and find where values change
 * (range_tree.c).  The one such tree of the planner library: skyline.c
 * keeps its skyline and need per step in two, the memory tiers (tiers.c)
 * the live bytes of a tier's chosen buffers in one.
 * Complexity: O(n) memory; each operation O(log n) (a segment tree with
 * lazy range add).  Adds are modulo 2^64, so adding 0 - d undoes adding d.
 * Contract: 0 or -ENOMEM from init; nothing else fails or prints.
 */
#ifndef AB_RANGE_TREE_H
#define AB_RANGE_TREE_H

#include <stddef.h>
#include <stdint.h>

struct ab_range_tree {
	size_t n;
	uint64_t *mn, *mx, *lz; /* per node: min, max, pending add */
};

/* n >= 1 positions, all 0. */
int ab_range_tree_init(struct ab_range_tree *t, size_t n);
void ab_range_tree_free(struct ab_range_tree *t);
/* Every position back to 0. */
void ab_range_tree_clear(struct ab_range_tree *t);

/* Adds d (modulo 2^64) to positions [a, b]. */
void ab_range_add(struct ab_range_tree *t, size_t a, size_t b, uint64_t d);
/* The maximum over positions [a, b] (0 when the range is empty). */
uint64_t ab_range_max(struct ab_range_tree *t, size_t a, size_t b);
/* The value at position at. */
uint64_t ab_range_get(struct ab_range_tree *t, size_t at);
/* The minimum, and its leftmost position in *at. */
uint64_t ab_range_leftmost_min(struct ab_range_tree *t, size_t *at);
/* The first position >= from whose value is above h, or n. */
size_t ab_range_first_above(struct ab_range_tree *t, size_t from, uint64_t h);
/* The first position >= from whose value differs from h, or n. */
size_t ab_range_next_diff(struct ab_range_tree *t, size_t from, uint64_t h);
/* The last position <= to whose value differs from h, or n. */
size_t ab_range_prev_diff(struct ab_range_tree *t, size_t to, uint64_t h);

#endif
