/*
 * The exact planner (planners/exact.c).
 *
 *  - rectangles: a time x bytes rectangle (T steps x W bytes) cut by random
 *    guillotine cuts into pieces; each piece is a buffer (its byte extent
 *    is the size, its time extent the lifetime).  Every step is fully
 *    covered, so the live-bytes bound is W and the rectangle itself is a
 *    plan of peak W: the optimum is W.  exact must find it and say so,
 *    also for 40-90 pieces where the search has to decompose.
 *  - brute force: tiny random problems solved by enumerating every offset
 *    (multiple of the alignment) of every buffer, pruned only by the best
 *    peak so far: exact's peak must equal that optimum, with optimal = yes
 *    and best_bound = the optimum.  Some of them have an optimum above the
 *    live-bytes bound, so exact must prove it by exhausting the search.
 *  - the aligned section bound, on a case worked by hand.
 *  - minimalloc's suite (../shared; skipped when absent): the live-bytes
 *    bound on the nine problems where minimalloc reaches it, and at most
 *    minimalloc's best on D and J, with the default budget.
 *  - every plan returned passes the geometric and the execution check;
 *    iterations never exceed the budget; two runs give the same offsets.
 *  - local_search's evaluator (ab_place_suffix_within, planners/lib/
 *    placement.c) against full placements, and local_search itself.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arenabench.h"
#include "lib/placement.h"
#include "lib/restarts.h"
#include "check/check.h"
#include "import/problem_csv.h"

#define MINIMALLOC_DIR "../shared/problems/minimalloc"

static uint64_t lcg(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return *s >> 33;
}

/* Plans with exact (budget 0 = the default, seed o->seed) and checks the
 * plan both ways. */
static void run_exact_options(const struct ab_problem *p,
			      const struct ab_plan_options *o,
			      struct ab_plan *plan)
{
	const struct ab_planner *ex = ab_planner_find("exact");
	uint32_t align = o->align;
	uint64_t budget = o->budget;
	struct ab_check_result res;
	enum ab_exec_mode mode;

	cr_assert_not_null(ex);
	cr_assert_eq(ex->cost, AB_COST_BUDGETED);
	cr_assert_eq(ab_plan_alloc(plan, p->n), 0);
	cr_assert_eq(ex->plan(p, o, plan), 0);
	cr_assert_eq(ab_validate_plan(p, plan, align, &res), AB_PLAN_VALID,
		     "%s: %s (%zu, %zu)", p->name,
		     ab_verdict_name(res.verdict), res.a, res.b);
	cr_assert_eq(ab_execute_plan(NULL, p, plan, NULL,
				     &mode, &res),
		     AB_PLAN_VALID, "%s: execution check %s (%zu, %zu)",
		     p->name, ab_verdict_name(res.verdict), res.a, res.b);
	cr_assert_leq(plan->best_bound, plan->peak);
	if (budget)
		cr_assert_leq(plan->iterations, budget);
}

static void run_exact_with(const struct ab_problem *p, uint32_t align,
			   uint64_t budget, struct ab_plan *plan)
{
	struct ab_plan_options o = { .align = align, .budget = budget };

	run_exact_options(p, &o, plan);
}

static void run_exact(const struct ab_problem *p, uint32_t align,
		      struct ab_plan *plan)
{
	run_exact_with(p, align, 200000, plan);
}

/* ----------------------------------------------------------- rectangles */

struct piece { int32_t t0, t1; uint64_t b0, b1; }; /* [t0,t1) x [b0,b1) */

/* Cuts random pieces until there are `want`; time cuts with probability
 * time_per_8 / 8. */
static size_t cut(struct piece *out, size_t n, size_t want, int time_per_8,
		  uint64_t *seed)
{
	while (n < want) {
		size_t k = lcg(seed) % n;
		struct piece pc = out[k];
		bool in_time = (int)(lcg(seed) % 8) < time_per_8;

		if (in_time && pc.t1 - pc.t0 >= 2) {
			int32_t t = pc.t0 + 1 + (int32_t)(lcg(seed) %
						  (uint64_t)(pc.t1 - pc.t0 - 1));

			out[k].t1 = t;
			out[n] = pc;
			out[n++].t0 = t;
		} else if (!in_time && pc.b1 - pc.b0 >= 2) {
			uint64_t b = pc.b0 + 1 + lcg(seed) % (pc.b1 - pc.b0 - 1);

			out[k].b1 = b;
			out[n] = pc;
			out[n++].b0 = b;
		}
	}
	return n;
}

