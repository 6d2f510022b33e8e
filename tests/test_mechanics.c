/*
 * The fast mechanics against their O(n^2) oracles (tests/lib/oracle.c) on
 * seeded random problems: varied sizes (zero, tiny, log-spread), own
 * alignments, option alignments and lifetimes (short, long, persistent).
 *
 *  - placement.c first fit and best fit, in size-descending and first-use
 *    order: identical offsets;
 *  - first_fit_index.c (the checkpoint index first fit uses at scale) at
 *    forced checkpoint spacings 1..256, on the same problems, on large-k
 *    problems (many buffers live at once, sweep-like and dense) and on a
 *    small problem whose offsets are worked out by hand: identical offsets;
 *    the first-fit planners (size_first_fit, tflm_greedy,
 *    first_fit_in_order) on the large problems, where the index is chosen;
 *  - size_first_fit, greedy_last_use and linear: identical offsets (they
 *    are deterministic); every registered planner: the fast validator and
 *    the pairwise one agree on its plan;
 *  - validate.c against the pairwise check on valid plans and on plans
 *    broken on purpose (a buffer moved onto a live neighbour, misaligned,
 *    above the peak, random offsets): the same verdict;
 *  - the radix sort and ab_rank_by_time against stable references.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "core/arenabench.h"
#include "testutil.h"
#include "lib/first_fit_index.h"
#include "lib/first_fit_internal.h"
#include "lib/memo.h"
#include "lib/ordset.h"
#include "lib/piecewise.h"
#include "oracle.h"
#include "lib/placement.h"
#include "check/check.h"

#define PROBLEMS 300

/* A random problem; `seed` picks the shape as well as the values. */
static void random_problem(uint64_t seed, struct ab_problem *p)
{
	uint64_t s = seed * 0x9e3779b97f4a7c15ull + 1;
	size_t n = 1 + tu_rng_below(&s, seed % 4 == 0 ? 12 : 160);
	int32_t steps = 1 + (int32_t)tu_rng_below(&s, seed % 3 == 0 ? 8 : 120);
	static const uint32_t aligns[] = { 1, 1, 1, 2, 4, 8, 16, 64, 3 };

	cr_assert_eq(ab_problem_alloc(p, n), 0);
	p->steps = steps;
	for (size_t i = 0; i < n; i++) {
		struct ab_buffer *b = &p->buf[i];
		uint64_t kind = tu_rng_below(&s, 10);

		b->first = (int32_t)tu_rng_below(&s, (uint64_t)steps);
		if (kind == 0) /* persistent */
			b->last = steps - 1;
		else if (kind < 4) /* short */
			b->last = b->first + (int32_t)tu_rng_below(&s, 3);
		else
			b->last = b->first + (int32_t)tu_rng_below(&s, (uint64_t)steps / 2 + 1);
		if (b->last >= steps)
			b->last = steps - 1;
		kind = tu_rng_below(&s, 20);
		if (kind == 0)
			b->size = 0;
		else if (kind < 4)
			b->size = 1 + tu_rng_below(&s, 8);
		else if (kind < 8) /* many equal sizes: ties */
			b->size = 64u << tu_rng_below(&s, 3);
		else
			b->size = 1 + tu_rng_below(&s, 1ull << (4 + tu_rng_below(&s, 16)));
		/* non-power-of-two alignments only where seeds say so */
		b->align = aligns[tu_rng_below(&s, seed % 5 == 0 ? 9 : 8)];
		p->id[i] = (int64_t)i;
	}
}

static uint32_t option_align(uint64_t seed)
{
	static const uint32_t a[] = { 1, 1, 16, 64, 4 };

	return a[seed % 5];
}

static void check_orders(ab_gap_rule rule)
{
	for (uint64_t seed = 1; seed <= PROBLEMS; seed++) {
		struct ab_problem p = { 0 };
		struct ab_plan_options o = { .align = option_align(seed) };

		random_problem(seed, &p);
		for (int which = 0; which < 2; which++) {
			uint32_t *order = malloc(p.n * sizeof(*order));
			uint64_t *fast = calloc(p.n, sizeof(*fast));
			uint64_t *slow = calloc(p.n, sizeof(*slow)), top;

			cr_assert(order && fast && slow);
			cr_assert_eq(which ? ab_order_first_use(&p, order)
					   : ab_order_size_desc(&p, order), 0);
			cr_assert_eq(ab_place_in_order(&p, &o, order, p.n, rule,
						       fast, &top), 0);
			cr_assert_eq(rule == ab_fit_first
					     ? oracle_first_fit(&p, &o, order, p.n, slow)
					     : oracle_best_fit(&p, &o, order, p.n, slow),
				     0);
			for (size_t i = 0; i < p.n; i++)
				cr_assert_eq(fast[i], slow[i],
					     "seed %llu order %d align %u: buffer %zu at %llu, oracle %llu",
					     (unsigned long long)seed, which, o.align, i,
					     (unsigned long long)fast[i],
					     (unsigned long long)slow[i]);
			/* the checkpoint index, whatever its spacing and its
			 * time-local batches (1 = in the order itself, 0 =
			 * the default) */
			for (uint32_t w = 1; rule == ab_fit_first && w <= 256; w *= 4)
			for (size_t b = 0; b < 5; b++) {
				/* batch (1 = in order, 0 = default), threads (2 =
				 * cut in time whenever a cut exists) */
				static const struct { size_t batch; unsigned threads; }
					run[] = { { 1, 1 }, { 3, 1 }, { 0, 1 }, { 1, 2 }, { 0, 2 } };
				struct ab_first_fit_config cfg = {
					w, run[b].batch, run[b].threads
				};
				uint64_t top2;

				cr_assert_eq(ab_first_fit_place(&p, &o, order, p.n, &cfg,
								fast, &top2, NULL), 0);
				cr_assert_eq(top2, top);
				for (size_t i = 0; i < p.n; i++)
					cr_assert_eq(fast[i], slow[i],
						     "seed %llu order %d align %u spacing %u batch %zu threads %u: buffer %zu at %llu, oracle %llu",
						     (unsigned long long)seed, which, o.align, w,
						     cfg.batch, cfg.threads, i,
						     (unsigned long long)fast[i],
						     (unsigned long long)slow[i]);
			}
			free(order);
			free(fast);
			free(slow);
		}
		ab_problem_free(&p);
	}
}

Test(mechanics, first_fit_matches_oracle)
{
	check_orders(ab_fit_first);
}

Test(mechanics, best_fit_matches_oracle)
{
	check_orders(ab_fit_best);
}

/*
 * The checkpoint index by hand, lifetimes [first, last] and sizes in bytes,
 * placed in index order:
 *   0 [0,9] 100   1 [2,3] 50   2 [5,6] 30   3 [3,5] 40
 *   4 [7,8] 60    5 [4,4] 0    6 [4,4] 10   7 [8,9] 25
 * Alignment 1:  0 at 0; 1 meets 0 -> 100; 2 meets only 0 (1 ended at 3)
 * -> 100; 3 meets 0, 1 [100,150) and 2 [100,130) -> 150; 4 meets only 0
 * -> 100; 5 has size 0 -> 0; 6 meets 0 and 3 [150,190) (5 is a point at
 * 0, inside no window) -> [100,110) fits -> 100; 7 meets 0 and 4
 * [100,160) -> 160.
 * Alignment 16: 1 -> align(100) = 112; 2 -> 112; 3 -> 112, then past 1's
 * end 162 -> 176; 4 -> 112; 5 -> 0; 6 -> 112 (3 starts at 176); 7 -> 112,
 * then past 4's end 172 -> 176.
 * Every spacing cuts the 9 distinct steps differently (gap lists, painted
 * functions, reach); the answers may not change.
 */
