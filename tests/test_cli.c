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

/* The binary of the build being tested (make passes -DAB_BUILD_DIR). */
#ifndef AB_BUILD_DIR
#define AB_BUILD_DIR "build"
#endif
#define BIN AB_BUILD_DIR "/arenabench"

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
	tu_write_file(dir, name, text);
}

static int run(const char *args, char **out)
{
	char cmd[2048];

	snprintf(cmd, sizeof(cmd), "%s %s 2>&1", BIN, args);
	return tu_run(cmd, out);
}

TestSuite(cli, .init = make_dir, .fini = remove_dir);

/* A corpus run never dies on one input: the bad graph is skipped, named
 * with its file and line, listed in the .meta, and the run writes the
 * starter graphs' rows (exit 0); --strict makes it exit 2 with nothing
 * written and the earlier results kept. */
Test(cli, bad_graph_is_skipped_or_under_strict_exits_2_and_writes_nothing)
{
	char args[1024], path[512], meta[512], *out, *before, *after;

	write_file("bad.graph", "graph g\ntensor a input bytes 4\n"
				"op o OP in=a out=nowhere\n");
	write_file("results.csv", "an earlier run\n");
	snprintf(path, sizeof(path), "%s/results.csv", dir);
	snprintf(meta, sizeof(meta), "%s/results.meta", dir);
	before = tu_slurp(path, NULL);
	snprintf(args, sizeof(args), "bench graphs/starter %s/bad.graph --no-timing --quiet --strict --out %s",
		 dir, path);
	cr_expect_eq(run(args, &out), 2);
	cr_expect(strstr(out, "bad.graph:3: op 'o': output tensor 'nowhere' is not declared") != NULL,
		  "%s", out);
	cr_expect(strstr(out, "--strict: stopped at the first input that cannot be planned") != NULL, "%s", out);
	cr_expect(strstr(out, "nothing written") != NULL, "%s", out);
	after = tu_slurp(path, NULL);
	cr_expect_str_eq(after, before, "the earlier results file is kept");
	free(out);
	free(after);

	snprintf(args, sizeof(args), "bench graphs/starter %s/bad.graph --planners linear --align 1 --no-timing --quiet --out %s",
		 dir, path);
	cr_expect_eq(run(args, &out), 0, "%s", out);
	cr_expect(strstr(out, "arenabench: bench: skipped ") && strstr(out, "/bad.graph: ") &&
		  strstr(out, "bad.graph:3: op 'o': output tensor 'nowhere' is not declared (declare tensors before the ops that use them) (--strict makes this an error)"),
		  "%s", out);
	free(out);
	after = tu_slurp(path, NULL);
	cr_assert(after);
	/* the four starter graphs, one planner, one alignment */
	{
		size_t lines = 0;

		for (char *c = after; *c; c++)
			lines += *c == '\n';
		cr_expect_eq(lines, 5, "%s", after);
	}
	free(after);
	after = tu_slurp(meta, NULL);
	cr_assert(after);
	cr_expect(strstr(after, "\nskipped_inputs=1\nskipped_input=") &&
		  strstr(after, "/bad.graph: ") &&
		  strstr(after, "bad.graph:3: op 'o': output tensor 'nowhere' is not declared (declare tensors before the ops that use them)\n"),
		  "%s", after);
	free(after);
	free(before);
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
	/* "did you mean": a swapped pair of letters, a dropped letter */
	cr_expect_eq(run("explian x.tflite", &out), 2);
	cr_expect(strstr(out, "unknown command 'explian'; did you mean explain?") != NULL, "%s", out);
	free(out);
	cr_expect_eq(run("plan graphs/starter/chain_24k.graph --planer linear", &out), 2);
	cr_expect(strstr(out, "unknown option '--planer'; did you mean --planner? (see arenabench plan --help)") != NULL, "%s", out);
	free(out);
	cr_expect_eq(run("plan graphs/starter/chain_24k.graph --planner tflite_arna", &out), 2);
	cr_expect(strstr(out, "unknown planner 'tflite_arna' (did you mean tflite_arena? see arenabench list)") != NULL, "%s", out);
	free(out);
	/* nothing near: no suggestion */
	cr_expect_eq(run("zzzzzzzz", &out), 2);
	cr_expect(strstr(out, "did you mean") == NULL, "%s", out);
	free(out);
	/* scale's two side commands: a missing or zero count, a missing path */
	cr_expect_eq(run("scale --sort-reference", &out), 2);
	cr_expect(strstr(out, "usage: arenabench scale --sort-reference N") != NULL, "%s", out);
	free(out);
	cr_expect_eq(run("scale --sort-reference 0", &out), 2);
	free(out);
	cr_expect_eq(run("scale --sort-reference 12x", &out), 2);
	free(out);
	cr_expect_eq(run("scale --write-meta", &out), 2);
	cr_expect(strstr(out, "usage: arenabench scale --write-meta PATH") != NULL, "%s", out);
	free(out);
}

