/*
 * The peak cutoff (ab_plan_options.cutoff, core/arenabench.h) and best_of's
 * walk, which sets it.
 *
 *  - By hand, three buffers: A 4 bytes [0,1], B 4 bytes [1,2], C 2 bytes
 *    [2,3]; the lower bound is 8 (A and B at step 1).  size_first_fit places
 *    A at 0, B at 4, C at 0 (peak 8): at cutoff 8 it stops once B is placed
 *    (AB_ABOVE_CUTOFF), at 9 it gives that plan.  executorch_greedy (size
 *    descending, equal sizes in reverse producer order: B, A, C) opens an
 *    object for B, another for A (B overlaps A and fills its object), and
 *    puts C in A's object: B at 0, A at 4, C at 4, also peak 8.  best_of
 *    runs size_first_fit first, but executorch_greedy comes first in
 *    registry order and ties it, so its plan is kept (tflm_greedy, after
 *    size_first_fit in registry order, ties too, and must not win).
 *  - Every fast planner on seeded random problems (small ones, and sweep-
 *    like ones large enough for the checkpoint index and its two threads),
 *    by every route, at cutoffs around its peak and at random: a planner
 *    that stops has a peak, run without the cutoff, at least the cutoff;
 *    one that does not stop gives the offsets, arenas and peak of its run
 *    without the cutoff.
 *  - best_of against the walk it replaces, written here: every member run
 *    whole, in registry order, the first strictly smaller peak kept; the
 *    same plan on the same problems.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "core/arenabench.h"
#include "testutil.h"

static void three_buffers(struct ab_problem *p)
{
	static const int32_t first[] = { 0, 1, 2 }, last[] = { 1, 2, 3 };
	static const uint64_t size[] = { 4, 4, 2 };

	cr_assert_eq(ab_problem_alloc(p, 3), 0);
	p->steps = 4;
	for (size_t i = 0; i < 3; i++) {
		p->buf[i] = (struct ab_buffer){ .size = size[i], .align = 1,
						.first = first[i],
						.last = last[i] };
		p->id[i] = (int64_t)i;
	}
}

static int run(const char *name, const struct ab_problem *p, uint64_t cutoff,
	       struct ab_plan *plan)
{
	const struct ab_planner *pl = ab_planner_find(name);
	struct ab_plan_options o = { .align = 1, .cutoff = cutoff };

	cr_assert_not_null(pl, "%s is not registered", name);
	ab_plan_reset(plan);
	return pl->plan(p, &o, plan);
}

static void expect_offsets(const struct ab_plan *plan, uint64_t a, uint64_t b,
			   uint64_t c, const char *what)
{
	cr_expect(plan->offset[0] == a && plan->offset[1] == b &&
			  plan->offset[2] == c,
		  "%s: A %llu B %llu C %llu, expected %llu %llu %llu", what,
		  (unsigned long long)plan->offset[0],
		  (unsigned long long)plan->offset[1],
		  (unsigned long long)plan->offset[2], (unsigned long long)a,
		  (unsigned long long)b, (unsigned long long)c);
}

Test(cutoff, by_hand)
{
	struct ab_problem p = { 0 };
	struct ab_plan plan;

	three_buffers(&p);
	cr_assert_eq(ab_plan_alloc(&plan, 3), 0);
	cr_expect_eq(ab_lower_bound(&p, NULL), 8);

	cr_expect_eq(run("size_first_fit", &p, 8, &plan), AB_ABOVE_CUTOFF);
	cr_assert_eq(run("size_first_fit", &p, 9, &plan), 0);
	cr_expect_eq(plan.peak, 8);
	expect_offsets(&plan, 0, 4, 0, "size_first_fit");

	cr_expect_eq(run("executorch_greedy", &p, 8, &plan), AB_ABOVE_CUTOFF);
	cr_assert_eq(run("executorch_greedy", &p, 0, &plan), 0);
	cr_expect_eq(plan.peak, 8);
	expect_offsets(&plan, 4, 0, 4, "executorch_greedy");

	/* the earlier member ties the leader: its plan is kept */
	cr_assert_eq(run("best_of", &p, 0, &plan), 0);
	cr_expect_eq(plan.peak, 8);
	expect_offsets(&plan, 4, 0, 4, "best_of, a tie at the bound");
	ab_problem_free(&p);
	ab_plan_free(&plan);
}

/* Small problems of every shape, and sweep-like ones (many buffers live at
 * once, a few long ones) of up to 6,000 buffers. */
static void random_problem(uint64_t seed, struct ab_problem *p)
{
	uint64_t s = seed * 0x9e3779b97f4a7c15ull + 1;
	bool large = seed % 4 == 0;
	size_t n = large ? 300 + tu_rng_below(&s, seed % 8 == 0 ? 6000 : 1500)
			 : 1 + tu_rng_below(&s, 60);
	int32_t steps = large ? (int32_t)(n / 4 + 1)
			      : 1 + (int32_t)tu_rng_below(&s, 30);

	cr_assert_eq(ab_problem_alloc(p, n), 0);
	p->steps = steps;
	for (size_t i = 0; i < n; i++) {
		struct ab_buffer *b = &p->buf[i];
		uint64_t kind = tu_rng_below(&s, 20);

		b->first = (int32_t)tu_rng_below(&s, (uint64_t)steps);
		b->last = b->first + (int32_t)(kind == 0 ? (uint64_t)steps
					       : tu_rng_below(&s, large ? 40 : 8));
		if (b->last >= steps)
			b->last = steps - 1;
		kind = tu_rng_below(&s, 10);
		b->size = kind == 0 ? 0
			  : kind < 4 ? 64u << tu_rng_below(&s, 3) /* ties */
				     : 1 + tu_rng_below(&s, 1ull << (4 + tu_rng_below(&s, 14)));
		b->align = seed % 3 == 0 ? 1u << tu_rng_below(&s, 4) : 1;
		p->id[i] = (int64_t)i;
	}
}