Test(mechanics, first_fit_index_by_hand)
{
	static const int32_t first[] = { 0, 2, 5, 3, 7, 4, 4, 8 };
	static const int32_t last[] = { 9, 3, 6, 5, 8, 4, 4, 9 };
	static const uint64_t size[] = { 100, 50, 30, 40, 60, 0, 10, 25 };
	static const uint64_t want1[] = { 0, 100, 100, 150, 100, 0, 100, 160 };
	static const uint64_t want16[] = { 0, 112, 112, 176, 112, 0, 112, 176 };
	uint32_t order[8];
	struct ab_problem p = { 0 };

	cr_assert_eq(ab_problem_alloc(&p, 8), 0);
	p.steps = 10;
	for (uint32_t i = 0; i < 8; i++) {
		p.buf[i] = (struct ab_buffer){ .size = size[i], .align = 1,
					      .first = first[i], .last = last[i] };
		p.id[i] = i;
		order[i] = i;
	}
	for (uint32_t w = 1; w <= 16; w *= 2) {
		for (int which = 0; which < 4; which++) {
			/* batch 8 takes all by first use: 0, 1, 3, 5, 6, then 2
			 * must come before 3 (it is earlier and they share step
			 * 5), so the schedule is 0 1 2 3 4 5 6 7 reordered to
			 * 0 1 2 3 5 6 4 7; batch 3 cuts {0,1,2} {3,4,5} {6,7} */
			static const size_t batch[] = { 1, 8, 3, 1 };
			struct ab_plan_options o = { .align = which % 2 ? 16 : 1 };
			const uint64_t *want = which % 2 ? want16 : want1;
			struct ab_first_fit_config cfg = { w, batch[which], 1 };
			struct ab_first_fit_stats st;
			uint64_t off[8], top;

			cr_assert_eq(ab_first_fit_place(&p, &o, order, 8, &cfg,
							off, &top, &st), 0);
			for (size_t i = 0; i < 8; i++)
				cr_assert_eq(off[i], want[i],
					     "spacing %u align %u batch %zu: buffer %zu at %llu, want %llu",
					     w, o.align, batch[which], i,
					     (unsigned long long)off[i],
					     (unsigned long long)want[i]);
			cr_assert_eq(top, which % 2 ? 216u : 190u); /* 3's end */
			cr_assert_eq(st.spacing, w);
			cr_assert_eq(st.batch, batch[which]);
			cr_assert_eq(st.queries, 8);
		}
	}
	ab_problem_free(&p);
}

/* Large k: `dense` keeps most of n buffers live together over few steps;
 * otherwise the scaling sweep's shape (n steps, lifetimes up to
 * 2 sqrt(n) - 1, ~sqrt(n) live), with zero sizes and odd alignments. */
static void large_problem(uint64_t seed, size_t n, bool dense,
			  struct ab_problem *p)
{
	uint64_t s = seed * 0x9e3779b97f4a7c15ull + 7;
	int32_t steps = dense ? 40 : (int32_t)n;
	int32_t longest = 1;
	static const uint32_t aligns[] = { 1, 1, 1, 4, 16, 3 };

	while ((int64_t)(longest + 1) * (longest + 1) <= 4 * (int64_t)n)
		longest++; /* ~2 sqrt(n) */
	cr_assert_eq(ab_problem_alloc(p, n), 0);
	p->steps = steps;
	for (size_t i = 0; i < n; i++) {
		struct ab_buffer *b = &p->buf[i];

		b->first = (int32_t)tu_rng_below(&s, (uint64_t)steps);
		b->last = b->first + (int32_t)tu_rng_below(&s, dense ? (uint64_t)steps
								  : (uint64_t)longest - 1);
		if (b->last >= steps)
			b->last = steps - 1;
		b->size = tu_rng_below(&s, 20) == 0 ? 0
			  : 1 + tu_rng_below(&s, 1ull << (6 + tu_rng_below(&s, 12)));
		b->align = aligns[tu_rng_below(&s, 6)];
		p->id[i] = (int64_t)i;
	}
}

static void expect_oracle(const struct ab_problem *p,
			  const struct ab_plan_options *o, const uint32_t *order,
			  const uint64_t *got, const char *what, uint64_t seed)
{
	uint64_t *want = calloc(p->n, sizeof(*want));

	cr_assert_not_null(want);
	cr_assert_eq(oracle_first_fit(p, o, order, p->n, want), 0);
	for (size_t i = 0; i < p->n; i++)
		cr_assert_eq(got[i], want[i],
			     "%s seed %llu align %u: buffer %zu at %llu, oracle %llu",
			     what, (unsigned long long)seed, o->align, i,
			     (unsigned long long)got[i], (unsigned long long)want[i]);
	free(want);
}

Test(mechanics, first_fit_index_large_k)
{
	for (uint64_t seed = 1; seed <= 6; seed++) {
		bool dense = seed % 3 == 0;
		struct ab_problem p = { 0 };
		struct ab_plan_options o = { .align = option_align(seed) };
		uint32_t *order;
		uint64_t *off, top;

		large_problem(seed, dense ? 1500 : 4000, dense, &p);
		order = malloc(p.n * sizeof(*order));
		off = calloc(p.n, sizeof(*off));
		cr_assert(order && off);
		for (int which = 0; which < 2; which++) {
			cr_assert_eq(which ? ab_order_first_use(&p, order)
					   : ab_order_size_desc(&p, order), 0);
			/* the default route takes the index here */
			cr_assert_neq(ab_first_fit_spacing(&p, order, p.n), 0u,
				      "seed %llu", (unsigned long long)seed);
			cr_assert_eq(ab_place_in_order(&p, &o, order, p.n,
						       ab_fit_first, off, &top), 0);
			expect_oracle(&p, &o, order, off, "default", seed);
			for (uint32_t w = 1; w <= 1024; w *= 8)
			for (size_t b = 0; b < 4; b++) {
				static const struct { size_t batch; unsigned threads; const char *what; }
					run[] = { { 1, 1, "forced spacing, in order" },
						  { 64, 1, "forced spacing, batch 64" },
						  { 0, 1, "forced spacing, default batch" },
						  { 0, 2, "forced spacing, two threads" } };
				struct ab_first_fit_config cfg = {
					w, run[b].batch, run[b].threads
				};
				struct ab_first_fit_stats st;

				cr_assert_eq(ab_first_fit_place(&p, &o, order, p.n, &cfg,
								off, &top, &st), 0);
				expect_oracle(&p, &o, order, off, run[b].what, seed);
				if (run[b].threads == 2)
					cr_assert_eq(st.threads, 2, "seed %llu: no cut",
						     (unsigned long long)seed);
			}
		}
		free(order);
		free(off);
		ab_problem_free(&p);
	}
}

/* The first-fit planners on large problems (where their default route is
 * the index), against the oracle in the planner's own order. */
Test(mechanics, first_fit_planners_large_k)
{
	static const char *const names[] = { "size_first_fit", "tflm_greedy",
					     "first_fit_in_order" };

	for (uint64_t seed = 11; seed <= 13; seed++) {
		struct ab_problem p = { 0 };
		struct ab_plan_options o = { .align = option_align(seed) };
		uint32_t *order;
		uint64_t *key;

		large_problem(seed, 3000, seed == 13, &p);
		order = malloc(p.n * sizeof(*order));
		key = malloc(p.n * sizeof(*key));
		cr_assert(order && key);
		for (size_t k = 0; k < 3; k++) {
			const struct ab_planner *pl = ab_planner_find(names[k]);
			struct ab_plan plan;

			cr_assert_not_null(pl);
			if (k == 0) {
				cr_assert_eq(ab_order_size_desc(&p, order), 0);
			} else if (k == 1) { /* size descending, ties by index reversed */
				for (size_t j = 0; j < p.n; j++) {
					order[j] = (uint32_t)(p.n - 1 - j);
					key[j] = ~p.buf[j].size;
				}
				cr_assert_eq(ab_order_stable_by(order, p.n, key), 0);
			} else {
				cr_assert_eq(ab_order_first_use(&p, order), 0);
			}
			cr_assert_eq(ab_plan_alloc(&plan, p.n), 0);
			cr_assert_eq(pl->plan(&p, &o, &plan), 0);
			expect_oracle(&p, &o, order, plan.offset, names[k], seed);
			ab_plan_free(&plan);
		}
		free(order);
		free(key);
		ab_problem_free(&p);
	}
}

/* The oracle's offsets for a deterministic planner, or false. */
static bool oracle_offsets(const char *name, const struct ab_problem *p,
			   const struct ab_plan_options *o, uint64_t *off)
{
	uint32_t *order = malloc((p->n + 1) * sizeof(*order));
	bool known = true;

	cr_assert_not_null(order);
	if (!strcmp(name, "size_first_fit")) {
		cr_assert_eq(ab_order_size_desc(p, order), 0);
		cr_assert_eq(oracle_first_fit(p, o, order, p->n, off), 0);
	} else if (!strcmp(name, "greedy_last_use")) {
		cr_assert_eq(oracle_greedy_last_use(p, o, off), 0);
	} else if (!strcmp(name, "linear")) {
		uint64_t cursor = 0;

		cr_assert_eq(ab_order_first_use(p, order), 0);
		for (size_t j = 0; j < p->n; j++) {
			size_t i = order[j];

			off[i] = ab_align_up(cursor, ab_effective_align(p, i, o));
			cursor = off[i] + p->buf[i].size;
		}
	} else {
		known = false;
	}
	free(order);
	return known;
}

