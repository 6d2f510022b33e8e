/*
 * The pieces of first fit's walk (planners/lib/piecewise.h,
 * first_fit_index.c) against naive references:
 *
 *  - pw_blocked_mask (a chunk's pieces at or above a threshold, four at a
 *    time with SSE2) against a scan, on random chunks of every length and
 *    at the extreme thresholds, and by hand;
 *  - pw_next_run (a function's blocked runs at a threshold, read as chunk
 *    masks, for a position that only rises, with seeks over chunks)
 *    against the same function kept as a plain array, painted alike;
 *  - greedy_conflicts (its conflict counts by prefix sums or by search)
 *    against a naive count, order and first fit (tests/lib/oracle.c);
 *  - ff_rank_lifetimes: ranking by counting over a dense span of steps and
 *    by sorting the end points (steps spread out) give the same ranks,
 *    pairs, reach and lengths; and a case by hand.
 *
 * The whole walk's offsets are pinned by tests/test_mechanics.c (the
 * O(n^2) oracle) and tests/test_routes.c (listing against the index).
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "core/arenabench.h"
#include "testutil.h"
#include "lib/first_fit_internal.h"
#include "lib/piecewise.h"
#include "oracle.h"

/* ------------------------------------------------------------ masks */

Test(first_fit_walk, blocked_mask_by_hand)
{
	struct chunk c = { .n = 6, .val = { 5, 1, 7, 7, INT32_MIN, 3 } };

	/* pieces 0, 2 and 3 are at or above 5 */
	cr_assert_eq(pw_blocked_mask(&c, 5), 0x0dull);
	cr_assert_eq(pw_blocked_mask(&c, 8), 0ull);
	cr_assert_eq(pw_blocked_mask(&c, INT32_MIN), 0x3full);
	c.n = 3; /* pieces from n on are never set */
	cr_assert_eq(pw_blocked_mask(&c, 5), 0x05ull);
}

Test(first_fit_walk, blocked_mask_matches_a_scan)
{
	static const int32_t edge[] = { INT32_MIN, INT32_MIN + 1, -1, 0, 1,
					INT32_MAX - 1, INT32_MAX };
	uint64_t s = 99;

	for (int trial = 0; trial < 20000; trial++) {
		struct chunk c;
		int32_t a;
		uint64_t want = 0;

		memset(&c, 0, sizeof(c));
		c.n = (uint32_t)tu_rng_below(&s, CHUNK + 1);
		for (uint32_t k = 0; k < CHUNK; k++) /* past n too: must not count */
			c.val[k] = trial % 3 ? (int32_t)tu_rng_below(&s, 40) - 20
					     : edge[tu_rng_below(&s, 7)];
		a = trial % 5 ? (int32_t)tu_rng_below(&s, 44) - 22 : edge[tu_rng_below(&s, 7)];
		for (uint32_t k = 0; k < c.n; k++)
			if (c.val[k] >= a)
				want |= 1ull << k;
		cr_assert_eq(pw_blocked_mask(&c, a), want, "trial %d: n %u, a %d",
			     trial, c.n, a);
	}
}

/* ------------------------------------------------------------- runs */

#define SPAN 6000 /* addresses painted: [0, SPAN); beyond it uncovered */

/* The first maximal run [*rs, *re) of h >= a with *re > y; false: none. */
static bool naive_run(const int32_t *h, int32_t a, uint64_t y, uint64_t *rs,
		      uint64_t *re)
{
	for (uint64_t x = 0; x < SPAN; x++) {
		uint64_t e = x;

		if (h[x] < a)
			continue;
		while (e < SPAN && h[e] >= a)
			e++;
		if (e > y) {
			*rs = x;
			*re = e;
			return true;
		}
		x = e;
	}
	return false;
}

