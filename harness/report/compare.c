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
       C_PEAK, C_PLAN_NS, C_LOWER_BOUND, C_N };
static const char *const col_name[C_N] = {
	"schema_version", "graph", "family", "planner", "align", "options",
	"valid", "peak_bytes", "plan_ns", "lower_bound_bytes",
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
		if (at[c] < 0 && c != C_PLAN_NS && c != C_LOWER_BOUND) {
			rc = ab_fail(err, -EINVAL, "%s:1: no column '%s' (expected a bench CSV, docs/results-csv.md)",
				     path, col_name[c]);
			goto out;
		}
	}
	t->path = strdup(path);
	t->has_lower_bound = at[C_LOWER_BOUND] >= 0;
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
		if (at[C_LOWER_BOUND] >= 0)
			r->lower_bound = strtoull(f[at[C_LOWER_BOUND]], NULL, 10);
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

static const char *const key_name[4] = { "graph", "planner", "align", "options" };

int ab_cmp_parse_match(const char *list, unsigned *keys, struct ab_error *err)
{
	char *copy = strdup(list), *save = NULL, *t;
	int rc = 0;

	if (!copy)
		return ab_fail(err, -ENOMEM, "out of memory");
	*keys = 0;
	for (t = strtok_r(copy, ",", &save); t && !rc; t = strtok_r(NULL, ",", &save)) {
		unsigned bit = 0;

		for (int k = 0; k < 4; k++)
			if (!strcmp(t, key_name[k]))
				bit = 1u << k;
		if (!bit) {
			const char *near = ab_closest_name(t, key_name, 4);

			rc = ab_fail(err, -EINVAL, "--match: unknown column '%s'%s%s%s (expected graph and any of planner, align, options)",
				     t, near ? " (did you mean " : "", near ? near : "", near ? "?)" : "");
		}
		*keys |= bit;
	}
	free(copy);
	if (!rc && !(*keys & AB_CMP_GRAPH))
		rc = ab_fail(err, -EINVAL, "--match '%s': the key needs graph (rows of different graphs are not comparable)", list);
	return rc;
}

/* The value of one key column of a row (align printed into tmp). */
static const char *column(const struct ab_cmp_row *r, unsigned bit, char tmp[16])
{
	switch (bit) {
	case AB_CMP_GRAPH: return r->graph;
	case AB_CMP_PLANNER: return r->planner;
	case AB_CMP_ALIGN: snprintf(tmp, 16, "%" PRIu32, r->align); return tmp;
	default: return r->options;
	}
}

/* The key columns of a row joined by \x1f. */
static char *key_of(const struct ab_cmp_row *r, unsigned keys)
{
	size_t n = strlen(r->graph) + strlen(r->planner) + strlen(r->options) + 32;
	char *k = malloc(n), tmp[16];
	size_t at = 0;

	if (!k)
		return NULL;
	k[0] = 0;
	for (unsigned bit = 1; bit <= AB_CMP_OPTIONS; bit <<= 1)
		if (keys & bit)
			at += (size_t)snprintf(k + at, n - at, "%s\x1f", column(r, bit, tmp));
	return k;
}

/* "graph, planner and align": the key's columns, for messages. */
static void key_text(unsigned keys, char *buf, size_t len)
{
	size_t at = 0;
	int i = 0, total = 0;

	for (int k = 0; k < 4; k++)
		total += !!(keys & (1u << k));
	buf[0] = 0;
	for (int k = 0; k < 4; k++) {
		if (!(keys & (1u << k)) || at >= len)
			continue;
		at += (size_t)snprintf(buf + at, len - at, "%s%s",
				       !i ? "" : i == total - 1 ? " and " : ", ", key_name[k]);
		i++;
	}
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

/* "graph,planner,align": the key as --match takes it. */
static void key_list(unsigned keys, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = 0;
	for (int k = 0; k < 4; k++)
		if (keys & (1u << k) && at < len)
			at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? "," : "", key_name[k]);
}

/* Builds the key map of one side; a duplicate key is an error naming
 * the columns outside the key that tell the two rows apart. */