static void rectangle_problem(const struct piece *pcs, size_t n, int32_t steps,
			      struct ab_problem *p)
{
	cr_assert_eq(ab_problem_alloc(p, n), 0);
	p->name = strdup("rectangle");
	p->steps = steps;
	for (size_t i = 0; i < n; i++) {
		p->buf[i].size = pcs[i].b1 - pcs[i].b0;
		p->buf[i].align = 1;
		p->buf[i].first = pcs[i].t0;
		p->buf[i].last = pcs[i].t1 - 1;
	}
}

static void expect_rectangle_optimum(size_t n_min, size_t n_span, int32_t T,
				     uint64_t W, int time_per_8, int count)
{
	for (uint64_t inst = 1; inst <= (uint64_t)count; inst++) {
		struct piece pcs[128] = { { 0, T, 0, W } };
		uint64_t seed = inst * 977 + n_min;
		size_t n = cut(pcs, 1, n_min + inst % n_span, time_per_8, &seed);
		struct ab_problem p = { 0 };
		struct ab_plan plan;

		rectangle_problem(pcs, n, T, &p);
		cr_assert_eq(ab_lower_bound(&p, NULL), W);
		run_exact(&p, 1, &plan);
		cr_expect_eq(plan.peak, W, "instance %llu (%zu pieces): %llu",
			     (unsigned long long)inst, n,
			     (unsigned long long)plan.peak);
		cr_expect_eq(plan.optimal, AB_OPTIMAL_YES);
		cr_expect_eq(plan.best_bound, W);
		ab_plan_free(&plan);
		ab_problem_free(&p);
	}
}

Test(exact, rectangle_cuts_reach_the_bound)
{
	/* 6..15 pieces of an 8 x 64 rectangle, half the cuts in time */
	expect_rectangle_optimum(6, 10, 8, 64, 4, 12);
}

Test(exact, large_rectangles_decompose_and_reach_the_bound)
{
	/* 40..89 pieces of a 40 x 4096 rectangle, 3 of 8 cuts in time:
	 * buffers end and start at many steps, so pieces split off */
	expect_rectangle_optimum(40, 50, 40, 4096, 3, 10);
}

/* ---------------------------------------------------------- brute force */

struct brute {
	const struct ab_problem *p;
	uint64_t align, off[8], best;
};

static bool live_together(const struct ab_buffer *a, const struct ab_buffer *b)
{
	return a->first <= b->last && b->first <= a->last;
}

static void brute(struct brute *s, size_t i, uint64_t peak)
{
	const struct ab_problem *p = s->p;
	uint64_t step;

	if (peak >= s->best)
		return;
	if (i == p->n) {
		s->best = peak;
		return;
	}
	step = p->buf[i].align > s->align ? p->buf[i].align : s->align;
	for (uint64_t o = 0; o + p->buf[i].size < s->best; o += step) {
		bool ok = true;

		for (size_t j = 0; j < i && ok; j++)
			if (live_together(&p->buf[i], &p->buf[j]) &&
			    o < s->off[j] + p->buf[j].size &&
			    s->off[j] < o + p->buf[i].size)
				ok = false;
		if (!ok)
			continue;
		s->off[i] = o;
		brute(s, i + 1, peak > o + p->buf[i].size
					? peak : o + p->buf[i].size);
	}
}

/* 2..max_n buffers, sizes 1..max_size, lifetimes within `steps` steps;
 * mixed: each buffer's own alignment 1, 2 or 4. */
static void random_problem(struct ab_problem *p, uint64_t *seed, size_t max_n,
			   uint64_t max_size, int32_t steps, bool mixed)
{
	size_t n = 2 + lcg(seed) % (max_n - 1);

	cr_assert_eq(ab_problem_alloc(p, n), 0);
	p->name = strdup("tiny");
	p->steps = steps;
	for (size_t i = 0; i < n; i++) {
		int32_t a = (int32_t)(lcg(seed) % (uint64_t)steps);
		int32_t b = (int32_t)(lcg(seed) % (uint64_t)steps);

		p->buf[i].size = 1 + lcg(seed) % max_size;
		p->buf[i].align = mixed ? 1u << (lcg(seed) % 3) : 1;
		p->buf[i].first = a < b ? a : b;
		p->buf[i].last = a < b ? b : a;
	}
}