Test(mechanics, planners_match_oracles)
{
	for (uint64_t seed = 1; seed <= PROBLEMS; seed++) {
		struct ab_problem p = { 0 };
		struct ab_plan_options o = { .align = option_align(seed),
					     .seed = 1,
					     .budget = 200 };

		random_problem(seed, &p);
		for (size_t k = 0; k < ab_planner_count(); k++) {
			const struct ab_planner *pl = ab_planner_at(k);
			struct ab_plan plan;
			struct ab_check_result r1, r2;
			uint64_t *off = calloc(p.n, sizeof(*off));
			enum ab_verdict v1, v2;

			/* budgeted search stays small here; exact ones skip */
			if (pl->cost == AB_COST_BUDGETED && p.n > 40) {
				free(off);
				continue;
			}
			cr_assert_eq(ab_plan_alloc(&plan, p.n), 0);
			cr_assert_eq(pl->plan(&p, &o, &plan), 0, "%s seed %llu",
				     pl->name, (unsigned long long)seed);
			v1 = ab_validate_plan(&p, &plan, o.align, &r1);
			v2 = oracle_validate(&p, &plan, o.align, &r2);
			cr_assert_eq(v1, v2, "%s seed %llu: fast %s, pairwise %s",
				     pl->name, (unsigned long long)seed,
				     ab_verdict_name(v1), ab_verdict_name(v2));
			if (oracle_offsets(pl->name, &p, &o, off))
				for (size_t i = 0; i < p.n; i++)
					cr_assert_eq(plan.offset[i], off[i],
						     "%s seed %llu buffer %zu: %llu, oracle %llu",
						     pl->name, (unsigned long long)seed, i,
						     (unsigned long long)plan.offset[i],
						     (unsigned long long)off[i]);
			free(off);
			ab_plan_free(&plan);
		}
		ab_problem_free(&p);
	}
}

static void expect_same_verdict(const struct ab_problem *p,
				const struct ab_plan *plan, uint32_t align,
				uint64_t seed, const char *what)
{
	struct ab_check_result r1, r2;
	enum ab_verdict v1 = ab_validate_plan(p, plan, align, &r1);
	enum ab_verdict v2 = oracle_validate(p, plan, align, &r2);

	cr_assert_eq(v1, v2, "seed %llu, %s: fast %s, pairwise %s",
		     (unsigned long long)seed, what, ab_verdict_name(v1),
		     ab_verdict_name(v2));
	if (v1 == AB_PLAN_OVERLAP) {
		/* the pair reported must really overlap */
		const struct ab_buffer *a = &p->buf[r1.a], *b = &p->buf[r1.b];

		cr_assert(a->first <= b->last && b->first <= a->last);
		cr_assert(plan->offset[r1.a] < plan->offset[r1.b] + b->size &&
			  plan->offset[r1.b] < plan->offset[r1.a] + a->size);
	}
}

/* The validator sorts by address with the index packed below each offset
 * when the offsets leave room (below 2^56 for these problems of at most
 * 160 buffers), else (offset, index) pairs: the same plans, valid and
 * with a buffer moved onto a live one, at their offsets and 2^60 above,
 * give the pairwise check's verdicts both ways. */
Test(mechanics, validator_matches_pairwise_either_sort)
{
	const struct ab_planner *pl = ab_planner_find("size_first_fit");

	cr_assert_not_null(pl);
	for (uint64_t seed = 1; seed <= 100; seed++) {
		struct ab_problem p = { 0 };
		struct ab_plan_options o = { .align = 1 };
		struct ab_plan plan;
		uint64_t s = seed;

		random_problem(seed, &p);
		cr_assert_eq(ab_plan_alloc(&plan, p.n), 0);
		cr_assert_eq(pl->plan(&p, &o, &plan), 0);
		for (int moved = 0; moved < 2; moved++) {
			if (moved && p.n > 1) {
				size_t i = tu_rng_below(&s, p.n), j = (i + 1) % p.n;

				plan.offset[i] = plan.offset[j];
			}
			for (int high = 0; high < 2; high++) {
				for (size_t i = 0; i < p.n; i++)
					plan.offset[i] += high ? 1ull << 60 : 0;
				ab_plan_finish_single(&plan, &p);
				expect_same_verdict(&p, &plan, 1, seed,
						    high ? "offsets past 2^60" : "offsets as planned");
				for (size_t i = 0; i < p.n; i++)
					plan.offset[i] -= high ? 1ull << 60 : 0;
			}
		}
		ab_plan_free(&plan);
		ab_problem_free(&p);
	}
}

Test(mechanics, validator_matches_pairwise)
{
	const struct ab_planner *pl = ab_planner_find("size_first_fit");

	cr_assert_not_null(pl);
	for (uint64_t seed = 1; seed <= PROBLEMS; seed++) {
		struct ab_problem p = { 0 };
		struct ab_plan_options o = { .align = option_align(seed) };
		struct ab_plan plan;
		uint64_t s = seed;

		random_problem(seed, &p);
		cr_assert_eq(ab_plan_alloc(&plan, p.n), 0);
		cr_assert_eq(pl->plan(&p, &o, &plan), 0);
		expect_same_verdict(&p, &plan, o.align, seed, "valid plan");
		cr_assert_eq(ab_validate_plan(&p, &plan, o.align, NULL),
			     AB_PLAN_VALID);
		/* a buffer moved onto another one live at the same time */
		for (size_t i = 0; i < p.n; i++) {
			for (size_t j = 0; j < p.n; j++) {
				uint64_t keep = plan.offset[i];

				if (i == j || !p.buf[i].size || !p.buf[j].size ||
				    p.buf[i].first > p.buf[j].last ||
				    p.buf[j].first > p.buf[i].last)
					continue;
				plan.offset[i] = plan.offset[j];
				expect_same_verdict(&p, &plan, o.align, seed,
						    "moved onto a live buffer");
				cr_assert_neq(ab_validate_plan(&p, &plan, o.align, NULL),
					      AB_PLAN_VALID);
				plan.offset[i] = keep;
				j = p.n; /* one partner per buffer is enough */
			}
		}
		/* random offsets inside the peak, some misaligned */
		for (int round = 0; round < 20; round++) {
			uint64_t *keep = malloc(p.n * sizeof(*keep));

			cr_assert_not_null(keep);
			memcpy(keep, plan.offset, p.n * sizeof(*keep));
			for (size_t i = 0; i < p.n; i++)
				if (tu_rng_below(&s, 4) == 0) {
					uint64_t room = plan.peak > p.buf[i].size
								? plan.peak - p.buf[i].size
								: 0;
					uint64_t a = round % 2 ? 1 : ab_effective_align(&p, i, &o);

					plan.offset[i] = tu_rng_below(&s, room + 1) / a * a;
				}
			expect_same_verdict(&p, &plan, o.align, seed, "random offsets");
			memcpy(plan.offset, keep, p.n * sizeof(*keep));
			free(keep);
		}
		/* above the peak, and outside the arena */
		if (p.n) {
			uint64_t keep = plan.peak;

			plan.peak = plan.peak ? plan.peak - 1 : 0;
			plan.arena_size[0] = plan.peak;
			expect_same_verdict(&p, &plan, o.align, seed, "peak one byte short");
			plan.peak = keep;
			plan.arena_size[0] = keep;
		}
		ab_plan_free(&plan);
		ab_problem_free(&p);
	}
}

/* ------------------------------------------- best fit through the index */

static const enum ab_index_rule index_rule[] = { AB_INDEX_BEST_FIT,
						 AB_INDEX_TFLITE, AB_INDEX_XLA };
static const enum oracle_rule oracle_of[] = { ORACLE_SMALLEST, ORACLE_TFLITE,
					      ORACLE_XLA };
static const char *const rule_name[] = { "best_fit", "tflite", "xla" };

static bool has_empty(const struct ab_problem *p)
{
	for (size_t i = 0; i < p->n; i++)
		if (!p->buf[i].size)
			return true;
	return false;
}

/* ab_best_fit_place at the given spacing and batch against `want`;
 * returns the XLA choices that waited for batch-mates (see
 * best_fit_index.c). */