/* The scaling study's yardstick prints two lines: sort_reference_ns= (wall)
 * and sort_reference_cpu_ns= (thread CPU), each a positive whole number of
 * nanoseconds. */
Test(cli, sort_reference_prints_two_positive_times)
{
	char *out;
	unsigned long long ns = 0, cpu_ns = 0;
	char tail = 0;
	int used = 0;

	cr_assert_eq(run("scale --sort-reference 1000", &out), 0, "%s", out);
	cr_expect_eq(sscanf(out, "sort_reference_ns=%llu\nsort_reference_cpu_ns=%llu%c%n",
			    &ns, &cpu_ns, &tail, &used), 3, "%s", out);
	cr_expect_eq(tail, '\n', "%s", out);
	cr_expect_gt(ns, 0);
	cr_expect_gt(cpu_ns, 0);
	cr_expect_eq(out[used], '\0', "two lines: %s", out);
	free(out);
}

/* scale stops a first plan at --budget-seconds (wall): at 1 microsecond,
 * best_of on the 2,080 buffers of random_medium_s1 cannot finish, so the
 * row is the one prepared before the plan: its problem, buffers, planner
 * and alignment, no times, peak or bound, status timed_out, exit 0.  With
 * the default 60 s the same plan finishes: status ok. */
Test(cli, scale_stops_a_first_plan_at_its_budget)
{
	const char *want = "random_medium_s1,2080,,best_of,1,,,0,,,";
	char *out, *tail;

	cr_assert_eq(run("scale graphs/synthetic/random_medium_s1.graph --planner best_of "
			 "--budget-seconds 0.000001", &out), 0, "%s", out);
	cr_expect_eq(strncmp(out, want, strlen(want)), 0, "%s", out);
	tail = strstr(out, ",,,,timed_out,\n");
	cr_expect(tail && tail[strlen(",,,,timed_out,\n")] == '\0', "%s", out);
	free(out);
	cr_assert_eq(run("scale graphs/synthetic/random_medium_s1.graph --planner best_of "
			 "--benchmark_repetitions=1 --benchmark_min_time=0.0001", &out), 0, "%s", out);
	cr_expect(strstr(out, ",ok,") != NULL, "%s", out);
	free(out);
}

/* scale checks the plan it times: offline keeps a CSV's own offsets, here
 * a (16 bytes at 0, live 0..2) and b (16 bytes at 8, live 1..1) overlap
 * while both live, so the row is invalid (peak 24, bound 32), no time is
 * taken (the three timing fields empty) and stderr says why. */
