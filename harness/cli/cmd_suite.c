/*
 * `arenabench suite DIR...`: report/suite.h's run, its table on stdout,
 * invalid plans named on stderr, and with --out the CSV, atomically.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cli/cli.h"
#include "core/textio.h"
#include "report/suite.h"

struct suite_progress {
	time_t start;
};

static void on_problem(void *user, size_t i, size_t n, const char *path)
{
	struct suite_progress *p = user;

	fprintf(stderr, "[%zu/%zu %lds] %s\n", i + 1, n,
		(long)(time(NULL) - p->start), path);
}

int cmd_suite(struct args *a)
{
	struct ab_suite_args sa = { 0 };
	struct suite_progress pr = { time(NULL) };
	struct ab_error err = { { 0 } };
	struct ab_atomic_file af;
	struct ab_suite s;
	char *by_cost = NULL;
	int code = 0;

	if (a->n_aligns != 1) {
		fprintf(stderr, "arenabench: suite: --align takes one value\n");
		return EXIT_USAGE;
	}
	sa.paths = (const char *const *)a->pos;
	sa.n_paths = a->n_pos;
	by_cost = cli_planners_by_cost(a);
	sa.planners = by_cost ? by_cost : a->planners;
	sa.cost = a->cost;
	sa.plan = a->plan;
	sa.plan.align = a->aligns[0];
	sa.out = a->out_given ? a->out : NULL;
	sa.progress = a->quiet ? NULL : on_problem;
	sa.user = &pr;
	if (ab_suite_run(&sa, &s, &err)) {
		fprintf(stderr, "arenabench: %s\n", err.msg);
		if (sa.out)
			fprintf(stderr, "arenabench: nothing written; %s is unchanged\n", sa.out);
		free(by_cost);
		return EXIT_USAGE;
	}
	ab_suite_write_table(stdout, &s);
	for (size_t i = 0; i < s.n_problems; i++)
		for (size_t k = 0; k < s.n_planners; k++)
			if (!s.problems[i].valid[k])
				fprintf(stderr, "arenabench: INVALID PLAN: %s, %s: %s\n",
					s.problems[i].path, s.planners[k]->name,
					s.problems[i].error[k] ? s.problems[i].error[k] : "?");
	if (s.invalid)
		code = EXIT_INVALID;
	if (sa.out) {
		if (ab_atomic_open(&af, sa.out, &err)) {
			fprintf(stderr, "arenabench: %s\n", err.msg);
			code = EXIT_USAGE;
		} else {
			ab_suite_write_csv(af.f, &s);
			if (ab_atomic_commit(&af, &err)) {
				fprintf(stderr, "arenabench: %s\n", err.msg);
				code = EXIT_USAGE;
			} else if (!a->quiet) {
				fprintf(stderr, "arenabench: wrote %zu rows to %s\n",
					s.n_problems * s.n_planners, sa.out);
			}
		}
	}
	ab_suite_free(&s);
	free(by_cost);
	return code;
}
