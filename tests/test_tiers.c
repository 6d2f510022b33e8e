/*
 * Memory tiers (planners/lib/tiers.h, core/tiers.h; the --tier parser of cli/options.c): hand-computed tier choices, peaks,
 * offsets and spills under size_first_fit; capacity edges; the bytes-
 * needed failure; spec parsing; the tiered-plan check; accesses from a
 * graph; and every zoo graph with sram:256KiB + dram through both checks.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <glob.h>
#include <inttypes.h>
#include <string.h>

#include "import/graph_text.h"
#include "testutil.h"
#include "check/check.h"
#include "cli/cli.h"
#include "lib/tiers.h"

/* ------------------------------------------------------------ the fixture */

/*
 * Four buffers, 4 steps:      size  live   steps  accesses
 *   a                          100  [0,0]  1      1
 *   b                           60  [0,1]  2      8
 *   c                           80  [1,2]  2      2
 *   d                           50  [2,3]  2      2
 * Live raw bytes: step 0 a+b = 160, step 1 b+c = 140, step 2 c+d = 130,
 * step 3 d = 50.
 */
enum { A, B, C, D };
static const uint32_t four_accesses[] = { 1, 8, 2, 2 };

static void four(struct ab_problem *p)
{
	static const struct ab_buffer bufs[] = {
		{ 100, 1, 0, 0 }, { 60, 1, 0, 1 }, { 80, 1, 1, 2 }, { 50, 1, 2, 3 },
	};

	memset(p, 0, sizeof(*p)); /* ab_problem_alloc sets only the arrays */
	cr_assert_eq(ab_problem_alloc(p, 4), 0);
	memcpy(p->buf, bufs, sizeof(bufs));
	for (size_t i = 0; i < 4; i++)
		p->id[i] = (int64_t)i;
	p->steps = 4;
	p->name = strdup("four");
}

static void tiers_of(const char *const *specs, int n, struct ab_tier *tiers)
{
	struct ab_error err = { { 0 } };
	int got = 0;

	for (int i = 0; i < n; i++)
		if (cli_tier_add(tiers, &got, specs[i], &err))
			cr_assert_fail("tier %s: %s", specs[i], err.msg);
}

/* Plans with size_first_fit; aborts with the message on failure. */
static void plan_tiers(const struct ab_problem *p, const uint32_t *acc,
		       const char *const *specs, int n, uint32_t align,
		       enum ab_tier_benefit benefit, uint64_t max_runs,
		       struct ab_plan *plan, struct ab_tier_report *rep)
{
	struct ab_tier tiers[AB_MAX_ARENAS];
	struct ab_plan_options o = { .align = align, .seed = 1 };
	struct ab_tier_options to = { .benefit = benefit,
				      .max_runs_per_tier = max_runs };
	struct ab_error err = { { 0 } };
	int rc;

	tiers_of(specs, n, tiers);
	cr_assert_eq(ab_plan_alloc(plan, p->n), 0);
	rc = ab_plan_tiers(p, acc, ab_planner_find("size_first_fit"), &o,
			   tiers, n, &to, plan, rep, &err);
	if (rc)
		cr_assert_fail("ab_plan_tiers: %d %s", rc, err.msg);
	cr_expect_eq(ab_validate_plan(p, plan, align, NULL), AB_PLAN_VALID);
	rc = ab_tiers_check(plan, tiers, n, &err);
	cr_expect_eq(rc, 0, "%s", err.msg);
}

static const char *const sram150_dram[] = { "sram:150", "dram" };

/* ----------------------------------------------------- hand-computed plans */