static int index_side(const struct ab_cmp_table *t, const char *only,
		      unsigned keys, struct ab_strmap *m, char ***keys_out,
		      struct ab_error *err)
{
	int rc = ab_strmap_init(m, t->n + 1);
	char **k;

	*keys_out = k = calloc(t->n + 1, sizeof(*k));
	if (rc || !k)
		return ab_fail(err, -ENOMEM, "out of memory");
	for (size_t i = 0; i < t->n; i++) {
		const struct ab_cmp_row *r = &t->row[i], *o;
		char on[64], diff[64], add[64], ta[16], tb[16];
		unsigned apart;

		if (only && strcmp(r->planner, only))
			continue;
		k[i] = key_of(r, keys);
		if (!k[i])
			return ab_fail(err, -ENOMEM, "out of memory");
		rc = ab_strmap_put(m, k[i], (int64_t)i);
		if (rc != -EEXIST) {
			if (rc)
				return ab_fail(err, -ENOMEM, "out of memory");
			continue;
		}
		o = &t->row[ab_strmap_get(m, k[i])];
		apart = 0;
		for (unsigned bit = AB_CMP_PLANNER; bit <= AB_CMP_OPTIONS; bit <<= 1)
			if (!(keys & bit) && strcmp(column(r, bit, ta), column(o, bit, tb)))
				apart |= bit;
		if (apart) {
			key_text(keys, on, sizeof(on));
			key_text(apart, diff, sizeof(diff));
			key_list(keys | apart, add, sizeof(add));
			return ab_fail(err, -EINVAL, "%s: two rows for graph %s (matched on %s) differ in %s: add it to the key (--match %s)",
				       t->path, r->graph, on, diff, add);
		}
		return ab_fail(err, -EINVAL, "%s: two rows for graph %s, planner %s, align %" PRIu32 ", options %s (rows must be unique to be compared)",
			       t->path, r->graph, r->planner, r->align, r->options);
	}
	return 0;
}

/* The distinct values of one column over a side's rows (those of
 * planner `only` when set), sorted (numbers by value), at most 32 kept. */
struct side_values {
	char *v[32];
	size_t n;
	bool more;
};

static int by_value(const void *x, const void *y)
{
	const char *a = *(const char *const *)x, *b = *(const char *const *)y;
	size_t na = strlen(a), nb = strlen(b);

	if (na && nb && strspn(a, "0123456789") == na && strspn(b, "0123456789") == nb && na != nb)
		return na < nb ? -1 : 1;
	return strcmp(a, b);
}

static void values_free(struct side_values *v)
{
	for (size_t i = 0; i < v->n; i++)
		free(v->v[i]);
	memset(v, 0, sizeof(*v));
}

static int side_values(const struct ab_cmp_table *t, const char *only,
		       unsigned bit, struct side_values *v)
{
	memset(v, 0, sizeof(*v));
	for (size_t i = 0; i < t->n; i++) {
		char tmp[16];
		const char *x;
		size_t k;

		if (only && strcmp(t->row[i].planner, only))
			continue;
		x = column(&t->row[i], bit, tmp);
		for (k = 0; k < v->n && strcmp(v->v[k], x); k++)
			;
		if (k < v->n)
			continue;
		if (v->n == 32) {
			v->more = true;
			continue;
		}
		if (!(v->v[v->n++] = strdup(x))) {
			v->n--;
			values_free(v);
			return -ENOMEM;
		}
	}
	qsort(v->v, v->n, sizeof(*v->v), by_value);
	return 0;
}

static bool values_equal(const struct side_values *a, const struct side_values *b)
{
	if (a->n != b->n || a->more != b->more)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->v[i], b->v[i]))
			return false;
	return true;
}

static bool values_disjoint(const struct side_values *a, const struct side_values *b)
{
	if (a->more || b->more)
		return false;
	for (size_t i = 0; i < a->n; i++)
		for (size_t j = 0; j < b->n; j++)
			if (!strcmp(a->v[i], b->v[j]))
				return false;
	return true;
}

/* -EINVAL naming the file and the flag when no row of t is of planner
 * want (with the closest planner of t: "did you mean"). */
