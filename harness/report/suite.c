/* `arenabench suite`: planners over minimalloc CSV problems; see suite.h. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report/explain.h"
#include "report/suite.h"
#include "core/textio.h"
#include "import/expand.h"

/* Directories become their *.csv files (sorted, not recursive). */
static int expand(const struct ab_suite_args *a, char ***files, size_t *n,
		  struct ab_error *err)
{
	size_t empty = SIZE_MAX;
	int rc = ab_expand_inputs(a->paths, a->n_paths, AB_INPUT_CSV, true,
				  files, n, &empty, err);

	if (rc == -ENOENT && empty != SIZE_MAX)
		return ab_fail(err, rc, "%s: no .csv problems in this directory (expected minimalloc files NAME.CAPACITY.csv)",
			       a->paths[empty]);
	if (!rc && !*n) {
		ab_free_inputs(*files, *n);
		return ab_fail(err, -EINVAL, "suite: no inputs (expected a directory of minimalloc .csv problems)");
	}
	return rc;
}

static int run_problem(const struct ab_suite_args *a, struct ab_suite *s,
		       const char *path, struct ab_suite_problem *sp,
		       struct ab_error *err)
{
	struct ab_load_options load = { 0 };
	struct ab_plan_options o = a->plan;
	struct ab_input in;
	struct ab_plan plan;
	int rc;

	if (ab_input_kind(path) != AB_INPUT_CSV)
		return ab_fail(err, -EINVAL, "%s: not a minimalloc .csv problem", path);
	rc = ab_input_load(path, &load, &in, err);
	if (rc)
		return rc;
	o.align = s->align;
	sp->name = strdup(in.problem.name ? in.problem.name : path);
	sp->path = strdup(path);
	sp->buffers = in.problem.n;
	sp->capacity_bytes = in.problem.capacity;
	sp->lower_bound_bytes = ab_lower_bound(&in.problem, NULL);
	sp->peak_bytes = calloc(s->n_planners, sizeof(*sp->peak_bytes));
	sp->valid = calloc(s->n_planners, sizeof(*sp->valid));
	sp->error = calloc(s->n_planners, sizeof(*sp->error));
	rc = ab_plan_alloc(&plan, in.problem.n);
	if (rc || !sp->name || !sp->path || !sp->peak_bytes || !sp->valid ||
	    !sp->error) {
		if (!rc)
			ab_plan_free(&plan);
		ab_input_free(&in);
		return ab_fail(err, -ENOMEM, "%s: out of memory", path);
	}
	for (size_t k = 0; k < s->n_planners; k++) {
		struct ab_row row = { 0 };

		row.lower_bound_bytes = sp->lower_bound_bytes;
		ab_plan_and_check(&in, s->planners[k], &o, &plan, &row, NULL);
		sp->peak_bytes[k] = row.check.peak_bytes;
		sp->valid[k] = row.check.valid;
		sp->error[k] = row.check.message;
		s->invalid += !row.check.valid;
	}
	ab_plan_free(&plan);
	ab_input_free(&in);
	return 0;
}

int ab_suite_run(const struct ab_suite_args *a, struct ab_suite *s,
		 struct ab_error *err)
{
	char **files = NULL;
	size_t n_files = 0;
	int rc;