Test(tiers, by_bytes_keeps_the_short_lived_buffers)
{
	/* Density 1 / steps: a (1/1) first, then b, c, d (1/2) by size:
	 * c 80, b 60, d 50.  Rank a, c, b, d.
	 * Lower-bound prefix at 150: a 100; c adds 80 at steps 1-2; b makes
	 * step 0 160 > 150: prefix {a, c}.  Run 1, {a, c}: a 0, c 0 (never
	 * live together), peak 100 <= 150: kept.  Greedy: b pruned (step 0
	 * 160); d: step 2 80 + 50 = 130 <= 150, run 2 {a, c, d}: size order
	 * a, c, d: a 0, c 0, d after c (both live at step 2) at 80, peak 130:
	 * kept.  DRAM: run 3, {b} at 0, peak 60; base 130 (align 1).
	 * Flat: a 0, c 0, d 80, b 130; peak 190. */
	struct ab_problem p;
	struct ab_plan plan;
	struct ab_tier_report rep;

	four(&p);
	plan_tiers(&p, four_accesses, sram150_dram, 2, 1, AB_TIER_BY_BYTES, 0,
		   &plan, &rep);
	cr_expect_eq(plan.n_arenas, 2);
	cr_expect_eq(plan.arena[A], 0);
	cr_expect_eq(plan.arena[C], 0);
	cr_expect_eq(plan.arena[D], 0);
	cr_expect_eq(plan.arena[B], 1);
	cr_expect_eq(plan.offset[A], 0);
	cr_expect_eq(plan.offset[C], 0);
	cr_expect_eq(plan.offset[D], 80);
	cr_expect_eq(plan.offset[B], 130);
	cr_expect_eq(plan.arena_base[0], 0);
	cr_expect_eq(plan.arena_size[0], 130);
	cr_expect_eq(plan.arena_base[1], 130);
	cr_expect_eq(plan.arena_size[1], 60);
	cr_expect_eq(plan.peak, 190);
	cr_expect_eq(rep.n_tiers, 2);
	cr_expect_eq(rep.peak[0], 130);
	cr_expect_eq(rep.peak[1], 60);
	cr_expect_eq(rep.capacity[0], 150);
	cr_expect_eq(rep.capacity[1], 0);
	cr_expect_eq(rep.buffers[0], 3);
	cr_expect_eq(rep.bytes[0], 230);     /* 100 + 80 + 50 */
	cr_expect_eq(rep.access_bytes[0], 360); /* 100*1 + 80*2 + 50*2 */
	cr_expect_eq(rep.access_bytes[1], 480); /* 60*8 */
	cr_expect_eq(rep.spilled_bytes, 60);
	cr_expect_eq(rep.spilled_buffers, 1);
	cr_expect_eq(rep.planner_runs, 3);
	cr_expect(!rep.budget_exhausted);
	ab_plan_free(&plan);
	ab_problem_free(&p);
}

Test(tiers, by_accesses_keeps_the_busy_buffer)
{
	/* Density accesses / steps: b 8/2 = 4; a 1/1, c 2/2, d 2/2 = 1, by
	 * size a 100, c 80, d 50.  Rank b, a, c, d.
	 * Prefix: b 60; a makes step 0 160 > 150: prefix {b}.  Run 1, {b}:
	 * peak 60.  Greedy: a pruned; c: step 1 60 + 80 = 140, run 2 {b, c}:
	 * c 0, b 80 (live together at step 1), peak 140: kept.  d: step 2
	 * 80 + 50 = 130, run 3 {b, c, d}: c 0, b 80, d (with c at step 2, not
	 * with b) at 80, peak 140: kept.  DRAM: run 4 {a} at 0, peak 100,
	 * base 140.  Flat: c 0, b 80, d 80, a 140; peak 240. */
	struct ab_problem p;
	struct ab_plan plan;
	struct ab_tier_report rep;

	four(&p);
	plan_tiers(&p, four_accesses, sram150_dram, 2, 1, AB_TIER_BY_ACCESSES,
		   0, &plan, &rep);
	cr_expect_eq(plan.arena[A], 1);
	cr_expect_eq(plan.arena[B], 0);
	cr_expect_eq(plan.arena[C], 0);
	cr_expect_eq(plan.arena[D], 0);
	cr_expect_eq(plan.offset[C], 0);
	cr_expect_eq(plan.offset[B], 80);
	cr_expect_eq(plan.offset[D], 80);
	cr_expect_eq(plan.offset[A], 140);
	cr_expect_eq(plan.arena_size[0], 140);
	cr_expect_eq(plan.arena_base[1], 140);
	cr_expect_eq(plan.arena_size[1], 100);
	cr_expect_eq(plan.peak, 240);
	cr_expect_eq(rep.bytes[0], 190);      /* 60 + 80 + 50 */
	cr_expect_eq(rep.access_bytes[0], 740); /* 60*8 + 80*2 + 50*2 */
	cr_expect_eq(rep.access_bytes[1], 100);
	cr_expect_eq(rep.spilled_bytes, 100);
	cr_expect_eq(rep.spilled_buffers, 1);
	cr_expect_eq(rep.planner_runs, 4);
	ab_plan_free(&plan);
	ab_problem_free(&p);
}

