/*
 * `explain --plot`: the best plan drawn by plots/layout.gp.  The plan and
 * live curve go to a temporary directory; the command line starts gnuplot
 * (the runner it passes).  See explain.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/explain.h"
#include "report/explain_format.h"

static bool executable_in_path(const char *name, char *out, size_t len)
{
	const char *path = getenv("PATH");
	char *copy, *save = NULL, *dir;
	bool found = false;

	if (!path || !(copy = strdup(path)))
		return false;
	for (dir = strtok_r(copy, ":", &save); dir && !found;
	     dir = strtok_r(NULL, ":", &save)) {
		snprintf(out, len, "%s/%s", *dir ? dir : ".", name);
		found = access(out, X_OK) == 0;
	}
	free(copy);
	return found;
}

static bool readable(const char *p)
{
	return access(p, R_OK) == 0;
}

/* plots/layout.gp from the working directory, else beside the binary
 * (build/arenabench or build/tests/x -> ../plots, ../../plots). */
static bool find_layout(char *out, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n;

	snprintf(out, len, "plots/layout.gp");
	if (readable(out))
		return true;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return false;
	exe[n] = 0;
	for (int up = 1; up <= 3; up++) {
		char *slash = strrchr(exe, '/');

		if (!slash)
			return false;
		*slash = 0;
		if (strlen(exe) + 17 > len)
			return false;
		memcpy(out, exe, strlen(exe));
		strcpy(out + strlen(exe), "/plots/layout.gp");
		if (readable(out))
			return true;
	}
	return false;
}

/* Appends s to a gnuplot single-quoted string ('' is a quote). */
static void gp_quote(char *dst, size_t len, const char *s)
{
	size_t k = strlen(dst);

	if (k + 1 < len)
		dst[k++] = '\'';
	for (; *s && k + 3 < len; s++) {
		if (*s == '\'')
			dst[k++] = '\'';
		dst[k++] = *s;
	}
	if (k + 1 < len)
		dst[k++] = '\'';
	dst[k] = 0;
}

bool ab_explain_plot_name_ok(const char *path)
{
	const char *ext = strrchr(path, '.');

	return ext && (!strcmp(ext, ".svg") || !strcmp(ext, ".png") ||
		       !strcmp(ext, ".pdf"));
}

/* The steps drawn, both included: the window clipped to the schedule. */
static void plot_window(const struct ab_explanation *x,
			const struct ab_explain_args *a, int32_t *from,
			int32_t *to)
{
	int32_t last = x->in.problem.steps > 0 ? x->in.problem.steps - 1 : 0;

	*from = a->plot_window ? a->plot_from : 0;
	*to = a->plot_window && a->plot_to < last ? a->plot_to : last;
}

static bool plot_shows(const struct ab_explanation *x,
		       const struct ab_explain_args *a, size_t i, int32_t from,
		       int32_t to)
{
	const struct ab_buffer *b = &x->in.problem.buf[i];

	return b->size >= a->plot_min_bytes && b->last >= from && b->first <= to;
}

int ab_explain_plot_data(FILE *plan, FILE *live,
			 const struct ab_explanation *x,
			 const struct ab_explain_args *a, size_t *shown)
{
	const struct ab_problem *p = &x->in.problem;
	const struct ab_plan *pl = &x->best_plan;
	struct ab_live_profile lp;
	uint64_t lb = x->lower_bound_bytes;
	int32_t from, to;
	size_t k = 0;

	plot_window(x, a, &from, &to);
	*shown = 0;
	fprintf(plan, "id,lower,upper,size,offset,symbol%s\n",
		pl->n_arenas > 1 ? ",arena" : "");
	for (size_t i = 0; i < p->n; i++) {
		if (!plot_shows(x, a, i, from, to))
			continue;
		fprintf(plan, "%zu,%" PRId32 ",%" PRId32 ",%" PRIu64 ",%" PRIu64 ",%c",
			i, p->buf[i].first > from ? p->buf[i].first : from,
			(p->buf[i].last < to ? p->buf[i].last : to) + 1,
			p->buf[i].size, pl->offset[i], x->symbol[i]);
		if (pl->n_arenas > 1)
			fprintf(plan, ",%u", (unsigned)pl->arena[i]);
		fputc('\n', plan);
		++*shown;
	}
	if (ab_live_profile(p, &lp))
		return -ENOMEM;
	/* the bytes live at `from`, then every change up to the step after `to` */
	while (k < lp.n && lp.time[k] <= from)
		k++;
	fputs("step,live_bytes,lower_bound_bytes\n", live);
	fprintf(live, "%" PRId32 ",%" PRIu64 ",%" PRIu64 "\n", from,
		k ? lp.bytes[k - 1] : 0, lb);
	for (; k < lp.n && lp.time[k] <= (int64_t)to + 1; k++)
		fprintf(live, "%" PRId64 ",%" PRIu64 ",%" PRIu64 "\n", lp.time[k],
			lp.bytes[k], lb);
	ab_live_profile_free(&lp);
	return ferror(plan) || ferror(live) ? -EIO : 0;
}

/* The x axis in the runtime's step convention. */
static const char *axis_label(const struct ab_explanation *x)
{
	if (!x->in.has_graph)
		return "time (as the file gives it)";
	if (x->lifetimes == AB_LIFETIMES_TFLM)
		return "step (TFLite Micro: 0 = graph inputs, step s runs operator s-1)";
	return "step (operator index)";
}

