/*
 * Comparing two bench CSVs, or two planners in one (see compare.h).
 *
 * Matching: a key of the row's identity columns joined by a byte that no
 * CSV field holds (fields never hold commas: bench.c), looked up in a
 * string map; a key seen twice in one file is an error (the comparison
 * would be ambiguous).  Statistics: wins, losses and ties on peak_bytes;
 * the geometric mean of B/A and its range, per planner and per family;
 * timing ratios as a geometric mean over the pairs timed on both sides.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/strmap.h"
#include "core/textio.h"
#include "report/compare.h"

enum { C_SCHEMA, C_GRAPH, C_FAMILY, C_PLANNER, C_ALIGN, C_OPTIONS, C_VALID,
       C_PEAK, C_PLAN_NS, C_N };
static const char *const col_name[C_N] = {
	"schema_version", "graph", "family", "planner", "align", "options",
	"valid", "peak_bytes", "plan_ns",
};

static int split(char *line, char **f, int max)
{
	int n = 0;

	for (char *p = line;; n++) {
		char *c = strchr(p, ',');

		if (n < max)
			f[n] = p;
		if (!c)
			return n + 1;
		*c = 0;
		p = c + 1;
	}
}

void ab_cmp_table_free(struct ab_cmp_table *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->row[i].graph);
		free(t->row[i].family);
		free(t->row[i].planner);
		free(t->row[i].options);
	}
	free(t->row);
	free(t->path);
	free(t->schema);
	memset(t, 0, sizeof(*t));
}

int ab_cmp_load(const char *path, struct ab_cmp_table *t, struct ab_error *err)
{
	struct ab_line_reader lr;
	char *text, *line, *f[128];
	size_t len, cap = 0;
	int at[C_N], nh, rc;

	memset(t, 0, sizeof(*t));
	rc = ab_read_file(path, &text, &len, err);
	if (rc)
		return rc;
	ab_line_reader_init(&lr, text, len);
	rc = ab_line_reader_next(&lr, &line);
	if (rc <= 0) {
		rc = ab_fail(err, -EINVAL, "%s: empty or unreadable first line (expected a bench CSV header starting with schema_version)", path);
		goto out;
	}
	nh = split(line, f, 128);
	if (nh > 128) {
		rc = ab_fail(err, -EINVAL, "%s:1: %d columns (not a bench CSV)", path, nh);
		goto out;
	}
	for (int c = 0; c < C_N; c++) {
		at[c] = -1;
		for (int i = 0; i < nh; i++)
			if (!strcmp(f[i], col_name[c]))
				at[c] = i;
		if (at[c] < 0 && c != C_PLAN_NS) {
			rc = ab_fail(err, -EINVAL, "%s:1: no column '%s' (expected a bench CSV, docs/results-csv.md)",
				     path, col_name[c]);
			goto out;
		}
	}
	t->path = strdup(path);
	while ((rc = ab_line_reader_next(&lr, &line)) > 0) {
		struct ab_cmp_row *r;
		char *end;
		int nf;

		if (!*line)
			continue;
		nf = split(line, f, 128);
		if (nf != nh) {
			rc = ab_fail(err, -EINVAL, "%s:%d: %d fields, the header has %d", path, lr.line, nf, nh);
			goto out;
		}
		if (!t->schema)
			t->schema = strdup(f[at[C_SCHEMA]]);
		else if (strcmp(t->schema, f[at[C_SCHEMA]])) {
			rc = ab_fail(err, -EINVAL, "%s:%d: schema_version %s after %s (one file, one schema)",
				     path, lr.line, f[at[C_SCHEMA]], t->schema);
			goto out;
		}
		if (t->n == cap) {
			void *p = realloc(t->row, (cap = cap ? cap * 2 : 256) * sizeof(*t->row));

			if (!p) {
				rc = ab_fail(err, -ENOMEM, "%s: out of memory", path);
				goto out;
			}
			t->row = p;
		}
		r = &t->row[t->n];
		memset(r, 0, sizeof(*r));
		r->align = (uint32_t)strtoul(f[at[C_ALIGN]], &end, 10);
		if (*end || !*f[at[C_ALIGN]]) {
			rc = ab_fail(err, -EINVAL, "%s:%d: align '%s' is not a number", path, lr.line, f[at[C_ALIGN]]);
			goto out;
		}
		r->valid = !strcmp(f[at[C_VALID]], "yes");
		r->peak = strtoull(f[at[C_PEAK]], &end, 10);
		if (r->valid && (*end || !*f[at[C_PEAK]])) {
			rc = ab_fail(err, -EINVAL, "%s:%d: peak_bytes '%s' is not a number", path, lr.line, f[at[C_PEAK]]);
			goto out;
		}
		r->plan_ns = -1;
		if (at[C_PLAN_NS] >= 0 && *f[at[C_PLAN_NS]])
			r->plan_ns = strtod(f[at[C_PLAN_NS]], NULL);
		r->graph = strdup(f[at[C_GRAPH]]);
		r->family = strdup(f[at[C_FAMILY]]);
		r->planner = strdup(f[at[C_PLANNER]]);
		r->options = strdup(f[at[C_OPTIONS]]);
		t->n++;
		if (!r->graph || !r->family || !r->planner || !r->options) {
			rc = ab_fail(err, -ENOMEM, "%s: out of memory", path);
			goto out;
		}
	}
	if (rc < 0) {
		rc = ab_fail(err, -EINVAL, "%s:%d: a line with a NUL byte or over 1 MiB (not a bench CSV)", path, lr.line);
		goto out;
	}
	rc = 0;
	if (!t->n)
		rc = ab_fail(err, -EINVAL, "%s: no rows after the header", path);
out:
	ab_line_reader_free(&lr);
	free(text);
	if (rc)
		ab_cmp_table_free(t);
	return rc;
}

/* graph \x1f planner \x1f align \x1f options (planner left out when two
 * planners of one file are compared). */