static uint64_t expect_index_rule(const struct ab_problem *p,
				  const struct ab_plan_options *o,
				  const uint32_t *order, int rule, uint32_t w,
				  size_t batch, const uint64_t *want,
				  uint64_t seed)
{
	struct ab_first_fit_config cfg = { w, batch, 1 };
	struct ab_first_fit_stats st = { 0 };
	uint64_t *got = calloc(p->n + 1, sizeof(*got)), top, high = 0;
	int rc;

	cr_assert_not_null(got);
	rc = ab_best_fit_place(p, o, order, p->n, index_rule[rule], &cfg, got,
			       &top, &st);
	if (index_rule[rule] == AB_INDEX_BEST_FIT && has_empty(p)) {
		/* ab_place_in_order indexes zero-size buffers: listing's */
		cr_assert_eq(rc, 1, "seed %llu", (unsigned long long)seed);
		free(got);
		return 0;
	}
	cr_assert_eq(rc, 0);
	for (size_t i = 0; i < p->n; i++) {
		cr_assert_eq(got[i], want[i],
			     "%s seed %llu align %u spacing %u batch %zu: buffer %zu at %llu, oracle %llu",
			     rule_name[rule], (unsigned long long)seed, o->align,
			     w, batch, i, (unsigned long long)got[i],
			     (unsigned long long)want[i]);
		if (p->buf[i].size && want[i] + p->buf[i].size > high)
			high = want[i] + p->buf[i].size;
	}
	cr_assert_eq(top, high, "%s seed %llu", rule_name[rule],
		     (unsigned long long)seed);
	free(got);
	return st.xla_waits;
}

/* The three rules through the index at forced spacings and batches, on the
 * random problems (with zero sizes: TFLite's and XLA's rules leave them
 * out; ab_fit_best's listing indexes them, so the index declines) and on
 * the same problems with every size at least 1. */
Test(mechanics, best_fit_index_matches_oracle)
{
	uint64_t xla_waits = 0;

	for (uint64_t seed = 1; seed <= PROBLEMS; seed++)
	for (int nonzero = 0; nonzero < 2; nonzero++) {
		struct ab_problem p = { 0 };
		struct ab_plan_options o = { .align = option_align(seed) };

		random_problem(seed, &p);
		for (size_t i = 0; nonzero && i < p.n; i++)
			if (!p.buf[i].size)
				p.buf[i].size = 1;
		for (int which = 0; which < 2; which++)
		for (int rule = 0; rule < 3; rule++) {
			uint32_t *order = malloc(p.n * sizeof(*order));
			uint64_t *want = calloc(p.n, sizeof(*want));

			cr_assert(order && want);
			cr_assert_eq(which ? ab_order_first_use(&p, order)
					   : ab_order_size_desc(&p, order), 0);
			cr_assert_eq(oracle_gap_rule(&p, &o, order, p.n,
						     oracle_of[rule], want), 0);
			for (uint32_t w = 1; w <= 256; w *= 4) {
				static const size_t batch[] = { 1, 3, 0 };

				for (size_t b = 0; b < 3; b++)
					xla_waits += expect_index_rule(&p, &o, order,
								       rule, w,
								       batch[b],
								       want, seed);
			}
			free(order);
			free(want);
		}
		ab_problem_free(&p);
	}
	/* XLA's batches were taken, and some choices had to wait */
	cr_assert_gt(xla_waits, 0);
}

/*
 * The three rules by hand.  Steps 0..2, placed in index order, alignment 1
 * except buffer 6 (16):
 *   0 [0,2] 8   1 [0,0] 40   2 [0,2] 16   3 [0,0] 36   4 [0,2] 8
 *   5 [0,0] 28  6 [1,2] 20 (align 16)      7 [1,2] 0
 * 0..5 all live at step 0, so each goes on top of the one before, under
 * every rule (no gap; XLA's heap equals the top): 0, 8, 48, 64, 100, 108
 * (heap 136).  Buffer 6 meets 0 [0,8), 2 [48,64), 4 [100,108): gaps
 * [8,48) (aligned start 16, room 32, unaligned room 40) and [64,100)
 * (start 64, room 36); top 108, aligned 112.
 *   smallest room (ab_fit_best): 32 < 36 -> 16;
 *   TFLite: the first gap is the best with its unaligned room 40; the
 *     second's aligned room 36 < 40 -> 64;
 *   XLA: smallest gap 32, but the top chunk [112, 136) has room 24, >= 20
 *     and < 32 -> 112.
 * Buffer 7 (size 0): TFLite and XLA give it 0 and leave it out; with it
 * the smallest-room rule declines (the listing path indexes it).
 */
