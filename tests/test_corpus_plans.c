/*
 * The generic test: every registered planner on every corpus input (and,
 * when ../shared is there, minimalloc's suite, the TFLM problems and every
 * shared .tflite model) goes
 * through both plan checks.  A new planner file or graph is covered the day
 * it is added, with no edit here.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "testutil.h"

static const char *const corpus_dirs[] = {
	"graphs/starter", "graphs/zoo", "graphs/synthetic", "graphs/sweep",
	AB_SHARED_DIR "/problems/minimalloc",
	AB_SHARED_DIR "/reference/tflm_problems",
	AB_SHARED_DIR "/models/tflm",
	AB_SHARED_DIR "/models/coral_test_data",
	AB_SHARED_DIR "/models/mediapipe",
};

static void on_problem(void *user, const char *msg)
{
	(void)user;
	cr_log_error("%s", msg);
}

/* Plans one input with every registered planner through the harness's own
 * bench path (both checks on every plan) and expects every row valid
 * (offline, class fixed, makes rows only where the input fixes offsets). */
static void check_file(const char *path, size_t *checked)
{
	static const uint32_t aligns[] = { 1, 64 };
	const struct ab_planner *planners[64];
	const char *inputs[1] = { path };
	struct ab_bench_config cfg = { 0 };
	struct ab_error err = { { 0 } };
	struct ab_rows rows;
	size_t n = ab_planner_count();

	cr_assert_leq(n, 64);
	for (size_t k = 0; k < n; k++)
		planners[k] = ab_planner_at(k);
	cfg.inputs = inputs;
	cfg.n_inputs = 1;
	cfg.planners = planners;
	cfg.n_planners = n;
	cfg.aligns = aligns;
	cfg.n_aligns = 2;
	cfg.plan.seed = 1;
	/* make test: budgeted planners (local_search, exact) at 50 iterations
	 * or nodes, since this test asks for valid plans, not good ones (their
	 * default budgets are tested on pinned inputs in test_exact and
	 * test_repair); make test-long runs it with AB_TEST_FULL_BUDGET=1. */
	cfg.plan.budget = getenv("AB_TEST_FULL_BUDGET") ? 0 : 50;
	cfg.strict = true; /* an input that fails to load is an error here */
	cfg.problem = on_problem;
	if (ab_bench_run(&cfg, &rows, &err)) {
		cr_expect_fail("%s", err.msg);
		return;
	}
	/* a row per planner and alignment, but none for a planner of class
	 * fixed on an input that fixes no offsets (bench skips it) */
	{
		struct ab_load_options lo = { 0 };
		struct ab_input in;
		size_t applies = 0;

		cr_assert_eq(ab_input_load(path, &lo, &in, &err), 0, "%s", err.msg);
		for (size_t k = 0; k < n; k++)
			applies += ab_planner_applies(planners[k], &in.problem);
		cr_expect_eq(rows.n, 2 * applies, "%s", path);
		ab_input_free(&in);
	}
	for (size_t r = 0; r < rows.n; r++) {
		const struct ab_row *row = &rows.row[r];

		cr_expect(row->check.valid, "%s: %s at align %u: %s", path,
			  row->planner->name, row->align,
			  row->check.message ? row->check.message : "?");
		cr_expect_geq(row->check.peak_bytes, row->lower_bound_bytes,
			      "%s: %s beats the lower bound", path,
			      row->planner->name);
		(*checked)++;
	}
	ab_rows_free(&rows);
}

/* One test per input, so Criterion's --jobs balances them; an absent folder
 * of ../shared is one named skip.  The list is made the same way in every
 * test process (Criterion starts each test in a new process, so the
 * parameters are indexes into it, not pointers). */
#define MAX_ITEMS 1024
struct item {
	char path[512];
	bool absent; /* a folder that is not there */
};
static struct item items[MAX_ITEMS];
static size_t n_items;

static void list_items(void)
{
	size_t seen = 0, sample = 1;
	const char *env = getenv("AB_TEST_SAMPLE");

	if (n_items)
		return;
	/* AB_TEST_SAMPLE=k plans every k-th input (CI's sanitizer pass). */
	if (env && atoi(env) > 1)
		sample = (size_t)atoi(env);
	for (size_t d = 0; d < sizeof(corpus_dirs) / sizeof(corpus_dirs[0]); d++) {
		struct dirent **names;
		int count = scandir(corpus_dirs[d], &names, NULL, alphasort);

		if (count < 0) {
			snprintf(items[n_items].path, sizeof(items[0].path), "%s",
				 corpus_dirs[d]);
			items[n_items++].absent = true;
			continue;
		}
		for (int j = 0; j < count; j++) {
			const char *name = names[j]->d_name;
			size_t n = strlen(name);

			if (((n > 6 && !strcmp(name + n - 6, ".graph")) ||
			     (n > 7 && !strcmp(name + n - 7, ".tflite")) ||
			     (n > 4 && !strcmp(name + n - 4, ".csv"))) &&
			    seen++ % sample == 0 && n_items < MAX_ITEMS) {
				snprintf(items[n_items].path, sizeof(items[0].path),
					 "%s/%s", corpus_dirs[d], name);
				items[n_items++].absent = false;
			}
			free(names[j]);
		}
		free(names);
	}
}

ParameterizedTestParameters(corpus, every_planner_on_every_input_passes_both_checks)
{
	static size_t index[MAX_ITEMS];

	list_items();
	for (size_t k = 0; k < n_items; k++)
		index[k] = k;
	return cr_make_param_array(size_t, index, n_items);
}

ParameterizedTest(size_t *k, corpus, every_planner_on_every_input_passes_both_checks,
		  .timeout = 600)
{
	size_t checked = 0;

	list_items();
	cr_assert_lt(*k, n_items, "the input list changed between processes");
	if (items[*k].absent)
		cr_skip_test("%s absent: its inputs are not planned", items[*k].path);
	check_file(items[*k].path, &checked);
	cr_expect_gt(checked, 0, "%s: no plan checked", items[*k].path);
}

/* The corpus is there at all: more than the four starter graphs. */
Test(corpus, the_committed_corpus_is_found)
{
	size_t files = 0;

	list_items();
	for (size_t k = 0; k < n_items; k++)
		files += !items[k].absent && !strncmp(items[k].path, "graphs/", 7);
	cr_expect_gt(files, 4, "only %zu committed corpus inputs found", files);
}