Test(tiers, capacity_equal_to_the_need_fits_one_byte_less_spills)
{
	/* At 130 the by-bytes run goes as at 150: d's test is 80 + 50 = 130
	 * <= 130 and {a, c, d} plans to 130.  At 129 d is pruned: SRAM {a, c}
	 * peak 100; DRAM {b, d} (never live together) both at 0, peak 60,
	 * base 100: b 100, d 100.  Runs: {a, c} and {b, d}. */
	static const char *const at130[] = { "sram:130", "dram" };
	static const char *const at129[] = { "sram:129", "dram" };
	struct ab_problem p;
	struct ab_plan plan;
	struct ab_tier_report rep;

	four(&p);
	plan_tiers(&p, NULL, at130, 2, 1, AB_TIER_BY_BYTES, 0, &plan, &rep);
	cr_expect_eq(rep.peak[0], 130);
	cr_expect_eq(rep.buffers[0], 3);
	cr_expect_eq(plan.offset[D], 80);
	cr_expect_eq(rep.spilled_bytes, 60);
	ab_plan_free(&plan);

	plan_tiers(&p, NULL, at129, 2, 1, AB_TIER_BY_BYTES, 0, &plan, &rep);
	cr_expect_eq(rep.peak[0], 100);
	cr_expect_eq(rep.peak[1], 60);
	cr_expect_eq(plan.arena[A], 0);
	cr_expect_eq(plan.arena[C], 0);
	cr_expect_eq(plan.arena[B], 1);
	cr_expect_eq(plan.arena[D], 1);
	cr_expect_eq(plan.offset[A], 0);
	cr_expect_eq(plan.offset[C], 0);
	cr_expect_eq(plan.offset[B], 100);
	cr_expect_eq(plan.offset[D], 100);
	cr_expect_eq(plan.peak, 160);
	cr_expect_eq(rep.spilled_bytes, 110);
	cr_expect_eq(rep.spilled_buffers, 2);
	cr_expect_eq(rep.planner_runs, 2);
	ab_plan_free(&plan);
	ab_problem_free(&p);
}

Test(tiers, alignment_makes_the_planned_peak_exceed_the_lower_bound)
{
	/* Align 64, by bytes, 150: {a, c} plans to 100.  d passes the lower
	 * bound (130) but plans at 128 (first multiple of 64 above c's end
	 * 80): peak 178 > 150, rejected.  DRAM {b, d} both at 0, peak 60,
	 * based at align_up(100, 64) = 128.  Peak 188; runs 3. */
	struct ab_problem p;
	struct ab_plan plan;
	struct ab_tier_report rep;

	four(&p);
	plan_tiers(&p, NULL, sram150_dram, 2, 64, AB_TIER_BY_BYTES, 0, &plan,
		   &rep);
	cr_expect_eq(rep.peak[0], 100);
	cr_expect_eq(plan.arena_base[1], 128);
	cr_expect_eq(plan.offset[B], 128);
	cr_expect_eq(plan.offset[D], 128);
	cr_expect_eq(plan.peak, 188);
	cr_expect_eq(rep.spilled_bytes, 110);
	cr_expect_eq(rep.planner_runs, 3);
	ab_plan_free(&plan);
	ab_problem_free(&p);
}

/*
 * Three buffers:  x 80 [0,1], y 60 [1,2], z 40 [3,3]; steps 4.
 * By bytes: z (1/1), then x, y (1/2) by size: rank z, x, y.  The lower
 * bound of all three is 140 (step 1), so the prefix is all of them.
 */
static void three(struct ab_problem *p)
{
	static const struct ab_buffer bufs[] = {
		{ 80, 1, 0, 1 }, { 60, 1, 1, 2 }, { 40, 1, 3, 3 },
	};

	memset(p, 0, sizeof(*p));
	cr_assert_eq(ab_problem_alloc(p, 3), 0);
	memcpy(p->buf, bufs, sizeof(bufs));
	p->steps = 4;
	p->name = strdup("three");
}

Test(tiers, binary_search_when_the_whole_prefix_does_not_plan)
{
	/* Align 64: run 1 {x, y, z}: x 0, y at 128 (x ends at 80), peak 188 >
	 * 150.  Binary search between 0 (fits) and 3 (does not): mid 1 {z}:
	 * 40, fits; mid 2 {z, x}: both at 0, 80, fits; 3 is known not to fit,
	 * so y is not tried again.  DRAM {y}: run 4, peak 60, base
	 * align_up(80, 64) = 128.  x 0, z 0, y 128, peak 188. */
	struct ab_problem p;
	struct ab_plan plan;
	struct ab_tier_report rep;

	three(&p);
	plan_tiers(&p, NULL, sram150_dram, 2, 64, AB_TIER_BY_BYTES, 0, &plan,
		   &rep);
	cr_expect_eq(plan.arena[0], 0);
	cr_expect_eq(plan.arena[2], 0);
	cr_expect_eq(plan.arena[1], 1);
	cr_expect_eq(plan.offset[0], 0);
	cr_expect_eq(plan.offset[2], 0);
	cr_expect_eq(plan.offset[1], 128);
	cr_expect_eq(rep.peak[0], 80);
	cr_expect_eq(rep.peak[1], 60);
	cr_expect_eq(plan.peak, 188);
	cr_expect_eq(rep.planner_runs, 4);
	ab_plan_free(&plan);
	ab_problem_free(&p);
}