static char *key_of(const struct ab_cmp_row *r, bool with_planner)
{
	size_t n = strlen(r->graph) + strlen(r->planner) + strlen(r->options) + 32;
	char *k = malloc(n);

	if (k)
		snprintf(k, n, "%s\x1f%s\x1f%" PRIu32 "\x1f%s", r->graph,
			 with_planner ? r->planner : "", r->align, r->options);
	return k;
}

static struct ab_cmp_group *group(struct ab_cmp_group **g, size_t *n, const char *name)
{
	struct ab_cmp_group *p;

	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*g)[i].name, name))
			return &(*g)[i];
	p = realloc(*g, (*n + 1) * sizeof(**g));
	if (!p)
		return NULL;
	*g = p;
	p = &(*g)[(*n)++];
	memset(p, 0, sizeof(*p));
	p->name = strdup(name);
	p->min_ratio = INFINITY;
	return p->name ? p : NULL;
}

static void count(struct ab_cmp_group *g, const struct ab_cmp_row *a,
		  const struct ab_cmp_row *b, double ratio)
{
	g->wins += b->peak < a->peak;
	g->losses += b->peak > a->peak;
	g->ties += b->peak == a->peak;
	g->n++;
	g->log_sum += log(ratio);
	if (ratio < g->min_ratio)
		g->min_ratio = ratio;
	if (ratio > g->max_ratio)
		g->max_ratio = ratio;
	if (a->plan_ns > 0 && b->plan_ns > 0) {
		g->time_log_sum += log(b->plan_ns / a->plan_ns);
		g->n_timed++;
	}
}

void ab_cmp_result_free(struct ab_cmp_result *r)
{
	for (size_t i = 0; i < r->n_planners; i++)
		free(r->by_planner[i].name);
	for (size_t i = 0; i < r->n_families; i++)
		free(r->by_family[i].name);
	free(r->by_planner);
	free(r->by_family);
	free(r->pair);
	free(r->only_a);
	free(r->only_b);
	memset(r, 0, sizeof(*r));
}

