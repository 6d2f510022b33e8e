/*
 * `explain --plot`: the best plan drawn by plots/layout.gp.  The plan and
 * live curve go to a temporary directory; the command line starts gnuplot
 * (the runner it passes).  See explain.h.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/explain.h"
#include "report/explain_format.h"
#include "report/plan_files.h"

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

int ab_explain_plot(const struct ab_explanation *x,
		    const struct ab_explain_args *a, ab_gnuplot_runner run,
		    struct ab_error *err)
{
	char gnuplot[PATH_MAX], script[PATH_MAX], dir[PATH_MAX];
	char plan[PATH_MAX + 16], live[PATH_MAX + 16], title[512];
	char *expr;
	const char *tmp = getenv("TMPDIR");
	size_t len;
	int rc;

	if (!ab_explain_plot_name_ok(a->plot))
		return ab_fail(err, -EINVAL, "--plot %s: expected a .svg, .png or .pdf file name",
			       a->plot);
	if (x->best < 0)
		return ab_fail(err, -EINVAL, "--plot: no valid plan to draw");
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
	rc = ab_write_plan_file(plan, &x->in.problem, &x->best_plan, err);
	if (!rc)
		rc = ab_write_live_file(live, &x->in.problem, err);
	if (rc)
		goto out_clean;
	snprintf(title, sizeof(title), "%s: %s, %u-byte alignment (%s conventions)",
		 x->in.problem.name ? x->in.problem.name : x->in.path,
		 ab_explain_at(x, (size_t)x->best, 0)->planner->name, x->align,
		 x->runtime);
	len = 5 * (PATH_MAX + 600) + 64;
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

