/*
 * Objects over time (planners/lib/object_sets.h) against naive references,
 * and executorch_greedy, which decides with them, against a plain
 * restatement of ExecuTorch's greedy (every object's allocations scanned).
 *
 * - ab_objsets: random adds, removals and queries on two layers (the
 *   second removable), every query against a scan of the intervals kept in
 *   a plain array; small steps and blocks of 1 to 32 steps, so that pieces,
 *   whole blocks, long covers and blocks past their inline pieces all
 *   occur.  And a case worked by hand.
 * - ab_objtops: random raises and queries against the maximum over the
 *   intervals kept in an array, enough of them that each object's blocks
 *   are rebuilt finer several times; a case by hand.
 * - executorch_greedy on random problems (some sizes 0, some too large for
 *   the interval index's keys, alignments 1 to 16) against the restatement.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "core/arenabench.h"
#include "lib/object_sets.h"

static uint64_t rng_next(uint64_t *s)
{
	*s += 0x9e3779b97f4a7c15ull;
	return ab_mix64(*s);
}

/* ------------------------------------------------------------ ab_objsets */

struct kept {
	unsigned layer;
	uint32_t object;
	int32_t first, last;
};

static size_t naive_first_without(const struct kept *k, size_t n,
				   unsigned layer, int32_t f, int32_t l,
				   size_t m)
{
	for (size_t o = 0; o < m; o++) {
		bool hit = false;

		for (size_t i = 0; i < n && !hit; i++)
			hit = k[i].layer == layer && k[i].object == o &&
			      k[i].first <= l && k[i].last >= f;
		if (!hit)
			return o;
	}
	return m;
}

static void random_interval(uint64_t *rng, int32_t steps, int32_t *f,
			    int32_t *l)
{
	uint64_t r = rng_next(rng);
	int32_t len;

	switch (r % 4) {
	case 0: /* one step */
		len = 1;
		break;
	case 1: /* short */
		len = 1 + (int32_t)((r >> 8) % 6);
		break;
	case 2: /* a few blocks */
		len = 1 + (int32_t)((r >> 8) % 40);
		break;
	default: /* up to every step */
		len = 1 + (int32_t)((r >> 8) % (uint64_t)steps);
		break;
	}
	if (len > steps)
		len = steps;
	*f = (int32_t)((r >> 32) % (uint64_t)(steps - len + 1));
	*l = *f + len - 1;
}

Test(object_sets, objsets_match_a_scan)
{
	static const int32_t steps_of[] = { 1, 7, 64, 130, 301 };
	static const unsigned shift_of[] = { 0, 1, 2, 3, 5 };
	uint64_t rng = 29;

	for (size_t t = 0; t < 5; t++) {
		int32_t steps = steps_of[t];
		struct ab_objsets s;
		struct kept *k = malloc(6000 * sizeof(*k));
		size_t n = 0, m = 0;

		cr_assert_not_null(k);
		cr_assert_eq(ab_objsets_init(&s, steps, shift_of[t], 2, 2u), 0);
		for (int step = 0; step < 6000; step++) {
			uint64_t r = rng_next(&rng);
			int32_t f, l;

			if (r % 100 < 3 && m < 150) { /* a new object */
				m++;
				cr_assert_eq(ab_objsets_reserve(&s, m), 0);
			} else if (r % 100 < 50 && m > 0 && n < 6000) {
				unsigned layer = (r >> 8) % 2;
				/* a few objects hold most: deep blocks */
				uint32_t o = (uint32_t)((r >> 16) % 4 == 0
					? (r >> 24) % m : (r >> 24) % (m < 5 ? m : 5));

				random_interval(&rng, steps, &f, &l);
				cr_assert_eq(ab_objsets_add(&s, layer, o, f, l), 0);
				k[n++] = (struct kept){ layer, o, f, l };
			} else if (r % 100 < 65 && n > 0) {
				size_t i = (size_t)((r >> 8) % n);

				if (k[i].layer != 1)
					continue;
				ab_objsets_remove(&s, 1, k[i].object, k[i].first,
						  k[i].last);
				k[i] = k[--n];
			} else {
				unsigned layer = (r >> 8) % 2;
				size_t below = m ? (size_t)((r >> 16) % (m + 1)) : 0;

				random_interval(&rng, steps, &f, &l);
				cr_assert_eq(ab_objsets_first_without(&s, layer, f, l,
								      below),
					     naive_first_without(k, n, layer, f, l,
								 below),
					     "steps %d, step %d: layer %u [%d, %d] below %zu",
					     steps, step, layer, f, l, below);
			}
		}
		/* every query once more, after the churn */
		for (int32_t f = 0; f < steps; f += 1 + steps / 50)
			for (int32_t l = f; l < steps; l += 1 + steps / 20)
				for (unsigned layer = 0; layer < 2; layer++)
					cr_assert_eq(ab_objsets_first_without(&s, layer, f, l, m),
						     naive_first_without(k, n, layer, f, l, m));
		ab_objsets_free(&s);
		free(k);
	}
}

