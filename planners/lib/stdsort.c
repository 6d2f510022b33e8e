/* libstdc++'s std::sort order, reproduced: see stdsort.h.  The steps follow
 * GCC's documented introsort (bits/stl_algo.h): threshold 16, depth limit
 * 2*floor(log2 n), median of (first+1, middle, last-1) moved to first,
 * Hoare-style unguarded partition, heap select/sort on depth exhaustion,
 * final insertion sort (guarded on the first 16, unguarded after). */
#include "lib/stdsort.h"

#define THRESHOLD 16

struct ctx {
	ab_less_fn less;
	const void *c;
};

static bool lt(const struct ctx *c, uint32_t a, uint32_t b)
{
	return c->less(a, b, c->c);
}

static void swap(uint32_t *x, uint32_t *y)
{
	uint32_t t = *x;

	*x = *y;
	*y = t;
}

/* ---- heap (std::make_heap / __adjust_heap / std::sort_heap) */

static void push_heap(uint32_t *a, size_t hole, size_t top, uint32_t v,
		      const struct ctx *c)
{
	size_t parent = (hole - 1) / 2;

	while (hole > top && lt(c, a[parent], v)) {
		a[hole] = a[parent];
		hole = parent;
		parent = (hole - 1) / 2;
	}
	a[hole] = v;
}

static void adjust_heap(uint32_t *a, size_t hole, size_t len, uint32_t v,
			const struct ctx *c)
{
	size_t top = hole, child = hole;

	while (len > 2 && child < (len - 1) / 2) {
		child = 2 * (child + 1);
		if (lt(c, a[child], a[child - 1]))
			child--;
		a[hole] = a[child];
		hole = child;
	}
	if ((len & 1) == 0 && len >= 2 && child == (len - 2) / 2) {
		child = 2 * (child + 1);
		a[hole] = a[child - 1];
		hole = child - 1;
	}
	push_heap(a, hole, top, v, c);
}

static void make_heap(uint32_t *a, size_t len, const struct ctx *c)
{
	if (len < 2)
		return;
	for (size_t parent = (len - 2) / 2;; parent--) {
		adjust_heap(a, parent, len, a[parent], c);
		if (parent == 0)
			break;
	}
}

static void pop_heap(uint32_t *a, size_t last, size_t result,
		     const struct ctx *c)
{
	uint32_t v = a[result];

	a[result] = a[0];
	adjust_heap(a, 0, last, v, c);
}

/* std::__partial_sort(first, last, last): heap select + sort_heap. */
static void heap_sort(uint32_t *a, size_t n, const struct ctx *c)
{
	make_heap(a, n, c);
	/* __heap_select with middle == last does nothing more. */
	while (n > 1) {
		n--;
		pop_heap(a, n, n, c);
	}
}

/* ---- introsort */

static void move_median_to_first(uint32_t *r, uint32_t *a, uint32_t *b,
				 uint32_t *cc, const struct ctx *c)
{
	if (lt(c, *a, *b)) {
		if (lt(c, *b, *cc))
			swap(r, b);
		else if (lt(c, *a, *cc))
			swap(r, cc);
		else
			swap(r, a);
	} else if (lt(c, *a, *cc)) {
		swap(r, a);
	} else if (lt(c, *b, *cc)) {
		swap(r, cc);
	} else {
		swap(r, b);
	}
}

static uint32_t *partition(uint32_t *first, uint32_t *last, uint32_t *pivot,
			   const struct ctx *c)
{
	for (;;) {
		while (lt(c, *first, *pivot))
			first++;
		last--;
		while (lt(c, *pivot, *last))
			last--;
		if (!(first < last))
			return first;
		swap(first, last);
		first++;
	}
}

static void introsort(uint32_t *first, uint32_t *last, int depth,
		      const struct ctx *c)
{
	while (last - first > THRESHOLD) {
		uint32_t *mid, *cut;

		if (depth == 0) {
			heap_sort(first, (size_t)(last - first), c);
			return;
		}
		depth--;
		mid = first + (last - first) / 2;
		move_median_to_first(first, first + 1, mid, last - 1, c);
		cut = partition(first + 1, last, first, c);
		introsort(cut, last, depth, c);
		last = cut;
	}
}

static void linear_insert(uint32_t *last, const struct ctx *c)
{
	uint32_t v = *last, *next = last - 1;

	while (lt(c, v, *next)) {
		*last = *next;
		last = next;
		next--;
	}
	*last = v;
}

static void insertion_sort(uint32_t *first, uint32_t *last,
			   const struct ctx *c)
{
	if (first == last)
		return;
	for (uint32_t *i = first + 1; i != last; i++) {
		if (lt(c, *i, *first)) {
			uint32_t v = *i;

			for (uint32_t *j = i; j != first; j--)
				*j = *(j - 1);
			*first = v;
		} else {
			linear_insert(i, c);
		}
	}
}

void ab_sort_like_libstdcxx(uint32_t *a, size_t n, ab_less_fn less,
			    const void *ctxp)
{
	struct ctx c = { less, ctxp };
	int lg = 0;

	if (n < 2)
		return;
	while (((size_t)1 << (lg + 1)) <= n)
		lg++;
	introsort(a, a + n, 2 * lg, &c);
	if (n > THRESHOLD) {
		insertion_sort(a, a + THRESHOLD, &c);
		for (uint32_t *i = a + THRESHOLD; i != a + n; i++)
			linear_insert(i, &c);
	} else {
		insertion_sort(a, a + n, &c);
	}
}