Test(first_fit_walk, runs_match_a_naive_function)
{
	uint64_t s = 7;
	uint32_t most_chunks = 0;

	for (int trial = 0; trial < 60; trial++) {
		struct pool pl = { 0 };
		struct fun f = { 0 };
		int32_t *h = malloc(SPAN * sizeof(*h));
		int paints = 1 + (int)tu_rng_below(&s, trial % 4 ? 900 : 40);

		cr_assert(h);
		for (size_t x = 0; x < SPAN; x++)
			h[x] = UNCOVERED;
		for (int q = 0; q < paints; q++) {
			uint64_t lo = tu_rng_below(&s, SPAN - 1);
			uint64_t hi = lo + 1 + tu_rng_below(&s, trial % 2 ? 8 : 300);
			int32_t v = (int32_t)tu_rng_below(&s, 60);

			hi = hi > SPAN ? SPAN : hi;
			cr_assert_eq(pw_paint(&pl, &f, lo, hi, v), 0);
			for (uint64_t x = lo; x < hi; x++)
				h[x] = h[x] < v ? v : h[x];
		}
		most_chunks = f.n > most_chunks ? f.n : most_chunks;
		for (int32_t a = 0; a <= 60; a += 1 + (int32_t)tu_rng_below(&s, 6)) {
			struct pw_runs r;
			uint64_t y = 0, rs = 0, re = 0, ns = 0, ne = 0;

			pw_runs_init(&r, &pl, &f, a);
			for (;;) {
				/* each run comes once: the next one ends past y and
				 * past the run returned before */
				uint64_t past = y > re ? y : re;
				bool got = pw_next_run(&r, y, &rs, &re);
				bool want = naive_run(h, a, past, &ns, &ne);

				cr_assert_eq(got, want, "trial %d, a %d, y %lu: %d [%lu, %lu) against %d [%lu, %lu)",
					     trial, a, (unsigned long)y, got, (unsigned long)rs,
					     (unsigned long)re, want, (unsigned long)ns,
					     (unsigned long)ne);
				if (!got)
					break;
				/* the run's end exactly; its start may be said to be
				 * y when the run holds y (a seek landed in it) */
				cr_assert_eq(re, ne, "trial %d, a %d, y %lu: [%lu, %lu) against [%lu, %lu)",
					     trial, a, (unsigned long)y, (unsigned long)rs,
					     (unsigned long)re, (unsigned long)ns,
					     (unsigned long)ne);
				cr_assert(rs >= ns && rs <= (ns > y ? ns : y),
					  "trial %d, a %d, y %lu: start %lu of [%lu, %lu)",
					  trial, a, (unsigned long)y, (unsigned long)rs,
					  (unsigned long)ns, (unsigned long)ne);
				/* the walk's position only rises: a little, to the
				 * run's end, or a long way (over whole chunks) */
				switch (tu_rng_below(&s, 4)) {
				case 0:
					y += tu_rng_below(&s, 4);
					break;
				case 1:
					y = re;
					break;
				case 2:
					y = re + tu_rng_below(&s, 40);
					break;
				default:
					y += tu_rng_below(&s, 1500);
				}
			}
		}
		pw_pool_free(&pl);
		free(h);
	}
	cr_assert_gt(most_chunks, 8, "functions of several chunks: seeks are tried");
}

/* ------------------------------------------------------------ ranks */

static void expect_same_ranks(const struct ranks *x, const struct ranks *y,
			      size_t n)
{
	cr_assert_eq(x->steps, y->steps);
	cr_assert_eq(x->reach, y->reach);
	cr_assert_eq(x->total_len, y->total_len);
	cr_assert_eq(x->pairs, y->pairs);
	for (size_t i = 0; i < n; i++) {
		cr_assert_eq(x->first[i], y->first[i], "buffer %zu", i);
		cr_assert_eq(x->last[i], y->last[i], "buffer %zu", i);
	}
}