static void against_brute_force(uint32_t align, int count, size_t max_n,
				uint64_t max_size, int32_t steps, bool mixed)
{
	uint64_t seed = 12345 + align + max_n;

	for (int inst = 0; inst < count; inst++) {
		struct ab_problem p = { 0 };
		struct brute s = { .align = align, .best = UINT64_MAX };
		struct ab_plan plan;

		random_problem(&p, &seed, max_n, max_size, steps, mixed);
		s.p = &p;
		s.best = (ab_sum_bytes(&p) + 4 * p.n) * align + 1;
		brute(&s, 0, 0);
		run_exact(&p, align, &plan);
		cr_expect_eq(plan.peak, s.best, "instance %d align %u: exact %llu, "
			     "brute force %llu", inst, align,
			     (unsigned long long)plan.peak,
			     (unsigned long long)s.best);
		cr_expect_eq(plan.optimal, AB_OPTIMAL_YES, "instance %d", inst);
		cr_expect_eq(plan.best_bound, s.best, "instance %d", inst);
		ab_plan_free(&plan);
		ab_problem_free(&p);
	}
}

Test(exact, tiny_problems_match_brute_force)
{
	against_brute_force(1, 300, 6, 5, 5, false);
}

Test(exact, tiny_problems_match_brute_force_aligned)
{
	against_brute_force(4, 300, 6, 5, 5, false);
}

Test(exact, tiny_problems_match_brute_force_mixed_alignments)
{
	/* own alignments 1, 2, 4 mixed: the alignment gcd is 1, so sizes
	 * are not rounded in the section bound */
	against_brute_force(1, 300, 6, 5, 5, true);
}

Test(exact, small_problems_match_brute_force)
{
	/* 7 buffers of up to 9 bytes over 6 steps; at alignment 4 a few have
	 * an optimum above every bound exact knows, so only an exhausted
	 * search proves it */
	against_brute_force(1, 100, 7, 9, 6, false);
	against_brute_force(4, 300, 7, 9, 6, false);
	against_brute_force(1, 300, 8, 6, 8, false);
}

/* ----------------------------------------------------- aligned bound */

static void set_buffer(struct ab_problem *p, size_t i, int32_t first,
		       int32_t last, uint64_t size)
{
	p->buf[i].first = first;
	p->buf[i].last = last;
	p->buf[i].size = size;
	p->buf[i].align = 1;
}

Test(exact, aligned_section_bound_proves_the_optimum)
{
	/* Three buffers live together at step 0, alignment 16.  Raw bound:
	 * 1028 + 1028 + 4 = 2060.  Every offset is a multiple of 16, so a
	 * buffer with another above it takes its size rounded up to 16:
	 * 1028 -> 1040, 4 -> 16.  The best stack puts the one with the most
	 * padding (1028: 12 bytes, or 4: 12 bytes) on top:
	 * 1040 + 1040 + 4 = 2084 = 16 + 1040 + 1028.  So the optimum is 2084
	 * and the bound proves it without a search node. */
	struct ab_problem p = { 0 };
	struct ab_plan plan;
	const uint64_t size[3] = { 1028, 1028, 4 };

	cr_assert_eq(ab_problem_alloc(&p, 3), 0);
	p.name = strdup("aligned");
	p.steps = 1;
	for (size_t i = 0; i < 3; i++)
		set_buffer(&p, i, 0, 0, size[i]);
	run_exact(&p, 16, &plan);
	cr_expect_eq(plan.peak, 2084);
	cr_expect_eq(plan.best_bound, 2084);
	cr_expect_eq(plan.optimal, AB_OPTIMAL_YES);
	cr_expect_eq(plan.iterations, 0);
	ab_plan_free(&plan);
	ab_problem_free(&p);
}