Test(tiers, everything_fits_in_one_run_and_the_slow_tier_is_empty)
{
	/* Align 1: {x, y, z}: x 0, y 80, z 0, peak 140 <= 150 in run 1.  DRAM
	 * is empty (no run): size 0 at base 140; peak 140. */
	struct ab_problem p;
	struct ab_plan plan;
	struct ab_tier_report rep;

	three(&p);
	plan_tiers(&p, NULL, sram150_dram, 2, 1, AB_TIER_BY_BYTES, 0, &plan,
		   &rep);
	cr_expect_eq(plan.offset[0], 0);
	cr_expect_eq(plan.offset[1], 80);
	cr_expect_eq(plan.offset[2], 0);
	cr_expect_eq(rep.peak[0], 140);
	cr_expect_eq(rep.peak[1], 0);
	cr_expect_eq(rep.buffers[1], 0);
	cr_expect_eq(plan.arena_base[1], 140);
	cr_expect_eq(plan.peak, 140);
	cr_expect_eq(rep.spilled_bytes, 0);
	cr_expect_eq(rep.planner_runs, 1);
	ab_plan_free(&plan);
	ab_problem_free(&p);
}

Test(tiers, run_bound_keeps_the_best_set_so_far)
{
	/* By accesses with 1 run per tier: run 1 {b} fits (60); the greedy
	 * pass would try c but the bound is spent.  DRAM {a, c, d}: a 0, c 0,
	 * d 80, peak 130, base 60: a 60, c 60, d 140; peak 190. */
	struct ab_problem p;
	struct ab_plan plan;
	struct ab_tier_report rep;

	four(&p);
	plan_tiers(&p, four_accesses, sram150_dram, 2, 1, AB_TIER_BY_ACCESSES,
		   1, &plan, &rep);
	cr_expect_eq(rep.peak[0], 60);
	cr_expect_eq(rep.peak[1], 130);
	cr_expect_eq(plan.offset[B], 0);
	cr_expect_eq(plan.offset[A], 60);
	cr_expect_eq(plan.offset[C], 60);
	cr_expect_eq(plan.offset[D], 140);
	cr_expect_eq(plan.peak, 190);
	cr_expect_eq(rep.planner_runs, 2);
	cr_expect(rep.budget_exhausted);
	ab_plan_free(&plan);
	ab_problem_free(&p);
}

Test(tiers, an_empty_problem_gives_empty_tiers)
{
	static const char *const specs[] = { "sram:1KiB", "dram:1KiB" };
	struct ab_problem p;
	struct ab_plan plan;
	struct ab_tier_report rep;

	memset(&p, 0, sizeof(p));
	cr_assert_eq(ab_problem_alloc(&p, 0), 0);
	p.steps = 1;
	plan_tiers(&p, NULL, specs, 2, 1, AB_TIER_BY_BYTES, 0, &plan, &rep);
	cr_expect_eq(plan.n_arenas, 2);
	cr_expect_eq(plan.peak, 0);
	cr_expect_eq(rep.planner_runs, 0);
	ab_plan_free(&plan);
	ab_problem_free(&p);
}

/* ------------------------------------------------------- failing to fit */

static int try_tiers(const struct ab_problem *p, const char *const *specs,
		     int n, struct ab_error *err)
{
	struct ab_tier tiers[AB_MAX_ARENAS];
	struct ab_plan_options o = { .align = 1 };
	struct ab_plan plan;
	int rc;

	tiers_of(specs, n, tiers);
	cr_assert_eq(ab_plan_alloc(&plan, p->n), 0);
	rc = ab_plan_tiers(p, NULL, ab_planner_find("size_first_fit"), &o,
			   tiers, n, NULL, &plan, NULL, err);
	ab_plan_free(&plan);
	return rc;
}

