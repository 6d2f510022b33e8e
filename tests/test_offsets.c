/*
 * The offsets regression (make test's part): every fast planner's plan of
 * every graphs/ input at alignments 1 and 64 must be byte for byte the one
 * recorded in results/reference/offsets.tsv, which holds the sha256 of
 * `arenabench plan --emit-plan`'s file and the peak
 * (scripts/dev/offsets-digest.sh --write, make offsets-reference).  Here
 * each plan is made in-process with plan's defaults, written in the same
 * solution format to memory and hashed (with core/sha256.c, not the
 * sha256sum that wrote the record); a difference names the planner, the
 * input and the alignment.  (The plans are not checked again: one equal
 * byte for byte to the recorded one is that valid plan.)  The sweep at 10^4 and 10^5 and
 * ../shared are checked by the long tier (offsets-digest.sh --check).
 * A planner meant to move offsets re-records (make offsets-reference) and
 * its commit says why.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/run.h"
#include "core/sha256.h"
#include "import/problem_csv.h"
#include "testutil.h"

#define OFFSETS "results/reference/offsets.tsv"

struct row {
	char planner[64], input[512], sha[80];
	unsigned align;
	unsigned long long peak;
};

/* The stored rows whose input starts with prefix (the file is sorted by
 * input, so one input's rows are consecutive). */
static size_t read_rows(const char *prefix, struct row **out)
{
	FILE *f = fopen(OFFSETS, "r");
	char line[1024];
	size_t n = 0, cap = 0;
	struct row *rows = NULL;

	cr_assert_not_null(f, "no %s (make offsets-reference)", OFFSETS);
	while (fgets(line, sizeof(line), f)) {
		struct row r = { .peak = 0 };
		char peak[32] = "";

		if (line[0] == '#' || !strncmp(line, "planner\t", 8))
			continue;
		if (sscanf(line, "%63[^\t]\t%511[^\t]\t%u\t%79[^\t\n]\t%31[^\t\n]",
			   r.planner, r.input, &r.align, r.sha, peak) < 4)
			cr_assert_fail("%s: malformed row: %s", OFFSETS, line);
		if (strncmp(r.input, prefix, strlen(prefix)))
			continue;
		r.peak = strtoull(peak, NULL, 10);
		if (n == cap) {
			cap = cap ? 2 * cap : 1024;
			rows = realloc(rows, cap * sizeof(*rows));
			cr_assert_not_null(rows);
		}
		rows[n++] = r;
	}
	fclose(f);
	*out = rows;
	return n;
}

/* sha256 of the plan as `plan --emit-plan` writes it */
static void plan_sha(const struct ab_problem *p, const struct ab_plan *plan,
		     char hex[65])
{
	struct ab_sha256 s;
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	cr_assert_not_null(m);
	ab_plan_write_csv(m, p, plan);
	cr_assert_eq(fclose(m), 0);
	ab_sha256_init(&s);
	ab_sha256_update(&s, buf, len);
	ab_sha256_hex(&s, hex);
	free(buf);
}

/* One input: each stored row planned again and compared; returns the
 * rows checked. */
static size_t check_input(const struct row *rows, size_t n)
{
	struct ab_load_options lo = { 0 };
	struct ab_error err = { { 0 } };
	struct ab_input in;
	struct ab_plan plan;

	cr_assert_eq(ab_input_load(rows[0].input, &lo, &in, &err), 0, "%s", err.msg);
	cr_assert_eq(ab_plan_alloc(&plan, in.problem.n), 0);
	for (size_t k = 0; k < n; k++) {
		const struct ab_planner *pl = ab_planner_find(rows[k].planner);
		struct ab_plan_options o = { .align = rows[k].align, .seed = 1 };
		char hex[65];
		int rc;

		cr_assert_not_null(pl, "%s: planner %s is no longer registered (make offsets-reference)",
				   OFFSETS, rows[k].planner);
		ab_plan_reset(&plan);
		rc = ab_run_planner(&in, pl, &o, &plan, NULL, &err);
		if (!strncmp(rows[k].sha, "refused:", 8)) {
			cr_expect_neq(rc, 0, "%s on %s align %u: recorded refused, now planned",
				      rows[k].planner, rows[k].input, rows[k].align);
		} else if (rc) {
			cr_expect_fail("%s on %s align %u: no plan: %s", rows[k].planner,
				       rows[k].input, rows[k].align, err.msg);
		} else {
			/* the same bytes as the recorded (checked) plan are the
			 * same valid plan: no check needed here */
			plan_sha(&in.problem, &plan, hex);
			cr_expect_str_eq(hex, rows[k].sha,
					 "%s on %s align %u: offsets changed: recorded %s (peak %llu), now %s (peak %llu)",
					 rows[k].planner, rows[k].input, rows[k].align, rows[k].sha,
					 rows[k].peak, hex, (unsigned long long)plan.peak);
			cr_expect_eq(plan.peak, rows[k].peak, "%s on %s align %u: peak",
				     rows[k].planner, rows[k].input, rows[k].align);
		}
	}
	ab_plan_free(&plan);
	ab_input_free(&in);
	return n;
}