/* 32 steps in blocks of 4.  Layer 0: object 0 holds [0, 3] (block 0 as
 * its start piece), object 1 [2, 9] (a start piece [2, 3], block 1 whole,
 * a piece [8, 9]), object 2 [13, 30], object 0 again [20, 20].  Layer 1:
 * object 2 holds [4, 11] twice (two start pieces [4, 7], block 2 whole,
 * counted twice), then loses one. */
Test(object_sets, objsets_by_hand)
{
	struct ab_objsets s;

	cr_assert_eq(ab_objsets_init(&s, 32, 2, 2, 2u), 0);
	cr_assert_eq(ab_objsets_reserve(&s, 3), 0);
	cr_assert_eq(ab_objsets_first_without(&s, 0, 0, 31, 0), 0);
	cr_assert_eq(ab_objsets_first_without(&s, 0, 0, 31, 3), 0);
	cr_assert_eq(ab_objsets_add(&s, 0, 0, 0, 3), 0);
	cr_assert_eq(ab_objsets_add(&s, 0, 1, 2, 9), 0);
	cr_assert_eq(ab_objsets_add(&s, 0, 2, 13, 30), 0);
	cr_assert_eq(ab_objsets_add(&s, 0, 0, 20, 20), 0);
	cr_assert_eq(ab_objsets_first_without(&s, 0, 0, 1, 3), 1);  /* 0 */
	cr_assert_eq(ab_objsets_first_without(&s, 0, 2, 2, 3), 2);  /* 0, 1 */
	cr_assert_eq(ab_objsets_first_without(&s, 0, 4, 12, 3), 0); /* 1 */
	cr_assert_eq(ab_objsets_first_without(&s, 0, 3, 13, 3), 3); /* all */
	cr_assert_eq(ab_objsets_first_without(&s, 0, 3, 13, 2), 2); /* m */
	cr_assert_eq(ab_objsets_first_without(&s, 0, 10, 12, 3), 0);
	cr_assert_eq(ab_objsets_first_without(&s, 0, 19, 21, 3), 1); /* 0 at 20 */
	cr_assert_eq(ab_objsets_first_without(&s, 0, 31, 31, 3), 0);
	cr_assert_eq(ab_objsets_first_without(&s, 1, 0, 31, 3), 0);
	cr_assert_eq(ab_objsets_add(&s, 1, 2, 4, 11), 0);
	cr_assert_eq(ab_objsets_add(&s, 1, 2, 4, 11), 0);
	cr_assert_eq(ab_objsets_add(&s, 1, 0, 5, 6), 0);
	cr_assert_eq(ab_objsets_first_without(&s, 1, 5, 5, 3), 1);
	cr_assert_eq(ab_objsets_first_without(&s, 1, 7, 7, 3), 0);
	cr_assert_eq(ab_objsets_first_without(&s, 1, 6, 7, 1), 1);
	cr_assert_eq(ab_objsets_first_without(&s, 1, 3, 3, 3), 0);
	ab_objsets_remove(&s, 1, 2, 4, 11);
	cr_assert_eq(ab_objsets_first_without(&s, 1, 5, 8, 1), 1);
	cr_assert_eq(ab_objsets_first_without(&s, 1, 8, 8, 3), 0);
	ab_objsets_remove(&s, 1, 0, 5, 6);
	cr_assert_eq(ab_objsets_first_without(&s, 1, 5, 6, 3), 0);
	/* object 2's second [4, 11] is still there */
	cr_assert_eq(ab_objsets_add(&s, 1, 0, 8, 8), 0);
	cr_assert_eq(ab_objsets_add(&s, 1, 1, 9, 9), 0);
	cr_assert_eq(ab_objsets_first_without(&s, 1, 8, 9, 3), 3);
	ab_objsets_remove(&s, 1, 2, 4, 11);
	cr_assert_eq(ab_objsets_first_without(&s, 1, 8, 9, 3), 2);
	/* layer 0 never saw layer 1 */
	cr_assert_eq(ab_objsets_first_without(&s, 0, 10, 12, 3), 0);
	ab_objsets_free(&s);
}