Test(tiers, last_tier_too_small_fails_naming_the_bytes_needed)
{
	/* By bytes at 150 the DRAM holds b alone: needs 60. */
	static const char *const small[] = { "sram:150", "dram:59" };
	static const char *const exact[] = { "sram:150", "dram:60" };
	struct ab_problem p;
	struct ab_error err = { { 0 } };

	four(&p);
	cr_expect_eq(try_tiers(&p, small, 2, &err), -ENOSPC);
	cr_expect(strstr(err.msg, "tier 'dram': needs 60 bytes") != NULL, "%s", err.msg);
	cr_expect(strstr(err.msg, "1 remaining buffers") != NULL, "%s", err.msg);
	cr_expect(strstr(err.msg, "size_first_fit") != NULL, "%s", err.msg);
	cr_expect(strstr(err.msg, "capacity 59 bytes") != NULL, "%s", err.msg);
	cr_expect_eq(try_tiers(&p, exact, 2, &err), 0, "%s", err.msg);
	ab_problem_free(&p);
}

Test(tiers, single_bounded_tier_fails_with_the_planners_peak)
{
	/* size_first_fit on all four: a 0; c 0; b after a and c at 100 (ends
	 * 160); d after c at 80.  Peak 160 = the lower bound (step 0). */
	static const char *const at159[] = { "sram:159" };
	static const char *const at160[] = { "sram:160" };
	struct ab_problem p;
	struct ab_error err = { { 0 } };

	four(&p);
	cr_expect_eq(try_tiers(&p, at159, 1, &err), -ENOSPC);
	cr_expect(strstr(err.msg, "tier 'sram': needs 160 bytes (the peak of the 4 remaining buffers, 290 bytes in all") != NULL,
		  "%s", err.msg);
	cr_expect(strstr(err.msg, "no plan needs fewer than 160") != NULL, "%s", err.msg);
	cr_expect(strstr(err.msg, "capacity 159 bytes") != NULL, "%s", err.msg);
	cr_expect_eq(try_tiers(&p, at160, 1, &err), 0, "%s", err.msg);
	ab_problem_free(&p);
}

/* ------------------------------------------- one tier = the planner's plan */

/* Two tiers under planner pl: both checks and the tier check. */
static void expect_checked_tiers(const struct ab_graph *g,
				 const struct ab_problem *p,
				 const struct ab_planner *pl,
				 const struct ab_plan_options *o)
{
	static const char *const specs[] = { "sram:256KiB", "dram" };
	struct ab_tier tiers[2];
	struct ab_error err = { { 0 } };
	struct ab_check_result res;
	enum ab_exec_mode mode;
	struct ab_plan plan;

	tiers_of(specs, 2, tiers);
	cr_assert_eq(ab_plan_alloc(&plan, p->n), 0);
	cr_assert_eq(ab_plan_tiers(p, NULL, pl, o, tiers, 2, NULL, &plan, NULL,
				   &err),
		     0, "%s: %s", pl->name, err.msg);
	cr_expect_eq(ab_validate_plan(p, &plan, o->align, &res), AB_PLAN_VALID,
		     "%s: %s", pl->name, ab_verdict_name(res.verdict));
	cr_expect_eq(ab_execute_plan(g, p, &plan, NULL,
				     &mode, &res),
		     AB_PLAN_VALID, "%s: %s", pl->name, ab_verdict_name(res.verdict));
	cr_expect_eq(ab_tiers_check(&plan, tiers, 2, &err), 0, "%s: %s",
		     pl->name, err.msg);
	ab_plan_free(&plan);
}

