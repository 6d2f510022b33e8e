/*
 * The command line as a user meets it: exit codes, messages that name the
 * file and line, nothing written on bad input (an existing results file is
 * kept byte for byte), deterministic CSVs, and the minimalloc round trip
 * through `plan --emit-plan`.  Runs build/arenabench from the repo root.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

#define BIN "build/arenabench"

static char dir[256];

static void make_dir(void)
{
	snprintf(dir, sizeof(dir), "/tmp/arenabench-cli.XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
}

static void remove_dir(void)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	cr_assert_eq(system(cmd), 0);
}

static void write_file(const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs(text, f);
	fclose(f);
}

static int run(const char *args, char **out)
{
	char cmd[2048];

	snprintf(cmd, sizeof(cmd), "%s %s 2>&1", BIN, args);
	return tu_run(cmd, out);
}

TestSuite(cli, .init = make_dir, .fini = remove_dir);

Test(cli, bad_graph_exits_2_names_file_and_line_and_writes_nothing)
{
	char args[1024], path[512], *out, *before, *after;

	write_file("bad.graph", "graph g\ntensor a input bytes 4\n"
				"op o OP in=a out=nowhere\n");
	write_file("results.csv", "an earlier run\n");
	snprintf(path, sizeof(path), "%s/results.csv", dir);
	before = tu_slurp(path, NULL);
	snprintf(args, sizeof(args), "bench graphs/starter %s/bad.graph --no-timing --quiet --out %s",
		 dir, path);
	cr_expect_eq(run(args, &out), 2);
	cr_expect(strstr(out, "bad.graph:3: op 'o': output tensor 'nowhere' is not declared") != NULL,
		  "%s", out);
	cr_expect(strstr(out, "nothing written") != NULL, "%s", out);
	after = tu_slurp(path, NULL);
	cr_expect_str_eq(after, before, "the earlier results file is kept");
	free(out);
	free(before);
	free(after);
}

Test(cli, bad_csv_exits_2_and_creates_no_file)
{
	char args[1024], path[512], *out;

	write_file("bad.csv", "id,lower,upper,size\n0,5,2,16\n");
	snprintf(path, sizeof(path), "%s/new.csv", dir);
	snprintf(args, sizeof(args), "bench %s/bad.csv --no-timing --quiet --out %s", dir, path);
	cr_expect_eq(run(args, &out), 2);
	cr_expect(strstr(out, "bad.csv:2: buffer 0: upper 2 must be greater than lower 5") != NULL,
		  "%s", out);
	cr_expect_eq(access(path, F_OK), -1, "no partial file");
	free(out);
	snprintf(args, sizeof(args), "plan %s/bad.csv --planner linear", dir);
	cr_expect_eq(run(args, &out), 2);
	free(out);
}

Test(cli, usage_errors_exit_2)
{
	char *out;

	cr_expect_eq(run("frobnicate", &out), 2);
	cr_expect(strstr(out, "unknown command 'frobnicate'") != NULL, "%s", out);
	free(out);
	cr_expect_eq(run("bench graphs/starter --align 3", &out), 2);
	cr_expect(strstr(out, "--align expects") != NULL, "%s", out);
	free(out);
	cr_expect_eq(run("plan graphs/starter/chain_24k.graph --planner nope", &out), 2);
	cr_expect(strstr(out, "unknown planner 'nope'") != NULL, "%s", out);
	free(out);
	cr_expect_eq(run("bench graphs/starter --benchmark_bogus=1", &out), 2);
	free(out);
}

Test(cli, list_names_the_core_planners)
{
	char *out;

	cr_assert_eq(run("list", &out), 0);
	cr_expect(strstr(out, "linear ") && strstr(out, "greedy_last_use ") &&
		  strstr(out, "size_first_fit ") && strstr(out, "multi_arena_phase "),
		  "%s", out);
	free(out);
}

/* Drops the last three columns (plan_ns, plan_ns_stddev, repetitions). */
static char *without_timing(const char *path)
{
	char cmd[600], *out;

	snprintf(cmd, sizeof(cmd), "cut -d, -f1-24 %s", path);
	cr_assert_eq(tu_run(cmd, &out), 0);
	return out;
}

Test(cli, two_bench_runs_give_identical_csvs_but_for_timing, .timeout = 300)
{
	char args[1024], a[512], b[512], *out, *ca, *cb;

	snprintf(a, sizeof(a), "%s/a.csv", dir);
	snprintf(b, sizeof(b), "%s/b.csv", dir);
	for (int k = 0; k < 2; k++) {
		snprintf(args, sizeof(args),
			 "bench graphs/starter --quiet --out %s --benchmark_min_time=0.0005 --benchmark_repetitions=1",
			 k ? b : a);
		cr_assert_eq(run(args, &out), 0, "%s", out);
		free(out);
	}
	ca = without_timing(a);
	cb = without_timing(b);
	cr_expect_str_eq(ca, cb);
	cr_expect(strstr(ca, "schema_version,graph,family") == ca);
	/* the timing columns are filled */
	out = tu_slurp(a, NULL);
	cr_expect(strstr(out, ",,0\n") == NULL, "every row timed");
	free(out);
	free(ca);
	free(cb);
}

Test(cli, minimalloc_csv_round_trips_through_emit_plan)
{
	const char *csv = "id,lower,upper,size\n"
			  "0,0,10,100\n1,5,15,50\n2,10,20,100\n3,0,20,25\n";
	char args[1024], path[512], *out, *plan, *cols;

	write_file("p.csv", csv);
	snprintf(path, sizeof(path), "%s/plan.csv", dir);
	snprintf(args, sizeof(args), "plan %s/p.csv --planner size_first_fit --emit-plan %s",
		 dir, path);
	cr_assert_eq(run(args, &out), 0, "%s", out);
	free(out);
	/* the problem's columns come back exactly */
	snprintf(args, sizeof(args), "cut -d, -f1-4 %s", path);
	cr_assert_eq(tu_run(args, &cols), 0);
	cr_expect_str_eq(cols, csv);
	/* By hand, size desc (ties by first use): 0 [0,9] 100 @0; 2 [10,19]
	 * 100 @0; 1 [5,14] 50 meets both -> 100; 3 [0,19] 25 meets all ->
	 * 150.  Peak 175 = the lower bound (at 5..9: 100 + 50 + 25). */
	plan = tu_slurp(path, NULL);
	cr_expect_str_eq(plan, "id,lower,upper,size,offset\n"
			       "0,0,10,100,0\n1,5,15,50,100\n2,10,20,100,0\n3,0,20,25,150\n");
	/* The emitted solution is itself an input: it plans again, valid. */
	snprintf(args, sizeof(args), "plan %s --planner linear", path);
	cr_expect_eq(run(args, &out), 0, "%s", out);
	free(out);
	free(cols);
	free(plan);
}
