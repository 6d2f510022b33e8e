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
	cr_assert_eq(ab_cmp_run(&a, &b, &(struct ab_cmp_spec){ 0 }, &r, &err), 0, "%s", err.msg);
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
	cr_assert_eq(ab_cmp_run(&a, &a, &(struct ab_cmp_spec){ "q", "p", 0 }, &r, &err), 0, "%s", err.msg);
	cr_expect_eq(r.n_pairs, 1);
	cr_expect_float_eq(r.pair[0].ratio, 0.8, 1e-12);
	cr_expect_eq(r.by_planner[0].wins, 1);
	cr_expect_eq(r.n_only_a, 4);
	cr_expect_eq(r.n_only_b, 0);
	ab_cmp_result_free(&r);
	ab_cmp_table_free(&a);
}

/* The whole text of `compare ARGS` (exit 0 expected). */
static char *cli_text(const char *args)
{
	char cmd[2048], *out = NULL;

	snprintf(cmd, sizeof(cmd), "cd '%s' && %s/arenabench compare %s 2>&1", dir,
		 AB_BUILD_DIR[0] == '/' ? AB_BUILD_DIR : "$OLDPWD/" AB_BUILD_DIR, args);
	cr_expect_eq(tu_run(cmd, &out), 0, "%s: %s", args, out);
	return out;
}

static void has_line(const char *out, const char *line)
{
	char want[512];

	snprintf(want, sizeof(want), "%s\n", line);
	cr_expect(strstr(out, want) != NULL && (out == strstr(out, want) || strstr(out, want)[-1] == '\n'),
		  "no line '%s' in:\n%s", line, out);
}

/*
 * Two runs that differ in alignment (an --align 16 run and an --align 64
 * run of one corpus): matched on graph and planner.
 *   a16.csv                 a64.csv                 pair
 *   g1 p 100                g1 p 128                1.28 (loss)
 *   g1 q 120                g1 q 120                1.00 (tie)
 *   g2 p 200                g2 p 192                0.96 (win)
 *   g3 p  50                -                       only in A
 *   -                       g4 p 70                 only in B
 * p: 1 win, 1 loss, geo sqrt(1.28 * 0.96) = sqrt(1.2288) = 1.108513.
 * The default key (with align) shares no row, and says which --match would.
 */
static const char a16[] = HDR "2,g1,fa,p,16,o,yes,100,\n2,g1,fa,q,16,o,yes,120,\n"
	"2,g2,fa,p,16,o,yes,200,\n2,g3,fb,p,16,o,yes,50,\n";
static const char a64[] = HDR "2,g1,fa,p,64,o,yes,128,\n2,g1,fa,q,64,o,yes,120,\n"
	"2,g2,fa,p,64,o,yes,192,\n2,g4,fb,p,64,o,yes,70,\n";

Test(compare, match_graph_planner_labels_the_alignments)
{
	char *out;

	put("a16.csv", a16);
	put("a64.csv", a64);
	out = cli_text("a16.csv a64.csv --match graph,planner");
	has_line(out, "A: a16.csv (4 rows): align 16");
	has_line(out, "B: a64.csv (4 rows): align 64");
	has_line(out, "matched on graph and planner: 3 pairs; 0 with an invalid side left out; 1 only in A, 1 only in B");
	has_line(out, "p                             1      1      0    1.1085    0.9600    1.2800         -");
	has_line(out, "q                             0      0      1    1.0000    1.0000    1.0000         -");
	has_line(out, "  g1 p align 16 -> 64                                       100 ->          128  1.2800");
	has_line(out, "  g2 p align 16 -> 64                                       200 ->          192  0.9600");
	has_line(out, "only in A: g3 p align 16");
	has_line(out, "only in B: g4 p align 64");
	free(out);
	/* --top 1: the largest change, and how many more */
	out = cli_text("a16.csv a64.csv --match graph,planner --top 1");
	has_line(out, "  ... 1 more changed pairs (--top 0 lists every one)");
	cr_expect(strstr(out, "g2 p align") == NULL, "%s", out);
	free(out);
	out = cli_text("a16.csv a64.csv --match graph,planner --json");
	cr_expect(strstr(out, "\"match\": \"graph,planner\"") && strstr(out, "\"label\": \"align 16\"") &&
		  strstr(out, "{\"graph\": \"g2\", \"planner\": \"p\", \"align\": 64, \"planner_a\": \"p\", \"align_a\": 16, \"peak_a\": 200, \"peak_b\": 192, \"ratio\": 0.960000}"),
		  "%s", out);
	free(out);
}

/* Runs with and without --inplace: the label is the option that differs. */
Test(compare, match_without_options_labels_the_option)
{
	char *out;

	put("off.csv", HDR "2,g1,fa,p,1,inplace=no;round=1,yes,100,\n");
	put("on.csv", HDR "2,g1,fa,p,1,inplace=yes;round=1,yes,80,\n");
	out = cli_text("off.csv on.csv --match graph,planner,align");
	has_line(out, "A: off.csv (1 rows): options inplace=no");
	has_line(out, "B: on.csv (1 rows): options inplace=yes");
	has_line(out, "matched on graph, planner and align: 1 pair; 0 with an invalid side left out; 0 only in A, 0 only in B");
	has_line(out, "  g1 p align 1 inplace=no -> inplace=yes                    100 ->           80  0.8000");
	free(out);
}

/* --planner P --against Q: each side is named by its planner and flag. */
Test(compare, two_planners_labelled)
{
	char *out;

	put("a.csv", csv_a);
	out = cli_text("a.csv --planner q --against p");
	has_line(out, "A: a.csv (6 rows): planner p (--against)");
	has_line(out, "B: a.csv (6 rows): planner q (--planner)");
	has_line(out, "matched on graph, align and options: 1 pair; 0 with an invalid side left out; 4 only in A, 0 only in B");
	has_line(out, "  g1 p -> q align 1                                         100 ->           80  0.8000");
	free(out);
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
	/* runs of different alignments: the message names the --match that compares them */
	snprintf(args, sizeof(args), "%s %s", put("a16.csv", a16), put("a64.csv", a64));
	cli_fails(args, "a64.csv share no row (matched on graph, planner, align and options): no value of align is on both sides; --match graph,planner,options compares them on what they share");
	/* a key too short for a side: the columns that tell its rows apart */
	snprintf(args, sizeof(args), "%s %s --match graph", put("a16.csv", a16), put("a64.csv", a64));
	cli_fails(args, "a16.csv: two rows for graph g1 (matched on graph) differ in planner: add it to the key (--match graph,planner)");
	snprintf(args, sizeof(args), "%s %s --match graph,planer", a, a);
	cli_fails(args, "--match: unknown column 'planer' (did you mean planner?)");
	snprintf(args, sizeof(args), "%s %s --match planner", a, a);
	cli_fails(args, "--match 'planner': the key needs graph");
	snprintf(args, sizeof(args), "%s --planner q --against p --match graph,planner", a);
	cli_fails(args, "--match: planner cannot be part of the key when two planners (q against p) are compared");
	snprintf(args, sizeof(args), "%s --planner q --against pp", put("a.csv", csv_a));
	cli_fails(args, "a.csv: no row of planner 'pp' (--against); did you mean p?");
}
