/* The per-planner summary of bench rows (see summary.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/summary.h"

int ab_summary_write(FILE *f, const struct ab_summary_row *row, size_t n)
{
	const char **seen = malloc((n + 1) * sizeof(*seen));
	size_t n_seen = 0;

	if (!seen)
		return -ENOMEM;
	fprintf(f, "summary (%zu rows; x_bound = peak / lower bound, geometric mean over valid rows):\n", n);
	fprintf(f, "  %-22s %8s %9s %8s  %s\n", "planner", "x_bound", "at_bound",
		"invalid", "worst (x_bound, graph, align)");
	for (size_t i = 0; i < n; i++) {
		const char *name = row[i].planner;
		double log_sum = 0, worst = 0;
		size_t k, used = 0, at = 0, invalid = 0, rows_of = 0;
		const struct ab_summary_row *w = NULL;

		for (k = 0; k < n_seen && strcmp(seen[k], name); k++)
			;
		if (k < n_seen)
			continue;
		seen[n_seen++] = name;
		for (size_t j = i; j < n; j++) {
			const struct ab_summary_row *r = &row[j];
			double x;

			if (strcmp(r->planner, name))
				continue;
			rows_of++;
			if (!r->valid) {
				invalid++;
				continue;
			}
			if (!r->lower_bound_bytes)
				continue;
			x = (double)r->peak_bytes / (double)r->lower_bound_bytes;
			log_sum += log(x);
			used++;
			at += r->peak_bytes == r->lower_bound_bytes;
			if (!w || x > worst) {
				worst = x;
				w = r;
			}
		}
		fprintf(f, "  %-22s %8.4f %4zu/%-4zu %8zu", name,
			used ? exp(log_sum / (double)used) : 0.0, at, rows_of, invalid);
		if (w)
			fprintf(f, "  %.4f %s align %u", worst, w->graph, w->align);
		fputc('\n', f);
	}
	free(seen);
	return ferror(f) ? -EIO : 0;
}

int ab_summary_of_table(const struct ab_cmp_table *t, struct ab_summary_row **out,
			struct ab_error *err)
{
	struct ab_summary_row *v;

	if (!t->has_lower_bound)
		return ab_fail(err, -EINVAL, "%s:1: no column 'lower_bound_bytes' (expected a bench CSV, docs/results-csv.md)",
			       t->path);
	v = malloc((t->n + 1) * sizeof(*v));
	if (!v)
		return ab_fail(err, -ENOMEM, "out of memory");
	for (size_t i = 0; i < t->n; i++)
		v[i] = (struct ab_summary_row){ t->row[i].planner, t->row[i].graph, t->row[i].align,
						t->row[i].valid, t->row[i].peak, t->row[i].lower_bound };
	*out = v;
	return 0;
}