Test(exact, search_proves_an_optimum_above_every_bound)
{
	/* Alignment 4.  b0 steps 1-4 size 1, b1 steps 0-1 size 5, b2 step 0
	 * size 2, b3 steps 3-5 size 8.
	 * Live bytes: step 0 b1+b2 = 7, step 1 b0+b1 = 6, steps 3-4 b0+b3 =
	 * 9, step 5 8: bound 9.  Aligned section bound: steps 3-4 need
	 * 8 + 4 - 3 (b0 on top) = 9 too.
	 * Is 9 possible?  Steps 3-4: b3 (8 bytes, offset a multiple of 4)
	 * and b0 within 9 bytes: b3 at 0, b0 at 8 (b0 at 0 would push b3 to
	 * 4, ending at 12).  Step 1: b1 (5 bytes) must miss [8, 9): b1 at 0
	 * (at 4 it would end at 9 over b0).  Step 0: b2 next to b1 = [0, 5):
	 * the next multiple of 4 is 8, so b2 = [8, 10): 10 > 9.  No plan of
	 * 9; b0 8, b1 0, b2 8, b3 0 has peak 10, the optimum.  Only the
	 * search can show that 9 fails. */
	struct ab_problem p = { 0 };
	struct ab_plan plan;

	cr_assert_eq(ab_problem_alloc(&p, 4), 0);
	p.name = strdup("above the bound");
	p.steps = 6;
	set_buffer(&p, 0, 1, 4, 1);
	set_buffer(&p, 1, 0, 1, 5);
	set_buffer(&p, 2, 0, 0, 2);
	set_buffer(&p, 3, 3, 5, 8);
	cr_assert_eq(ab_lower_bound(&p, NULL), 9);
	run_exact(&p, 4, &plan);
	cr_expect_eq(plan.peak, 10);
	cr_expect_eq(plan.best_bound, 10);
	cr_expect_eq(plan.optimal, AB_OPTIMAL_YES);
	cr_expect_gt(plan.iterations, 0);
	ab_plan_free(&plan);
	ab_problem_free(&p);
}

/* ----------------------------------------------- determinism, budget */

Test(exact, deterministic_and_within_budget)
{
	struct piece pcs[128] = { { 0, 30, 0, 1000 } };
	uint64_t seed = 4242;
	size_t n = cut(pcs, 1, 60, 3, &seed);
	struct ab_problem p = { 0 };
	struct ab_plan a, b;

	rectangle_problem(pcs, n, 31, &p);
	/* move one piece later by a step: the bound is no longer a plan */
	p.buf[0].last += 1;
	run_exact_with(&p, 1, 3000, &a);
	run_exact_with(&p, 1, 3000, &b);
	cr_expect_eq(a.peak, b.peak);
	cr_expect_eq(a.iterations, b.iterations);
	cr_expect_eq(memcmp(a.offset, b.offset, n * sizeof(*a.offset)), 0);
	ab_plan_free(&a);
	ab_plan_free(&b);
	ab_problem_free(&p);
}

/* ---------------------------------------------------- minimalloc suite */

struct suite_case {
	const char *name;
	uint64_t lower_bound; /* ../shared/problems/minimalloc/PROVENANCE.txt */
	uint64_t minimalloc;  /* minimalloc's best known peak, same source */
};

static const struct suite_case suite[] = {
	{ "A", 1048576, 1048576 }, { "B", 1048576, 1048576 },
	{ "C", 1039360, 1039360 }, { "D", 986112, 1038336 },
	{ "E", 1048576, 1048576 }, { "F", 1048576, 1048576 },
	{ "G", 1048576, 1048576 }, { "H", 1048576, 1048576 },
	{ "I", 1048576, 1048576 }, { "J", 989184, 1041408 },
	{ "K", 1048576, 1048576 },
};

Test(exact, minimalloc_suite_with_the_default_budget)
{
	for (size_t k = 0; k < sizeof(suite) / sizeof(suite[0]); k++) {
		char path[256];
		struct ab_problem p = { 0 };
		struct ab_error err;
		struct ab_plan plan;
		FILE *f;

		snprintf(path, sizeof(path), MINIMALLOC_DIR "/%s.1048576.csv",
			 suite[k].name);
		f = fopen(path, "r");
		if (!f)
			cr_skip_test("%s absent: minimalloc's suite not checked", path);
		fclose(f);
		cr_assert_eq(ab_problem_load_csv(path, &p, &err), 0, "%s",
			     err.msg);
		cr_assert_eq(ab_lower_bound(&p, NULL), suite[k].lower_bound);
		run_exact_with(&p, 1, 0, &plan);
		cr_expect_leq(plan.peak, suite[k].minimalloc, "%s: %llu",
			      suite[k].name, (unsigned long long)plan.peak);
		if (suite[k].minimalloc == suite[k].lower_bound)
			cr_expect_eq(plan.optimal, AB_OPTIMAL_YES, "%s",
				     suite[k].name);
		ab_plan_free(&plan);
		ab_problem_free(&p);
	}
}

