/* A range tree with lazy range add: see range_tree.h. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lib/range_tree.h"

int ab_range_tree_init(struct ab_range_tree *s, size_t n)
{
	s->n = n;
	s->mn = calloc(4 * n + 4, sizeof(*s->mn));
	s->mx = calloc(4 * n + 4, sizeof(*s->mx));
	s->lz = calloc(4 * n + 4, sizeof(*s->lz));
	return s->mn && s->mx && s->lz ? 0 : -ENOMEM;
}

void ab_range_tree_free(struct ab_range_tree *s)
{
	free(s->mn);
	free(s->mx);
	free(s->lz);
}

void ab_range_tree_clear(struct ab_range_tree *s)
{
	memset(s->mn, 0, (4 * s->n + 4) * sizeof(*s->mn));
	memset(s->mx, 0, (4 * s->n + 4) * sizeof(*s->mx));
	memset(s->lz, 0, (4 * s->n + 4) * sizeof(*s->lz));
}

static void seg_push(struct ab_range_tree *s, size_t v)
{
	for (size_t c = 2 * v; c <= 2 * v + 1; c++) {
		s->mn[c] += s->lz[v]; /* modular: undo adds the negation */
		s->mx[c] += s->lz[v];
		s->lz[c] += s->lz[v];
	}
	s->lz[v] = 0;
}

static void seg_add_at(struct ab_range_tree *s, size_t v, size_t l, size_t r,
		       size_t a, size_t b, uint64_t d)
{
	if (b < l || r < a)
		return;
	if (a <= l && r <= b) {
		s->mn[v] += d;
		s->mx[v] += d;
		s->lz[v] += d;
		return;
	}
	seg_push(s, v);
	seg_add_at(s, 2 * v, l, (l + r) / 2, a, b, d);
	seg_add_at(s, 2 * v + 1, (l + r) / 2 + 1, r, a, b, d);
	s->mn[v] = s->mn[2 * v] < s->mn[2 * v + 1] ? s->mn[2 * v] : s->mn[2 * v + 1];
	s->mx[v] = s->mx[2 * v] > s->mx[2 * v + 1] ? s->mx[2 * v] : s->mx[2 * v + 1];
}

void ab_range_add(struct ab_range_tree *s, size_t a, size_t b, uint64_t d)
{
	seg_add_at(s, 1, 0, s->n - 1, a, b, d);
}

/* Walks from the root to one leaf, pushing the pending adds down: to the
 * leftmost minimum (to_min), else to position at.  Returns the leaf's
 * node; its position in *pos. */
static size_t seg_descend(struct ab_range_tree *s, size_t at, bool to_min,
			  size_t *pos)
{
	size_t v = 1, l = 0, r = s->n - 1;

	while (l < r) {
		seg_push(s, v);
		if (to_min ? s->mn[2 * v] == s->mn[v] : at <= (l + r) / 2) {
			v = 2 * v;
			r = (l + r) / 2;
		} else {
			v = 2 * v + 1;
			l = (l + r) / 2 + 1;
		}
	}
	*pos = l;
	return v;
}

uint64_t ab_range_leftmost_min(struct ab_range_tree *s, size_t *at)
{
	return s->mn[seg_descend(s, 0, true, at)];
}

static size_t seg_first_above_at(struct ab_range_tree *s, size_t v, size_t l, size_t r,
				 size_t from, uint64_t h)
{
	size_t k;

	if (r < from || s->mx[v] <= h)
		return s->n;
	if (l == r)
		return l;
	seg_push(s, v);
	k = seg_first_above_at(s, 2 * v, l, (l + r) / 2, from, h);
	if (k < s->n)
		return k;
	return seg_first_above_at(s, 2 * v + 1, (l + r) / 2 + 1, r, from, h);
}

/* The first position in [a, b] (with last: the last one) whose value
 * differs from h, or n. */
static size_t seg_diff_at(struct ab_range_tree *s, size_t v, size_t l,
			  size_t r, size_t a, size_t b, uint64_t h, bool last)
{
	size_t k, mid = (l + r) / 2;

	if (r < a || l > b || (s->mn[v] == h && s->mx[v] == h))
		return s->n;
	if (l == r)
		return l;
	seg_push(s, v);
	k = last ? seg_diff_at(s, 2 * v + 1, mid + 1, r, a, b, h, last)
		 : seg_diff_at(s, 2 * v, l, mid, a, b, h, last);
	if (k < s->n)
		return k;
	return last ? seg_diff_at(s, 2 * v, l, mid, a, b, h, last)
		    : seg_diff_at(s, 2 * v + 1, mid + 1, r, a, b, h, last);
}

static uint64_t seg_max_at(struct ab_range_tree *s, size_t v, size_t l, size_t r,
			   size_t a, size_t b)
{
	uint64_t x, y;

	if (b < l || r < a)
		return 0;
	if (a <= l && r <= b)
		return s->mx[v];
	seg_push(s, v);
	x = seg_max_at(s, 2 * v, l, (l + r) / 2, a, b);
	y = seg_max_at(s, 2 * v + 1, (l + r) / 2 + 1, r, a, b);
	return x > y ? x : y;
}

uint64_t ab_range_get(struct ab_range_tree *s, size_t at)
{
	size_t pos;

	return s->mn[seg_descend(s, at, false, &pos)];
}

uint64_t ab_range_max(struct ab_range_tree *s, size_t a, size_t b)
{
	return seg_max_at(s, 1, 0, s->n - 1, a, b);
}

size_t ab_range_first_above(struct ab_range_tree *s, size_t from, uint64_t h)
{
	return seg_first_above_at(s, 1, 0, s->n - 1, from, h);
}

size_t ab_range_next_diff(struct ab_range_tree *s, size_t from, uint64_t h)
{
	return seg_diff_at(s, 1, 0, s->n - 1, from, s->n - 1, h, false);
}

size_t ab_range_prev_diff(struct ab_range_tree *s, size_t to, uint64_t h)
{
	return seg_diff_at(s, 1, 0, s->n - 1, 0, to, h, true);
}
