/*
 * The fast mechanics against their O(n^2) oracles (tests/lib/oracle.c) on
 * seeded random problems: varied sizes (zero, tiny, log-spread), own
 * alignments, option alignments and lifetimes (short, long, persistent).
 *
 *  - placement.c first fit and best fit, in size-descending and first-use
 *    order: identical offsets;
 *  - size_first_fit, greedy_last_use and linear: identical offsets (they
 *    are deterministic); every registered planner: the fast validator and
 *    the pairwise one agree on its plan;
 *  - validate.c against the pairwise check on valid plans and on plans
 *    broken on purpose (a buffer moved onto a live neighbour, misaligned,
 *    above the peak, random offsets): the same verdict.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "arenabench.h"
#include "oracle.h"
#include "placement.h"

#define PROBLEMS 300

static uint64_t rng_next(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*s = x;
	return x;
}

static uint64_t rng_below(uint64_t *s, uint64_t n)
{
	return n ? rng_next(s) % n : 0;
}

/* A random problem; `seed` picks the shape as well as the values. */
static void random_problem(uint64_t seed, struct ab_problem *p)
{
	uint64_t s = seed * 0x9e3779b97f4a7c15ull + 1;
	size_t n = 1 + rng_below(&s, seed % 4 == 0 ? 12 : 160);
	int32_t steps = 1 + (int32_t)rng_below(&s, seed % 3 == 0 ? 8 : 120);
	static const uint32_t aligns[] = { 1, 1, 1, 2, 4, 8, 16, 64, 3 };

	cr_assert_eq(ab_problem_alloc(p, n), 0);
	p->steps = steps;
	for (size_t i = 0; i < n; i++) {
		struct ab_buffer *b = &p->buf[i];
		uint64_t kind = rng_below(&s, 10);

		b->first = (int32_t)rng_below(&s, (uint64_t)steps);
		if (kind == 0) /* persistent */
			b->last = steps - 1;
		else if (kind < 4) /* short */
			b->last = b->first + (int32_t)rng_below(&s, 3);
		else
			b->last = b->first + (int32_t)rng_below(&s, (uint64_t)steps / 2 + 1);
		if (b->last >= steps)
			b->last = steps - 1;
		kind = rng_below(&s, 20);
		if (kind == 0)
			b->size = 0;
		else if (kind < 4)
			b->size = 1 + rng_below(&s, 8);
		else if (kind < 8) /* many equal sizes: ties */
			b->size = 64u << rng_below(&s, 3);
		else
			b->size = 1 + rng_below(&s, 1ull << (4 + rng_below(&s, 16)));
		/* non-power-of-two alignments only where seeds say so */
		b->align = aligns[rng_below(&s, seed % 5 == 0 ? 9 : 8)];
		p->id[i] = (int64_t)i;
	}
}

static uint32_t option_align(uint64_t seed)
{
	static const uint32_t a[] = { 1, 1, 16, 64, 4 };

	return a[seed % 5];
}

static void check_orders(enum ab_fit_rule rule)
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
			cr_assert_eq(rule == AB_FIT_FIRST
					     ? oracle_first_fit(&p, &o, order, p.n, slow)
					     : oracle_best_fit(&p, &o, order, p.n, slow),
				     0);
			for (size_t i = 0; i < p.n; i++)
				cr_assert_eq(fast[i], slow[i],
					     "seed %llu order %d align %u: buffer %zu at %llu, oracle %llu",
					     (unsigned long long)seed, which, o.align, i,
					     (unsigned long long)fast[i],
					     (unsigned long long)slow[i]);
			free(order);
			free(fast);
			free(slow);
		}
		ab_problem_free(&p);
	}
}

Test(mechanics, first_fit_matches_oracle)
{
	check_orders(AB_FIT_FIRST);
}

Test(mechanics, best_fit_matches_oracle)
{
	check_orders(AB_FIT_BEST);
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
				if (rng_below(&s, 4) == 0) {
					uint64_t room = plan.peak > p.buf[i].size
								? plan.peak - p.buf[i].size
								: 0;
					uint64_t a = round % 2 ? 1 : ab_effective_align(&p, i, &o);

					plan.offset[i] = rng_below(&s, room + 1) / a * a;
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