/* Every input of the set with a row per fast planner and alignment 1, 64;
 * returns the inputs. */
static size_t check_set(const char *prefix)
{
	struct row *rows;
	size_t n = read_rows(prefix, &rows), inputs = 0, fast = 0;

	for (size_t k = 0; k < ab_planner_count(); k++)
		fast += ab_planner_at(k)->cost == AB_COST_FAST;
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j < n && !strcmp(rows[j].input, rows[i].input))
			j++;
		cr_expect_eq(j - i, 2 * fast, "%s: %zu rows for %s, want %zu (every fast planner at 1 and 64; make offsets-reference)",
			     OFFSETS, j - i, rows[i].input, 2 * fast);
		check_input(rows + i, j - i);
		inputs++;
		i = j;
	}
	free(rows);
	return inputs;
}

/* every .graph and .csv under dir has rows */
static void on_input(const char *path, const struct ab_problem *p, void *ctx)
{
	struct row *rows;
	size_t n = read_rows(path, &rows);

	(void)p;
	(void)ctx;
	cr_expect_gt(n, 0, "%s has no rows in %s (make offsets-reference)", path, OFFSETS);
	free(rows);
}

Test(offsets, starter_graphs_match_the_record)
{
	cr_expect_geq(check_set("graphs/starter/"), 4);
	tu_each_input("graphs/starter", false, on_input, NULL);
}

Test(offsets, sweep_graphs_match_the_record)
{
	cr_expect_geq(check_set("graphs/sweep/"), 6);
	tu_each_input("graphs/sweep", false, on_input, NULL);
}

Test(offsets, synthetic_graphs_match_the_record)
{
	cr_expect_geq(check_set("graphs/synthetic/"), 30);
	tu_each_input("graphs/synthetic", false, on_input, NULL);
}

Test(offsets, zoo_graphs_match_the_record)
{
	cr_expect_geq(check_set("graphs/zoo/"), 30);
	tu_each_input("graphs/zoo", false, on_input, NULL);
}

/* The record itself, by hand: chain_24k (docs/semantics.md) by
 * size_first_fit: sizes descending, first fit among the buffers live at
 * the same time: C (16 KiB, steps [2,4)) at 0; A (8 KiB, [0,2)) at 0 (C
 * not live yet); B (8 KiB, [1,3)) meets A and C, so at 16 KiB; in (4 KiB,
 * [0,1)) meets A: 8 KiB; out (4 KiB, [3,4)) meets C: 16 KiB.  Peak 24 KiB,
 * the lower bound.  Every size is a multiple of 64, so alignment 64 gives
 * the same file.  The record's sha256 must be this text's. */
Test(offsets, the_record_pins_chain_24k_by_hand)
{
	static const char plan[] = "id,lower,upper,size,offset\n"
				   "0,0,1,4096,8192\n"
				   "1,0,2,8192,0\n"
				   "2,1,3,8192,16384\n"
				   "3,2,4,16384,0\n"
				   "4,3,4,4096,16384\n";
	struct ab_sha256 s;
	struct row *rows;
	char hex[65];
	size_t n = read_rows("graphs/starter/chain_24k.graph", &rows), seen = 0;

	ab_sha256_init(&s);
	ab_sha256_update(&s, plan, strlen(plan));
	ab_sha256_hex(&s, hex);
	for (size_t k = 0; k < n; k++) {
		if (strcmp(rows[k].planner, "size_first_fit"))
			continue;
		cr_expect_eq(rows[k].peak, 24576);
		cr_expect_str_eq(rows[k].sha, hex, "align %u", rows[k].align);
		seen++;
	}
	cr_expect_eq(seen, 2);
	free(rows);
}
