/*
 * `arenabench bench INPUT...`: every input with every planner and
 * alignment, every plan checked and timed, one CSV (and its .meta),
 * written atomically: nothing is written on bad input.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/timing.h"
#include "bench/merge.h"
#include "core/sha256.h"
#include "core/textio.h"
#include "import/expand.h"
#include "report/summary.h"

struct progress {
	bool quiet;
	time_t start;
	const struct args *a;
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

/* Printed even with --quiet: a skipped input is never silent. */
static void on_skipped(void *user, const struct ab_skipped_input *s)
{
	(void)user;
	if (s->flags)
		fprintf(stderr, "arenabench: bench: skipped %s: %s; add %s to plan it (--strict makes this an error)\n",
			s->path, s->why, s->flags);
	else
		fprintf(stderr, "arenabench: bench: skipped %s: %s (--strict makes this an error)\n",
			s->path, s->why);
}

/* Each input's options: its kind's default conventions and its --dim
 * values (cli_input_options). */
static int input_options(void *user, const char *path, struct ab_load_options *lo,
			 uint32_t *aligns, size_t *n_aligns, struct ab_error *err)
{
	const struct progress *pr = user;

	return cli_input_options(pr->a, path, lo, aligns, n_aligns, NULL, NULL, err);
}

/* The closing summary on stderr (report/summary.h, the text that
 * `arenabench summary` prints from the CSV). */
static void print_summary(const struct ab_rows *rows)
{
	struct ab_summary_row *v = malloc((rows->n + 1) * sizeof(*v));

	if (!v)
		return;
	for (size_t i = 0; i < rows->n; i++) {
		const struct ab_row *r = &rows->row[i];

		v[i] = (struct ab_summary_row){ r->planner->name, r->graph, r->align, r->check.valid,
						r->check.peak_bytes, r->lower_bound_bytes };
	}
	ab_summary_write(stderr, v, rows->n);
	free(v);
}

/*
 * Fail before planning: OUT's folder must exist and take new files (the
 * CSV and .meta are written there by rename at the end).  '-' is stdout.
 */
static int check_out_dir(const char *out, bool given)
{
	const char *slash = strrchr(out, '/');
	char *dir;
	struct stat st;
	int rc = 0;

	if (!strcmp(out, "-"))
		return 0;
	dir = slash ? strndup(out, slash == out ? 1 : (size_t)(slash - out)) : strdup(".");
	if (!dir)
		return -ENOMEM;
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "arenabench: bench: --out %s: folder %s does not exist%s; nothing planned\n",
			out, dir, given ? "" : " (the default --out, relative to the working folder)");
		rc = -ENOENT;
	} else if (access(dir, W_OK | X_OK)) {
		fprintf(stderr, "arenabench: bench: --out %s: cannot write in %s: %s; nothing planned\n",
			out, dir, strerror(errno));
		rc = -EACCES;
	}
	free(dir);
	return rc;
}