Test(cli, scale_marks_an_overlapping_plan_invalid)
{
	char args[1024], *out;

	write_file("ov.csv", "id,lower,upper,size,offset\na,0,3,16,0\nb,1,2,16,8\n");
	snprintf(args, sizeof(args), "scale %s/ov.csv --planner offline --benchmark_repetitions=1", dir);
	cr_assert_eq(run(args, &out), 0, "%s", out);
	cr_expect(strncmp(out, "ov,2,2,offline,1,,,0,", strlen("ov,2,2,offline,1,,,0,")) == 0,
		  "%s", out);
	cr_expect(strstr(out, ",24,32,invalid,1\n") != NULL, "%s", out);
	cr_expect(strstr(out, "/ov.csv: offline: invalid plan: geometric check: buffers id a [0,2] "
			      "at bytes [0,16) and id b [1,1] at bytes [8,24) are live together") != NULL,
		  "%s", out);
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

/* Drops the timing columns (25-27: plan_ns, plan_ns_stddev, repetitions;
 * 31: reorder_ns); keeps 32, threads (1 on these small graphs), and 33,
 * language. */
static char *without_timing(const char *path)
{
	char cmd[600], *out;

	snprintf(cmd, sizeof(cmd), "cut -d, -f1-24,28-30,32- %s", path);
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
			 "bench graphs/starter --quiet --out %s --benchmark_min_time=0.0005 --benchmark_repetitions=1 --reorder beam --inplace",
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
	cr_expect(strstr(out, ",,0,") == NULL, "every row timed: %s", out);
	cr_expect(strstr(out, "reorder_ns,threads,language\n") != NULL, "%s", out);
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

/* Field `col` of data row `row` (1 = first after the header) of a CSV text
 * with plain comma-separated fields (the results writer never quotes). */
static char *csv_field(const char *csv, int row, const char *col)
{
	const char *line = csv, *hdr_end = strchr(csv, '\n'), *p;
	int idx = -1, k = 0;
	size_t clen = strlen(col);

	cr_assert_not_null(hdr_end);
	for (p = csv; p < hdr_end; k++) {
		const char *e = p;

		while (e < hdr_end && *e != ',')
			e++;
		if ((size_t)(e - p) == clen && !strncmp(p, col, clen))
			idx = k;
		p = e + 1;
	}
	cr_assert_geq(idx, 0, "no column %s", col);
	for (int r = 0; r < row; r++) {
		line = strchr(line, '\n');
		cr_assert_not_null(line, "no row %d", row);
		line++;
	}
	for (k = 0; k < idx; k++) {
		line = strchr(line, ',');
		cr_assert_not_null(line);
		line++;
	}
	return strndup(line, strcspn(line, ",\n"));
}

static void expect_field(const char *csv, int row, const char *col,
			 const char *want)
{
	char *v = csv_field(csv, row, col);

	cr_expect_str_eq(v, want, "row %d column %s", row, col);
	free(v);
}

/* The chain of the next two tests (1 KiB -> 4 KiB -> RELU -> 4 KiB -> 1 KiB). */
static const char inplace_chain[] = "graph c\n"
				    "tensor x input bytes 1024\n"
				    "tensor a intermediate bytes 4096\n"
				    "tensor b intermediate bytes 4096\n"
				    "tensor y output bytes 1024\n"
				    "op p CONV in=x out=a\n"
				    "op r RELU in=a out=b flags=elementwise\n"
				    "op q CONV in=b out=y\n";

/*
 * --inplace, --reorder and --tier through bench, by hand.  The chain
 *   x (1 KiB, input) -> a (4 KiB) -> RELU, elementwise -> b (4 KiB) -> y (1 KiB, output)
 * lives x [0,0], a [0,1], b [1,2], y [2,2]: steps hold 5120, 8192, 5120
 * bytes, so the lower bound is 8192 with 4 buffers.  Under --inplace b
 * takes a's buffer (a is last read by the RELU, same size, neither is a
 * graph input or output): one 4096-byte buffer on [0,2]; the steps hold
 * 5120, 4096, 5120 and the bound is 5120 with 3 buffers.  No other order
 * exists, so --reorder greedy keeps the bound (original = 5120).
 * Tiers sram:4KiB + dram, by bytes: benefit per byte-step ranks x and y
 * (one step each) before a+b (three steps); x and y never meet, so SRAM
 * holds both at 1024 bytes; a+b next to x would need 5120 > 4096 and
 * spills: DRAM peak 4096, spilled 4096 bytes, 5120 in all.
 */
Test(cli, inplace_reorder_and_tiers_are_options_of_bench_recorded_in_the_csv)
{
	char args[1024], path[512], *out, *csv;

	write_file("c.graph", inplace_chain);
	snprintf(path, sizeof(path), "%s/r.csv", dir);
	snprintf(args, sizeof(args), "bench %s/c.graph --planners size_first_fit --align 1 --no-timing --quiet --out %s",
		 dir, path);
	cr_assert_eq(run(args, &out), 0, "%s", out);
	free(out);
	csv = tu_slurp(path, NULL);
	expect_field(csv, 1, "schema_version", "3");
	expect_field(csv, 1, "buffers", "4");
	expect_field(csv, 1, "lower_bound_bytes", "8192");
	expect_field(csv, 1, "lower_bound_original_bytes", "8192");
	expect_field(csv, 1, "tier_peaks", "");
	expect_field(csv, 1, "spilled_bytes", "");
	expect_field(csv, 1, "options", "lifetimes=default;round=1;scratch=yes;seed=1;budget=default;phases=auto;inplace=no;reorder=none");
	free(csv);

	snprintf(args, sizeof(args), "bench %s/c.graph --planners size_first_fit --align 1 --no-timing --quiet --out %s --inplace --reorder greedy --tier sram:4KiB --tier dram",
		 dir, path);
	cr_assert_eq(run(args, &out), 0, "%s", out);
	free(out);
	csv = tu_slurp(path, NULL);
	expect_field(csv, 1, "buffers", "3");
	expect_field(csv, 1, "lower_bound_bytes", "5120");
	expect_field(csv, 1, "lower_bound_original_bytes", "5120");
	expect_field(csv, 1, "options", "lifetimes=default;round=1;scratch=yes;seed=1;budget=default;phases=auto;inplace=yes;reorder=greedy;tiers=sram:4096+dram;tier_benefit=bytes");
	expect_field(csv, 1, "valid", "yes");
	expect_field(csv, 1, "arenas", "2");
	expect_field(csv, 1, "tier_peaks", "sram:1024+dram:4096");
	expect_field(csv, 1, "spilled_bytes", "4096");
	expect_field(csv, 1, "peak_bytes", "5120");
	free(csv);
}

/* The same chain with DRAM capped at 2 KiB: x and y fill SRAM (1 KiB) and
 * the 4096-byte a+b fits nowhere: exit 1, the bytes needed named, no plan
 * printed. */
Test(cli, tiers_that_cannot_hold_the_buffers_fail_with_the_bytes_needed)
{
	char args[1024], *out;

	write_file("c.graph", inplace_chain);
	snprintf(args, sizeof(args), "plan %s/c.graph --planner size_first_fit --inplace --tier sram:1KiB --tier dram:2KiB",
		 dir);
	cr_expect_eq(run(args, &out), 1, "%s", out);
	cr_expect(strstr(out, "tier 'dram': needs 4096 bytes") != NULL, "%s", out);
	cr_expect(strstr(out, "capacity 2048 bytes") != NULL, "%s", out);
	cr_expect(strstr(out, "peak:") == NULL, "no plan is printed: %s", out);
	free(out);
	snprintf(args, sizeof(args), "plan %s/c.graph --planner size_first_fit --tier sram:1XB", dir);
	cr_expect_eq(run(args, &out), 2, "%s", out);
	cr_expect(strstr(out, "--tier") != NULL, "%s", out);
	free(out);
	snprintf(args, sizeof(args), "plan %s/c.graph --planner size_first_fit --reorder sideways", dir);
	cr_expect_eq(run(args, &out), 2, "%s", out);
	cr_expect(strstr(out, "--reorder expects none, greedy, beam or inductor, got 'sideways'") != NULL, "%s", out);
	free(out);
}

/* The option layer: per-command help, --opt=value, and an option that does
 * not apply to the command is an error naming it (exit 2). */
Test(cli, help_equals_values_and_inapplicable_options)
{
	char *out;

	cr_expect_eq(run("plan --help", &out), 0);
	cr_expect(strstr(out, "usage: arenabench plan FILE --planner P") && strstr(out, "--emit-plan FILE") &&
		  strstr(out, "defaults: --align 1, --lifetimes default") && strstr(out, "example:"), "%s", out);
	cr_expect(strstr(out, "--no-timing") == NULL, "bench's option is not in plan's help: %s", out);
	free(out);
	/* compare takes no --align: its defaults name its own options */
	cr_expect_eq(run("compare --help", &out), 0);
	cr_expect(strstr(out, "defaults: --match graph,planner,align,options (with --against: graph,align,options), --top 10\n") &&
		  !strstr(out, "--align"), "%s", out);
	free(out);
	cr_expect_eq(run("--version", &out), 0);
	cr_expect(!strncmp(out, "arenabench ", 11) && strstr(out, "\ncompiler: ") && strstr(out, "\nbuild flags: CC="), "%s", out);
	free(out);
	/* chain_24k: lower bound 24576 bytes (docs/semantics.md's worked example) */
	cr_expect_eq(run("plan graphs/starter/chain_24k.graph --planner=size_first_fit --align=16", &out), 0, "%s", out);
	cr_expect(strstr(out, "planner:      size_first_fit (align 16;") != NULL, "%s", out);
	free(out);
	cr_expect_eq(run("list --inplace", &out), 2);
	cr_expect(strstr(out, "list: option --inplace does not apply to list") != NULL, "%s", out);
	free(out);
	cr_expect_eq(run("bench graphs/starter --emit-plan x --no-timing", &out), 2);
	cr_expect(strstr(out, "bench: option --emit-plan does not apply to bench") != NULL, "%s", out);
	free(out);
}

/* offline (cost class fixed) runs only where the input fixes offsets:
 * plan refuses a graph naming it (exit 1), bench writes no row for it,
 * explain --cost all leaves it out; a solution CSV fixes every offset, so
 * offline plans it back exactly (residual_block's size_first_fit plan). */
Test(cli, offline_only_where_offsets_are_fixed)
{
	char args[2048], *out;
	int code;

	code = run("plan graphs/starter/residual_block.graph --planner offline", &out);
	cr_expect_eq(code, 1, "exit %d: %s", code, out);
	cr_expect(strstr(out, "residual_block.graph fixes no offsets") != NULL, "%s", out);
	free(out);
	code = run("explain graphs/starter/residual_block.graph --cost all", &out);
	cr_expect_eq(code, 0, "exit %d: %s", code, out);
	cr_expect(strstr(out, "offline") == NULL, "%s", out);
	free(out);
	snprintf(args, sizeof(args), "%s bench graphs/starter/residual_block.graph --planners offline,linear --no-timing --quiet --out %s/b.csv 2>/dev/null; grep -c ',offline,' %s/b.csv", BIN, dir, dir);
	code = tu_run(args, &out);
	cr_expect_str_eq(out, "0\n");
	free(out);
	snprintf(args, sizeof(args), "%s plan graphs/starter/residual_block.graph --planner size_first_fit --emit-plan %s/sol.csv >/dev/null && %s plan %s/sol.csv --planner offline --emit-plan %s/again.csv >/dev/null && cmp %s/sol.csv %s/again.csv && echo same",
		 BIN, dir, BIN, dir, dir, dir, dir);
	code = tu_run(args, &out);
	cr_expect_eq(code, 0, "%s", out);
	cr_expect_str_eq(out, "same\n");
	free(out);
}

/*
 * A graph's family is its `family` line, a model's its folder, and
 * --family overrides both for every input (issue 16: a user names the
 * families of an own corpus).  inplace_chain has no `family` line, so its
 * family is the default "graph"; with --family mine the CSV says mine.  A
 * name that would break the CSV or a file name is refused (exit 2) and
 * nothing is written.
 */
Test(cli, family_option_names_the_family_of_every_input)
{
	char args[1024], path[512], *out, *csv;

	write_file("c.graph", inplace_chain);
	snprintf(path, sizeof(path), "%s/f.csv", dir);
	snprintf(args, sizeof(args), "bench %s/c.graph --planners linear --align 1 --no-timing --quiet --out %s --family mine",
		 dir, path);
	cr_assert_eq(run(args, &out), 0, "%s", out);
	free(out);
	csv = tu_slurp(path, NULL);
	expect_field(csv, 1, "family", "mine");
	free(csv);
	snprintf(args, sizeof(args), "bench %s/c.graph --planners linear --align 1 --no-timing --quiet --out %s",
		 dir, path);
	cr_assert_eq(run(args, &out), 0, "%s", out);
	free(out);
	csv = tu_slurp(path, NULL);
	expect_field(csv, 1, "family", "graph");
	free(csv);
	remove(path);

	snprintf(args, sizeof(args), "bench %s/c.graph --planners linear --no-timing --quiet --out %s --family 'a,b'",
		 dir, path);
	cr_assert_eq(run(args, &out), 2, "%s", out);
	cr_expect(strstr(out, "--family: 'a,b' is not a family name"), "%s", out);
	free(out);
	cr_expect_neq(access(path, F_OK), 0, "a refused --family wrote %s", path);
}

/*
 * `summary RUN.csv` prints bench's closing summary from a CSV.  By hand:
 * p: g1 200/100 = 2, g2 800/100 = 8 (geometric mean 4, worst 8 on g2),
 * g3 invalid: 0 of 3 rows at the bound, 1 invalid; q: g1 100/100 = 1, at
 * the bound.  Planners in order of first appearance.
 */
Test(cli, summary_of_a_csv_by_hand_and_equal_to_bench)
{
	char args[1024], *out, *bench_err, *sum;
	const char *line;

	write_file("run.csv", "schema_version,graph,family,planner,align,options,valid,peak_bytes,lower_bound_bytes\n"
		       "3,g1,f,p,1,o,yes,200,100\n3,g1,f,q,1,o,yes,100,100\n3,g2,f,p,16,o,yes,800,100\n"
		       "3,g3,f,p,1,o,no,,100\n");
	snprintf(args, sizeof(args), "summary %s/run.csv", dir);
	cr_assert_eq(run(args, &out), 0, "%s", out);
	cr_expect(strstr(out, "summary (4 rows; x_bound = peak / lower bound, geometric mean over valid rows):\n"
			      "  planner                 x_bound  at_bound  invalid  worst (x_bound, graph, align)\n"
			      "  p                        4.0000    0/3           1  8.0000 g2 align 16\n"
			      "  q                        1.0000    1/1           0  1.0000 g1 align 1\n"), "%s", out);
	free(out);
	/* no lower_bound_bytes: not a bench CSV */
	write_file("nolb.csv", "schema_version,graph,family,planner,align,options,valid,peak_bytes\n3,g,f,p,1,o,yes,1\n");
	snprintf(args, sizeof(args), "summary %s/nolb.csv", dir);
	cr_expect_eq(run(args, &out), 2);
	cr_expect(strstr(out, "nolb.csv:1: no column 'lower_bound_bytes'") != NULL, "%s", out);
	free(out);
	/* bench's own closing summary is the summary of the CSV it wrote */
	snprintf(args, sizeof(args), "bench graphs/starter --no-timing --out %s/b.csv", dir);
	cr_assert_eq(run(args, &bench_err), 0, "%s", bench_err);
	snprintf(args, sizeof(args), "summary %s/b.csv", dir);
	cr_assert_eq(run(args, &sum), 0, "%s", sum);
	line = strstr(bench_err, "summary (");
	cr_expect(line && !strncmp(line, sum, strlen(sum)), "bench:\n%s\nsummary:\n%s", bench_err, sum);
	free(bench_err);
	free(sum);
}