static void expect_planner_plan(const char *graph_path)
{
	static const char *const dram[] = { "dram" };
	struct ab_problem_options po = { 0 };
	struct ab_error err = { { 0 } };
	struct ab_graph g;
	struct ab_problem p;

	cr_assert_eq(ab_graph_load(graph_path, &g, &err), 0, "%s", err.msg);
	cr_assert_eq(ab_problem_from_graph(&g, &po, &p, &err), 0, "%s", err.msg);
	for (size_t k = 0; k < ab_planner_count(); k++) {
		const struct ab_planner *pl = ab_planner_at(k);
		struct ab_plan_options o = { .align = 16, .seed = 1 };
		struct ab_tier tiers[1];
		struct ab_plan own, tiered;
		struct ab_tier_report rep;
		size_t differ = 0;

		if (pl->cost != AB_COST_FAST)
			continue;
		tiers_of(dram, 1, tiers);
		cr_assert_eq(ab_plan_alloc(&own, p.n), 0);
		cr_assert_eq(ab_plan_alloc(&tiered, p.n), 0);
		cr_assert_eq(pl->plan(&p, &o, &own), 0);
		cr_assert_eq(ab_plan_tiers(&p, NULL, pl, &o, tiers, 1, NULL,
					   &tiered, &rep, &err),
			     0, "%s", err.msg);
		for (size_t i = 0; i < p.n; i++)
			differ += own.offset[i] != tiered.offset[i];
		cr_expect_eq(differ, 0, "%s on %s: %zu offsets differ", pl->name,
			     graph_path, differ);
		cr_expect_eq(tiered.peak, own.peak, "%s", pl->name);
		cr_expect_eq(tiered.n_arenas, 1);
		cr_expect_eq(tiered.arena_size[0], own.peak);
		cr_expect_eq(rep.planner_runs, 1);
		cr_expect_eq(rep.spilled_bytes, 0);
		cr_expect_eq(ab_validate_plan(&p, &tiered, 16, NULL), AB_PLAN_VALID,
			     "%s", pl->name);
		expect_checked_tiers(&g, &p, pl, &o);
		ab_plan_free(&own);
		ab_plan_free(&tiered);
	}
	ab_problem_free(&p);
	ab_graph_free(&g);
}

Test(tiers, one_unbounded_tier_is_the_planners_own_plan)
{
	/* Every fast planner, multi_arena_phase (several arenas of its own)
	 * included, on two zoo graphs; and each under sram:256KiB + dram
	 * through both checks. */
	expect_planner_plan("graphs/zoo/mobilenet_v2_1.0_224_f32.graph");
	expect_planner_plan("graphs/zoo/inception_v3_f32_scratch.graph");
}

/* ------------------------------------------------------------ parsing */

static void expect_parse(const char *spec, const char *name, uint64_t cap)
{
	struct ab_tier t;
	struct ab_error err = { { 0 } };

	cr_assert_eq(cli_tier_parse(spec, &t, &err), 0, "%s: %s", spec, err.msg);
	cr_expect_str_eq(t.name, name);
	cr_expect_eq(t.capacity, cap, "%s", spec);
}

static void expect_parse_error(const char *spec, const char *words)
{
	struct ab_tier t;
	struct ab_error err = { { 0 } };
	int rc = cli_tier_parse(spec, &t, &err);

	cr_expect_lt(rc, 0, "%s parsed", spec);
	cr_expect(strstr(err.msg, words) != NULL, "%s: '%s' lacks '%s'", spec,
		  err.msg, words);
}

Test(tier_parse, accepts_names_and_binary_units)
{
	expect_parse("dram", "dram", 0);
	expect_parse("sram:256KiB", "sram", 262144);   /* 256 * 1024 */
	expect_parse("l2:3MiB", "l2", 3145728);        /* 3 * 1024^2 */
	expect_parse("hbm_0:2GiB", "hbm_0", 2147483648ull);
	expect_parse("tcm:100", "tcm", 100);
	expect_parse("tcm:100B", "tcm", 100);
}

Test(tier_parse, rejects_bad_specs_with_a_reason)
{
	expect_parse_error("sram:12XB", "unknown unit 'XB'");
	expect_parse_error("sram:", "expected a capacity after ':'");
	expect_parse_error(":5KiB", "expected a name");
	expect_parse_error("sram:1.5MiB", "whole number");
	expect_parse_error("sram:256KB", "ambiguous");
	expect_parse_error("sram:1M", "ambiguous");
	expect_parse_error("SRAM:1KiB", "lower-case");
	expect_parse_error("sram:0", "at least 1 byte");
	expect_parse_error("sram:-5", "must start with a digit");
	expect_parse_error("sram:99999999999999999999", "64 bits");
	expect_parse_error("sram:17179869184GiB", "64 bits"); /* 2^34 GiB = 2^64 */
	expect_parse_error("a_name_of_thirty_two_characters_", "longer than 31");
}