Test(first_fit_walk, ranks_by_hand)
{
	struct ab_problem p = { 0 };
	struct ranks r;

	cr_assert_eq(ab_problem_alloc(&p, 3), 0);
	/* steps 0, 2, 5, 9: ranks 0, 1, 2, 3; [0,2] and [2,5] share step 2 */
	p.buf[0] = (struct ab_buffer){ 10, 1, 0, 2 };
	p.buf[1] = (struct ab_buffer){ 10, 1, 2, 5 };
	p.buf[2] = (struct ab_buffer){ 10, 1, 9, 9 };
	cr_assert_eq(ff_rank_lifetimes(&p, NULL, 3, &r), 0);
	cr_assert_eq(r.steps, 4);
	cr_assert_eq(r.first[0], 0);
	cr_assert_eq(r.last[0], 1);
	cr_assert_eq(r.first[1], 1);
	cr_assert_eq(r.last[1], 2);
	cr_assert_eq(r.first[2], 3);
	cr_assert_eq(r.last[2], 3);
	cr_assert_eq(r.pairs, 1);
	cr_assert_eq(r.reach, 1);
	cr_assert_eq(r.total_len, 2);
	ff_ranks_free(&r);
	/* the same steps spread 1000 apart are ranked by the sort: the same */
	for (int i = 0; i < 3; i++) {
		p.buf[i].first *= 1000;
		p.buf[i].last *= 1000;
	}
	cr_assert_eq(ff_rank_lifetimes(&p, NULL, 3, &r), 0);
	cr_assert_eq(r.steps, 4);
	cr_assert_eq(r.first[2], 3);
	cr_assert_eq(r.pairs, 1);
	ff_ranks_free(&r);
	ab_problem_free(&p);
}

/* Ranks by counting (steps dense) and by sorting (the same steps times a
 * spread that takes the span past DENSE_SPAN x m): ranks only depend on
 * the order of the steps, so both must agree, over every buffer and over
 * a subset given as an order. */
Test(first_fit_walk, ranks_dense_and_sorted_agree)
{
	uint64_t s = 31;

	for (int trial = 0; trial < 200; trial++) {
		size_t n = 1 + tu_rng_below(&s, 400);
		int32_t steps = 1 + (int32_t)tu_rng_below(&s, trial % 2 ? 50 : 3 * (uint64_t)n);
		int32_t base = (int32_t)tu_rng_below(&s, 1000) - 500;
		struct ab_problem dense = { 0 }, spread = { 0 };
		uint32_t *order = malloc(n * sizeof(*order));
		size_t m = 0;
		struct ranks rd, rs;

		cr_assert(order);
		cr_assert_eq(ab_problem_alloc(&dense, n), 0);
		cr_assert_eq(ab_problem_alloc(&spread, n), 0);
		for (size_t i = 0; i < n; i++) {
			int32_t a = (int32_t)tu_rng_below(&s, (uint64_t)steps);
			int32_t b = a + (int32_t)tu_rng_below(&s, (uint64_t)(steps - a));

			dense.buf[i] = (struct ab_buffer){ 1 + tu_rng_below(&s, 100), 1,
							   base + a, base + b };
			spread.buf[i] = dense.buf[i];
			spread.buf[i].first = base + a * 1000;
			spread.buf[i].last = base + b * 1000;
			if (tu_rng_below(&s, 3))
				order[m++] = (uint32_t)(n - 1 - i);
		}
		cr_assert_eq(ff_rank_lifetimes(&dense, NULL, n, &rd), 0);
		cr_assert_eq(ff_rank_lifetimes(&spread, NULL, n, &rs), 0);
		expect_same_ranks(&rd, &rs, n);
		ff_ranks_free(&rd);
		ff_ranks_free(&rs);
		if (m) {
			cr_assert_eq(ff_rank_lifetimes(&dense, order, m, &rd), 0);
			cr_assert_eq(ff_rank_lifetimes(&spread, order, m, &rs), 0);
			cr_assert_eq(rd.steps, rs.steps);
			cr_assert_eq(rd.pairs, rs.pairs);
			cr_assert_eq(rd.reach, rs.reach);
			cr_assert_eq(rd.total_len, rs.total_len);
			for (size_t j = 0; j < m; j++) {
				cr_assert_eq(rd.first[order[j]], rs.first[order[j]]);
				cr_assert_eq(rd.last[order[j]], rs.last[order[j]]);
			}
			ff_ranks_free(&rd);
			ff_ranks_free(&rs);
		}
		ab_problem_free(&dense);
		ab_problem_free(&spread);
		free(order);
	}
}