/* Loads minimalloc's D; false (the test skipped) when ../shared is absent. */
static bool load_minimalloc_D(struct ab_problem *p)
{
	const char *path = MINIMALLOC_DIR "/D.1048576.csv";
	struct ab_error err;
	FILE *f = fopen(path, "r");

	if (!f) {
		cr_skip_test("%s absent: minimalloc's D not checked", path);
		return false;
	}
	fclose(f);
	cr_assert_eq(ab_problem_load_csv(path, p, &err), 0, "%s", err.msg);
	return true;
}

/* The restarts that a budget above the default buys (planners/exact.c,
 * restart_phase).  D's default budget is min(10^6, 2 x 10^8 / 213) =
 * 938,967 nodes and finds 1,031,168; without restarts no budget up to ten
 * times that finds less (docs/planners.md).  At 2,000,000 nodes the
 * restarts get (2,000,000 - 938,967) / 2 = 530,516 of them and reach
 * 1,027,072 with seed 1 (measured; no optimum is known, only max-load
 * 986,112 below it); the test asks for less than 1,031,168 and the same
 * offsets twice. */
/* exact's progress lines, as `plan` prints them (the second run below) */
struct seen_lines {
	size_t n;
	struct ab_progress line[4096];
};

static void collect_line(void *user, const struct ab_progress *pr)
{
	struct seen_lines *s = user;

	if (s->n < sizeof(s->line) / sizeof(s->line[0]))
		s->line[s->n++] = *pr;
}

/* The order of exact's phases (planners/exact.c's header, steps 6-8). */
static int phase_rank(const char *phase)
{
	static const char *const order[] = { "best_of", "complete search",
		"restarts", "skyline search", "hole closing", "band repair",
		"window repair" };

	for (int k = 0; k < 7; k++)
		if (!strcmp(phase, order[k]))
			return k;
	return -1;
}

Test(exact, restarts_improve_minimalloc_D, .timeout = 120)
{
	struct ab_plan_options o = { .align = 1, .budget = 2000000, .seed = 1 };
	struct ab_problem p = { 0 };
	struct ab_plan a, b;
	static struct seen_lines seen;

	if (!load_minimalloc_D(&p))
		return;
	run_exact_options(&p, &o, &a);
	o.progress = collect_line;
	o.progress_user = &seen;
	run_exact_options(&p, &o, &b);
	cr_expect_lt(a.peak, 1031168, "D: %llu", (unsigned long long)a.peak);
	cr_expect_eq(a.best_bound, 986112);
	/* the lines change nothing */
	cr_expect_eq(a.peak, b.peak);
	cr_expect_eq(memcmp(a.offset, b.offset, p.n * sizeof(*a.offset)), 0);
	/* The lines (the run takes seconds, so they are printed): the
	 * starting plan's first, at 0 nodes; then phases in the pipeline's
	 * order with time and nodes never going back and the peak never
	 * rising; the last one is the plan returned. */
	cr_assert_gt(seen.n, 1, "no progress lines from a run of seconds");
	cr_expect_str_eq(seen.line[0].phase, "best_of");
	cr_expect_eq(seen.line[0].nodes, 0);
	for (size_t k = 1; k < seen.n; k++) {
		const struct ab_progress *u = &seen.line[k - 1], *v = &seen.line[k];

		cr_expect_geq(phase_rank(v->phase), phase_rank(u->phase), "line %zu: %s after %s", k, v->phase, u->phase);
		cr_expect_geq(phase_rank(v->phase), 1, "line %zu: %s", k, v->phase);
		cr_expect_geq(v->seconds, u->seconds, "line %zu", k);
		cr_expect_geq(v->nodes, u->nodes, "line %zu", k);
		cr_expect_leq(v->peak, u->peak, "line %zu", k);
		cr_expect_eq(v->bound, 986112, "line %zu", k);
	}
	cr_expect_eq(seen.line[seen.n - 1].peak, b.peak);
	cr_expect_leq(seen.line[seen.n - 1].nodes, 2000000);
	ab_plan_free(&a);
	ab_plan_free(&b);
	ab_problem_free(&p);
}

