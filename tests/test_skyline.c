/*
 * The skyline search (planners/lib/skyline.c) and exact's use of it
 * (step 9 in planners/exact.c: a plan at the bound after the complete
 * search).
 *
 * By hand: a pinwheel of five buffers in a 3-step x 3-unit rectangle
 * (unit 64 bytes), which no straight cut separates:
 *   A step 0,    128 B (units 0-1)     D steps 0-1, 64 B (unit 2)
 *   E step 1,     64 B (unit 1)        B steps 1-2, 64 B (unit 0)
 *   C step 2,    128 B (units 1-2)
 * Live bytes: step 0 A+D = 192, step 1 D+E+B = 192, step 2 B+C = 192, so
 * the optimum is 192.  The search, first restart (longest lifetime
 * first, a run-filling buffer before the others), step by step:
 *   run [0,3) at 0: starting at 0 and ending before 3: D (2 steps), A;
 *     none ends at 2, so the longest: D at 0 (top 64 64 0);
 *   run [2,3) at 0: C ends at 2 (fills it): C at 0 (top 64 64 128);
 *   run [0,2) at 64: A at 64 (top 192 64 128);
 *   run [1,2) at 64: B ends after 1, E fills it: E at 64 (top 192 128 128);
 *   run [1,3) at 128: B fills it: B at 128.
 * So A 64, B 128, C 0, D 0, E 64, peak 192, without backtracking (a
 * size-descending first fit puts A and C at 0, D at 128 and B at 192:
 * peak 256).  Below 192 it finds nothing.
 *
 * In exact: fresh tilings (graphs/gen/tiling, unit 64; optimum 1,048,576
 * bytes by construction: the tiling covers all 16,384 units at every
 * step, so live bytes = optimum at every step) that the complete search
 * leaves above the optimum (measured with step 9 off, default budget):
 * guillotine, 150 buffers, seed 906, at 1,116,480 bytes; pinwheel, 100
 * buffers, seed 905, at 1,082,496; guillotine, 200 buffers, seed 907, at
 * 1,072,384, which the skyline search solves only with its forward check
 * (run_has_fillers; measured: 654,226 nodes with it, none of its 2·10^6
 * find a plan without it).  exact must reach 1,048,576, say optimal,
 * pass both checks, never be above best_of's plan and give the same
 * offsets twice.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/arenabench.h"
#include "lib/skyline.h"
#include "lib/testutil.h"
#include "check/check.h"
#include "import/problem_csv.h"

#define OPT_BYTES (16384ull * 64)

enum { A, B, C, D, E };
static struct ab_buffer pinwheel[5] = {
	[A] = { .size = 128, .align = 1, .first = 0, .last = 0 },
	[B] = { .size = 64, .align = 1, .first = 1, .last = 2 },
	[C] = { .size = 128, .align = 1, .first = 2, .last = 2 },
	[D] = { .size = 64, .align = 1, .first = 0, .last = 1 },
	[E] = { .size = 64, .align = 1, .first = 1, .last = 1 },
};

Test(skyline, pinwheel_by_hand)
{
	struct ab_problem p = { .name = "pinwheel", .n = 5, .buf = pinwheel };
	struct ab_plan_options o = { .align = 64 };
	struct ab_skyline_run run = { .budget = 1000, .seed = 1 };
	uint64_t off[5] = { 0 };
	const uint64_t want[5] = { [A] = 64, [B] = 128, [C] = 0, [D] = 0,
				   [E] = 64 };

	cr_assert_eq(ab_lower_bound(&p, NULL), 192);
	cr_assert_eq(ab_skyline_fit(&p, &o, 192, off, &run), 1);
	for (int i = 0; i < 5; i++)
		cr_expect_eq(off[i], want[i], "buffer %c at %llu, want %llu",
			     'A' + i, (unsigned long long)off[i],
			     (unsigned long long)want[i]);
	cr_expect_eq(run.nodes, 5, "placed without backtracking");
	memset(off, 0, sizeof(off));
	run = (struct ab_skyline_run){ .budget = 1000, .seed = 1 };
	cr_expect_eq(ab_skyline_fit(&p, &o, 191, off, &run), 0);
	cr_expect_eq(off[A] + off[B] + off[C], 0, "untouched when not found");
}

static void load_tiling(const char *family, int n, int seed,
			struct ab_problem *p)
{
	char dir[64], cmd[512], path[256];
	struct ab_error err;

	snprintf(dir, sizeof(dir), "/tmp/ab-skyline-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "%s/gen/tiling --families %s --sizes %d --seeds %d %s >/dev/null",
		 AB_BUILD_DIR, family, n, seed, dir);
	cr_assert_eq(system(cmd), 0, "%s", cmd);
	snprintf(path, sizeof(path), "%s/%s_n%d_s%d.csv", dir, family, n, seed);
	cr_assert_eq(ab_problem_load_csv(path, p, &err), 0, "%s", err.msg);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	cr_assert_eq(system(cmd), 0);
}

static void plan_checked(const char *name, const struct ab_problem *p,
			 struct ab_plan *plan)
{
	const struct ab_planner *pl = ab_planner_find(name);
	struct ab_plan_options o = { .align = 64, .seed = 1 };
	struct ab_check_result res;
	enum ab_exec_mode mode;

	cr_assert_not_null(pl);
	cr_assert_eq(ab_plan_alloc(plan, p->n), 0);
	cr_assert_eq(pl->plan(p, &o, plan), 0);
	cr_assert_eq(ab_validate_plan(p, plan, 64, &res), AB_PLAN_VALID,
		     "%s: %s (%zu, %zu)", name, ab_verdict_name(res.verdict),
		     res.a, res.b);
	cr_assert_eq(ab_execute_plan(NULL, p, plan, NULL, &mode, &res),
		     AB_PLAN_VALID);
}

static void expect_optimum(const char *family, int n, int seed)
{
	struct ab_problem p = { 0 };
	struct ab_plan start, a, b;

	load_tiling(family, n, seed, &p);
	cr_assert_eq(ab_lower_bound(&p, NULL), OPT_BYTES);
	plan_checked("best_of", &p, &start);
	plan_checked("exact", &p, &a);
	plan_checked("exact", &p, &b);
	cr_expect_leq(a.peak, start.peak);
	cr_expect_eq(a.peak, OPT_BYTES, "%s: exact at %llu", family,
		     (unsigned long long)a.peak);
	cr_expect_eq(a.best_bound, OPT_BYTES);
	cr_expect_eq(a.optimal, AB_OPTIMAL_YES);
	cr_expect_eq(a.stopped_by, AB_STOPPED_NONE);
	cr_expect_eq(memcmp(a.offset, b.offset, p.n * sizeof(*a.offset)), 0,
		     "two runs differ");
	ab_plan_free(&start);
	ab_plan_free(&a);
	ab_plan_free(&b);
	ab_problem_free(&p);
}

Test(skyline, exact_reaches_a_guillotine_optimum)
{
	expect_optimum("guillotine", 150, 906);
}

Test(skyline, exact_reaches_a_pinwheel_optimum)
{
	expect_optimum("pinwheel", 100, 905);
}

Test(skyline, exact_reaches_the_optimum_by_its_forward_check)
{
	expect_optimum("guillotine", 200, 907);
}