Test(mechanics, best_fit_index_by_hand)
{
	static const int32_t first[] = { 0, 0, 0, 0, 0, 0, 1, 1 };
	static const int32_t last[] = { 2, 0, 2, 0, 2, 0, 2, 2 };
	static const uint64_t size[] = { 8, 40, 16, 36, 8, 28, 20, 0 };
	static const uint64_t base[] = { 0, 8, 48, 64, 100, 108 };
	static const uint64_t six[] = { 16, 64, 112 };
	uint32_t order[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	struct ab_problem p = { 0 };
	struct ab_plan_options o = { .align = 1 };

	cr_assert_eq(ab_problem_alloc(&p, 8), 0);
	p.steps = 3;
	for (uint32_t i = 0; i < 8; i++) {
		p.buf[i] = (struct ab_buffer){ .size = size[i],
					      .align = i == 6 ? 16 : 1,
					      .first = first[i], .last = last[i] };
		p.id[i] = i;
	}
	for (uint32_t w = 1; w <= 4; w *= 2)
	for (int rule = 0; rule < 3; rule++) {
		struct ab_first_fit_config cfg = { w, 1, 1 };
		size_t m = rule == 0 ? 7 : 8;
		uint64_t off[8] = { 0 }, top;

		if (rule == 0)
			cr_assert_eq(ab_best_fit_place(&p, &o, order, 8,
						       index_rule[rule], &cfg,
						       off, &top, NULL), 1);
		cr_assert_eq(ab_best_fit_place(&p, &o, order, m, index_rule[rule],
					       &cfg, off, &top, NULL), 0);
		for (size_t i = 0; i < 6; i++)
			cr_assert_eq(off[i], base[i], "%s spacing %u: buffer %zu",
				     rule_name[rule], w, i);
		cr_assert_eq(off[6], six[rule], "%s spacing %u: buffer 6 at %llu",
			     rule_name[rule], w, (unsigned long long)off[6]);
		cr_assert_eq(off[7], 0);
		cr_assert_eq(top, 136u);
	}
	ab_problem_free(&p);
}

/*
 * The best-fit walk across chunks, by hand: H_T in several chunks of 64
 * pieces, a blocked run crossing chunk boundaries (and wholly blocked
 * chunks), gaps on both sides of it.  Alignment 1, placed in index order;
 * R = a buffer live [0, 2 + k] (a distinct last each, so a piece each),
 * S = a spacer live [0, 0] (not a conflict of what comes at step 1):
 *   0..149    R size 10   -> 0, 10, ..., 1490   (all live at step 0, so
 *   150       S size 9    -> 1500                each goes on top of the
 *   151..160  R size 10   -> 1509 .. 1599        one before: no gap yet)
 *   161       S size 8    -> 1609
 *   162..301  R size 10   -> 1617 .. 3007
 *   302       S size 12   -> 3017
 *   303       R size 10   -> 3029 (end 3039 = the heap size)
 * At step 1 the spacers are gone: the conflicts' union is [0, 1500),
 * [1509, 1609), [1617, 3017), [3029, 3039), with gaps of 9 at 1500, 8 at
 * 1609 and 12 at 3017, the run [0, 1500) alone 150 pieces (over two chunk
 * boundaries) and [1617, 3017) 140.
 *   304 Q1 [1,1] size 8:  9 and 8 hold it, 8 is exact -> 1609 (the walk
 *        stops there);
 *   305 Q2 [1,1] size 10: 9 and 8 (now taken) do not hold it, 12 does
 *        -> 3017, after the whole 140-piece run;
 *   306 Q3 [1,1] size 13: no gap holds it (12 was cut to [3027, 3029))
 *        -> the top, 3039.
 * The same under the three rules (alignment 1, so TFLite's unaligned room
 * is the room; XLA's heap size is 3039 = the conflicts' top, so its top
 * chunk is empty).  With Q2's own alignment 4: gap 12 starts at 3020 with
 * room 9 < 10 -> the aligned top 3040; Q3 then meets [3040, 3050): gaps
 * 9, [3017, 3029) 12 and [3039, 3040) 1 -> the top, 3050.
 */
Test(mechanics, best_fit_index_across_chunks)
{
	enum { N = 307 };
	static const uint64_t q_want[2][3] = { { 1609, 3017, 3039 },
					       { 1609, 3040, 3050 } };
	struct ab_problem p = { 0 };
	struct ab_plan_options o = { .align = 1 };
	uint32_t order[N];
	uint64_t want[N], x = 0;

	cr_assert_eq(ab_problem_alloc(&p, N), 0);
	p.steps = N + 2;
	for (uint32_t i = 0; i < N; i++) {
		bool spacer = i == 150 || i == 161 || i == 302;
		uint64_t size = i == 150 ? 9 : i == 161 ? 8 : i == 302 ? 12 : 10;

		if (i >= 304)
			size = i == 304 ? 8 : i == 305 ? 10 : 13;
		p.buf[i] = (struct ab_buffer){ .size = size, .align = 1,
					      .first = i >= 304 ? 1 : 0,
					      .last = i >= 304 ? 1 : spacer ? 0 : 2 + (int32_t)i };
		p.id[i] = i;
		order[i] = i;
		if (i < 304) {
			want[i] = x;
			x += size;
		}
	}
	cr_assert_eq(x, 3039u);
	cr_assert_eq(want[151], 1509u);
	cr_assert_eq(want[162], 1617u);
	cr_assert_eq(want[303], 3029u);
	for (int aligned = 0; aligned < 2; aligned++) {
		p.buf[305].align = aligned ? 4 : 1;
		for (uint32_t w = 1; w <= 16; w *= 4)
		for (size_t batch = 0; batch <= 1; batch++)
		for (int rule = 0; rule < 3; rule++) {
			struct ab_first_fit_config cfg = { w, batch, 1 };
			struct ab_first_fit_stats st;
			uint64_t off[N], top;

			cr_assert_eq(ab_best_fit_place(&p, &o, order, N,
						       index_rule[rule], &cfg,
						       off, &top, &st), 0);
			for (size_t i = 0; i < 304; i++)
				cr_assert_eq(off[i], want[i], "%s spacing %u: buffer %zu",
					     rule_name[rule], w, i);
			for (size_t q = 0; q < 3; q++)
				cr_assert_eq(off[304 + q], q_want[aligned][q],
					     "%s spacing %u batch %zu align %d: Q%zu at %llu",
					     rule_name[rule], w, batch, aligned,
					     q + 1, (unsigned long long)off[304 + q]);
			/* the functions asked hold more than two chunks */
			cr_assert_gt(st.pieces, 3 * 64u);
		}
	}
	ab_problem_free(&p);
}

/*
 * XLA in time-local batches, by hand: a choice that must wait for a
 * batch-mate placed later in time.  Steps 0..4, XLA's order = index order,
 * batches of 4: {0, 1, 2, 3} and {4, 5, 6}; alignment 1.
 *   0 P0 [0,2] 8   1 G [0,0] 6   2 P1 [0,2] 6   3 G2 [0,0] 5
 *   4 Q [3,4] 25   5 u [3,4] 5   6 X [1,2] 4
 * First batch (all live at step 0, so in order, each on top of the one
 * before): 0, 8, 14, 20; heap size 25.
 * Second batch by first use: X (step 1), then Q and u (step 3); neither
 * overlaps X, so X comes first.  X meets P0 [0,8) and P1 [14,20): gap
 * [8,14), room 6; top 20.  XLA in order gives X the heap size after Q and
 * u: Q meets nothing (everything before ends by step 2) -> 0, end 25; u
 * meets Q -> 25, end 30.  With heap 30 the top chunk [20,30) has room 10,
 * not below 6, so X goes to the gap: 8.  With only the first batch's heap
 * (25) the top chunk [20,25) would have room 5 < 6 and X would go to 20:
 * so X's choice is not settled at 25 (25 < top 20 + room 6), it waits for
 * Q and u, placed first in order (0 and 25), and takes 8.  One wait.
 */
/* The seven buffers above, ids 0..6, alignment 1, steps 0..4. */
static void xla_batches_problem(struct ab_problem *p)
{
	static const int32_t first[] = { 0, 0, 0, 0, 3, 3, 1 };
	static const int32_t last[] = { 2, 0, 2, 0, 4, 4, 2 };
	static const uint64_t size[] = { 8, 6, 6, 5, 25, 5, 4 };

	cr_assert_eq(ab_problem_alloc(p, 7), 0);
	p->steps = 5;
	for (uint32_t i = 0; i < 7; i++) {
		p->buf[i] = (struct ab_buffer){ .size = size[i], .align = 1,
						.first = first[i], .last = last[i] };
		p->id[i] = i;
	}
}

Test(mechanics, xla_batches_by_hand)
{
	static const uint64_t want[] = { 0, 8, 14, 20, 0, 25, 8 };
	uint32_t order[7] = { 0, 1, 2, 3, 4, 5, 6 };
	struct ab_problem p = { 0 };
	struct ab_plan_options o = { .align = 1 };

	xla_batches_problem(&p);
	for (uint32_t w = 1; w <= 4; w *= 2) {
		struct ab_first_fit_config cfg = { w, 4, 1 };
		struct ab_first_fit_stats st = { 0 };
		uint64_t off[7] = { 0 }, top;

		cr_assert_eq(ab_best_fit_place(&p, &o, order, 7, AB_INDEX_XLA,
					       &cfg, off, &top, &st), 0);
		for (size_t i = 0; i < 7; i++)
			cr_assert_eq(off[i], want[i], "spacing %u: buffer %zu at %llu",
				     w, i, (unsigned long long)off[i]);
		cr_assert_eq(top, 30u);
		cr_assert_eq(st.batch, 4u);
		cr_assert_eq(st.xla_waits, 1u, "spacing %u", w);
	}
	ab_problem_free(&p);
}

/*
 * XLA's batches under a cutoff (ab_plan_options.cutoff, which
 * xla_best_fit's spatial pass gets as the temporal peak + 1): the same
 * problem and batches as xla_batches_by_hand.  The first batch ends with
 * G2 at 20, heap 25; the second places Q (0, heap 25) and u (25, heap 30)
 * while X waits, then X (8).  A cutoff of 25 stops after G2 (heap 25): the
 * second batch is never placed.  A cutoff of 30 places every buffer (the
 * heap reaches 30 only on u, placed inside X's wait, and the check comes
 * after X), the offsets of the unbounded pass, and still says the pass
 * reached it; 31 places every buffer and is not reached.
 */
Test(mechanics, xla_bound_stops_by_hand)
{
	static const uint64_t all[] = { 0, 8, 14, 20, 0, 25, 8 };
	static const uint64_t cut[] = { 0, 8, 14, 20, 99, 99, 99 };
	static const uint64_t cutoff[] = { 25, 30, 31 };
	uint32_t order[7] = { 0, 1, 2, 3, 4, 5, 6 };
	struct ab_problem p = { 0 };
	struct ab_plan_options o = { .align = 1 };

	xla_batches_problem(&p);
	for (size_t t = 0; t < 3; t++) {
		struct ab_first_fit_config cfg = { 2, 4, 1 };
		const uint64_t *want = t == 0 ? cut : all;
		uint64_t off[7] = { 99, 99, 99, 99, 99, 99, 99 }, top;

		o.cutoff = cutoff[t];
		cr_assert_eq(ab_best_fit_place(&p, &o, order, 7, AB_INDEX_XLA,
					       &cfg, off, &top, NULL),
			     t < 2 ? AB_ABOVE_CUTOFF : 0, "cutoff %llu",
			     (unsigned long long)cutoff[t]);
		for (size_t i = 0; i < 7; i++)
			cr_assert_eq(off[i], want[i], "cutoff %llu: buffer %zu at %llu",
				     (unsigned long long)cutoff[t], i,
				     (unsigned long long)off[i]);
		cr_assert_eq(top, t == 0 ? 25u : 30u);
	}
	ab_problem_free(&p);
}

/* Large k (sweep-like, and dense at 600 buffers): the default route takes
 * the index, and forced spacings and batches agree with the oracle. */
Test(mechanics, best_fit_index_large_k)
{
	for (uint64_t seed = 1; seed <= 4; seed++) {
		bool dense = seed == 3;
		struct ab_problem p = { 0 };
		struct ab_plan_options o = { .align = option_align(seed) };

		large_problem(seed, dense ? 600 : 3000, dense, &p);
		for (int rule = 0; rule < 3; rule++) {
			uint32_t *order = malloc(p.n * sizeof(*order));
			uint64_t *want = calloc(p.n, sizeof(*want));
			uint64_t *got = calloc(p.n, sizeof(*got)), top;

			cr_assert(order && want && got);
			if (rule == 0) /* nonzero sizes: the index takes it */
				for (size_t i = 0; i < p.n; i++)
					p.buf[i].size += !p.buf[i].size;
			cr_assert_eq(ab_order_size_desc(&p, order), 0);
			cr_assert_eq(oracle_gap_rule(&p, &o, order, p.n,
						     oracle_of[rule], want), 0);
			cr_assert_eq(ab_best_fit_route(&p, &o, order, p.n,
						       index_rule[rule], got, &top),
				     0, "seed %llu: route declined",
				     (unsigned long long)seed);
			for (size_t i = 0; i < p.n; i++)
				cr_assert_eq(got[i], want[i], "%s seed %llu route: buffer %zu",
					     rule_name[rule], (unsigned long long)seed, i);
			for (uint32_t w = 1; w <= 1024; w *= 32) {
				static const size_t batch[] = { 1, 64, 0 };

				for (size_t b = 0; b < 3; b++)
					expect_index_rule(&p, &o, order, rule, w,
							  batch[b], want, seed);
			}
			free(order);
			free(want);
			free(got);
		}
		ab_problem_free(&p);
	}
}

/* The index's small blocks (piecewise.c, pw_block_resize), by hand: sizes
 * round up to 64 B times a power of two and are carved from one region in
 * turn, so a (100 B -> class 128) sits at the region's start and b (200 B
 * -> 256) at a + 128.  Growing a into b copies a's bytes and gives a back
 * to the 128 B class, so the next request of 65..128 B (70) is a itself;
 * a 64 B request then carves after b: a + 128 + 256 = a + 384.  A block
 * over the largest class (1 MiB) is a region of its own and keeps the
 * bytes it grew from. */
Test(mechanics, pool_blocks_by_hand)
{
	struct pool pl = { 0 };
	uint8_t *a = pw_block_resize(&pl, NULL, 0, 100), *b, *c, *d, *e;

	cr_assert(a);
	for (int i = 0; i < 100; i++)
		a[i] = (uint8_t)i;
	b = pw_block_resize(&pl, a, 100, 200);
	cr_assert_eq(b, a + 128);
	for (int i = 0; i < 100; i++)
		cr_assert_eq(b[i], i);
	c = pw_block_resize(&pl, NULL, 0, 70);
	cr_assert_eq(c, a, "a freed 128 B block is handed out again");
	d = pw_block_resize(&pl, NULL, 0, 64);
	cr_assert_eq(d, a + 384);
	e = pw_block_resize(&pl, b, 200, (size_t)3 << 20);
	cr_assert(e);
	for (int i = 0; i < 100; i++)
		cr_assert_eq(e[i], i);
	pw_pool_free(&pl);
}

/* best_of's memo (ab_plan_options.memo, lib/memo.h): the index's planners
 * and those that take their order from it give the same offsets with no
 * memo, with one memo shared by all of them, and with a memo filled on
 * another problem (which must be passed over: its ranks and orders are
 * another problem's); size_first_fit's with the memo match the O(n^2)
 * oracle.  The shared memo was used (ranks, spacing, both orders kept). */
Test(mechanics, memo_shared_or_not_same_offsets)
{
	static const char *const names[] = {
		"size_first_fit", "tflm_greedy", "greedy_conflicts", "first_fit_in_order",
		"xla_best_fit", "tflite_arena", "greedy_by_size_gpu", "linear",
		"greedy_last_use", "executorch_greedy", "multi_arena_phase", "best_of" };
	struct ab_problem p = { 0 }, q = { 0 };
	struct ab_plan_memo *mine, *other;
	struct ab_plan_options o = { .align = 1 };
	uint64_t *off;

	large_problem(21, 3000, false, &p);
	large_problem(22, 3000, false, &q);
	for (size_t i = 0; i < p.n; i++) /* best fit's index takes no size 0 */
		p.buf[i].size += !p.buf[i].size;
	mine = ab_plan_memo_new(&p);
	other = ab_plan_memo_new(&q);
	off = malloc(p.n * sizeof(*off));
	cr_assert(mine && other && off);
	{	/* fill the other memo on its own problem */
		struct ab_plan plan;
		struct ab_plan_options oq = { .align = 1, .memo = other };

		cr_assert_eq(ab_plan_alloc(&plan, q.n), 0);
		cr_assert_eq(ab_planner_find("size_first_fit")->plan(&q, &oq, &plan), 0);
		ab_plan_free(&plan);
		cr_assert(other->ranked && other->spaced);
	}
	for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		const struct ab_planner *pl = ab_planner_find(names[k]);
		struct ab_plan plain, shared, stale;
		struct ab_plan_options os = o, ost = o;

		cr_assert_not_null(pl);
		os.memo = mine;
		ost.memo = other;
		cr_assert_eq(ab_plan_alloc(&plain, p.n), 0);
		cr_assert_eq(ab_plan_alloc(&shared, p.n), 0);
		cr_assert_eq(ab_plan_alloc(&stale, p.n), 0);
		cr_assert_eq(pl->plan(&p, &o, &plain), 0);
		cr_assert_eq(pl->plan(&p, &os, &shared), 0);
		cr_assert_eq(pl->plan(&p, &ost, &stale), 0);
		for (size_t i = 0; i < p.n; i++) {
			cr_assert_eq(shared.offset[i], plain.offset[i], "%s buffer %zu",
				     names[k], i);
			cr_assert_eq(stale.offset[i], plain.offset[i],
				     "%s buffer %zu, another problem's memo", names[k], i);
		}
		if (k == 0) {
			cr_assert(oracle_offsets(names[k], &p, &o, off));
			for (size_t i = 0; i < p.n; i++)
				cr_assert_eq(shared.offset[i], off[i], "buffer %zu", i);
		}
		ab_plan_free(&plain);
		ab_plan_free(&shared);
		ab_plan_free(&stale);
	}
	cr_assert(mine->ranked && mine->spaced && mine->first_use && mine->size_desc,
		  "the memo was used");
	ab_plan_memo_free(mine);
	ab_plan_memo_free(other);
	free(off);
	ab_problem_free(&p);
	ab_problem_free(&q);
}