static int planner_in_table(const struct ab_cmp_table *t, const char *want,
			    const char *flag, struct ab_error *err)
{
	const char *names[64], *near;
	size_t n = 0, i;

	for (i = 0; i < t->n && strcmp(t->row[i].planner, want); i++)
		if (n < 64) {
			size_t k;

			for (k = 0; k < n && strcmp(names[k], t->row[i].planner); k++)
				;
			if (k == n)
				names[n++] = t->row[i].planner;
		}
	if (i < t->n)
		return 0;
	near = ab_closest_name(want, names, n);
	return ab_fail(err, -EINVAL, "%s: no row of planner '%s' (%s)%s%s%s", t->path, want, flag,
		       near ? "; did you mean " : "", near ? near : "", near ? "?" : "");
}

/* The error for two sides with no key in common: the key columns whose
 * values the sides never share, and the --match without them. */
static int no_shared_row(const struct ab_cmp_table *a, const struct ab_cmp_table *b,
			 const struct ab_cmp_result *r, struct ab_error *err)
{
	char on[64], apart[64], keep[64];
	unsigned drop = 0;

	for (unsigned bit = AB_CMP_PLANNER; bit <= AB_CMP_OPTIONS; bit <<= 1) {
		struct side_values va, vb;

		if (!(r->keys & bit))
			continue;
		if (side_values(a, r->planner_a, bit, &va) || side_values(b, r->planner_b, bit, &vb)) {
			values_free(&va);
			return ab_fail(err, -ENOMEM, "out of memory");
		}
		if (values_disjoint(&va, &vb))
			drop |= bit;
		values_free(&va);
		values_free(&vb);
	}
	key_text(r->keys, on, sizeof(on));
	key_text(drop, apart, sizeof(apart));
	key_list(r->keys & ~drop, keep, sizeof(keep));
	if (drop)
		return ab_fail(err, -EINVAL, "%s and %s share no row (matched on %s): no value of %s is on both sides; --match %s compares them on what they share",
			       a->path, b->path, on, apart, keep);
	return ab_fail(err, -EINVAL, "%s and %s share no row (matched on %s)", a->path, b->path, on);
}

int ab_cmp_run(const struct ab_cmp_table *a, const struct ab_cmp_table *b,
	       const struct ab_cmp_spec *spec, struct ab_cmp_result *r,
	       struct ab_error *err)
{
	bool two_planners = spec->planner != NULL;
	unsigned keys = spec->keys ? spec->keys : AB_CMP_ALL;
	struct ab_strmap ma = { 0 }, mb = { 0 };
	char **ka = NULL, **kb = NULL;
	int rc;

	memset(r, 0, sizeof(*r));
	if (two_planners)
		keys &= ~(unsigned)AB_CMP_PLANNER;
	if (two_planners && spec->keys & AB_CMP_PLANNER)
		return ab_fail(err, -EINVAL, "--match: planner cannot be part of the key when two planners (%s against %s) are compared",
			       spec->planner, spec->against);
	if (strcmp(a->schema, b->schema)) {
		return ab_fail(err, -EINVAL, "%s has schema_version %s and %s has %s: compare runs of one schema",
			       a->path, a->schema, b->path, b->schema);
	}
	if (two_planners && (rc = planner_in_table(a, spec->against, "--against", err)) != 0)
		return rc;
	if (two_planners && (rc = planner_in_table(a, spec->planner, "--planner", err)) != 0)
		return rc;
	r->keys = keys;
	r->planner_a = two_planners ? spec->against : NULL;
	r->planner_b = two_planners ? spec->planner : NULL;
	rc = index_side(a, r->planner_a, keys, &ma, &ka, err);
	if (!rc)
		rc = index_side(b, r->planner_b, keys, &mb, &kb, err);
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
		gp = group(&r->by_planner, &r->n_planners, two_planners ? spec->planner : rb->planner);
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
		rc = no_shared_row(a, b, r, err);
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

/* The items of options string x (k=v;k=v) that y lacks, into buf. */
static void options_minus(const char *x, const char *y, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = 0;
	for (const char *p = x; *p;) {
		size_t n = strcspn(p, ";");
		bool found = false;

		for (const char *q = y; *q;) {
			size_t m = strcspn(q, ";");

			found |= m == n && !strncmp(p, q, n);
			q += m + (q[m] == ';');
		}
		if (!found && at < len)
			at += (size_t)snprintf(buf + at, len - at, "%s%.*s", at ? ";" : "", (int)n, p);
		p += n + (p[n] == ';');
	}
}

/* A side's label: the columns outside the key whose values differ from
 * the other side's ("align 16", "planner q", "inplace=yes"). */
static int side_label(const struct ab_cmp_table *t, const char *only,
		      const struct ab_cmp_table *o, const char *o_only,
		      unsigned keys, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = 0;
	for (unsigned bit = AB_CMP_PLANNER; bit <= AB_CMP_OPTIONS; bit <<= 1) {
		struct side_values v, w;

		if (keys & bit)
			continue;
		if (side_values(t, only, bit, &v) || side_values(o, o_only, bit, &w)) {
			values_free(&v);
			return -ENOMEM;
		}
		if (!values_equal(&v, &w) && at < len) {
			at += (size_t)snprintf(buf + at, len - at, "%s%s ", at ? "; " : "",
					       key_name[__builtin_ctz(bit)]);
			if (bit == AB_CMP_OPTIONS && v.n == 1 && w.n == 1 && !v.more && !w.more) {
				char d[256];

				options_minus(v.v[0], w.v[0], d, sizeof(d));
				at += (size_t)snprintf(buf + at, len - at, "%s", d[0] ? d : "(a subset)");
			} else {
				for (size_t i = 0; i < v.n && at < len; i++)
					at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? ", " : "", v.v[i]);
				if (v.more && at < len)
					at += (size_t)snprintf(buf + at, len - at, ", ...");
			}
		}
		values_free(&v);
		values_free(&w);
	}
	return 0;
}

