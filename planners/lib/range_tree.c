/* A range tree with lazy range add: see range_tree.h. */
#include <errno.h>
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

uint64_t ab_range_leftmost_min(struct ab_range_tree *s, size_t *at)
{
	size_t v = 1, l = 0, r = s->n - 1;

	while (l < r) {
		seg_push(s, v);
		if (s->mn[2 * v] == s->mn[v]) {
			v = 2 * v;
			r = (l + r) / 2;
		} else {
			v = 2 * v + 1;
			l = (l + r) / 2 + 1;
		}
	}
	*at = l;
	return s->mn[v];
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

static size_t seg_next_diff_at(struct ab_range_tree *s, size_t v, size_t l, size_t r,
			       size_t from, uint64_t h)
{
	size_t k;

	if (r < from || (s->mn[v] == h && s->mx[v] == h))
		return s->n;
	if (l == r)
		return l;
	seg_push(s, v);
	k = seg_next_diff_at(s, 2 * v, l, (l + r) / 2, from, h);
	if (k < s->n)
		return k;
	return seg_next_diff_at(s, 2 * v + 1, (l + r) / 2 + 1, r, from, h);
}

static size_t seg_prev_diff_at(struct ab_range_tree *s, size_t v, size_t l, size_t r,
			       size_t to, uint64_t h)
{
	size_t k;

	if (l > to || (s->mn[v] == h && s->mx[v] == h))
		return s->n;
	if (l == r)
		return l;
	seg_push(s, v);
	k = seg_prev_diff_at(s, 2 * v + 1, (l + r) / 2 + 1, r, to, h);
	if (k < s->n)
		return k;
	return seg_prev_diff_at(s, 2 * v, l, (l + r) / 2, to, h);
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
	size_t v = 1, l = 0, r = s->n - 1;

	while (l < r) {
		seg_push(s, v);
		if (at <= (l + r) / 2) {
			v = 2 * v;
			r = (l + r) / 2;
		} else {
			v = 2 * v + 1;
			l = (l + r) / 2 + 1;
		}
	}
	return s->mn[v];
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
	return seg_next_diff_at(s, 1, 0, s->n - 1, from, h);
}

size_t ab_range_prev_diff(struct ab_range_tree *s, size_t to, uint64_t h)
{
	return seg_prev_diff_at(s, 1, 0, s->n - 1, to, h);
}