/* Builds the key map of one side; a duplicate key is an error. */
static int index_side(const struct ab_cmp_table *t, const char *only,
		      bool with_planner, struct ab_strmap *m, char ***keys,
		      struct ab_error *err)
{
	int rc = ab_strmap_init(m, t->n + 1);

	*keys = calloc(t->n + 1, sizeof(**keys));
	if (rc || !*keys)
		return ab_fail(err, -ENOMEM, "out of memory");
	for (size_t i = 0; i < t->n; i++) {
		if (only && strcmp(t->row[i].planner, only))
			continue;
		(*keys)[i] = key_of(&t->row[i], with_planner);
		if (!(*keys)[i])
			return ab_fail(err, -ENOMEM, "out of memory");
		rc = ab_strmap_put(m, (*keys)[i], (int64_t)i);
		if (rc == -EEXIST)
			return ab_fail(err, -EINVAL, "%s: two rows for graph %s, planner %s, align %" PRIu32 ", options %s (rows must be unique to be compared)",
				       t->path, t->row[i].graph, t->row[i].planner,
				       t->row[i].align, t->row[i].options);
		if (rc)
			return ab_fail(err, -ENOMEM, "out of memory");
	}
	return 0;
}

int ab_cmp_run(const struct ab_cmp_table *a, const struct ab_cmp_table *b,
	       const char *planner, const char *against,
	       struct ab_cmp_result *r, struct ab_error *err)
{
	bool two_planners = planner != NULL;
	struct ab_strmap ma = { 0 }, mb = { 0 };
	char **ka = NULL, **kb = NULL;
	int rc;

	memset(r, 0, sizeof(*r));
	if (strcmp(a->schema, b->schema)) {
		return ab_fail(err, -EINVAL, "%s has schema_version %s and %s has %s: compare runs of one schema",
			       a->path, a->schema, b->path, b->schema);
	}
	rc = index_side(a, two_planners ? against : NULL, !two_planners, &ma, &ka, err);
	if (!rc)
		rc = index_side(b, two_planners ? planner : NULL, !two_planners, &mb, &kb, err);
	if (rc)
		goto out;
	r->pair = malloc((b->n + 1) * sizeof(*r->pair));
	r->only_a = malloc((a->n + 1) * sizeof(size_t));
	r->only_b = malloc((b->n + 1) * sizeof(size_t));
	if (!r->pair || !r->only_a || !r->only_b) {
		rc = ab_fail(err, -ENOMEM, "out of memory");
		goto out;
	}
	for (size_t j = 0; j < b->n; j++) {
		int64_t i;
		const struct ab_cmp_row *ra, *rb = &b->row[j];
		struct ab_cmp_group *gp, *gf;
		double ratio;

		if (!kb[j])
			continue;
		i = ab_strmap_get(&ma, kb[j]);
		if (i < 0) {
			r->only_b[r->n_only_b++] = j;
			continue;
		}
		ra = &a->row[i];
		if (!ra->valid || !rb->valid || !ra->peak) {
			r->invalid_pairs++;
			continue;
		}
		ratio = (double)rb->peak / (double)ra->peak;
		r->pair[r->n_pairs++] = (struct ab_cmp_pair){ (size_t)i, j, ratio };
		gp = group(&r->by_planner, &r->n_planners, two_planners ? planner : rb->planner);
		gf = group(&r->by_family, &r->n_families, rb->family);
		if (!gp || !gf) {
			rc = ab_fail(err, -ENOMEM, "out of memory");
			goto out;
		}
		count(gp, ra, rb, ratio);
		count(gf, ra, rb, ratio);
	}
	for (size_t i = 0; i < a->n; i++)
		if (ka[i] && ab_strmap_get(&mb, ka[i]) < 0)
			r->only_a[r->n_only_a++] = i;
	if (!r->n_pairs && !r->invalid_pairs)
		rc = ab_fail(err, -EINVAL, "%s and %s share no row (matched on graph, %salign and options)",
			     a->path, b->path, two_planners ? "" : "planner, ");
out:
	for (size_t i = 0; ka && i < a->n; i++)
		free(ka[i]);
	for (size_t i = 0; kb && i < b->n; i++)
		free(kb[i]);
	free(ka);
	free(kb);
	ab_strmap_free(&ma);
	ab_strmap_free(&mb);
	if (rc)
		ab_cmp_result_free(r);
	return rc;
}