/* ------------------------------------------------ the sort, the validator */

static int by_key_then_index(const void *a, const void *b)
{
	const struct ab_key_index *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* ab_sort_key_index against qsort by (key, input position): equal keys
 * must keep their input order.  Keys vary in a band of bits [lo, lo+w)
 * (the sort sorts only the bits that differ, in even passes of up to 8
 * or 11 bits), constant bits above and below; sizes around the
 * insertion-sort cut (64) and the 8/11-bit cut (65536).  The same keys
 * through ab_sort_u64_above with 0 and 20 low bits left out of the sort:
 * against qsort by (key >> low, input position). */
Test(mechanics, radix_sort_matches_a_stable_reference)
{
	static const size_t sizes[] = { 0, 1, 63, 64, 65, 1000, 65535, 65536, 200000 };
	static const int widths[] = { 1, 3, 8, 11, 12, 20, 22, 23, 33, 64 };
	uint64_t s = 12345;

	for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++)
		for (size_t wi = 0; wi < sizeof(widths) / sizeof(widths[0]); wi++) {
			size_t n = sizes[si];
			int w = widths[wi], lo = w == 64 ? 0 : (int)tu_rng_below(&s, (uint64_t)(64 - w));
			uint64_t band = w == 64 ? ~0ull : ((1ull << w) - 1) << lo;
			uint64_t fixed = tu_rng_next(&s) & ~band;
			struct ab_key_index *a = malloc((n + 1) * sizeof(*a));
			struct ab_key_index *want = malloc((n + 1) * sizeof(*a));

			cr_assert(a && want);
			for (size_t i = 0; i < n; i++) {
				/* few distinct values half the time: many ties */
				uint64_t v = tu_rng_next(&s);

				if (si % 2)
					v %= 7;
				a[i].key = fixed | ((v << lo) & band);
				a[i].index = (uint32_t)i;
			}
			for (unsigned low = 0; low <= 20; low += 20) {
				uint64_t *u = malloc((n + 1) * sizeof(*u));
				struct ab_key_index *ref = malloc((n + 1) * sizeof(*ref));

				cr_assert(u && ref);
				for (size_t i = 0; i < n; i++) {
					u[i] = a[i].key;
					ref[i] = (struct ab_key_index){ a[i].key >> low, (uint32_t)i };
				}
				qsort(ref, n, sizeof(*ref), by_key_then_index);
				cr_assert_eq(ab_sort_u64_above(u, n, low), 0);
				for (size_t i = 0; i < n; i++)
					cr_assert(u[i] == a[ref[i].index].key,
						  "n %zu, %d bits from bit %d, %u low: item %zu is %llu, expected %llu",
						  n, w, lo, low, i, (unsigned long long)u[i],
						  (unsigned long long)a[ref[i].index].key);
				free(u);
				free(ref);
			}
			memcpy(want, a, n * sizeof(*a));
			qsort(want, n, sizeof(*want), by_key_then_index);
			cr_assert_eq(ab_sort_key_index(a, n), 0);
			for (size_t i = 0; i < n; i++)
				cr_assert(a[i].key == want[i].key && a[i].index == want[i].index,
					  "n %zu, %d bits from bit %d: item %zu is (%llu, %u), expected (%llu, %u)",
					  n, w, lo, i, (unsigned long long)a[i].key, a[i].index,
					  (unsigned long long)want[i].key, want[i].index);
			free(a);
			free(want);
		}
}

