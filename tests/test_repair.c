/*
 * exact's window repair (planners/exact.c), the anytime phase, on problems
 * above the complete search's 4000 buffers, from the tiling generator
 * (graphs/gen/tiling.c; optimum 1,048,576 bytes by construction):
 *  - the plan passes both checks, is never above best_of's (its start)
 *    and never below the optimum; the bound it reports is the live-bytes
 *    bound rounded up to the granule (64 here: every size is a multiple
 *    of 64), 1,048,576;
 *  - it says why it stopped: stopped_by = size (the complete search was
 *    skipped), not none; the nodes used never exceed the budget;
 *  - two runs give the same offsets.
 * The budget is small (20,000 nodes) so the test stays cheap; how far the
 * repair gets with the default budget is measured by `make hard`.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/arenabench.h"

#define OPT_BYTES (16384ull * 64)

static void load_tiling(const char *family, struct ab_problem *p)
{
	char dir[64], cmd[512], path[256];
	struct ab_error err;

	snprintf(dir, sizeof(dir), "/tmp/ab-repair-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "%s/gen/tiling --families %s --sizes 4500 --seeds 11 %s >/dev/null",
		 AB_BUILD_DIR, family, dir);
	cr_assert_eq(system(cmd), 0, "%s", cmd);
	snprintf(path, sizeof(path), "%s/%s_n4500_s11.csv", dir, family);
	cr_assert_eq(ab_problem_load_csv(path, p, &err), 0, "%s", err.msg);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	cr_assert_eq(system(cmd), 0);
}

static void plan_with(const char *name, const struct ab_problem *p,
		      uint64_t budget, struct ab_plan *plan)
{
	const struct ab_planner *pl = ab_planner_find(name);
	struct ab_plan_options o = { .align = 64, .budget = budget, .seed = 1 };
	struct ab_check_result res;
	enum ab_exec_mode mode;

	cr_assert_not_null(pl);
	cr_assert_eq(ab_plan_alloc(plan, p->n), 0);
	cr_assert_eq(pl->plan(p, &o, plan), 0);
	cr_assert_eq(ab_validate_plan(p, plan, 64, &res), AB_PLAN_VALID,
		     "%s: %s (%zu, %zu)", name, ab_verdict_name(res.verdict),
		     res.a, res.b);
	cr_assert_eq(ab_execute_plan(NULL, p, plan, NULL,
				     &mode, &res), AB_PLAN_VALID);
}

static void expect_repair(const char *family)
{
	struct ab_problem p = { 0 };
	struct ab_plan start, a, b;

	load_tiling(family, &p);
	cr_assert_eq(ab_lower_bound(&p, NULL), OPT_BYTES);
	plan_with("best_of", &p, 0, &start);
	plan_with("exact", &p, 20000, &a);
	plan_with("exact", &p, 20000, &b);
	cr_expect_leq(a.peak, start.peak, "%s: %llu above best_of's %llu",
		      family, (unsigned long long)a.peak,
		      (unsigned long long)start.peak);
	cr_expect_geq(a.peak, OPT_BYTES);
	cr_expect_eq(a.best_bound, OPT_BYTES);
	cr_expect_leq(a.iterations, 20000);
	if (a.peak > OPT_BYTES) {
		cr_expect_eq(a.stopped_by, AB_STOPPED_SIZE);
		cr_expect_eq(a.optimal, AB_OPTIMAL_UNKNOWN);
		cr_expect_str_eq(ab_stopped_by_name(a.stopped_by), "size");
	}
	cr_expect_eq(a.peak, b.peak);
	cr_expect_eq(memcmp(a.offset, b.offset, p.n * sizeof(*a.offset)), 0,
		     "%s: two runs differ", family);
	ab_plan_free(&start);
	ab_plan_free(&a);
	ab_plan_free(&b);
	ab_problem_free(&p);
}

Test(repair, guillotine_above_the_complete_search)
{
	expect_repair("guillotine");
}

Test(repair, pinwheel_above_the_complete_search)
{
	expect_repair("pinwheel");
}