Test(tier_parse, list_rules)
{
	struct ab_tier tiers[AB_MAX_ARENAS];
	struct ab_error err = { { 0 } };
	int n = 0;
	char spec[32];

	for (int i = 0; i < AB_MAX_ARENAS; i++) {
		snprintf(spec, sizeof(spec), "t%d:1KiB", i);
		cr_assert_eq(cli_tier_add(tiers, &n, spec, &err), 0, "%s", err.msg);
	}
	cr_expect_eq(n, AB_MAX_ARENAS);
	cr_expect_lt(cli_tier_add(tiers, &n, "one_more", &err), 0);
	cr_expect(strstr(err.msg, "at most 64 tiers") != NULL, "%s", err.msg);
	cr_expect_eq(n, AB_MAX_ARENAS);

	n = 0;
	cr_assert_eq(cli_tier_add(tiers, &n, "dram", &err), 0);
	cr_expect_lt(cli_tier_add(tiers, &n, "sram:1KiB", &err), 0);
	cr_expect(strstr(err.msg, "tier 'dram' has no capacity, so it must be the last") != NULL,
		  "%s", err.msg);
	cr_expect_eq(n, 1);

	n = 0;
	cr_assert_eq(cli_tier_add(tiers, &n, "sram:1KiB", &err), 0);
	cr_expect_lt(cli_tier_add(tiers, &n, "sram", &err), 0);
	cr_expect(strstr(err.msg, "given twice") != NULL, "%s", err.msg);
}

Test(tier_parse, benefit_names)
{
	cr_expect_eq(ab_tier_benefit_from_name("bytes"), AB_TIER_BY_BYTES);
	cr_expect_eq(ab_tier_benefit_from_name("accesses"), AB_TIER_BY_ACCESSES);
	cr_expect_eq(ab_tier_benefit_from_name("speed"), -1);
	cr_expect_str_eq(ab_tier_benefit_name(AB_TIER_BY_ACCESSES), "accesses");
}

/* ------------------------------------------------- the tiered-plan check */

Test(tiers_check, names_the_tier_its_peak_and_capacity)
{
	static const char *const at129[] = { "sram:129", "dram" };
	struct ab_tier tiers[2];
	struct ab_problem p;
	struct ab_plan plan;
	struct ab_error err = { { 0 } };

	four(&p);
	/* The 150 plan has an SRAM peak of 130. */
	plan_tiers(&p, NULL, sram150_dram, 2, 1, AB_TIER_BY_BYTES, 0, &plan, NULL);
	tiers_of(at129, 2, tiers);
	cr_expect_eq(ab_tiers_check(&plan, tiers, 2, &err), -ENOSPC);
	cr_expect_str_eq(err.msg,
			 "tier 'sram': peak 130 bytes exceeds its capacity 129 bytes");
	/* Overlapping tiers: DRAM moved into the SRAM's range. */
	tiers_of(sram150_dram, 2, tiers);
	plan.arena_base[1] = 129;
	cr_expect_eq(ab_tiers_check(&plan, tiers, 2, &err), -EINVAL);
	cr_expect(strstr(err.msg, "tier 'dram' starts at 129, inside tier 'sram'") != NULL,
		  "%s", err.msg);
	cr_expect_eq(ab_tiers_check(&plan, tiers, 1, &err), -EINVAL);
	ab_plan_free(&plan);
	ab_problem_free(&p);
}

/* ----------------------------------------------------------- accesses */

Test(accesses, counts_reads_writes_scratch_and_the_callers_write)
{
	/* in: caller's write + read by op0 and twice by op1 = 4;
	 * A: written by op0, read by op1 = 2; ws: scratch of op1 = 2;
	 * out: written by op1, never read by an op = 1. */
	static const char text[] =
		"graph acc\n"
		"tensor in  input        bytes 64\n"
		"tensor A   intermediate bytes 64\n"
		"tensor ws  scratch      bytes 32\n"
		"tensor out output       bytes 64\n"
		"op op0 OP in=in out=A\n"
		"op op1 OP in=A,in,in out=out scratch=ws\n";
	struct ab_graph g;
	struct ab_problem p;
	struct ab_error err = { { 0 } };
	uint32_t *acc;

	tu_problem(text, AB_LIFETIMES_DEFAULT, &g, &p);
	cr_assert_eq(ab_buffer_accesses(&g, &p, &acc, &err), 0, "%s", err.msg);
	cr_expect_eq(acc[tu_buf(&g, &p, "in")], 4);
	cr_expect_eq(acc[tu_buf(&g, &p, "A")], 2);
	cr_expect_eq(acc[tu_buf(&g, &p, "ws")], 2);
	cr_expect_eq(acc[tu_buf(&g, &p, "out")], 1);
	free(acc);
	p.tensor[1] = -1; /* as a CSV problem has */
	cr_expect_eq(ab_buffer_accesses(&g, &p, &acc, &err), -EINVAL);
	cr_expect(strstr(err.msg, "buffer 1 has no tensor") != NULL, "%s", err.msg);
	ab_problem_free(&p);
	ab_graph_free(&g);
}