/* ab_rank_by_time against counting by hand: rank[i] is the number of
 * buffers with an earlier time, or the same time and a smaller index.
 * Dense times (the counting sort), times spread past 2n + 64 and negative
 * ones (the radix sort), both ends; times that already rise in index
 * order, with repeats (each place its index), dense and spread from -50;
 * and a case by hand. */
Test(mechanics, time_ranks_match_a_stable_reference)
{
	static const size_t sizes[] = { 1, 2, 70, 1000 };
	struct ab_buffer hand[5] = {
		{ .size = 1, .first = 3, .last = 4 }, { .size = 1, .first = 0, .last = 9 },
		{ .size = 1, .first = 3, .last = 3 }, { .size = 1, .first = 1, .last = 4 },
		{ .size = 1, .first = 0, .last = 0 },
	};
	struct ab_problem hp = { .n = 5, .buf = hand };
	uint32_t r[5];
	uint64_t s = 99;

	/* by first: 1 (0), 4 (0), 3 (1), 0 (3), 2 (3); by last: 4 (0),
	 * 2 (3), 0 (4), 3 (4), 1 (9) */
	cr_assert_eq(ab_rank_by_time(&hp, false, r), 0);
	cr_expect(r[0] == 3 && r[1] == 0 && r[2] == 4 && r[3] == 2 && r[4] == 1);
	cr_assert_eq(ab_rank_by_time(&hp, true, r), 0);
	cr_expect(r[0] == 2 && r[1] == 4 && r[2] == 1 && r[3] == 3 && r[4] == 0);
	for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++)
		for (int spread = 0; spread < 5; spread++) {
			size_t n = sizes[si];
			struct ab_buffer *b = calloc(n, sizeof(*b));
			struct ab_problem p = { .n = n, .buf = b };
			uint32_t *rank = malloc(n * sizeof(*rank));

			cr_assert(b && rank);
			for (size_t i = 0; i < n; i++) {
				/* 0: within 2n + 64 steps; 1: up to 2^30; 2: from -50;
				 * 3: rising by index, three a step; 4: the same
				 * 100 000 steps apart, from -50 */
				int64_t range = spread == 1 ? 1 << 30 : (int64_t)(2 * n + 64);
				int32_t f = (int32_t)tu_rng_below(&s, (uint64_t)range) - (spread == 2 ? 50 : 0);

				if (spread >= 3)
					f = (int32_t)(i / 3) * (spread == 4 ? 100000 : 1) -
					    (spread == 4 ? 50 : 0);

				b[i].size = 1;
				b[i].first = f;
				b[i].last = f + (int32_t)tu_rng_below(&s, spread == 1 ? 1000 : 4);
			}
			if (n > 1 && spread == 0)
				b[0].last = (int32_t)(2 * n + 63); /* the counting sort's last step */
			for (int by_last = 0; by_last < 2; by_last++) {
				cr_assert_eq(ab_rank_by_time(&p, by_last, rank), 0);
				for (size_t i = 0; i < n; i++) {
					int32_t ti = by_last ? b[i].last : b[i].first;
					uint32_t want = 0;

					for (size_t j = 0; j < n; j++) {
						int32_t tj = by_last ? b[j].last : b[j].first;

						want += tj < ti || (tj == ti && j < i);
					}
					cr_assert_eq(rank[i], want, "n %zu, spread %d, by_last %d, buffer %zu",
						     n, spread, by_last, i);
				}
			}
			free(b);
			free(rank);
		}
}

/* The validator's live set is a 64-ary tree of bitmaps: 160 buffers (the
 * random problems above) reach only its second level.  Here 5000 buffers
 * (79 words, then 2, then 1: three levels) and 300 000 (five levels):
 * size_first_fit's plan, then buffers moved onto a live neighbour one at a
 * time, each verdict compared with the pairwise check (5000) or required
 * to be an overlap naming a pair that really overlaps (300 000). */
Test(mechanics, validator_matches_pairwise_on_deep_live_sets)
{
	static const size_t sizes[] = { 5000, 300000 };
	const struct ab_planner *pl = ab_planner_find("size_first_fit");

	cr_assert_not_null(pl);
	for (size_t si = 0; si < 2; si++) {
		size_t n = sizes[si];
		struct ab_problem p = { 0 };
		struct ab_plan_options o = { .align = 1 };
		struct ab_plan plan;
		uint64_t s = 77 + si;

		cr_assert_eq(ab_problem_alloc(&p, n), 0);
		p.steps = (int32_t)(n / 4);
		for (size_t i = 0; i < n; i++) {
			p.buf[i].first = (int32_t)tu_rng_below(&s, (uint64_t)p.steps);
			p.buf[i].last = p.buf[i].first + (int32_t)tu_rng_below(&s, 40);
			if (p.buf[i].last >= p.steps)
				p.buf[i].last = p.steps - 1;
			p.buf[i].size = 1 + tu_rng_below(&s, 4096);
			p.buf[i].align = 1;
			p.id[i] = (int64_t)i;
		}
		cr_assert_eq(ab_plan_alloc(&plan, n), 0);
		cr_assert_eq(pl->plan(&p, &o, &plan), 0);
		if (n <= 5000)
			expect_same_verdict(&p, &plan, 1, n, "valid plan, deep");
		cr_assert_eq(ab_validate_plan(&p, &plan, 1, NULL), AB_PLAN_VALID);
		for (int round = 0; round < (n <= 5000 ? 200 : 20); round++) {
			size_t i = tu_rng_below(&s, n), j;
			uint64_t keep = plan.offset[i];
			struct ab_check_result r;

			/* a partner live at the same time, scanning from a random start */
			for (j = tu_rng_below(&s, n);; j = (j + 1) % n)
				if (j != i && p.buf[i].first <= p.buf[j].last &&
				    p.buf[j].first <= p.buf[i].last)
					break;
			plan.offset[i] = plan.offset[j];
			if (n <= 5000)
				expect_same_verdict(&p, &plan, 1, n, "moved onto a live buffer, deep");
			if (plan.offset[j] + p.buf[i].size > plan.peak) {
				/* checked before any overlap */
				cr_assert_eq(ab_validate_plan(&p, &plan, 1, &r), AB_PLAN_OUTSIDE_ARENA);
				plan.offset[i] = keep;
				continue;
			}
			cr_assert_eq(ab_validate_plan(&p, &plan, 1, &r), AB_PLAN_OVERLAP);
			cr_assert(p.buf[r.a].first <= p.buf[r.b].last &&
				  p.buf[r.b].first <= p.buf[r.a].last);
			cr_assert(plan.offset[r.a] < plan.offset[r.b] + p.buf[r.b].size &&
				  plan.offset[r.b] < plan.offset[r.a] + p.buf[r.a].size);
			plan.offset[i] = keep;
		}
		ab_plan_free(&plan);
		ab_problem_free(&p);
	}
}

/* The live profile (lower bound, live curve, max live buffers) against a
 * scan of every buffer at every event time: bytes and buffers live at t
 * are those with first <= t <= last.  Steps within 2n + 64 take the
 * per-time deltas, times spread up to 2^31 the sort of events: both. */
