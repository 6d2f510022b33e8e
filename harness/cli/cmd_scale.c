/*
 * `arenabench scale FILE --planner P [--align A] [--budget-seconds S]
 * [--subgraph N] [--dim NAME=VALUE...] [--dims-file F] [--header] [--benchmark_*...]`: bench/scale.h's one measurement as a
 * CSV row on stdout.  Exit 0 when measured (status ok, timed_out or
 * invalid is in the row), 2 bad usage or input.  A first plan still
 * running at S seconds (wall) is stopped there: an interval timer's
 * SIGALRM writes the row prepared before the plan (status timed_out, no
 * times or peak: ab_scale_format_stopped_row) and exits 0, so a planner
 * over its budget costs the budget, not its whole run.
 * `arenabench scale --write-meta PATH [WORDS...]` writes the metadata
 * sidecar (ab_write_meta: git revision, compiler, CPU, date, the command
 * given as WORDS) to PATH, atomically.
 * `arenabench scale --sort-reference N`: the yardstick the scaling study
 * divides by, ab_scale_sort_reference's best time of a radix sort of N
 * keys, as `sort_reference_ns=T` on stdout, then the best thread CPU time
 * of the same sorts as `sort_reference_cpu_ns=C`.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "report/explain.h"
#include "cli/timing.h"
#include "bench/scale.h"
#include "core/textio.h"

static int sort_reference(int argc, char **argv)
{
	char *end;
	unsigned long long n;
	double ns, cpu_ns;
	int rc;

	n = argc == 4 ? strtoull(argv[3], &end, 10) : 0;
	if (argc != 4 || *end || !n || n > UINT32_MAX) {
		fprintf(stderr, "usage: arenabench scale --sort-reference N (keys, 1 to 4294967295)\n");
		return EXIT_USAGE;
	}
	rc = ab_scale_sort_reference((size_t)n, 7, &ns, &cpu_ns);
	if (rc) {
		fprintf(stderr, "arenabench: sort reference of %llu keys: %s\n", n, strerror(-rc));
		return EXIT_USAGE;
	}
	printf("sort_reference_ns=%.0f\nsort_reference_cpu_ns=%.0f\n", ns, cpu_ns);
	return fflush(stdout) ? EXIT_USAGE : 0;
}

static int write_meta(int argc, char **argv)
{
	struct ab_error err = { { 0 } };
	struct ab_atomic_file f;

	if (argc < 4) {
		fprintf(stderr, "usage: arenabench scale --write-meta PATH [WORDS...]\n");
		return EXIT_USAGE;
	}

	if (ab_atomic_open(&f, argv[3], &err)) {
		fprintf(stderr, "arenabench: %s\n", err.msg);
		return EXIT_USAGE;
	}
	if (ab_write_meta(f.f, &ab_google_benchmark, argc - 4, argv + 4,
			  cli_capture)) {
		ab_atomic_abort(&f);
		fprintf(stderr, "arenabench: %s: write error\n", argv[3]);
		return EXIT_USAGE;
	}
	if (ab_atomic_commit(&f, &err)) {
		fprintf(stderr, "arenabench: %s\n", err.msg);
		return EXIT_USAGE;
	}
	return 0;
}

/* The budget's stop: the row is formatted before the first plan, so the
 * handler only writes it (async-signal-safe) and leaves. */
static char stopped_row[4096];
static int stopped_len;

static void on_budget(int sig)
{
	ssize_t w = write(STDOUT_FILENO, stopped_row, (size_t)stopped_len);

	(void)sig;
	_exit(w == stopped_len ? 0 : EXIT_USAGE);
}

static void watch_first_plan(void *user, const struct ab_scale_result *r,
			     bool starting)
{
	const struct args *a = user;
	struct itimerval it = { { 0, 0 }, { 0, 0 } };

	if (starting) {
		stopped_len = ab_scale_format_stopped_row(stopped_row, sizeof(stopped_row),
							  r, a->header);
		if (stopped_len < 0) /* a name too long: no stop, as before */
			return;
		it.it_value.tv_sec = (time_t)a->budget_seconds;
		it.it_value.tv_usec = (suseconds_t)((a->budget_seconds - (double)it.it_value.tv_sec) * 1e6);
		if (!it.it_value.tv_sec && !it.it_value.tv_usec)
			it.it_value.tv_usec = 1;
		signal(SIGALRM, on_budget);
	}
	setitimer(ITIMER_REAL, &it, NULL); /* starting: armed; else disarmed */
}

int cmd_scale(struct args *a, int argc, char **argv)
{
	struct ab_error err = { { 0 } };
	struct ab_scale_result r;
	struct ab_tflite_options tflite;
	const struct ab_planner *pl;

	if (!a)
		return strcmp(argv[2], "--write-meta") ? sort_reference(argc, argv)
						       : write_meta(argc, argv);
	if (a->n_pos != 1 || !a->planners || a->n_aligns != 1) {
		fprintf(stderr, "usage: arenabench scale FILE --planner P [--align A] [--budget-seconds S] [--subgraph N] [--dim NAME=VALUE...] [--header] [--benchmark_*]\n"
				"       arenabench scale --sort-reference N | --write-meta PATH [WORDS...]\n");
		return EXIT_USAGE;
	}
	pl = ab_planner_find(a->planners);
	if (!pl) {
		struct ab_error e = { { 0 } };

		ab_unknown_planner(a->planners, &e);
		fprintf(stderr, "arenabench: %s\n", e.msg);
		return EXIT_USAGE;
	}
	tflite = a->load.tflite;
	if (a->dims_file.n &&
	    ab_dims_for_input(&a->dims_file, a->pos[0], &a->load.tflite, &tflite, &err)) {
		fprintf(stderr, "arenabench: %s\n", err.msg);
		return EXIT_USAGE;
	}
	if (ab_scale_measure(a->pos[0], pl, &tflite, a->aligns[0], a->budget_seconds,
			     &ab_google_benchmark, watch_first_plan, a, &r, &err)) {
		fprintf(stderr, "arenabench: %s\n", err.msg);
		return EXIT_USAGE;
	}
	ab_scale_write_row(stdout, &r, a->header);
	if (fflush(stdout))
		return EXIT_USAGE;
	if (r.why[0]) /* the row says invalid; this says why */
		fprintf(stderr, "arenabench: scale: %s: %s: invalid plan: %s\n",
			a->pos[0], pl->name, r.why);
	return 0;
}