/* One pair as "graph planner align 16": a column outside the key that
 * differs within the pair reads "A -> B" (options: the items that differ). */
static void pair_text(const struct ab_cmp_row *ra, const struct ab_cmp_row *rb,
		      char *buf, size_t len)
{
	size_t at = (size_t)snprintf(buf, len, "%s ", rb->graph);

	if (strcmp(ra->planner, rb->planner))
		at += (size_t)snprintf(buf + at, len - at, "%s -> %s", ra->planner, rb->planner);
	else
		at += (size_t)snprintf(buf + at, len - at, "%s", rb->planner);
	if (at < len && ra->align != rb->align)
		at += (size_t)snprintf(buf + at, len - at, " align %" PRIu32 " -> %" PRIu32, ra->align, rb->align);
	else if (at < len)
		at += (size_t)snprintf(buf + at, len - at, " align %" PRIu32, rb->align);
	if (at < len && strcmp(ra->options, rb->options)) {
		char da[128], db[128];

		options_minus(ra->options, rb->options, da, sizeof(da));
		options_minus(rb->options, ra->options, db, sizeof(db));
		snprintf(buf + at, len - at, " %s -> %s", da[0] ? da : "-", db[0] ? db : "-");
	}
}

int ab_cmp_write_text(FILE *f, const struct ab_cmp_table *a,
		      const struct ab_cmp_table *b, const struct ab_cmp_result *r,
		      size_t top)
{
	size_t *s = sorted_pairs(r), shown = 0, changed = 0;
	char la[512], lb[512], on[64], id[512];

	if (!s)
		return -ENOMEM;
	if (side_label(a, r->planner_a, b, r->planner_b, r->keys, la, sizeof(la)) ||
	    side_label(b, r->planner_b, a, r->planner_a, r->keys, lb, sizeof(lb))) {
		free(s);
		return -ENOMEM;
	}
	if (!top)
		top = (size_t)-1;
	key_text(r->keys, on, sizeof(on));
	fprintf(f, "A: %s (%zu rows)%s%s%s\nB: %s (%zu rows)%s%s%s\n", a->path, a->n,
		la[0] ? ": " : "", la, r->planner_a ? " (--against)" : "",
		b->path, b->n, lb[0] ? ": " : "", lb, r->planner_b ? " (--planner)" : "");
	fprintf(f, "matched on %s: %zu pair%s; %zu with an invalid side left out; %zu only in A, %zu only in B\n",
		on, r->n_pairs, r->n_pairs == 1 ? "" : "s", r->invalid_pairs, r->n_only_a, r->n_only_b);
	fprintf(f, "wins = B needs fewer bytes than A; geo_B/A = geometric mean of peak B / peak A\n");
	text_groups(f, "planner", r->by_planner, r->n_planners);
	text_groups(f, "family", r->by_family, r->n_families);
	for (size_t i = 0; i < r->n_pairs; i++)
		changed += r->pair[i].ratio != 1.0;
	fprintf(f, "\nlargest changes (peak B / peak A, furthest from 1 first):\n");
	/* alternate between the two ends of the sorted ratios */
	for (size_t lo = 0, hi = r->n_pairs; lo < hi && shown < top; shown++) {
		size_t i = fabs(log(r->pair[s[lo]].ratio)) >= fabs(log(r->pair[s[hi - 1]].ratio))
				   ? s[lo++] : s[--hi];
		const struct ab_cmp_pair *p = &r->pair[i];

		if (p->ratio == 1.0)
			break;
		pair_text(&a->row[p->a], &b->row[p->b], id, sizeof(id));
		fprintf(f, "  %-48s %12" PRIu64 " -> %12" PRIu64 "  %.4f\n", id,
			a->row[p->a].peak, b->row[p->b].peak, p->ratio);
	}
	if (!changed)
		fprintf(f, "  (none: every matched pair has the same peak)\n");
	else if (changed > shown)
		fprintf(f, "  ... %zu more changed pairs (--top 0 lists every one)\n", changed - shown);
	for (size_t i = 0; i < r->n_only_a && i < top; i++)
		fprintf(f, "only in A: %s %s align %" PRIu32 "\n", a->row[r->only_a[i]].graph,
			a->row[r->only_a[i]].planner, a->row[r->only_a[i]].align);
	if (r->n_only_a > top)
		fprintf(f, "only in A: ... %zu more\n", r->n_only_a - top);
	for (size_t i = 0; i < r->n_only_b && i < top; i++)
		fprintf(f, "only in B: %s %s align %" PRIu32 "\n", b->row[r->only_b[i]].graph,
			b->row[r->only_b[i]].planner, b->row[r->only_b[i]].align);
	if (r->n_only_b > top)
		fprintf(f, "only in B: ... %zu more\n", r->n_only_b - top);
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
	char la[512], lb[512], keys[64];

	if (side_label(a, r->planner_a, b, r->planner_b, r->keys, la, sizeof(la)) ||
	    side_label(b, r->planner_b, a, r->planner_a, r->keys, lb, sizeof(lb))) {
		free(s);
		return -ENOMEM;
	}
	key_list(r->keys, keys, sizeof(keys));
	fprintf(f, "{\n  \"schema\": 1,\n  \"match\": \"%s\",\n", keys);
	fprintf(f, "  \"a\": {\"path\": \"%s\", \"rows\": %zu, \"label\": \"%s\"},\n  \"b\": {\"path\": \"%s\", \"rows\": %zu, \"label\": \"%s\"},\n",
		a->path, a->n, la, b->path, b->n, lb);
	fprintf(f, "  \"pairs\": %zu,\n  \"invalid_pairs\": %zu,\n  \"only_a\": %zu,\n  \"only_b\": %zu,\n",
		r->n_pairs, r->invalid_pairs, r->n_only_a, r->n_only_b);
	json_groups(f, "planners", r->by_planner, r->n_planners);
	json_groups(f, "families", r->by_family, r->n_families);
	fprintf(f, "  \"ratios\": [");
	for (size_t i = 0; i < r->n_pairs; i++) {
		const struct ab_cmp_pair *p = &r->pair[s[i]];

		fprintf(f, "%s\n    {\"graph\": \"%s\", \"planner\": \"%s\", \"align\": %" PRIu32 ", \"planner_a\": \"%s\", \"align_a\": %" PRIu32 ", \"peak_a\": %" PRIu64 ", \"peak_b\": %" PRIu64 ", \"ratio\": %.6f}",
			i ? "," : "", b->row[p->b].graph, b->row[p->b].planner,
			b->row[p->b].align, a->row[p->a].planner, a->row[p->a].align,
			a->row[p->a].peak, b->row[p->b].peak, p->ratio);
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
