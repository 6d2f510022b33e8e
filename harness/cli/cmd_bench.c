/*
 * `arenabench bench INPUT...`: every input with every planner and
 * alignment, every plan checked and timed, one CSV (and its .meta),
 * written atomically: nothing is written on bad input.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/timing.h"
#include "core/textio.h"
#include "import/expand.h"

struct progress {
	bool quiet;
	time_t start;
};

static void on_progress(void *user, size_t done, size_t total,
			const char *path, const char *what)
{
	struct progress *pr = user;

	if (pr->quiet)
		return;
	if (path)
		fprintf(stderr, "[%zu/%zu %lds] %s: %s\n", done + 1, total,
			(long)(time(NULL) - pr->start), path, what);
	else
		fprintf(stderr, "[%zu/%zu %lds] %s\n", done, total,
			(long)(time(NULL) - pr->start), what);
}

static void on_problem(void *user, const char *msg)
{
	(void)user;
	fprintf(stderr, "arenabench: INVALID PLAN: %s\n", msg);
}

static char *meta_path(const char *csv)
{
	size_t n = strlen(csv);
	char *m = malloc(n + 6);

	if (!m)
		return NULL;
	memcpy(m, csv, n + 1);
	if (n > 4 && !strcmp(m + n - 4, ".csv"))
		m[n - 4] = 0;
	strcat(m, ".meta");
	return m;
}

int cmd_bench(struct args *a, int argc, char **argv)
{
	struct ab_bench_config cfg = { 0 };
	struct progress pr = { a->quiet, time(NULL) };
	const struct ab_planner **planners = NULL;
	struct ab_rows rows = { 0 };
	struct ab_error err = { { 0 } };
	struct ab_atomic_file csv, meta;
	char **files = NULL, *mpath = NULL;
	size_t n_files = 0, n_planners = 0;
	int rc, code = EXIT_USAGE;

	if (!a->n_pos) {
		fprintf(stderr, "arenabench: bench: no inputs (expected .graph/.csv/.tflite files or directories)\n");
		return EXIT_USAGE;
	}
	if (cli_inputs(a, &files, &n_files) ||
	    cli_planners(a, &planners, &n_planners))
		goto out;
	if (!n_files || !n_planners) {
		fprintf(stderr, "arenabench: bench: %s\n",
			!n_files ? "no .graph, .csv or .tflite files in the inputs"
				 : "no planners selected");
		goto out;
	}
	cfg.inputs = (const char *const *)files;
	cfg.n_inputs = n_files;
	cfg.planners = planners;
	cfg.n_planners = n_planners;
	cfg.aligns = a->aligns;
	cfg.n_aligns = a->n_aligns;
	cfg.load = a->load;
	cfg.plan = a->plan;
	cfg.timer = a->timing ? &ab_google_benchmark : NULL;
	cfg.progress = on_progress;
	cfg.problem = on_problem;
	cfg.user = &pr;
	rc = ab_bench_run(&cfg, &rows, &err);
	if (rc) {
		fprintf(stderr, "arenabench: %s\n", err.msg);
		fprintf(stderr, "arenabench: nothing written; %s is unchanged\n", a->out);
		goto out;
	}
	mpath = meta_path(a->out);
	if (!mpath || ab_atomic_open(&csv, a->out, &err)) {
		fprintf(stderr, "arenabench: %s\n", err.msg);
		goto out;
	}
	if (ab_atomic_open(&meta, mpath, &err)) {
		ab_atomic_abort(&csv);
		fprintf(stderr, "arenabench: %s\n", err.msg);
		goto out;
	}
	ab_rows_write_csv(csv.f, &rows);
	ab_write_meta(meta.f, &ab_google_benchmark, argc, argv, cli_capture);
	if (ab_atomic_commit(&csv, &err)) {
		ab_atomic_abort(&meta);
		fprintf(stderr, "arenabench: %s\n", err.msg);
		goto out;
	}
	if (ab_atomic_commit(&meta, &err)) {
		fprintf(stderr, "arenabench: %s\n", err.msg);
		goto out;
	}
	if (!a->quiet)
		fprintf(stderr, "arenabench: wrote %zu rows to %s (%zu invalid)\n",
			rows.n, a->out, rows.invalid);
	code = rows.invalid ? EXIT_INVALID : 0;
out:
	ab_free_inputs(files, n_files);
	free(planners);
	free(mpath);
	ab_rows_free(&rows);
	return code;
}


void cli_capture(const char *cmd, char *buf, size_t len)
{
	FILE *p = popen(cmd, "r");

	buf[0] = 0;
	if (p) {
		if (!fgets(buf, (int)len, p))
			buf[0] = 0;
		pclose(p);
	}
	buf[strcspn(buf, "\n")] = 0;
	if (!buf[0])
		snprintf(buf, len, "unknown");
}