Test(mechanics, live_profile_and_bound_match_a_scan_both_ways)
{
	for (uint64_t seed = 1; seed <= 60; seed++) {
		struct ab_problem p = { 0 };
		struct ab_live_profile lp;
		uint64_t s = seed * 31 + 7;
		bool spread = seed % 2 == 0; /* times far apart: the sort */
		size_t n = 1 + tu_rng_below(&s, 300), k = 0;

		cr_assert_eq(ab_problem_alloc(&p, n), 0);
		for (size_t i = 0; i < n; i++) {
			int32_t a = (int32_t)tu_rng_below(&s, spread ? 1ull << 30 : n),
				len = (int32_t)tu_rng_below(&s, spread ? 1ull << 20 : 20);

			p.buf[i] = (struct ab_buffer){ .size = tu_rng_below(&s, 3) ? 1 + tu_rng_below(&s, 1000) : 0,
						       .align = 1, .first = a, .last = a + len };
		}
		cr_assert_eq(ab_live_profile(&p, &lp), 0);
		for (size_t e = 0; e < 2 * n; e++) {
			/* every event time (a first, or a last + 1) is listed once, in order */
			int64_t t = e % 2 ? (int64_t)p.buf[e / 2].last + 1 : p.buf[e / 2].first;
			uint64_t bytes = 0;
			size_t live = 0, at = 0;

			for (size_t i = 0; i < n; i++)
				if (p.buf[i].first <= t && t <= p.buf[i].last) {
					bytes += p.buf[i].size;
					live++;
				}
			while (at < lp.n && lp.time[at] != t)
				at++;
			cr_assert(at < lp.n, "seed %llu: time %lld missing", (unsigned long long)seed, (long long)t);
			cr_assert_eq(lp.bytes[at], bytes, "seed %llu, time %lld", (unsigned long long)seed, (long long)t);
			cr_assert_eq(lp.buffers[at], live, "seed %llu, time %lld", (unsigned long long)seed, (long long)t);
		}
		for (size_t at = 1; at < lp.n; at++)
			cr_assert_lt(lp.time[at - 1], lp.time[at]);
		/* no time that is not an event */
		for (size_t at = 0; at < lp.n; at++) {
			bool event = false;

			for (size_t i = 0; i < n && !event; i++)
				event = lp.time[at] == p.buf[i].first || lp.time[at] == (int64_t)p.buf[i].last + 1;
			cr_assert(event);
			k++;
		}
		cr_assert_eq(k, lp.n);
		/* the bound and its step: the most bytes live at a first use,
		 * the earliest such first use */
		{
			uint64_t best = 0;
			int64_t best_at = -1;
			int32_t at_step;

			for (size_t j = 0; j < n; j++) {
				int64_t t = p.buf[j].first;
				uint64_t bytes = 0;

				for (size_t i = 0; i < n; i++)
					if (p.buf[i].first <= t && t <= p.buf[i].last)
						bytes += p.buf[i].size;
				if (bytes > best || (bytes == best && bytes && t < best_at)) {
					best = bytes;
					best_at = t;
				}
			}
			cr_assert_eq(ab_lower_bound(&p, &at_step), best, "seed %llu", (unsigned long long)seed);
			cr_assert_eq(at_step, (int32_t)best_at, "seed %llu", (unsigned long long)seed);
		}
		ab_live_profile_free(&lp);
		ab_problem_free(&p);
	}
}

/* The ordered set (lib/ordset.h) against a sorted array: 20,000 random
 * inserts and erases over a small key range (so erases hit and miss, and
 * keys share their first half), every query checked after each step, and
 * three members placed by hand. */
static int key_cmp_test(const struct ab_ordset_key *x,
			const struct ab_ordset_key *y)
{
	return x->a != y->a ? (x->a < y->a ? -1 : 1)
			    : x->b != y->b ? (x->b < y->b ? -1 : 1) : 0;
}

Test(mechanics, ordset_matches_sorted_array)
{
	struct ab_ordset s;
	struct ab_ordset_key arr[64], k, got;
	uint32_t val[64], v;
	size_t m = 0;
	uint64_t rng = 7;

	ab_ordset_init(&s);
	cr_assert_not(ab_ordset_lower_bound(&s, (struct ab_ordset_key){ 0, 0 },
					    &got, &v));
	for (int step = 0; step < 20000; step++) {
		size_t at = 0;

		rng = ab_mix64(rng);
		k = (struct ab_ordset_key){ rng % 8, (rng >> 8) % 8 };
		while (at < m && key_cmp_test(&arr[at], &k) < 0)
			at++;
		if (at < m && !key_cmp_test(&arr[at], &k)) {
			cr_assert(ab_ordset_erase(&s, k));
			memmove(arr + at, arr + at + 1, (m - at - 1) * sizeof(*arr));
			memmove(val + at, val + at + 1, (m - at - 1) * sizeof(*val));
			m--;
		} else if ((rng >> 20) % 4) {
			cr_assert_eq(ab_ordset_insert(&s, k, (uint32_t)step), 0);
			memmove(arr + at + 1, arr + at, (m - at) * sizeof(*arr));
			memmove(val + at + 1, val + at, (m - at) * sizeof(*val));
			arr[at] = k;
			val[at] = (uint32_t)step;
			m++;
		} else {
			cr_assert_not(ab_ordset_erase(&s, k));
		}
		cr_assert_eq(s.count, m);
		rng = ab_mix64(rng);
		k = (struct ab_ordset_key){ rng % 9, (rng >> 8) % 9 };
		at = 0;
		while (at < m && key_cmp_test(&arr[at], &k) < 0)
			at++;
		cr_assert_eq(ab_ordset_lower_bound(&s, k, &got, &v), at < m);
		if (at < m)
			cr_assert(!key_cmp_test(&got, &arr[at]) && v == val[at]);
		size_t after = at < m && !key_cmp_test(&arr[at], &k) ? at + 1 : at;

		cr_assert_eq(ab_ordset_successor(&s, k, &got, &v), after < m);
		if (after < m)
			cr_assert(!key_cmp_test(&got, &arr[after]) && v == val[after]);
		cr_assert_eq(ab_ordset_predecessor(&s, k, &got, &v), at > 0);
		if (at > 0)
			cr_assert(!key_cmp_test(&got, &arr[at - 1]) &&
				  v == val[at - 1]);
		cr_assert_eq(ab_ordset_max(&s, &got, &v), m > 0);
		if (m)
			cr_assert(!key_cmp_test(&got, &arr[m - 1]));
	}
	ab_ordset_free(&s);
	/* by hand: (5, 1), (5, 9), (7, 0) */
	cr_assert_eq(ab_ordset_insert(&s, (struct ab_ordset_key){ 5, 9 }, 2), 0);
	cr_assert_eq(ab_ordset_insert(&s, (struct ab_ordset_key){ 7, 0 }, 3), 0);
	cr_assert_eq(ab_ordset_insert(&s, (struct ab_ordset_key){ 5, 1 }, 1), 0);
	cr_assert(ab_ordset_lower_bound(&s, (struct ab_ordset_key){ 5, 2 }, &got, &v));
	cr_assert(got.a == 5 && got.b == 9 && v == 2);
	cr_assert(ab_ordset_successor(&s, (struct ab_ordset_key){ 5, 9 }, &got, &v));
	cr_assert(got.a == 7 && got.b == 0 && v == 3);
	cr_assert(ab_ordset_predecessor(&s, (struct ab_ordset_key){ 5, 9 }, &got, &v));
	cr_assert(got.a == 5 && got.b == 1 && v == 1);
	cr_assert_not(ab_ordset_lower_bound(&s, (struct ab_ordset_key){ 7, 1 }, &got, &v));
	/* (5, 9) becomes (6, 4), still between (5, 1) and (7, 0) */
	cr_assert(ab_ordset_rekey(&s, (struct ab_ordset_key){ 5, 9 },
				  (struct ab_ordset_key){ 6, 4 }));
	cr_assert_not(ab_ordset_rekey(&s, (struct ab_ordset_key){ 5, 9 },
				      (struct ab_ordset_key){ 6, 5 }));
	cr_assert(ab_ordset_lower_bound(&s, (struct ab_ordset_key){ 5, 2 }, &got, &v));
	cr_assert(got.a == 6 && got.b == 4 && v == 2);
	cr_assert(ab_ordset_predecessor(&s, (struct ab_ordset_key){ 7, 0 }, &got, &v));
	cr_assert(got.a == 6 && got.b == 4 && v == 2);
	ab_ordset_free(&s);
}
