/*
 * `arenabench compare` (report/compare.c) on a hand-made pair of CSVs
 * whose every count is worked out below, two planners inside one CSV, and
 * the bad inputs it must refuse.
 *
 * A                         B                          pair
 *   g1 p 100 (t 10)           g1 p  50 (t 20)          0.5  win,  time 2
 *   g2 p 200 (t 10)           g2 p 400 (t 40)          2.0  loss, time 4
 *   g3 p 300                  g3 p 300                 1.0  tie
 *   g4 p invalid              g4 p 10                  left out (invalid side)
 *   g5 p 50                   -                        only in A
 *   g1 q 80                   -                        only in A
 *   -                         g6 p 10                  only in B
 * Planner p: 1 win, 1 loss, 1 tie; geometric mean (0.5 * 2 * 1)^(1/3) = 1;
 * range 0.5..2; time ratio sqrt(2 * 4) = 2.828427.  Families: fa holds g1
 * and g2 (1 win, 1 loss, geo 1), fb holds g3 (1 tie).
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/compare.h"
#include "testutil.h"

#ifndef AB_BUILD_DIR
#define AB_BUILD_DIR "build"
#endif

#define HDR "schema_version,graph,family,planner,align,options,valid,peak_bytes,plan_ns\n"
static const char csv_a[] = HDR
	"2,g1,fa,p,1,o,yes,100,10\n2,g2,fa,p,1,o,yes,200,10\n2,g3,fb,p,1,o,yes,300,\n"
	"2,g4,fb,p,1,o,no,,\n2,g5,fb,p,1,o,yes,50,\n2,g1,fa,q,1,o,yes,80,20\n";
static const char csv_b[] = HDR
	"2,g1,fa,p,1,o,yes,50,20\n2,g2,fa,p,1,o,yes,400,40\n2,g3,fb,p,1,o,yes,300,\n"
	"2,g4,fb,p,1,o,yes,10,\n2,g6,fb,p,1,o,yes,10,\n";

static char dir[256];
static void setup(void) { tu_tmpdir_make(dir, sizeof(dir), "arenabench-compare"); }
static void teardown(void)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	cr_assert_eq(system(cmd), 0);
}
TestSuite(compare, .init = setup, .fini = teardown);

/* Writes text to dir/name (tu_write_file); returns the path, valid for
 * the next three calls. */
static const char *put(const char *name, const char *text)
{
	static char path[4][512];
	static int k;
	char *p = path[k++ % 4];

	tu_write_file(dir, name, text);
	snprintf(p, 512, "%s/%s", dir, name);
	return p;
}

static const struct ab_cmp_group *find(const struct ab_cmp_group *g, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(g[i].name, name))
			return &g[i];
	cr_assert_fail("no group %s", name);
	return NULL;
}

Test(compare, two_runs_counted_by_hand)
{
	struct ab_cmp_table a, b;
	struct ab_cmp_result r;
	struct ab_error err;
	const struct ab_cmp_group *g;

	cr_assert_eq(ab_cmp_load(put("a.csv", csv_a), &a, &err), 0, "%s", err.msg);
	cr_assert_eq(ab_cmp_load(put("b.csv", csv_b), &b, &err), 0, "%s", err.msg);
	cr_assert_eq(ab_cmp_run(&a, &b, NULL, NULL, &r, &err), 0, "%s", err.msg);
	cr_expect_eq(r.n_pairs, 3);
	cr_expect_eq(r.invalid_pairs, 1);
	cr_expect_eq(r.n_only_a, 2);
	cr_expect_eq(r.n_only_b, 1);
	cr_assert_eq(r.n_planners, 1);
	g = find(r.by_planner, r.n_planners, "p");
	cr_expect_eq(g->wins, 1);
	cr_expect_eq(g->losses, 1);
	cr_expect_eq(g->ties, 1);
	cr_expect_float_eq(exp(g->log_sum / (double)g->n), 1.0, 1e-12);
	cr_expect_float_eq(g->min_ratio, 0.5, 1e-12);
	cr_expect_float_eq(g->max_ratio, 2.0, 1e-12);
	cr_expect_eq(g->n_timed, 2);
	cr_expect_float_eq(exp(g->time_log_sum / (double)g->n_timed), sqrt(8.0), 1e-9);
	g = find(r.by_family, r.n_families, "fa");
	cr_expect(g->wins == 1 && g->losses == 1 && g->ties == 0);
	g = find(r.by_family, r.n_families, "fb");
	cr_expect(g->wins == 0 && g->losses == 0 && g->ties == 1);
	ab_cmp_result_free(&r);
	ab_cmp_table_free(&a);
	ab_cmp_table_free(&b);
}

/* q against p in A: only g1 has both (80 / 100 = 0.8, a win for q); the
 * other four p rows have no partner. */
Test(compare, two_planners_in_one_csv)
{
	struct ab_cmp_table a;
	struct ab_cmp_result r;
	struct ab_error err;

	cr_assert_eq(ab_cmp_load(put("a.csv", csv_a), &a, &err), 0, "%s", err.msg);
	cr_assert_eq(ab_cmp_run(&a, &a, "q", "p", &r, &err), 0, "%s", err.msg);
	cr_expect_eq(r.n_pairs, 1);
	cr_expect_float_eq(r.pair[0].ratio, 0.8, 1e-12);
	cr_expect_eq(r.by_planner[0].wins, 1);
	cr_expect_eq(r.n_only_a, 4);
	cr_expect_eq(r.n_only_b, 0);
	ab_cmp_result_free(&r);
	ab_cmp_table_free(&a);
}

static void cli_fails(const char *args, const char *message)
{
	char cmd[2048], *out = NULL;

	snprintf(cmd, sizeof(cmd), "%s/arenabench compare %s 2>&1", AB_BUILD_DIR, args);
	cr_expect_eq(tu_run(cmd, &out), 2, "%s", args);
	cr_expect(strstr(out, message) != NULL, "'%s' lacks '%s'", out, message);
	free(out);
}

Test(compare, bad_inputs_exit_2_with_a_message)
{
	char args[1200];
	const char *a = put("a.csv", csv_a);

	snprintf(args, sizeof(args), "%s %s", a,
		 put("dup.csv", HDR "2,g1,fa,p,1,o,yes,1,\n2,g1,fa,p,1,o,yes,2,\n"));
	cli_fails(args, "dup.csv: two rows for graph g1, planner p, align 1, options o (rows must be unique to be compared)");
	snprintf(args, sizeof(args), "%s %s", a, put("s3.csv", HDR "3,g1,fa,p,1,o,yes,1,\n"));
	cli_fails(args, "has schema_version 2 and");
	snprintf(args, sizeof(args), "%s %s", a, put("text.csv", "hello,world\n1,2\n"));
	cli_fails(args, "text.csv:1: no column 'schema_version' (expected a bench CSV, docs/results-csv.md)");
	snprintf(args, sizeof(args), "%s %s", a, put("short.csv", HDR "2,g1,fa\n"));
	cli_fails(args, "short.csv:2: 3 fields, the header has 9");
	snprintf(args, sizeof(args), "%s", a);
	cli_fails(args, "compare: expected A.csv B.csv, or RUN.csv --planner P --against Q");
}