/* ------------------------------------------------------------ ab_objtops */

struct kept_top {
	uint32_t object;
	int32_t first, last;
	uint64_t end;
};

Test(object_sets, objtops_match_a_scan)
{
	static const int32_t steps_of[] = { 1, 9, 200, 1000 };
	uint64_t rng = 7;

	for (size_t t = 0; t < 4; t++) {
		int32_t steps = steps_of[t];
		struct ab_objtops tops;
		struct kept_top *k = malloc(4000 * sizeof(*k));
		size_t n = 0;

		cr_assert_not_null(k);
		cr_assert_eq(ab_objtops_init(&tops, steps), 0);
		for (uint32_t o = 0; o < 6; o++)
			cr_assert_eq(ab_objtops_add_object(&tops), 0);
		cr_assert_eq(tops.n, 6);
		for (int step = 0; step < 8000; step++) {
			uint64_t r = rng_next(&rng);
			uint32_t o = (uint32_t)((r >> 8) % 6);
			int32_t f, l;

			random_interval(&rng, steps, &f, &l);
			if (r % 2 && n < 4000) {
				uint64_t end = 1 + (r >> 20) % 100000;

				cr_assert_eq(ab_objtops_raise(&tops, o, f, l, end), 0);
				k[n++] = (struct kept_top){ o, f, l, end };
			} else {
				uint64_t want = 0;

				for (size_t i = 0; i < n; i++)
					if (k[i].object == o && k[i].first <= l &&
					    k[i].last >= f && k[i].end > want)
						want = k[i].end;
				cr_assert_eq(ab_objtops_max(&tops, o, f, l), want,
					     "steps %d, step %d: object %u [%d, %d]",
					     steps, step, o, f, l);
			}
		}
		if (steps >= 200) /* 4000 intervals rebuilt the blocks finer */
			cr_assert_lt(tops.obj[0].shift, tops.top_shift);
		ab_objtops_free(&tops);
		free(k);
	}
}

/* 16 steps.  Object 0: [0, 9] up to 5, [4, 4] up to 9, [12, 15] up to 2;
 * object 1: nothing. */
Test(object_sets, objtops_by_hand)
{
	struct ab_objtops tops;

	cr_assert_eq(ab_objtops_init(&tops, 16), 0);
	cr_assert_eq(ab_objtops_add_object(&tops), 0);
	cr_assert_eq(ab_objtops_add_object(&tops), 0);
	cr_assert_eq(ab_objtops_raise(&tops, 0, 0, 9, 5), 0);
	cr_assert_eq(ab_objtops_raise(&tops, 0, 4, 4, 9), 0);
	cr_assert_eq(ab_objtops_raise(&tops, 0, 12, 15, 2), 0);
	cr_assert_eq(ab_objtops_max(&tops, 0, 3, 3), 5);
	cr_assert_eq(ab_objtops_max(&tops, 0, 4, 6), 9);
	cr_assert_eq(ab_objtops_max(&tops, 0, 5, 11), 5);
	cr_assert_eq(ab_objtops_max(&tops, 0, 10, 11), 0);
	cr_assert_eq(ab_objtops_max(&tops, 0, 11, 12), 2);
	cr_assert_eq(ab_objtops_max(&tops, 0, 0, 15), 9);
	cr_assert_eq(ab_objtops_max(&tops, 1, 0, 15), 0);
	ab_objtops_free(&tops);
}

/* ------------------------------------------------- executorch_greedy */

/* ExecuTorch's greedy restated plainly: specs by padded size descending,
 * equal sizes by first use descending, then index descending (the
 * reversed insort over producer order); each goes to the first object
 * none of whose allocations overlaps it (at 0), else the first where the
 * highest end of the overlapping ones is above 0 and leaves room (there),
 * else a new object of its size; objects end to end. */
struct naive_spec {
	uint64_t size;
	int32_t first, last;
	size_t index;
};

static int by_upstream_order(const void *x, const void *y)
{
	const struct naive_spec *a = x, *b = y;

	if (a->size != b->size)
		return a->size > b->size ? -1 : 1;
	if (a->first != b->first)
		return a->first > b->first ? -1 : 1;
	return a->index > b->index ? -1 : a->index < b->index;
}