/* Pair indices sorted by ratio ascending (ties in B's row order). */
static size_t *sorted_pairs(const struct ab_cmp_result *r)
{
	struct ab_key_index *k = malloc((r->n_pairs + 1) * sizeof(*k));
	size_t *out = malloc((r->n_pairs + 1) * sizeof(*out));

	if (!k || !out) {
		free(k);
		free(out);
		return NULL;
	}
	for (size_t i = 0; i < r->n_pairs; i++) {
		uint64_t bits;

		/* positive doubles order as their bit patterns */
		memcpy(&bits, &r->pair[i].ratio, sizeof(bits));
		k[i] = (struct ab_key_index){ bits, (uint32_t)i };
	}
	ab_sort_key_index(k, r->n_pairs);
	for (size_t i = 0; i < r->n_pairs; i++)
		out[i] = k[i].index;
	free(k);
	return out;
}

static void text_groups(FILE *f, const char *what, const struct ab_cmp_group *g, size_t n)
{
	fprintf(f, "\n%-24s %6s %6s %6s %9s %9s %9s %9s\n", what, "wins", "losses",
		"ties", "geo_B/A", "min", "max", "time_B/A");
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%-24s %6zu %6zu %6zu %9.4f %9.4f %9.4f", g[i].name, g[i].wins,
			g[i].losses, g[i].ties, exp(g[i].log_sum / (double)g[i].n),
			g[i].min_ratio, g[i].max_ratio);
		if (g[i].n_timed)
			fprintf(f, " %9.3f\n", exp(g[i].time_log_sum / (double)g[i].n_timed));
		else
			fprintf(f, " %9s\n", "-");
	}
}

int ab_cmp_write_text(FILE *f, const struct ab_cmp_table *a,
		      const struct ab_cmp_table *b, const struct ab_cmp_result *r,
		      size_t top)
{
	size_t *s = sorted_pairs(r), shown = 0;

	if (!s)
		return -ENOMEM;
	fprintf(f, "A: %s (%zu rows)\nB: %s (%zu rows)\n", a->path, a->n, b->path, b->n);
	fprintf(f, "matched %zu pairs; %zu with an invalid side left out; %zu only in A, %zu only in B\n",
		r->n_pairs, r->invalid_pairs, r->n_only_a, r->n_only_b);
	fprintf(f, "wins = B needs fewer bytes than A; geo_B/A = geometric mean of peak B / peak A\n");
	text_groups(f, "planner", r->by_planner, r->n_planners);
	text_groups(f, "family", r->by_family, r->n_families);
	fprintf(f, "\nlargest changes (peak B / peak A, furthest from 1 first):\n");
	/* alternate between the two ends of the sorted ratios */
	for (size_t lo = 0, hi = r->n_pairs; lo < hi && shown < top; shown++) {
		size_t i = fabs(log(r->pair[s[lo]].ratio)) >= fabs(log(r->pair[s[hi - 1]].ratio))
				   ? s[lo++] : s[--hi];
		const struct ab_cmp_pair *p = &r->pair[i];

		if (p->ratio == 1.0)
			break;
		fprintf(f, "  %-36s %-22s align %-4" PRIu32 " %12" PRIu64 " -> %12" PRIu64 "  %.4f\n",
			b->row[p->b].graph, b->row[p->b].planner, b->row[p->b].align,
			a->row[p->a].peak, b->row[p->b].peak, p->ratio);
	}
	if (!shown || r->pair[s[0]].ratio == 1.0)
		fprintf(f, "  (none: every matched pair has the same peak)\n");
	for (size_t i = 0; i < r->n_only_a && i < 5; i++)
		fprintf(f, "only in A: %s %s align %" PRIu32 "\n", a->row[r->only_a[i]].graph,
			a->row[r->only_a[i]].planner, a->row[r->only_a[i]].align);
	for (size_t i = 0; i < r->n_only_b && i < 5; i++)
		fprintf(f, "only in B: %s %s align %" PRIu32 "\n", b->row[r->only_b[i]].graph,
			b->row[r->only_b[i]].planner, b->row[r->only_b[i]].align);
	free(s);
	return ferror(f) ? -EIO : 0;
}