/* Writes the plot data into dir/plan.csv and dir/live.csv. */
static int write_plot_files(const char *plan, const char *live,
			    const struct ab_explanation *x,
			    const struct ab_explain_args *a, size_t *shown,
			    struct ab_error *err)
{
	FILE *fp = fopen(plan, "w"), *fl = fopen(live, "w");
	int rc = fp && fl ? ab_explain_plot_data(fp, fl, x, a, shown) : -errno;

	if (fp && fclose(fp) && !rc)
		rc = -EIO;
	if (fl && fclose(fl) && !rc)
		rc = -EIO;
	if (rc)
		return ab_fail(err, rc, "--plot: cannot write the plot data in %s: %s",
			       plan, strerror(-rc));
	return 0;
}

int ab_explain_plot(const struct ab_explanation *x,
		    const struct ab_explain_args *a, ab_gnuplot_runner run,
		    struct ab_error *err)
{
	char gnuplot[PATH_MAX], script[PATH_MAX], dir[PATH_MAX];
	char plan[PATH_MAX + 16], live[PATH_MAX + 16], title[768], g[32], h[32];
	char *expr;
	const char *tmp = getenv("TMPDIR");
	size_t len, shown = 0, k;
	int32_t from, to;
	int rc;

	if (!ab_explain_plot_name_ok(a->plot))
		return ab_fail(err, -EINVAL, "--plot %s: expected a .svg, .png or .pdf file name",
			       a->plot);
	if (x->best < 0)
		return ab_fail(err, -EINVAL, "--plot: no valid plan to draw");
	if (a->plot_window && (a->plot_from > a->plot_to ||
			       a->plot_from >= x->in.problem.steps))
		return ab_fail(err, -EINVAL, "--plot-steps %" PRId32 ":%" PRId32 ": %s has steps 0 to %" PRId32,
			       a->plot_from, a->plot_to, x->in.path,
			       x->in.problem.steps - 1);
	if (!executable_in_path("gnuplot", gnuplot, sizeof(gnuplot)))
		return ab_fail(err, -ENOENT, "--plot: gnuplot is not installed or not on PATH (Debian: apt-get install gnuplot-nox)");
	if (a->layout_script)
		snprintf(script, sizeof(script), "%s", a->layout_script);
	else if (!find_layout(script, sizeof(script)))
		return ab_fail(err, -ENOENT, "--plot: plots/layout.gp not found (run from the repository root)");
	if (!readable(script))
		return ab_fail(err, -ENOENT, "--plot: %s: cannot read the layout script", script);
	snprintf(dir, sizeof(dir), "%s/arenabench-explain.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		return ab_fail(err, -errno, "--plot: cannot create a temporary directory in %s: %s",
			       tmp && *tmp ? tmp : "/tmp", strerror(errno));
	snprintf(plan, sizeof(plan), "%s/plan.csv", dir);
	snprintf(live, sizeof(live), "%s/live.csv", dir);
	rc = write_plot_files(plan, live, x, a, &shown, err);
	if (rc)
		goto out_clean;
	plot_window(x, a, &from, &to);
	if (!shown) {
		rc = ab_fail(err, -EINVAL, "--plot: nothing to draw: no buffer of at least %" PRIu64 " bytes is live in steps %" PRId32 " to %" PRId32,
			     a->plot_min_bytes, from, to);
		goto out_clean;
	}
	k = (size_t)snprintf(title, sizeof(title), "%s: %s, %u-byte alignment (%s)",
			     x->in.problem.name ? x->in.problem.name : x->in.path,
			     ab_explain_at(x, (size_t)x->best, 0)->planner->name, x->align,
			     x->runtime);
	if (shown < x->in.problem.n && k < sizeof(title))
		k += (size_t)snprintf(title + k, sizeof(title) - k, "; %zu of %s buffers%s%s",
				      shown, ab_explain_grouped(x->in.problem.n, g, sizeof(g)),
				      a->plot_min_bytes ? " >= " : "",
				      a->plot_min_bytes ? ab_explain_human(a->plot_min_bytes, h, sizeof(h)) : "");
	if (a->plot_window && k < sizeof(title))
		snprintf(title + k, sizeof(title) - k, "; steps %" PRId32 "-%" PRId32, from, to);
	len = 6 * (PATH_MAX + 800) + 64;
	expr = calloc(1, len);
	if (!expr) {
		rc = ab_fail(err, -ENOMEM, "out of memory");
		goto out_clean;
	}
	strcat(expr, "plan=");
	gp_quote(expr, len, plan);
	strcat(expr, "; live=");
	gp_quote(expr, len, live);
	strcat(expr, "; out=");
	gp_quote(expr, len, a->plot);
	strcat(expr, "; title=");
	gp_quote(expr, len, title);
	strcat(expr, "; planner=");
	gp_quote(expr, len, ab_explain_at(x, (size_t)x->best, 0)->planner->name);
	strcat(expr, "; axis_label=");
	gp_quote(expr, len, axis_label(x));
	snprintf(expr + strlen(expr), len - strlen(expr),
		 "; label_column='symbol'; peak_bytes=%" PRIu64 "; xfrom=%" PRId32 "; xto=%" PRId32,
		 x->best_plan.peak, from, to + 1);
	rc = run(gnuplot, expr, script);
	free(expr);
	if (rc)
		ab_fail(err, rc, "--plot: gnuplot %s failed (its messages are above); %s not written",
			script, a->plot);
	else if (!readable(a->plot))
		rc = ab_fail(err, -EIO, "--plot: gnuplot ran but %s was not written", a->plot);
out_clean:
	unlink(plan);
	unlink(live);
	rmdir(dir);
	return rc;
}
