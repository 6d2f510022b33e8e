/*
 * What a command runs, from its parsed options (cli/options.c): the
 * planners of --planners, --cost and --planners-dir (Python strategies
 * among them), the graph and search options in the CSV's words, and the
 * input files (folders expanded).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "import/expand.h"
#include "report/explain.h"

/* ----------------------------------------------- planners and inputs */

/* The registry's planners of --planners (or --cost), then the Python ones:
 * the list's py:FILE entries and --planners-dir's files. */
int cli_planners(const struct args *a, const struct ab_planner ***out,
		 size_t *n)
{
	struct ab_error err = { { 0 } };
	char *c_list = NULL, *py_list = NULL, *save = NULL;
	bool only_py = false;
	int rc;

	if (a->planners) {
		size_t len = strlen(a->planners) + 1;

		c_list = calloc(1, len);
		py_list = calloc(1, len);
		if (!c_list || !py_list) {
			free(c_list);
			free(py_list);
			fprintf(stderr, "arenabench: out of memory\n");
			return -ENOMEM;
		}
		for (const char *s = a->planners; *s;) {
			size_t k = strcspn(s, ",");
			char *to = strncmp(s, "py:", 3) ? c_list : py_list;

			if (*to)
				strcat(to, ",");
			strncat(to, s, k);
			s += k + (s[k] == ',');
		}
		only_py = !*c_list && *py_list;
	}
	if (only_py) {
		*out = NULL;
		*n = 0;
		rc = 0;
	} else {
		rc = ab_pick_planners(c_list, a->cost, out, n, &err);
		if (rc)
			fprintf(stderr, "arenabench: %s\n", err.msg);
	}
	for (char *f = py_list ? strtok_r(py_list, ",", &save) : NULL; !rc && f;
	     f = strtok_r(NULL, ",", &save))
		rc = cli_add_python_planner(f + 3, out, n);
	free(c_list);
	free(py_list);
	if (!rc && a->planners_dir)
		rc = cli_python_planners_dir(a->planners_dir, out, n);
	if (rc) {
		free(*out);
		*out = NULL;
		*n = 0;
	}
	return rc;
}

char *cli_planners_by_cost(const struct args *a)
{
	bool all = a->cost && !strcmp(a->cost, "all");
	char *list = NULL;
	size_t len = 0;

	if (a->planners || !a->cost || (!all && strcmp(a->cost, "budgeted")))
		return NULL;
	for (size_t i = 0; i < ab_planner_count(); i++) {
		const struct ab_planner *pl = ab_planner_at(i);
		size_t k = strlen(pl->name);
		char *grown;

		if (pl->cost == AB_COST_FIXED ||
		    (!all && pl->cost != AB_COST_BUDGETED))
			continue;
		grown = realloc(list, len + k + 2);
		if (!grown) {
			free(list);
			return NULL;
		}
		list = grown;
		if (len)
			list[len++] = ',';
		memcpy(list + len, pl->name, k + 1);
		len += k;
	}
	return list;
}

int cli_graph_options(const struct args *a, char *names, size_t len)
{
	const struct { bool given; const char *name; } opt[] = {
		{ a->lifetimes_given, "--lifetimes" },
		{ a->round_given, "--round" },
		{ a->load.problem.exclude_scratch, "--no-scratch" },
		{ a->load.problem.inplace, "--inplace" },
		{ a->load.reorder.method != AB_REORDER_NONE, "--reorder" },
	};
	size_t k = 0;
	int n = 0;

	names[0] = 0;
	for (size_t i = 0; i < sizeof(opt) / sizeof(opt[0]); i++)
		if (opt[i].given && k < len)
			k += (size_t)snprintf(names + k, len - k, "%s%s",
					      n++ ? ", " : "", opt[i].name);
	return n;
}

int cli_search_options(const struct args *a,
		       const struct ab_planner *const *planners, size_t n)
{
	const struct { bool given; const char *name; } opt[] = {
		{ a->plan.seed != 1, "--seed" },
		{ a->plan.budget != 0, "--budget" },
		{ a->plan.safety_seconds != 0, "--safety-seconds" },
	};
	char names[64] = "", budgeted[128] = "";
	size_t k = 0, b = 0, fast = 0;
	int given = 0;

	for (size_t i = 0; i < sizeof(opt) / sizeof(opt[0]); i++)
		if (opt[i].given)
			k += (size_t)snprintf(names + k, sizeof(names) - k, "%s%s",
					      given++ ? ", " : "", opt[i].name);
	if (!given)
		return 0;
	for (size_t i = 0; i < ab_planner_count(); i++)
		if (ab_planner_at(i)->cost == AB_COST_BUDGETED && b < sizeof(budgeted))
			b += (size_t)snprintf(budgeted + b, sizeof(budgeted) - b, "%s%s",
					      b ? ", " : "", ab_planner_at(i)->name);
	for (size_t i = 0; i < n; i++)
		fast += planners[i]->cost != AB_COST_BUDGETED;
	if (fast == n) {
		fprintf(stderr, "arenabench: %s %s to budgeted planners (%s), and %s%s (nothing done)\n",
			names, given > 1 ? "apply" : "applies", budgeted,
			n == 1 ? planners[0]->name : "none of the planners is one",
			n == 1 ? " is not one" : "");
		return -EINVAL;
	}
	if (fast)
		fprintf(stderr, "arenabench: warning: %s %s no effect on the %zu planner%s of %zu that %s not budgeted\n",
			names, given > 1 ? "have" : "has", fast, fast == 1 ? "" : "s", n,
			fast == 1 ? "is" : "are");
	return 0;
}

int cli_inputs(const struct args *a, char ***files, size_t *n)
{
	struct ab_error err = { { 0 } };
	char names[128];
	size_t csv = 0;
	int rc = ab_expand_inputs((const char *const *)a->pos, a->n_pos,
				  AB_INPUT_ANY, false, files, n, NULL, &err);

	if (rc) {
		fprintf(stderr, "arenabench: %s\n", err.msg);
		return rc;
	}
	/* an option that some inputs cannot take: a warning, and their rows
	 * record what took effect (ab_load_in_effect) */
	for (size_t i = 0; i < *n; i++) {
		size_t len = strlen((*files)[i]);

		csv += len >= 4 && !strcmp((*files)[i] + len - 4, ".csv");
	}
	if (csv && csv == *n && cli_graph_options(a, names, sizeof(names))) {
		fprintf(stderr, "arenabench: %s %s to operator graphs (.graph, .tflite, .onnx), and every input is a minimalloc CSV: a CSV gives its lifetimes and sizes as they are (nothing done)\n",
			names, strchr(names, ',') ? "apply" : "applies");
		ab_free_inputs(*files, *n);
		*files = NULL;
		*n = 0;
		return -EINVAL;
	}
	if (csv && cli_graph_options(a, names, sizeof(names)))
		fprintf(stderr, "arenabench: warning: %s %s no effect on the %zu minimalloc CSV input%s of %zu (no operators: lifetimes and sizes are as given); their rows record what took effect\n",
			names, strchr(names, ',') ? "have" : "has", csv,
			csv == 1 ? "" : "s", *n);
	return 0;
}
