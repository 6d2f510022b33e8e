/*
 * The known-optimum generator (graphs/gen/tiling.c), through its binary.
 *
 *  - the construction's own plan (the .plan file, read here with sscanf,
 *    not with the harness's reader) matches the problem row by row, passes
 *    the geometric check at alignment 64 and the execution check, and
 *    reaches 16384 x 64 = 1,048,576 bytes, which is the live-bytes bound:
 *    the optimum.  Its rectangles' areas add up to the whole rectangle
 *    (2n steps x 1,048,576 bytes): with no overlap, a tiling.
 *  - a five-piece pinwheel has no straight cut: no step boundary and no
 *    byte boundary inside the rectangle that no buffer crosses, while a
 *    guillotine tiling always has one.
 *  - same arguments, same bytes.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/arenabench.h"
#include "check/check.h"
#include "import/problem_csv.h"

#define OPT_BYTES (16384ull * 64)

static char dir[64];

static void generate(const char *args)
{
	char cmd[512];

	snprintf(dir, sizeof(dir), "/tmp/ab-tiling-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "%s/gen/tiling %s %s >/dev/null",
		 AB_BUILD_DIR, args, dir);
	cr_assert_eq(system(cmd), 0, "%s", cmd);
}

static void cleanup(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	cr_assert_eq(system(cmd), 0);
}

/* Loads <dir>/<name>.csv and the offsets of <dir>/<name>.plan. */
static void load(const char *name, struct ab_problem *p, struct ab_plan *plan)
{
	char path[256], line[256];
	struct ab_error err;
	FILE *f;
	size_t i = 0;

	snprintf(path, sizeof(path), "%s/%s.csv", dir, name);
	cr_assert_eq(ab_problem_load_csv(path, p, &err), 0, "%s", err.msg);
	cr_assert_eq(ab_plan_alloc(plan, p->n), 0);
	snprintf(path, sizeof(path), "%s/%s.plan", dir, name);
	f = fopen(path, "r");
	cr_assert_not_null(f, "%s", path);
	cr_assert_not_null(fgets(line, sizeof(line), f));
	cr_assert_str_eq(line, "id,lower,upper,size,offset\n");
	while (fgets(line, sizeof(line), f)) {
		unsigned long long id, lo, up, sz, off;

		cr_assert_eq(sscanf(line, "%llu,%llu,%llu,%llu,%llu", &id, &lo,
				    &up, &sz, &off), 5, "%s", line);
		cr_assert_lt(i, p->n);
		cr_assert_eq(id, (unsigned long long)p->id[i]);
		cr_assert_eq(lo, (unsigned long long)p->buf[i].first);
		cr_assert_eq(up, (unsigned long long)p->buf[i].last + 1);
		cr_assert_eq(sz, p->buf[i].size);
		cr_assert_eq(sz % 64, 0);
		cr_assert_eq(off % 64, 0);
		plan->offset[i++] = off;
	}
	fclose(f);
	cr_assert_eq(i, p->n);
	ab_plan_finish_single(plan, p);
}

static void expect_optimal_construction(const char *name, size_t n)
{
	struct ab_problem p = { 0 };
	struct ab_plan plan;
	struct ab_check_result res;
	enum ab_exec_mode mode;
	unsigned __int128 area = 0;

	load(name, &p, &plan);
	cr_assert_eq(p.n, n);
	cr_expect_eq(ab_validate_plan(&p, &plan, 64, &res), AB_PLAN_VALID,
		     "%s: %s (%zu, %zu)", name, ab_verdict_name(res.verdict),
		     res.a, res.b);
	cr_expect_eq(ab_execute_plan(NULL, &p, &plan,
				     NULL, &mode, &res), AB_PLAN_VALID);
	cr_expect_eq(plan.peak, OPT_BYTES);
	cr_expect_eq(ab_lower_bound(&p, NULL), OPT_BYTES);
	for (size_t i = 0; i < p.n; i++)
		area += (unsigned __int128)p.buf[i].size *
			(uint64_t)(p.buf[i].last - p.buf[i].first + 1);
	cr_expect(area == (unsigned __int128)(2 * n) * OPT_BYTES, "%s", name);
	ab_plan_free(&plan);
	ab_problem_free(&p);
}

Test(tiling, construction_plans_are_valid_and_optimal)
{
	generate("--sizes 150,1000 --seeds 7");
	expect_optimal_construction("guillotine_n150_s7", 150);
	expect_optimal_construction("pinwheel_n150_s7", 150);
	expect_optimal_construction("guillotine_n1000_s7", 1000);
	expect_optimal_construction("pinwheel_n1000_s7", 1000);
	cleanup();
}

/* Is there a time t in (0, T) that no lifetime crosses, or a byte y in
 * (0, W) that no buffer's extent crosses (a straight cut)? */
static bool has_straight_cut(const struct ab_problem *p, const struct ab_plan *plan)
{
	int32_t T = 0;

	for (size_t i = 0; i < p->n; i++)
		if (p->buf[i].last + 1 > T)
			T = p->buf[i].last + 1;
	for (int32_t t = 1; t < T; t++) {
		bool crossed = false;

		for (size_t i = 0; i < p->n; i++)
			crossed |= p->buf[i].first < t && p->buf[i].last >= t;
		if (!crossed)
			return true;
	}
	for (size_t i = 0; i < p->n; i++) {
		uint64_t y = plan->offset[i]; /* every boundary is some start */
		bool crossed = false;

		if (!y)
			continue;
		for (size_t j = 0; j < p->n; j++)
			crossed |= plan->offset[j] < y &&
				   plan->offset[j] + p->buf[j].size > y;
		if (!crossed)
			return true;
	}
	return false;
}

Test(tiling, a_pinwheel_has_no_straight_cut)
{
	struct ab_problem p = { 0 }, q = { 0 };
	struct ab_plan plan, qplan;

	generate("--sizes 5 --seeds 1,2,3");
	for (int s = 1; s <= 3; s++) {
		char name[64];

		snprintf(name, sizeof(name), "pinwheel_n5_s%d", s);
		load(name, &p, &plan);
		cr_expect(!has_straight_cut(&p, &plan), "%s", name);
		snprintf(name, sizeof(name), "guillotine_n5_s%d", s);
		load(name, &q, &qplan);
		cr_expect(has_straight_cut(&q, &qplan), "%s", name);
		ab_plan_free(&plan);
		ab_plan_free(&qplan);
		ab_problem_free(&p);
		ab_problem_free(&q);
	}
	cleanup();
}

Test(tiling, same_arguments_same_bytes)
{
	char first[64], cmd[512];

	generate("--sizes 300 --seeds 4");
	strcpy(first, dir);
	generate("--sizes 300 --seeds 4");
	snprintf(cmd, sizeof(cmd), "cmp -s %s/pinwheel_n300_s4.csv %s/pinwheel_n300_s4.csv && cmp -s %s/guillotine_n300_s4.plan %s/guillotine_n300_s4.plan",
		 first, dir, first, dir);
	cr_expect_eq(system(cmd), 0);
	cleanup();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", first);
	cr_assert_eq(system(cmd), 0);
}