/* Luby's sequence from its definition (t(i) = 2^(k-1) if i = 2^k - 1,
 * else t(i - 2^(k-1) + 1) for 2^(k-1) <= i < 2^k - 1):
 * i = 1..15: 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8; i = 31 is 16; i = 30 repeats
 * i = 30 - 15 = 15: 8. */
Test(exact, luby_sequence)
{
	static const uint64_t want[15] = { 1, 1, 2, 1, 1, 2, 4, 1,
					   1, 2, 1, 1, 2, 4, 8 };
	struct ab_rng r1, r2;
	double f1[64], f2[64];

	for (uint64_t i = 1; i <= 15; i++)
		cr_expect_eq(ab_luby(i), want[i - 1], "i = %llu",
			     (unsigned long long)i);
	cr_expect_eq(ab_luby(30), 8);
	cr_expect_eq(ab_luby(31), 16);
	/* factors in [1 - spread, 1 + spread], the same for the same seed */
	ab_rng_seed(&r1, 7);
	ab_rng_seed(&r2, 7);
	ab_random_factors(f1, 64, 0.1, &r1);
	ab_random_factors(f2, 64, 0.1, &r2);
	for (size_t i = 0; i < 64; i++) {
		cr_expect(f1[i] >= 0.9 && f1[i] <= 1.1, "%g", f1[i]);
		cr_expect_eq(f1[i], f2[i]);
	}
}

Test(exact, small_budget_reports_unknown)
{
	struct ab_problem p = { 0 };
	struct ab_plan plan;

	if (!load_minimalloc_D(&p))
		return;
	/* D's optimum is unknown and above its bound 986112: 2000 nodes
	 * neither reach nor prove anything */
	run_exact_with(&p, 1, 2000, &plan);
	cr_expect_eq(plan.optimal, AB_OPTIMAL_UNKNOWN);
	cr_expect_eq(plan.stopped_by, AB_STOPPED_BUDGET);
	cr_expect_eq(plan.best_bound, 986112);
	cr_expect_eq(plan.iterations, 2000);
	cr_expect_eq(plan.budget, 2000);
	cr_expect_str_eq(plan.stop_phase ? plan.stop_phase : "(none)",
			 "complete search");
	ab_plan_free(&plan);
	ab_problem_free(&p);
}

/* ------------------------------------- local_search's evaluator, placement.c */

/*
 * ab_place_suffix_within (planners/lib/placement.c) re-places an order from a
 * position on, the buffers before it keeping their offsets: on a random
 * problem, for orders that share a prefix, it must give exactly what a
 * full ab_place_in_order gives, for both rules, and stop early (top above
 * the limit) when the limit is below the full peak.
 */