/* ----------------------------------------------------------------- zoo */

static void zoo_through_the_checks(enum ab_tier_benefit benefit,
				   uint32_t align)
{
	static const char *const specs[] = { "sram:256KiB", "dram" };
	const struct ab_planner *pl = ab_planner_find("size_first_fit");
	struct ab_problem_options po = { 0 };
	struct ab_plan_options o = { .align = align, .seed = 1 };
	struct ab_tier_options to = { .benefit = benefit };
	struct ab_tier tiers[2];
	glob_t gl;

	tiers_of(specs, 2, tiers);
	cr_assert_eq(glob("graphs/zoo/*.graph", 0, NULL, &gl), 0);
	cr_assert_geq(gl.gl_pathc, 20);
	for (size_t f = 0; f < gl.gl_pathc; f++) {
		const char *path = gl.gl_pathv[f];
		struct ab_error err = { { 0 } };
		struct ab_check_result res;
		struct ab_tier_report rep;
		enum ab_exec_mode mode;
		struct ab_graph g;
		struct ab_problem p;
		struct ab_plan plan, alone;
		uint32_t *acc;
		uint64_t sum = 0;
		size_t bufs = 0;

		cr_assert_eq(ab_graph_load(path, &g, &err), 0, "%s", err.msg);
		cr_assert_eq(ab_problem_from_graph(&g, &po, &p, &err), 0, "%s", err.msg);
		cr_assert_eq(ab_buffer_accesses(&g, &p, &acc, &err), 0, "%s", err.msg);
		cr_assert_eq(ab_plan_alloc(&plan, p.n), 0);
		cr_assert_eq(ab_plan_alloc(&alone, p.n), 0);
		cr_assert_eq(ab_plan_tiers(&p, acc, pl, &o, tiers, 2, &to, &plan,
					   &rep, &err),
			     0, "%s: %s", path, err.msg);
		cr_expect_eq(ab_validate_plan(&p, &plan, align, &res), AB_PLAN_VALID,
			     "%s: %s (%zu, %zu)", path, ab_verdict_name(res.verdict),
			     res.a, res.b);
		cr_expect_eq(ab_execute_plan(&g, &p, &plan,
					     NULL, &mode, &res),
			     AB_PLAN_VALID, "%s: %s at step %d", path,
			     ab_verdict_name(res.verdict), res.step);
		cr_expect_eq(ab_tiers_check(&plan, tiers, 2, &err), 0, "%s: %s",
			     path, err.msg);
		cr_expect_leq(rep.peak[0], 262144, "%s", path);
		for (int t = 0; t < 2; t++) {
			sum += rep.bytes[t];
			bufs += rep.buffers[t];
		}
		cr_expect_eq(sum, ab_sum_bytes(&p), "%s", path);
		cr_expect_eq(bufs, p.n, "%s", path);
		cr_expect_eq(rep.spilled_bytes, rep.bytes[1], "%s", path);
		/* One line per graph for docs/tiers.md; one_arena = the planner
		 * alone, sram_access_share = SRAM's share of bytes x accesses. */
		cr_assert_eq(pl->plan(&p, &o, &alone), 0);
		cr_log_info("tiers: %s benefit=%s align=%u one_arena=%" PRIu64 " sram_peak=%" PRIu64
			    " dram_peak=%" PRIu64 " sram_bytes=%" PRIu64 " spilled_bytes=%" PRIu64
			    " spilled_buffers=%zu/%zu runs=%" PRIu64 " sram_access_share=%.3f",
			    path, ab_tier_benefit_name(benefit), align, alone.peak,
			    rep.peak[0], rep.peak[1], rep.bytes[0], rep.spilled_bytes,
			    rep.spilled_buffers, p.n, rep.planner_runs,
			    (double)rep.access_bytes[0] /
				    (double)(rep.access_bytes[0] + rep.access_bytes[1]));
		ab_plan_free(&alone);
		free(acc);
		ab_plan_free(&plan);
		ab_problem_free(&p);
		ab_graph_free(&g);
	}
	globfree(&gl);
}

/* Alignment 16 (TFLite Micro's); the hand-computed cases cover 1 and 64. */
Test(tiers_zoo, sram_256k_by_bytes_passes_both_checks)
{
	zoo_through_the_checks(AB_TIER_BY_BYTES, 16);
}

Test(tiers_zoo, sram_256k_by_accesses_passes_both_checks)
{
	zoo_through_the_checks(AB_TIER_BY_ACCESSES, 16);
}