	memset(s, 0, sizeof(*s));
	s->align = a->plan.align > 1 ? a->plan.align : 1;
	rc = ab_pick_planners(a->planners, a->cost, &s->planners,
			      &s->n_planners, err);
	if (!rc)
		rc = expand(a, &files, &n_files, err);
	if (rc)
		goto out;
	s->problems = calloc(n_files, sizeof(*s->problems));
	if (!s->problems) {
		rc = ab_fail(err, -ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n_files && !rc; i++) {
		if (a->progress)
			a->progress(a->user, i, n_files, files[i]);
		s->n_problems++;
		rc = run_problem(a, s, files[i], &s->problems[i], err);
	}
out:
	ab_free_inputs(files, n_files);
	if (rc)
		ab_suite_free(s);
	return rc;
}

void ab_suite_free(struct ab_suite *s)
{
	for (size_t i = 0; s->problems && i < s->n_problems; i++) {
		struct ab_suite_problem *sp = &s->problems[i];

		for (size_t k = 0; sp->error && k < s->n_planners; k++)
			free(sp->error[k]);
		free(sp->error);
		free(sp->name);
		free(sp->path);
		free(sp->peak_bytes);
		free(sp->valid);
	}
	free(s->problems);
	free(s->planners);
	memset(s, 0, sizeof(*s));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int ab_suite_write_table(FILE *f, const struct ab_suite *s)
{
	double *r = malloc((s->n_problems + 1) * sizeof(*r));
	size_t name_w = 7;

	if (!r)
		return -ENOMEM;
	for (size_t i = 0; i < s->n_problems; i++)
		if (strlen(s->problems[i].name) > name_w)
			name_w = strlen(s->problems[i].name);
	fprintf(f, "minimalloc suite: %zu problems, %zu planners, alignment %u; peak bytes per planner\n",
		s->n_problems, s->n_planners, s->align);
	fprintf(f, "(* = above the capacity, ! = invalid plan, = = equals the lower bound)\n\n");
	fprintf(f, "%-*s %7s %10s %11s", (int)name_w, "problem", "buffers",
		"capacity", "lower_bound");
	for (size_t k = 0; k < s->n_planners; k++)
		fprintf(f, " %*s", (int)(strlen(s->planners[k]->name) > 10 ? strlen(s->planners[k]->name) : 10),
			s->planners[k]->name);
	fputc('\n', f);
	for (size_t i = 0; i < s->n_problems; i++) {
		const struct ab_suite_problem *sp = &s->problems[i];

		fprintf(f, "%-*s %7zu %10" PRIu64 " %11" PRIu64, (int)name_w,
			sp->name, sp->buffers, sp->capacity_bytes,
			sp->lower_bound_bytes);
		for (size_t k = 0; k < s->n_planners; k++) {
			size_t w = strlen(s->planners[k]->name);
			char cell[40];

			if (w < 10)
				w = 10;
			if (!sp->valid[k])
				snprintf(cell, sizeof(cell), "!%" PRIu64, sp->peak_bytes[k]);
			else
				snprintf(cell, sizeof(cell), "%" PRIu64 "%s", sp->peak_bytes[k],
					 sp->capacity_bytes && sp->peak_bytes[k] > sp->capacity_bytes ? "*"
					 : sp->peak_bytes[k] == sp->lower_bound_bytes ? "=" : " ");
			fprintf(f, " %*s", (int)w, cell);
		}
		fputc('\n', f);
	}
	fprintf(f, "\n%-22s %9s %9s %11s %11s %8s\n", "planner", "valid",
		"fits_cap", "at_bound", "median_x_lb", "max_x_lb");
	for (size_t k = 0; k < s->n_planners; k++) {
		size_t valid = 0, fits = 0, at = 0, m = 0;

		for (size_t i = 0; i < s->n_problems; i++) {
			const struct ab_suite_problem *sp = &s->problems[i];

			if (!sp->valid[k])
				continue;
			valid++;
			fits += !sp->capacity_bytes || sp->peak_bytes[k] <= sp->capacity_bytes;
			at += sp->peak_bytes[k] == sp->lower_bound_bytes;
			if (sp->lower_bound_bytes)
				r[m++] = (double)sp->peak_bytes[k] / (double)sp->lower_bound_bytes;
		}
		qsort(r, m, sizeof(*r), cmp_double);
		fprintf(f, "%-22s %5zu/%-3zu %5zu/%-3zu %7zu/%-3zu ", s->planners[k]->name,
			valid, s->n_problems, fits, s->n_problems, at, s->n_problems);
		if (m)
			fprintf(f, "%11.4f %8.4f\n",
				m % 2 ? r[m / 2] : (r[m / 2 - 1] + r[m / 2]) / 2,
				r[m - 1]);
		else
			fprintf(f, "%11s %8s\n", "-", "-");
	}
	free(r);
	return ferror(f) ? -EIO : 0;
}

int ab_suite_write_csv(FILE *f, const struct ab_suite *s)
{
	fputs("problem,buffers,capacity_bytes,lower_bound_bytes,planner,align,valid,peak_bytes\n", f);
	for (size_t i = 0; i < s->n_problems; i++) {
		const struct ab_suite_problem *sp = &s->problems[i];

		for (size_t k = 0; k < s->n_planners; k++) {
			for (const char *c = sp->name; *c; c++)
				fputc(*c == ',' || *c == '"' ? '_' : *c, f);
			fprintf(f, ",%zu,%" PRIu64 ",%" PRIu64 ",%s,%u,%s,%" PRIu64 "\n",
				sp->buffers, sp->capacity_bytes,
				sp->lower_bound_bytes, s->planners[k]->name,
				s->align, sp->valid[k] ? "yes" : "no",
				sp->peak_bytes[k]);
		}
	}
	return ferror(f) ? -EIO : 0;
}
