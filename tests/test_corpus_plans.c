/*
 * The generic test: every registered planner on every corpus input (and,
 * when ../shared is there, minimalloc's suite, the TFLM problems and every
 * shared .tflite model) goes
 * through both plan checks.  A new planner file or graph is covered the day
 * it is added, with no edit here.
 */
#include <criterion/criterion.h>
#include <dirent.h>
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

Test(corpus, every_planner_on_every_input_passes_both_checks,
     .timeout = 900)
{
	size_t checked = 0, files = 0, seen = 0, sample = 1;
	const char *env = getenv("AB_TEST_SAMPLE");

	/* AB_TEST_SAMPLE=k plans every k-th input (CI's sanitizer pass). */
	if (env && atoi(env) > 1) {
		sample = (size_t)atoi(env);
		cr_log_info("AB_TEST_SAMPLE=%zu: planning every %zu-th corpus input",
			    sample, sample);
	}

	for (size_t d = 0; d < sizeof(corpus_dirs) / sizeof(corpus_dirs[0]); d++) {
		struct dirent **names;
		int count = scandir(corpus_dirs[d], &names, NULL, alphasort);

		if (count < 0) {
			cr_log_info("skipping %s: not present", corpus_dirs[d]);
			continue;
		}
		for (int j = 0; j < count; j++) {
			const char *name = names[j]->d_name;
			size_t n = strlen(name);
			char path[1024];

			if (((n > 6 && !strcmp(name + n - 6, ".graph")) ||
			     (n > 7 && !strcmp(name + n - 7, ".tflite")) ||
			     (n > 4 && !strcmp(name + n - 4, ".csv"))) &&
			    seen++ % sample == 0) {
				snprintf(path, sizeof(path), "%s/%s",
					 corpus_dirs[d], name);
				check_file(path, &checked);
				files++;
			}
			free(names[j]);
		}
		free(names);
	}
	cr_expect_gt(files, 4, "the starter corpus at least");
	cr_log_info("%zu inputs, %zu plans checked", files, checked);
}