/* ------------------------------------------------- greedy_conflicts */

static uint64_t *naive_conflicts_key;
static const struct ab_problem *naive_p;

static int by_conflicts_size_index(const void *x, const void *y)
{
	uint32_t i = *(const uint32_t *)x, j = *(const uint32_t *)y;

	if (naive_conflicts_key[i] != naive_conflicts_key[j])
		return naive_conflicts_key[i] > naive_conflicts_key[j] ? -1 : 1;
	if (naive_p->buf[i].size != naive_p->buf[j].size)
		return naive_p->buf[i].size > naive_p->buf[j].size ? -1 : 1;
	return i < j ? -1 : (i > j);
}

/* greedy_conflicts (its counts by prefix sums over dense steps, or by
 * binary searches when the steps are spread out) against its description
 * done naively: conflicts counted pair by pair, the order by (conflicts
 * desc, size desc, index), then the O(n^2) first-fit oracle. */
Test(first_fit_walk, greedy_conflicts_matches_a_naive_count)
{
	const struct ab_planner *pl = ab_planner_find("greedy_conflicts");
	uint64_t s = 5;

	cr_assert(pl);
	for (int trial = 0; trial < 120; trial++) {
		size_t n = 1 + tu_rng_below(&s, 300);
		int32_t steps = 1 + (int32_t)tu_rng_below(&s, 2 * (uint64_t)n);
		int32_t spread = trial % 2 ? 1 : 1000; /* counts by prefix or search */
		struct ab_problem p = { 0 };
		struct ab_plan plan;
		struct ab_plan_options o = { .align = 1 };
		uint32_t *order = malloc(n * sizeof(*order));
		uint64_t *want = malloc(n * sizeof(*want));

		naive_conflicts_key = malloc(n * sizeof(*naive_conflicts_key));
		cr_assert(order && want && naive_conflicts_key);
		cr_assert_eq(ab_problem_alloc(&p, n), 0);
		for (size_t i = 0; i < n; i++) {
			int32_t a = (int32_t)tu_rng_below(&s, (uint64_t)steps);
			int32_t b = a + (int32_t)tu_rng_below(&s, (uint64_t)(steps - a));

			p.buf[i] = (struct ab_buffer){ 1 + tu_rng_below(&s, 8) * 16, 1,
						       a * spread, b * spread };
		}
		p.steps = steps * spread;
		for (size_t i = 0; i < n; i++) {
			uint64_t c = 0;

			for (size_t j = 0; j < n; j++)
				c += j != i && p.buf[j].first <= p.buf[i].last &&
				     p.buf[j].last >= p.buf[i].first;
			naive_conflicts_key[i] = c;
			order[i] = (uint32_t)i;
		}
		naive_p = &p;
		qsort(order, n, sizeof(*order), by_conflicts_size_index);
		cr_assert_eq(oracle_first_fit(&p, &o, order, n, want), 0);
		cr_assert_eq(ab_plan_alloc(&plan, n), 0);
		cr_assert_eq(pl->plan(&p, &o, &plan), 0);
		for (size_t i = 0; i < n; i++)
			cr_assert_eq(plan.offset[i], want[i], "trial %d, buffer %zu", trial, i);
		ab_plan_free(&plan);
		ab_problem_free(&p);
		free(order);
		free(want);
		free(naive_conflicts_key);
	}
}