int cmd_bench(struct args *a, int argc, char **argv)
{
	struct ab_bench_config cfg = { 0 };
	struct progress pr = { a->quiet, time(NULL), a };
	const struct ab_planner **planners = NULL;
	struct ab_rows rows = { 0 };
	struct ab_error err = { { 0 } };
	struct ab_atomic_file csv, meta;
	struct ab_out_lock lock = { -1, NULL, 0 };
	char **files = NULL, *mpath = NULL, hex[65];
	size_t n_files = 0, n_planners = 0;
	bool wrote_meta = false;
	int rc, code = EXIT_USAGE;

	if (!a->n_pos) {
		fprintf(stderr, "arenabench: bench: no inputs (expected .graph/.csv/.tflite/.onnx files or directories)\n");
		return EXIT_USAGE;
	}
	if (check_out_dir(a->out, a->out_given))
		return EXIT_USAGE;
	if (cli_inputs(a, &files, &n_files) ||
	    cli_planners(a, &planners, &n_planners))
		goto out;
	if (n_planners && cli_search_options(a, planners, n_planners))
		goto out;
	if (!n_files || !n_planners) {
		fprintf(stderr, "arenabench: bench: %s\n",
			!n_files ? "no .graph, .csv, .tflite or .onnx files in the inputs"
				 : "no planners selected");
		goto out;
	}
	/* the output rules (docs/io.md) on the CSV and its .meta, against
	 * every input a folder expanded to, then the output's lock */
	mpath = strcmp(a->out, "-") ? ab_meta_path(a->out) : NULL;
	if (cli_refuse_inputs("--out", a->out, (const char *const *)files, n_files) ||
	    cli_refuse_special("--out", a->out) ||
	    (mpath && (cli_refuse_inputs("--out's .meta", mpath, (const char *const *)files, n_files) ||
		       cli_refuse_special("--out's .meta", mpath))) ||
	    cli_lock_output(&lock, a->out, "arenabench bench"))
		goto out;
	cfg.inputs = (const char *const *)files;
	cfg.n_inputs = n_files;
	cfg.planners = planners;
	cfg.n_planners = n_planners;
	cfg.aligns = a->aligns;
	cfg.n_aligns = a->n_aligns;
	cfg.load = a->load;
	/* one default per input kind, and each model's --dim values */
	cfg.input_options = input_options;
	cfg.plan = a->plan;
	cfg.timer = a->timing ? &ab_google_benchmark : NULL;
	cfg.progress = on_progress;
	cfg.problem = on_problem;
	cfg.skipped = on_skipped;
	cfg.strict = a->strict;
	cfg.user = &pr;
	rc = ab_bench_run(&cfg, &rows, &err);
	if (rc) {
		fprintf(stderr, "arenabench: %s\n", err.msg);
		if (a->strict && rc != -ENOMEM)
			fprintf(stderr, "arenabench: bench --strict: stopped at the first input that cannot be planned\n");
		fprintf(stderr, "arenabench: nothing written; %s is unchanged\n", a->out);
		goto out;
	}
	if (rows.n_skipped == n_files && !a->allow_empty) {
		fprintf(stderr, "arenabench: bench: none of the %zu input%s could be planned (each named above); nothing written; %s is unchanged\n",
			n_files, n_files == 1 ? "" : "s", a->out);
		goto out;
	}
	if (ab_atomic_open(&csv, a->out, &err)) {
		fprintf(stderr, "arenabench: %s\n", err.msg);
		goto out;
	}
	ab_rows_write_csv(csv.f, &rows);
	if (csv.in_place) {
		/* stdout, a device or a FIFO: no file beside it for a .meta */
		if (ab_atomic_commit(&csv, &err)) {
			fprintf(stderr, "arenabench: %s\n", err.msg);
			goto out;
		}
	} else {
		/* the .meta names the CSV's sha256: a reader tells a matched
		 * pair from a torn one (docs/io.md) */
		if (fflush(csv.f) || ferror(csv.f)) {
			ab_atomic_abort(&csv);
			fprintf(stderr, "arenabench: %s: write error: %s; the previous files are kept\n",
				a->out, strerror(errno));
			goto out;
		}
		if (!mpath || ab_sha256_file(csv.tmp, hex, &err) ||
		    ab_atomic_open(&meta, mpath, &err)) {
			ab_atomic_abort(&csv);
			fprintf(stderr, "arenabench: %s\n", mpath ? err.msg : "out of memory");
			goto out;
		}
		ab_write_meta(meta.f, &ab_google_benchmark, argc, argv, cli_capture);
		ab_write_meta_skipped(meta.f, &rows);
		fprintf(meta.f, "rows=%zu\ncsv_sha256=%s\n", rows.n, hex);
		/* the CSV and its .meta are replaced together or not at all */
		if (ab_atomic_commit_pair(&csv, &meta, &err)) {
			fprintf(stderr, "arenabench: %s\n", err.msg);
			goto out;
		}
		wrote_meta = true;
	}
	if (!a->quiet) {
		print_summary(&rows);
		fprintf(stderr, "arenabench: wrote %zu rows to %s (%zu invalid)\n",
			rows.n, a->out, rows.invalid);
	}
	/* (each skip was named as it happened, --quiet or not; the list
	 * names the .meta, which a caller of --quiet may move, so it is
	 * left to the summary) */
	if (rows.n_skipped && !a->quiet) {
		fprintf(stderr, "arenabench: bench: %zu of %zu inputs skipped, the run went on without them (listed in %s):\n",
			rows.n_skipped, n_files, wrote_meta ? mpath : "this message only: no .meta beside stdout or a device");
		for (size_t i = 0; i < rows.n_skipped; i++)
			fprintf(stderr, "  %s: %s\n", rows.skipped[i].path, rows.skipped[i].why);
	}
	code = rows.invalid ? EXIT_INVALID : 0;
out:
	ab_out_lock_release(&lock);
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
