/*
 * `arenabench explain MODEL`: the analysis (report/explain.h) written as
 * text or JSON on stdout, invalid plans named on stderr, and with --plot
 * the best plan drawn by gnuplot (started here: cli_run_gnuplot).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "report/explain.h"

int cli_run_gnuplot(const char *gnuplot, const char *expr, const char *script)
{
	pid_t pid;
	int status;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		execl(gnuplot, "gnuplot", "-e", expr, script, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -EIO;
}

int cmd_explain(struct args *a)
{
	struct ab_explain_args e = { 0 };
	struct ab_error err = { { 0 } };
	struct ab_explanation x;
	char *by_cost = NULL;
	int code = 0;

	if (a->n_pos != 1 || a->n_aligns != 1) {
		fprintf(stderr, "arenabench: explain: expected one MODEL (.tflite, .onnx, .graph or .csv) and at most one --align value\n");
		return EXIT_USAGE;
	}
	e.path = a->pos[0];
	/* one default per input kind (an exported model: TFLite Micro's) */
	if (cli_input_options(a, e.path, &a->load, a->aligns, &a->n_aligns, &e.runtime,
			      &e.runtime_reason, &err)) {
		fprintf(stderr, "arenabench: %s\n", err.msg);
		return EXIT_USAGE;
	}
	e.load = a->load;
	e.plan = a->plan;
	e.tiers = a->plan.combinator ? &a->tiers : NULL;
	e.plan.align = a->aligns[0];
	e.align_given = a->align_given;
	e.lifetimes_given = a->lifetimes_given;
	e.round_given = a->round_given;
	by_cost = cli_planners_by_cost(a);
	e.planners = by_cost ? by_cost : a->planners;
	e.cost = a->cost;
	e.json = a->json;
	e.plot = a->plot;
	e.buffers = a->buffers;
	e.plot_min_bytes = a->plot_min_bytes;
	e.plot_window = a->plot_window;
	e.plot_from = a->plot_from;
	e.plot_to = a->plot_to;
	if (!e.plot && (a->plot_window || a->plot_min_bytes)) {
		fprintf(stderr, "arenabench: explain: --plot-steps and --plot-min-bytes apply to --plot FILE\n");
		return EXIT_USAGE;
	}
	if (e.plot && !ab_explain_plot_name_ok(e.plot)) {
		fprintf(stderr, "arenabench: --plot %s: expected a .svg, .png or .pdf file name\n",
			e.plot);
		free(by_cost);
		return EXIT_USAGE;
	}
	if (ab_explain(&e, &x, &err)) {
		fprintf(stderr, "arenabench: %s\n", err.msg);
		free(by_cost);
		return EXIT_USAGE;
	}
	if (e.json)
		ab_explain_write_json(stdout, &x);
	else
		ab_explain_write_text(stdout, &x, &e);
	fflush(stdout);
	for (size_t k = 0; k < x.n_planners * x.n_aligns; k++)
		if (!x.results[k].row.check.valid)
			fprintf(stderr, "arenabench: INVALID PLAN: %s at align %u: %s\n",
				x.results[k].planner->name, x.results[k].align,
				x.results[k].row.check.message ? x.results[k].row.check.message : "?");
	if (x.invalid)
		code = EXIT_INVALID;
	if (e.plot) {
		if (ab_explain_plot(&x, &e, cli_run_gnuplot, &err)) {
			fprintf(stderr, "arenabench: %s\n", err.msg);
			code = EXIT_USAGE;
		} else if (!e.json) {
			printf("\nplot: %s (plots/layout.gp)\n", e.plot);
		}
	}
	ab_explanation_free(&x);
	free(by_cost);
	return code;
}