static void json_groups(FILE *f, const char *key, const struct ab_cmp_group *g, size_t n)
{
	fprintf(f, "  \"%s\": [", key);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%s\n    {\"name\": \"%s\", \"wins\": %zu, \"losses\": %zu, \"ties\": %zu, \"geomean_ratio\": %.6f, \"min_ratio\": %.6f, \"max_ratio\": %.6f",
			i ? "," : "", g[i].name, g[i].wins, g[i].losses, g[i].ties,
			exp(g[i].log_sum / (double)g[i].n), g[i].min_ratio, g[i].max_ratio);
		if (g[i].n_timed)
			fprintf(f, ", \"geomean_time_ratio\": %.6f", exp(g[i].time_log_sum / (double)g[i].n_timed));
		fputc('}', f);
	}
	fprintf(f, "\n  ],\n");
}

int ab_cmp_write_json(FILE *f, const struct ab_cmp_table *a,
		      const struct ab_cmp_table *b, const struct ab_cmp_result *r)
{
	size_t *s = sorted_pairs(r);

	if (!s)
		return -ENOMEM;
	fprintf(f, "{\n  \"schema\": 1,\n  \"a\": {\"path\": \"%s\", \"rows\": %zu},\n  \"b\": {\"path\": \"%s\", \"rows\": %zu},\n",
		a->path, a->n, b->path, b->n);
	fprintf(f, "  \"pairs\": %zu,\n  \"invalid_pairs\": %zu,\n  \"only_a\": %zu,\n  \"only_b\": %zu,\n",
		r->n_pairs, r->invalid_pairs, r->n_only_a, r->n_only_b);
	json_groups(f, "planners", r->by_planner, r->n_planners);
	json_groups(f, "families", r->by_family, r->n_families);
	fprintf(f, "  \"ratios\": [");
	for (size_t i = 0; i < r->n_pairs; i++) {
		const struct ab_cmp_pair *p = &r->pair[s[i]];

		fprintf(f, "%s\n    {\"graph\": \"%s\", \"planner\": \"%s\", \"align\": %" PRIu32 ", \"peak_a\": %" PRIu64 ", \"peak_b\": %" PRIu64 ", \"ratio\": %.6f}",
			i ? "," : "", b->row[p->b].graph, b->row[p->b].planner,
			b->row[p->b].align, a->row[p->a].peak, b->row[p->b].peak, p->ratio);
	}
	fprintf(f, "\n  ]\n}\n");
	free(s);
	return ferror(f) ? -EIO : 0;
}

int ab_cmp_write_ratios(FILE *f, const struct ab_cmp_table *a,
			const struct ab_cmp_table *b, const struct ab_cmp_result *r)
{
	size_t *s = sorted_pairs(r);

	(void)a;
	if (!s)
		return -ENOMEM;
	fprintf(f, "# rank ratio graph planner align\n");
	for (size_t i = 0; i < r->n_pairs; i++) {
		const struct ab_cmp_pair *p = &r->pair[s[i]];

		fprintf(f, "%zu %.6f %s %s %" PRIu32 "\n", i + 1, p->ratio,
			b->row[p->b].graph, b->row[p->b].planner, b->row[p->b].align);
	}
	free(s);
	return ferror(f) ? -EIO : 0;
}