static uint64_t naive_executorch(const struct ab_problem *p, uint64_t align,
				 uint64_t *offset)
{
	size_t n = p->n, n_obj = 0;
	struct naive_spec *s = malloc((n + 1) * sizeof(*s));
	uint64_t *obj_size = malloc((n + 1) * sizeof(*obj_size)), total = 0;
	size_t *obj_of = malloc((n + 1) * sizeof(*obj_of));
	uint64_t *at = malloc((n + 1) * sizeof(*at));
	bool *placed = calloc(n + 1, sizeof(*placed));

	cr_assert(s && obj_size && obj_of && at && placed);
	for (size_t i = 0; i < n; i++)
		s[i] = (struct naive_spec){ ab_align_up(p->buf[i].size, align),
					    p->buf[i].first, p->buf[i].last, i };
	qsort(s, n, sizeof(*s), by_upstream_order);
	for (size_t k = 0; k < n; k++) {
		size_t pick = n_obj;
		uint64_t where = 0;

		for (size_t j = 0; j < n_obj && pick == n_obj; j++) {
			bool free_here = true;

			for (size_t i = 0; i < n; i++)
				if (placed[i] && obj_of[i] == j &&
				    p->buf[i].first <= s[k].last &&
				    p->buf[i].last >= s[k].first)
					free_here = false;
			if (free_here)
				pick = j;
		}
		for (size_t j = 0; j < n_obj && pick == n_obj; j++) {
			uint64_t top = 0;

			for (size_t i = 0; i < n; i++)
				if (placed[i] && obj_of[i] == j &&
				    p->buf[i].first <= s[k].last &&
				    p->buf[i].last >= s[k].first &&
				    at[i] + ab_align_up(p->buf[i].size, align) > top)
					top = at[i] + ab_align_up(p->buf[i].size,
								  align);
			if (top > 0 && top + s[k].size <= obj_size[j]) {
				pick = j;
				where = top;
			}
		}
		if (pick == n_obj)
			obj_size[n_obj++] = s[k].size;
		obj_of[s[k].index] = pick;
		at[s[k].index] = where;
		placed[s[k].index] = true;
	}
	for (size_t j = 0; j < n_obj; j++) {
		for (size_t i = 0; i < n; i++)
			if (obj_of[i] == j)
				offset[i] = total + at[i];
		total += obj_size[j];
	}
	free(s);
	free(obj_size);
	free(obj_of);
	free(at);
	free(placed);
	return total;
}

Test(object_sets, executorch_greedy_matches_the_restatement)
{
	const struct ab_planner *pl = ab_planner_find("executorch_greedy");
	static const uint32_t align_of[] = { 1, 4, 16 };
	uint64_t rng = 11;

	cr_assert_not_null(pl);
	for (int trial = 0; trial < 300; trial++) {
		uint64_t r = rng_next(&rng);
		size_t n = 1 + (size_t)(r % 120);
		int32_t steps = 1 + (int32_t)((r >> 8) % 90);
		uint32_t align = align_of[(r >> 16) % 3];
		bool empties = (r >> 20) % 3 == 0, huge = (r >> 24) % 10 == 0,
		     few_sizes = (r >> 28) % 2;
		struct ab_problem p = { 0 };
		struct ab_plan plan;
		struct ab_plan_options o = { .align = align };
		uint64_t *want = malloc(n * sizeof(*want)), peak;

		cr_assert_not_null(want);
		cr_assert_eq(ab_problem_alloc(&p, n), 0);
		p.name = strdup("random");
		for (size_t i = 0; i < n; i++) {
			uint64_t q = rng_next(&rng);

			random_interval(&rng, steps, &p.buf[i].first,
					&p.buf[i].last);
			p.buf[i].size = few_sizes ? 1 + q % 4 * 8 : 1 + q % 1000;
			if (empties && q % 5 == 0)
				p.buf[i].size = 0;
			if (huge && q % 7 == 0) /* keys past 64 bits: the scan */
				p.buf[i].size = (uint64_t)1 << 56;
			p.buf[i].align = 1;
			p.id[i] = (int64_t)i;
		}
		p.steps = steps;
		peak = naive_executorch(&p, align, want);
		cr_assert_eq(ab_plan_alloc(&plan, n), 0);
		cr_assert_eq(pl->plan(&p, &o, &plan), 0);
		for (size_t i = 0; i < n; i++)
			cr_assert_eq(plan.offset[i], want[i],
				     "trial %d: buffer %zu at %llu, want %llu",
				     trial, i, (unsigned long long)plan.offset[i],
				     (unsigned long long)want[i]);
		cr_assert_eq(plan.peak, peak, "trial %d", trial);
		ab_plan_free(&plan);
		ab_problem_free(&p);
		free(want);
	}
}