Test(local_search, suffix_re_placement_matches_a_full_placement)
{
	struct ab_problem p = { 0 };
	struct ab_plan_options o = { .align = 8 };
	uint64_t seed = 31337;
	/* orders that agree on their first `from` entries: the second has
	 * the first's suffix reversed */
	const size_t n = 300;
	uint32_t *first = malloc(n * sizeof(*first));
	uint32_t *second = malloc(n * sizeof(*second));
	uint64_t *full = malloc(n * sizeof(*full));
	uint64_t *part = malloc(n * sizeof(*part));

	cr_assert(first && second && full && part);
	cr_assert_eq(ab_problem_alloc(&p, n), 0);
	p.name = strdup("suffix");
	p.steps = 60;
	for (size_t i = 0; i < n; i++) {
		int32_t a = (int32_t)(lcg(&seed) % 60);
		int32_t l = (int32_t)(lcg(&seed) % 8);

		set_buffer(&p, i, a, a + l < 60 ? a + l : 59,
			   1 + lcg(&seed) % 500);
		first[i] = (uint32_t)i;
	}
	for (size_t i = n; i-- > 1;) { /* a random order */
		size_t j = lcg(&seed) % (i + 1);
		uint32_t t = first[i];

		first[i] = first[j];
		first[j] = t;
	}
	const ab_gap_rule rules[] = { ab_fit_first, ab_fit_best };

	for (size_t r = 0; r < 2; r++) {
		const ab_gap_rule rule = rules[r];
		const size_t froms[] = { 0, 1, 77, 150, 299 };

		for (size_t f = 0; f < sizeof(froms) / sizeof(froms[0]); f++) {
			size_t from = froms[f];
			uint64_t top_full, top_part, top_first;

			memcpy(second, first, n * sizeof(*first));
			for (size_t j = from; j < n; j++)
				second[j] = first[n - 1 - (j - from)];
			cr_assert_eq(ab_place_in_order(&p, &o, first, n, rule,
						       part, &top_first), 0);
			cr_assert_eq(ab_place_in_order(&p, &o, second, n, rule,
						       full, &top_full), 0);
			cr_assert_eq(ab_place_suffix_within(&p, &o, second, n,
							    from, rule,
							    UINT64_MAX, part,
							    &top_part), 0);
			cr_expect_eq(top_part, top_full, "rule %d from %zu",
				     rule, from);
			cr_expect_eq(memcmp(part, full, n * sizeof(*full)), 0,
				     "rule %d from %zu", rule, from);
			/* limit 0: the first buffer placed ends above it, so
			 * with from = 0 only second[0] is placed (at 0), and
			 * with from > 0 the kept prefix is already above it
			 * and nothing is placed; the rest keep the sentinel */
			for (size_t j = 0; j < n; j++)
				part[j] = UINT64_MAX;
			for (size_t j = 0; j < from; j++)
				part[second[j]] = full[second[j]];
			cr_assert_eq(ab_place_suffix_within(&p, &o, second, n,
							    from, rule, 0,
							    part, &top_part), 0);
			cr_expect_gt(top_part, 0);
			for (size_t j = from; j < n; j++)
				cr_expect_eq(part[second[j]],
					     from == 0 && j == 0 ? 0
								 : UINT64_MAX,
					     "rule %d from %zu, entry %zu", rule,
					     from, j);
		}
	}
	free(first);
	free(second);
	free(full);
	free(part);
	ab_problem_free(&p);
}

/* local_search: valid, deterministic, never above its start (size order,
 * the better of first and best fit), iterations = the budget unless it
 * reached the bound. */
Test(local_search, deterministic_valid_and_not_worse_than_its_start)
{
	const struct ab_planner *ls = ab_planner_find("local_search");
	struct piece pcs[128] = { { 0, 30, 0, 1000 } };
	uint64_t seed = 777, start_ff, start_bf;
	size_t n = cut(pcs, 1, 70, 3, &seed);
	struct ab_plan_options o = { .align = 4, .seed = 5, .budget = 400 };
	struct ab_problem p = { 0 };
	struct ab_plan a, b;
	struct ab_check_result res;
	uint32_t *order;
	uint64_t *off;

	rectangle_problem(pcs, n, 31, &p);
	p.buf[3].last += 1; /* no longer a perfect tiling */
	order = malloc(n * sizeof(*order));
	off = malloc(n * sizeof(*off));
	cr_assert(order && off);
	cr_assert_eq(ab_order_size_desc(&p, order), 0);
	cr_assert_eq(ab_place_in_order(&p, &o, order, n, ab_fit_first, off,
				       &start_ff), 0);
	cr_assert_eq(ab_place_in_order(&p, &o, order, n, ab_fit_best, off,
				       &start_bf), 0);
	cr_assert_not_null(ls);
	cr_assert_eq(ab_plan_alloc(&a, n), 0);
	cr_assert_eq(ab_plan_alloc(&b, n), 0);
	cr_assert_eq(ls->plan(&p, &o, &a), 0);
	cr_assert_eq(ls->plan(&p, &o, &b), 0);
	cr_assert_eq(ab_validate_plan(&p, &a, 4, &res), AB_PLAN_VALID);
	cr_expect_eq(memcmp(a.offset, b.offset, n * sizeof(*a.offset)), 0);
	cr_expect_leq(a.peak, start_ff < start_bf ? start_ff : start_bf);
	cr_expect_eq(a.budget, 400);
	if (a.optimal != AB_OPTIMAL_YES) {
		cr_expect_eq(a.iterations, 400);
		cr_expect_eq(a.stopped_by, AB_STOPPED_BUDGET);
		cr_expect_str_eq(a.stop_phase ? a.stop_phase : "(none)",
				 "hill climbing");
	}
	free(order);
	free(off);
	ab_plan_free(&a);
	ab_plan_free(&b);
	ab_problem_free(&p);
}