static bool same_plan(const struct ab_plan *a, const struct ab_plan *b)
{
	if (a->peak != b->peak || a->n_arenas != b->n_arenas ||
	    memcmp(a->offset, b->offset, a->n * sizeof(*a->offset)))
		return false;
	for (int k = 0; k < a->n_arenas; k++)
		if (a->arena_base[k] != b->arena_base[k] ||
		    a->arena_size[k] != b->arena_size[k])
			return false;
	return a->n_arenas == 1 ||
	       !memcmp(a->arena, b->arena, a->n * sizeof(*a->arena));
}

#define PROBLEMS 24

Test(cutoff, stops_only_above_and_else_changes_nothing, .timeout = 600)
{
	static const enum ab_route routes[] = { AB_ROUTE_CHOSEN,
						AB_ROUTE_LISTING,
						AB_ROUTE_INDEX };
	size_t stopped = 0, whole = 0;

	for (uint64_t seed = 1; seed <= PROBLEMS; seed++) {
		struct ab_problem p = { 0 };
		struct ab_plan full, cut;
		uint64_t s = seed + 7;

		random_problem(seed, &p);
		cr_assert_eq(ab_plan_alloc(&full, p.n), 0);
		cr_assert_eq(ab_plan_alloc(&cut, p.n), 0);
		for (size_t k = 0; k < ab_planner_count(); k++) {
			const struct ab_planner *pl = ab_planner_at(k);

			if (pl->cost != AB_COST_FAST)
				continue;
			for (size_t r = 0; r < 3; r++) {
				struct ab_plan_options o = {
					.align = seed % 5 == 0 ? 16 : 1,
					.route = routes[r],
				};
				uint64_t cutoffs[4];

				ab_plan_reset(&full);
				cr_assert_eq(pl->plan(&p, &o, &full), 0,
					     "%s, seed %llu", pl->name,
					     (unsigned long long)seed);
				cutoffs[0] = full.peak;
				cutoffs[1] = full.peak + 1;
				cutoffs[2] = 1 + tu_rng_below(&s, 2 * full.peak + 1);
				cutoffs[3] = 1 + tu_rng_below(&s, full.peak + 1);
				for (size_t c = 0; c < 4; c++) {
					int rc;

					o.cutoff = cutoffs[c];
					ab_plan_reset(&cut);
					rc = pl->plan(&p, &o, &cut);
					if (rc == AB_ABOVE_CUTOFF) {
						stopped++;
						cr_expect_geq(full.peak, o.cutoff,
							      "%s, seed %llu, route %zu: stopped at cutoff %llu, peak %llu",
							      pl->name, (unsigned long long)seed, r,
							      (unsigned long long)o.cutoff,
							      (unsigned long long)full.peak);
						continue;
					}
					whole++;
					cr_expect_eq(rc, 0, "%s: %d", pl->name, rc);
					cr_expect(same_plan(&full, &cut),
						  "%s, seed %llu, route %zu, cutoff %llu: another plan",
						  pl->name, (unsigned long long)seed, r,
						  (unsigned long long)o.cutoff);
				}
			}
		}
		ab_plan_free(&full);
		ab_plan_free(&cut);
		ab_problem_free(&p);
	}
	/* both outcomes were exercised */
	cr_expect_gt(stopped, 1000);
	cr_expect_gt(whole, 1000);
}

/* The walk best_of replaces: every fast member whole, registry order. */
static void reference_best_of(const struct ab_problem *p,
			      const struct ab_plan_options *o,
			      struct ab_plan *out)
{
	const struct ab_planner *self = ab_planner_find("best_of");
	struct ab_plan tmp;
	uint64_t best = UINT64_MAX;

	cr_assert_eq(ab_plan_alloc(&tmp, p->n), 0);
	for (size_t k = 0; k < ab_planner_count(); k++) {
		const struct ab_planner *pl = ab_planner_at(k);

		if (pl->cost != AB_COST_FAST || pl == self)
			continue;
		ab_plan_reset(&tmp);
		cr_assert_eq(pl->plan(p, o, &tmp), 0, "%s", pl->name);
		if (tmp.peak < best) {
			best = tmp.peak;
			ab_plan_copy(out, &tmp);
		}
	}
	ab_plan_free(&tmp);
}

Test(cutoff, best_of_keeps_the_registry_walks_plan, .timeout = 600)
{
	for (uint64_t seed = 1; seed <= 3 * PROBLEMS; seed++) {
		struct ab_problem p = { 0 };
		struct ab_plan_options o = { .align = seed % 5 == 0 ? 16 : 1 };
		struct ab_plan want, got;

		random_problem(seed, &p);
		cr_assert_eq(ab_plan_alloc(&want, p.n), 0);
		cr_assert_eq(ab_plan_alloc(&got, p.n), 0);
		reference_best_of(&p, &o, &want);
		cr_assert_eq(ab_planner_find("best_of")->plan(&p, &o, &got), 0);
		cr_expect(same_plan(&want, &got),
			  "seed %llu (%zu buffers): best_of peak %llu, the walk's %llu",
			  (unsigned long long)seed, p.n,
			  (unsigned long long)got.peak,
			  (unsigned long long)want.peak);
		ab_plan_free(&want);
		ab_plan_free(&got);
		ab_problem_free(&p);
	}
}
