/*
 * `arenabench explain`: the analysis (ab_explain), the text and JSON
 * writers, the gnuplot drawing and the command.  See explain.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "report/explain.h"
#include "bench/tiers.h"
#include "bench/run.h"
#include "check/check.h"
#include "lib/placement.h"
#include "report/plan_files.h"
#include "core/sort.h"

#define DEFAULT_ROWS 48
#define DEFAULT_WIDTH 64
#define FULL_CHECK_BYTES (8ull << 20)

/* ------------------------------------------------------------ analysis */

static int add_planner(const struct ab_planner ***v, size_t *n,
		       const struct ab_planner *pl)
{
	const struct ab_planner **nv = realloc(*v, (*n + 1) * sizeof(**v));

	if (!nv)
		return -ENOMEM;
	nv[(*n)++] = pl;
	*v = nv;
	return 0;
}

int ab_pick_planners(const char *list, const char *cost,
		     const struct ab_planner ***out, size_t *n,
		     struct ab_error *err)
{
	const struct ab_planner **v = NULL;
	int rc = 0;

	*n = 0;
	if (!cost)
		cost = "fast";
	if (strcmp(cost, "fast") && strcmp(cost, "budgeted") && strcmp(cost, "all"))
		return ab_fail(err, -EINVAL, "cost class '%s' (expected fast, budgeted or all)", cost);
	if (!list) {
		for (size_t i = 0; i < ab_planner_count() && !rc; i++) {
			const struct ab_planner *pl = ab_planner_at(i);

			if (!strcmp(cost, "all") ||
			    (pl->cost == AB_COST_FAST) == !strcmp(cost, "fast"))
				rc = add_planner(&v, n, pl);
		}
	} else {
		char *copy = strdup(list), *save = NULL, *t;

		if (!copy)
			rc = -ENOMEM;
		for (t = copy ? strtok_r(copy, ",", &save) : NULL; t && !rc;
		     t = strtok_r(NULL, ",", &save)) {
			const struct ab_planner *pl = ab_planner_find(t);

			if (!pl)
				rc = ab_fail(err, -EINVAL, "unknown planner '%s' (see arenabench list)", t);
			else
				rc = add_planner(&v, n, pl);
		}
		free(copy);
	}
	if (!rc && !*n)
		rc = ab_fail(err, -EINVAL, "no planners selected");
	if (rc) {
		if (rc == -ENOMEM)
			ab_fail(err, rc, "out of memory");
		free(v);
		return rc;
	}
	*out = v;
	return 0;
}

/* v (ascending indices) by size, largest first; equal sizes keep index
 * order (the sort is stable). */
static int sort_by_size(const struct ab_problem *p, size_t *v, size_t n)
{
	struct ab_key_index *k = malloc((n + 1) * sizeof(*k));

	if (!k)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		k[i] = (struct ab_key_index){ ~p->buf[v[i]].size, (uint32_t)v[i] };
	if (ab_sort_key_index(k, n)) {
		free(k);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		v[i] = k[i].index;
	free(k);
	return 0;
}

/* Timeline characters: by first use, each buffer takes the character
 * whose last holder ended earliest, so buffers live together differ
 * whenever at most 62 are live at once. */
static const char symbols[] =
	"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
#define N_SYMBOLS (sizeof(symbols) - 1)

static int assign_symbols(struct ab_explanation *x)
{
	const struct ab_problem *p = &x->in.problem;
	int64_t holder_last[N_SYMBOLS];
	uint32_t *order = malloc((p->n + 1) * sizeof(*order));

	x->symbol = malloc(p->n + 1);
	if (!order || !x->symbol || ab_order_first_use(p, order)) {
		free(order);
		return -ENOMEM;
	}
	for (size_t s = 0; s < N_SYMBOLS; s++)
		holder_last[s] = INT64_MIN + (int64_t)s;
	for (size_t j = 0; j < p->n; j++) {
		size_t best = 0;

		for (size_t s = 1; s < N_SYMBOLS; s++)
			if (holder_last[s] < holder_last[best])
				best = s;
		holder_last[best] = p->buf[order[j]].last;
		x->symbol[order[j]] = symbols[best];
	}
	free(order);
	return 0;
}

static int analyse_tensors(struct ab_explanation *x)
{
	const struct ab_problem *p = &x->in.problem;
	const struct ab_graph *g = &x->in.graph;
	size_t *all;

	x->sum_bytes = ab_sum_bytes(p);
	x->lower_bound_bytes = ab_lower_bound(p, &x->lb_step);
	x->weights_bytes = p->weights_bytes;
	x->weights_stored_bytes = x->in.is_tflite ? x->in.tflite.weights_bytes
						  : p->weights_bytes;
	x->persistent_in_arena = x->lifetimes != AB_LIFETIMES_TFLM;
	x->lb_op = -1;
	if (x->in.has_graph) {
		int32_t lb_op = ab_lifetime_op_at_step(x->lifetimes, x->lb_step);

		for (size_t t = 0; t < g->n_tensors; t++) {
			if (g->tensors[t].kind == AB_KIND_VAR)
				x->persistent_bytes += g->tensors[t].bytes;
			if (g->tensors[t].dtype == AB_DTYPE_STRING)
				x->n_strings++;
		}
		if (lb_op >= 0 && (size_t)lb_op < g->n_ops)
			x->lb_op = lb_op;
		x->strings = malloc((x->n_strings + 1) * sizeof(*x->strings));
		if (!x->strings)
			return -ENOMEM;
		x->n_strings = 0;
		for (size_t t = 0; t < g->n_tensors; t++)
			if (g->tensors[t].dtype == AB_DTYPE_STRING)
				x->strings[x->n_strings++] = t;
	}
	if (x->in.is_tflite) {
		x->n_dynamic = x->in.tflite.n_dynamic_tensors;
		x->used_dims = x->in.tflite.used_dim_overrides;
	}

	all = malloc((p->n + 1) * sizeof(*all));
	x->lb_live = malloc((p->n + 1) * sizeof(*x->lb_live));
	if (!all || !x->lb_live) {
		free(all);
		return -ENOMEM;
	}
	for (size_t i = 0; i < p->n; i++) {
		all[i] = i;
		if (p->buf[i].first <= x->lb_step && x->lb_step <= p->buf[i].last)
			x->lb_live[x->n_lb_live++] = i;
	}
	if (sort_by_size(p, x->lb_live, x->n_lb_live) ||
	    sort_by_size(p, all, p->n)) {
		free(all);
		return -ENOMEM;
	}
	x->n_largest = p->n < AB_EXPLAIN_TOP ? p->n : AB_EXPLAIN_TOP;
	memcpy(x->largest, all, x->n_largest * sizeof(*all));
	free(all);
	return assign_symbols(x);
}

/* The alignment in use first, then 1, 16 and 64 for comparison. */
static void pick_aligns(struct ab_explanation *x)
{
	static const uint32_t others[] = { 1, 16, 64 };

	x->aligns[0] = x->align;
	x->n_aligns = 1;
	for (size_t i = 0; i < 3; i++)
		if (others[i] != x->align)
			x->aligns[x->n_aligns++] = others[i];
}

/* best_of copies another planner's plan: in a tie, name that one. */
static bool is_meta(const struct ab_planner *pl)
{
	return !strcmp(pl->name, "best_of");
}

/* Best valid planner at alignment index j (-1 if none): the smallest
 * arena; ties go to registry order, best_of last. */
static int best_at(const struct ab_explanation *x, size_t j)
{
	int best = -1;

	for (size_t k = 0; k < x->n_planners; k++) {
		const struct ab_explain_result *r = ab_explain_at(x, k, j), *b;

		if (!r->row.check.valid)
			continue;
		b = best >= 0 ? ab_explain_at(x, (size_t)best, j) : NULL;
		if (!b || r->row.check.peak_bytes < b->row.check.peak_bytes ||
		    (r->row.check.peak_bytes == b->row.check.peak_bytes &&
		     is_meta(b->planner) && !is_meta(r->planner)))
			best = (int)k;
	}
	return best;
}

/* Wall-clock and process CPU time, in ms. */
struct stamp {
	double wall, cpu;
};

static double clock_ms(clockid_t c)
{
	struct timespec t;

	clock_gettime(c, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static struct stamp now(void)
{
	return (struct stamp){ clock_ms(CLOCK_MONOTONIC),
			       clock_ms(CLOCK_PROCESS_CPUTIME_ID) };
}

static void add_time(struct ab_explanation *x, int what, struct stamp from,
		     struct stamp to)
{
	x->wall_ms[what] += to.wall - from.wall;
	x->cpu_ms[what] += to.cpu - from.cpu;
}

/*
 * One plan: planner k at options o into plan, both checks into r->row.
 * The execution check depends only on the offsets, so when `cache` (this
 * planner's verdicts) has seen the very same offsets, its execution
 * verdict is reused and only the geometric check, which also checks the
 * alignment, runs again.
 */
static int plan_one(struct ab_explanation *x, size_t k, size_t n_pl,
		    const struct ab_planner *pl, const struct ab_plan_options *o,
		    const enum ab_exec_mode *mode, struct ab_plan *plan,
		    struct ab_verdict_cache *cache, struct ab_explain_result *r)
{
	struct ab_offline_stats st;
	struct stamp t0, t1;
	int rc;

	free(r->row.check.message);
	memset(&r->row, 0, sizeof(r->row));
	r->row.lower_bound_bytes = x->lower_bound_bytes;
	r->align = o->align;
	r->exec_reused = false;
	if (k >= n_pl) {
		r->planner = &ab_planner_offline;
		rc = ab_offline_plan_and_check(&x->in, o, mode, plan, &r->row,
					       &st);
		if (o->align == x->align)
			x->offline = st;
		return rc;
	}
	r->planner = pl;
	ab_plan_reset(plan);
	t0 = now();
	{
		struct ab_error err = { { 0 } };

		/* pl->plan, or across --tier tiers */
		rc = ab_run_planner(&x->in, pl, o, plan, NULL, &err);
		t1 = now();
		add_time(x, o->align == x->align ? AB_EXPLAIN_T_PLAN
						 : AB_EXPLAIN_T_PLAN_OTHER, t0, t1);
		if (rc == -ENOMEM)
			return rc;
		if (rc) {
			r->row.check.message = strdup(err.msg);
			return 0;
		}
	}
	rc = ab_check_plan(&x->in, plan, o->align, mode, cache, &r->row.check);
	r->exec_reused = r->row.check.valid && r->row.check.exec_cached;
	add_time(x, AB_EXPLAIN_T_CHECKS, t1, now());
	return rc;
}

/*
 * Every planner at every alignment: the exact geometric check and the
 * execution check sampled (one word per 4 KiB: a full one costs ~0.4 s on
 * a 40 MB model, per plan).  Then the best plan at the alignment in use is
 * planned again and gets the full execution check when the activations
 * sum to at most FULL_CHECK_BYTES (sampled again above); if that fails,
 * the next best is tried.
 */
static int run_planners(struct ab_explanation *x,
			const struct ab_explain_args *a,
			const struct ab_planner **pl, size_t n_pl,
			struct ab_error *err)
{
	static const enum ab_exec_mode sampled = AB_EXEC_SAMPLED;
	static const enum ab_exec_mode full = AB_EXEC_FULL;
	const enum ab_exec_mode *best_mode =
		x->sum_bytes <= FULL_CHECK_BYTES ? &full : &sampled;
	const struct ab_problem *p = &x->in.problem;
	struct ab_plan plan, first;
	int rc;

	x->n_planners = n_pl + x->has_offline;
	x->results = calloc(x->n_planners * x->n_aligns, sizeof(*x->results));
	if (!x->results)
		return ab_fail(err, -ENOMEM, "out of memory");
	rc = ab_plan_alloc(&plan, p->n);
	if (!rc)
		rc = ab_plan_alloc(&first, p->n);
	if (!rc)
		rc = ab_plan_alloc(&x->best_plan, p->n);
	if (rc)
		return ab_fail(err, rc, "out of memory");
	x->best = -1;
	for (size_t k = 0; k < x->n_planners && !rc; k++) {
		struct ab_verdict_cache cache = { 0 }; /* this planner's */

		for (size_t j = 0; j < x->n_aligns && !rc; j++) {
			struct ab_plan_options o = a->plan;

			o.align = x->aligns[j];
			rc = plan_one(x, k, n_pl, k < n_pl ? pl[k] : NULL, &o,
				      &sampled, j ? &plan : &first, &cache,
				      &x->results[k * x->n_aligns + j]);
			cache.lookup_only = true; /* the alignment in use only */
		}
		ab_verdict_cache_free(&cache);
	}
	while (!rc) {
		struct ab_plan_options o = a->plan;
		struct ab_explain_result *r;
		int b = best_at(x, 0);

		if (b < 0)
			break;
		r = &x->results[(size_t)b * x->n_aligns];
		o.align = x->aligns[0];
		rc = plan_one(x, (size_t)b, n_pl, (size_t)b < n_pl ? pl[b] : NULL,
			      &o, best_mode, &x->best_plan, NULL, r);
		if (!rc && r->row.check.valid) {
			x->best = b;
			break;
		}
	}
	for (size_t k = 0; k < x->n_planners * x->n_aligns; k++)
		x->invalid += !x->results[k].row.check.valid;
	ab_plan_free(&plan);
	ab_plan_free(&first);
	if (rc)
		return ab_fail(err, rc, "%s: out of memory", x->in.path);
	return 0;
}

int ab_explain(const struct ab_explain_args *a, struct ab_explanation *x,
	       struct ab_error *err)
{
	const struct ab_planner **pl = NULL;
	size_t n_pl = 0;
	struct stamp t0 = now(), t1;
	int rc;

	memset(x, 0, sizeof(*x));
	x->best = -1;
	x->runtime = a->runtime ? a->runtime : "tflite";
	x->align = a->plan.align ? a->plan.align : 1;
	x->lifetimes = a->load.problem.lifetimes;
	x->round_to = a->load.problem.round_to > 1 ? a->load.problem.round_to : 1;
	x->align_given = a->align_given;
	x->lifetimes_given = a->lifetimes_given;
	x->round_given = a->round_given;
	x->load_inplace = a->load.problem.inplace;
	x->reorder_method = a->load.reorder.method;
	x->tiers = a->plan.tiers && a->plan.tiers->n ? a->plan.tiers : NULL;
	rc = ab_pick_planners(a->planners, a->cost, &pl, &n_pl, err);
	if (rc)
		return rc;
	t1 = now();
	rc = ab_input_load(a->path, &a->load, &x->in, err);
	add_time(x, AB_EXPLAIN_T_IMPORT, t1, now());
	if (rc)
		goto out_free_planners;
	if (x->in.problem.n > UINT32_MAX - 1) {
		rc = ab_fail(err, -E2BIG, "%s: too many buffers", a->path);
		goto out_free_planners;
	}
	rc = analyse_tensors(x);
	if (rc) {
		ab_fail(err, rc, "%s: out of memory", a->path);
		goto out_free_planners;
	}
	pick_aligns(x);
	x->has_offline = ab_offline_available(&x->in);
	rc = run_planners(x, a, pl, n_pl, err);
	add_time(x, AB_EXPLAIN_T_TOTAL, t0, now());
out_free_planners:
	free(pl);
	if (rc)
		ab_explanation_free(x);
	return rc;
}

void ab_explanation_free(struct ab_explanation *x)
{
	if (x->results)
		for (size_t i = 0; i < x->n_planners * x->n_aligns; i++)
			free(x->results[i].row.check.message);
	free(x->results);
	free(x->lb_live);
	free(x->strings);
	free(x->symbol);
	if (x->best_plan.offset)
		ab_plan_free(&x->best_plan);
	ab_input_free(&x->in);
	memset(x, 0, sizeof(*x));
}

/* ------------------------------------------------------ shared helpers */

/* The graph tensor of buffer i, or NULL (CSV problems). */
static const struct ab_tensor *tensor_of(const struct ab_explanation *x,
					 size_t i)
{
	const struct ab_problem *p = &x->in.problem;

	if (!x->in.has_graph || p->tensor[i] < 0 ||
	    (size_t)p->tensor[i] >= x->in.graph.n_tensors)
		return NULL;
	return &x->in.graph.tensors[p->tensor[i]];
}

static const char *buffer_name(const struct ab_explanation *x, size_t i,
			       char *buf, size_t len)
{
	const struct ab_tensor *t = tensor_of(x, i);

	if (t)
		return t->name;
	if (x->in.problem.label && x->in.problem.label[i])
		return x->in.problem.label[i];
	snprintf(buf, len, "%" PRId64, x->in.problem.id[i]);
	return buf;
}

/* "1x96x96x1", "scalar", or "-" when only a byte size is known. */
static const char *shape_text(const struct ab_tensor *t, char *buf,
			      size_t len)
{
	size_t k = 0;

	if (!t || t->rank < 0)
		return "-";
	if (t->rank == 0)
		return "scalar";
	buf[0] = 0;
	for (int d = 0; d < t->rank && k < len; d++)
		k += (size_t)snprintf(buf + k, len - k, "%s%" PRId64,
				      d ? "x" : "", t->dims[d]);
	return buf;
}

static const char *op_type(const struct ab_explanation *x, int op)
{
	const struct ab_op *o;

	if (op < 0 || !x->in.has_graph)
		return NULL;
	o = &x->in.graph.ops[op];
	return o->type ? o->type : "?";
}

/* Binary units, one decimal. */
static const char *human(uint64_t b, char *buf, size_t len)
{
	static const char *const unit[] = { "KiB", "MiB", "GiB", "TiB" };
	double v = (double)b;
	int u = -1;

	if (b < 1024) {
		snprintf(buf, len, "%" PRIu64 " B", b);
		return buf;
	}
	while (v >= 1024 && u < 3) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, "%.1f %s", v, unit[u]);
	return buf;
}

/* 1234567 -> "1,234,567". */
static const char *grouped(uint64_t v, char *buf, size_t len)
{
	char raw[32];
	size_t n, k = 0;

	snprintf(raw, sizeof(raw), "%" PRIu64, v);
	n = strlen(raw);
	for (size_t i = 0; i < n && k + 2 < len; i++) {
		if (i && (n - i) % 3 == 0)
			buf[k++] = ',';
		buf[k++] = raw[i];
	}
	buf[k] = 0;
	return buf;
}

static double ratio(uint64_t peak, uint64_t lb)
{
	return lb ? (double)peak / (double)lb : NAN;
}

static double reuse(uint64_t peak, uint64_t sum)
{
	return sum ? 1.0 - (double)peak / (double)sum : NAN;
}

static const char *format_name(const struct ab_explanation *x)
{
	return x->in.is_tflite ? "tflite" : x->in.has_graph ? "graph" : "csv";
}

static const char *lifetime_words(enum ab_lifetime_rule r)
{
	switch (r) {
	case AB_LIFETIMES_TFLITE:
		return "graph inputs live to the end of the run";
	case AB_LIFETIMES_TFLM:
		return "step 0 before the first operator; variables outside the arena";
	default:
		return "graph inputs live until their last read";
	}
}

/* ------------------------------------------------------------ timeline */

struct timeline {
	size_t n_all;        /* rows before sampling */
	size_t n;            /* rows shown */
	int64_t *time;       /* step (graph) or time (CSV) of each row */
	uint64_t *live;      /* live bytes at that time */
	bool sampled;
};

static uint64_t live_at(const struct ab_live_profile *lp, int64_t t)
{
	size_t lo = 0, hi = lp->n;

	while (lo < hi) { /* first k with time[k] > t */
		size_t mid = (lo + hi) / 2;

		if (lp->time[mid] <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? lp->bytes[lo - 1] : 0;
}

static void timeline_free(struct timeline *tl)
{
	free(tl->time);
	free(tl->live);
	memset(tl, 0, sizeof(*tl));
}

/* Rows: every step of a graph, every time a CSV problem changes; sampled
 * evenly down to max_rows, keeping the lower-bound step. */
static int timeline_make(const struct ab_explanation *x, size_t max_rows,
			 struct timeline *tl)
{
	const struct ab_problem *p = &x->in.problem;
	struct ab_live_profile lp;
	int64_t *all;
	size_t n = 0, lb_row = 0;
	int rc;

	memset(tl, 0, sizeof(*tl));
	if (max_rows < 2)
		max_rows = 2;
	rc = ab_live_profile(p, &lp);
	if (rc)
		return rc;
	all = malloc(((size_t)p->steps + lp.n + 1) * sizeof(*all));
	if (!all) {
		ab_live_profile_free(&lp);
		return -ENOMEM;
	}
	if (x->in.has_graph) {
		for (int32_t s = 0; s < p->steps; s++)
			all[n++] = s;
	} else {
		for (size_t k = 0; k < lp.n; k++)
			if (lp.time[k] < p->steps)
				all[n++] = lp.time[k];
	}
	for (size_t r = 0; r < n; r++)
		if (all[r] <= x->lb_step)
			lb_row = r;
	tl->n_all = n;
	tl->sampled = n > max_rows;
	tl->n = tl->sampled ? max_rows : n;
	tl->time = malloc((tl->n + 1) * sizeof(*tl->time));
	tl->live = malloc((tl->n + 1) * sizeof(*tl->live));
	if (!tl->time || !tl->live) {
		rc = -ENOMEM;
		goto out;
	}
	if (!tl->sampled) {
		memcpy(tl->time, all, n * sizeof(*all));
	} else {
		size_t near = 0, near_d = SIZE_MAX;

		for (size_t j = 0; j < tl->n; j++) {
			size_t r = (size_t)((double)j * (double)(n - 1) /
					    (double)(tl->n - 1) + 0.5);
			size_t d = r > lb_row ? r - lb_row : lb_row - r;

			tl->time[j] = all[r];
			if (d < near_d) {
				near_d = d;
				near = j;
			}
		}
		tl->time[near] = all[lb_row]; /* stays in order: nearest */
	}
	for (size_t j = 0; j < tl->n; j++)
		tl->live[j] = live_at(&lp, tl->time[j]);
out:
	free(all);
	ab_live_profile_free(&lp);
	if (rc)
		timeline_free(tl);
	return rc;
}


/* One row of the picture: the live buffers across the arena's width. */
static void draw_row(const struct ab_explanation *x, int64_t t, int width,
		     char *line)
{
	const struct ab_problem *p = &x->in.problem;
	const struct ab_plan *plan = &x->best_plan;
	double scale = plan->peak ? (double)width / (double)plan->peak : 0;

	memset(line, '.', (size_t)width);
	line[width] = 0;
	for (size_t i = 0; i < p->n; i++) {
		int c0, c1;

		if (p->buf[i].first > t || p->buf[i].last < t)
			continue;
		c0 = (int)((double)plan->offset[i] * scale);
		c1 = (int)ceil((double)(plan->offset[i] + p->buf[i].size) * scale);
		if (c0 >= width)
			c0 = width - 1;
		if (c1 <= c0)
			c1 = c0 + 1;
		if (c1 > width)
			c1 = width;
		memset(line + c0, x->symbol[i], (size_t)(c1 - c0));
	}
}

/* ---------------------------------------------------------------- text */

/* Long names keep their tail, which names the layer: "...conv1/Relu6". */
static const char *tail(const char *s, size_t width, char *buf, size_t len)
{
	size_t n = strlen(s);

	if (n <= width || width < 4 || width + 1 > len)
		return s;
	snprintf(buf, len, "...%s", s + n - (width - 3));
	return buf;
}

static void text_tensor_row(FILE *f, const struct ab_explanation *x,
			    size_t i, bool with_symbol)
{
	const struct ab_problem *p = &x->in.problem;
	const struct ab_tensor *t = tensor_of(x, i);
	char nb[32], sb[96], bb[32], tb[64];

	if (with_symbol)
		fprintf(f, "  %c ", x->symbol[i]);
	else
		fputs("  ", f);
	fprintf(f, "%-36.36s %-18.18s %-6s %12s  [%" PRId32 ", %" PRId32 "]  %s\n",
		tail(buffer_name(x, i, nb, sizeof(nb)), 36, tb, sizeof(tb)),
		shape_text(t, sb, sizeof(sb)),
		t ? ab_dtype_name(t->dtype) : "-",
		grouped(p->buf[i].size, bb, sizeof(bb)), p->buf[i].first,
		p->buf[i].last, t ? ab_kind_name(t->kind) : "");
}

static void text_header(FILE *f, const struct ab_explanation *x)
{
	const struct ab_input *in = &x->in;
	char a[32], b[32], h[32];

	fprintf(f, "explain: %s\n", in->path);
	if (in->has_graph)
		fprintf(f, "  format %s, %zu operators, %zu buffers in %" PRId32 " steps",
			format_name(x), in->ops, in->problem.n, in->problem.steps);
	else
		fprintf(f, "  format csv (minimalloc), %zu buffers over times [0, %" PRId32 "), %zu distinct",
			in->problem.n, in->problem.steps, in->ops);
	if (in->is_tflite)
		fprintf(f, ", subgraph %s (%zu in the file)",
			in->tflite.subgraph_name[0] ? in->tflite.subgraph_name : "0",
			in->tflite.n_subgraphs);
	fputs("\n", f);
	fprintf(f, "conventions: %s -- %u-byte alignment%s; ",
		!strcmp(x->runtime, "tflm") ? "TFLite Micro" : "TFLite",
		x->align, x->align_given ? " (--align)" : "");
	if (in->has_graph)
		fprintf(f, "lifetimes %s%s (%s); ",
			ab_lifetime_rule_name(x->lifetimes),
			x->lifetimes_given ? " (--lifetimes)" : "",
			lifetime_words(x->lifetimes));
	else
		fputs("lifetimes as the file gives them; ", f);
	if (x->round_to > 1)
		fprintf(f, "sizes rounded up to %u%s%s\n", x->round_to,
			x->round_given ? " (--round)" : "",
			in->has_graph ? "" : " (not applied: CSV problems are planned as given)");
	else
		fprintf(f, "sizes as stored%s\n", x->round_given ? " (--round)" : "");

	if (x->load_inplace)
		fprintf(f, "in place (--inplace): %zu tensors write into a last-read same-size input's buffer\n",
			in->problem.n_aliased);
	if (in->reordered)
		fprintf(f, "reordered (--reorder %s): lower bound %s -> %s bytes%s\n",
			ab_reorder_method_name(x->reorder_method),
			grouped(in->reorder.lower_bound_before, a, sizeof(a)),
			grouped(in->reorder.lower_bound_after, b, sizeof(b)),
			in->reorder.kept_original ? " (the file's order kept)" : "");
	if (x->tiers) {
		fputs("tiers (--tier):", f);
		for (int i = 0; i < x->tiers->n; i++) {
			fprintf(f, "%s %s ", i ? "," : "", x->tiers->tier[i].name);
			if (x->tiers->tier[i].capacity)
				fprintf(f, "%s bytes", grouped(x->tiers->tier[i].capacity, a, sizeof(a)));
			else
				fputs("unbounded", f);
		}
		fprintf(f, "; filled by %s; arena_bytes below is the sum of the tiers' peaks (`plan` gives each)\n",
			ab_tier_benefit_name(x->tiers->opt.benefit));
	}

	fputs("\nactivations\n", f);
	fprintf(f, "  sum of sizes     %14s bytes (%s)\n",
		grouped(x->sum_bytes, a, sizeof(a)), human(x->sum_bytes, h, sizeof(h)));
	fprintf(f, "  lower bound      %14s bytes (%s), the most bytes live at one step\n",
		grouped(x->lower_bound_bytes, b, sizeof(b)),
		human(x->lower_bound_bytes, h, sizeof(h)));
	if (in->has_graph) {
		fprintf(f, "  weights          %14s bytes (const tensors by shape",
			grouped(x->weights_bytes, a, sizeof(a)));
		if (in->is_tflite)
			fprintf(f, "; the file stores %s", grouped(x->weights_stored_bytes, b, sizeof(b)));
		fputs("; not in the arena)\n", f);
		fprintf(f, "  persistent       %14s bytes (variables; %s)\n",
			grouped(x->persistent_bytes, a, sizeof(a)),
			x->persistent_in_arena ? "planned in the arena, live for the whole run"
					       : "outside the arena under tflm");
	} else if (in->problem.capacity) {
		fprintf(f, "  capacity         %14s bytes (from the file name)\n",
			grouped(in->problem.capacity, a, sizeof(a)));
	}
	if (x->n_strings) {
		fprintf(f, "  string tensors   %zu (variable length: not planned, counted as 0 bytes):",
			x->n_strings);
		for (size_t s = 0; s < x->n_strings && s < 8; s++)
			fprintf(f, " %s", in->graph.tensors[x->strings[s]].name);
		fputs(x->n_strings > 8 ? " ...\n" : "\n", f);
	}
	if (in->is_tflite && x->n_dynamic)
		fprintf(f, "  dynamic shapes   %zu tensors have -1 in shape_signature; sizes use %s\n",
			x->n_dynamic,
			x->used_dims ? "the --dim values given" : "the stored shape (set --dim NAME=VALUE to override)");
	else if (in->is_tflite)
		fputs("  dynamic shapes   none (sizes from the stored shapes)\n", f);
}

static void text_planners(FILE *f, const struct ab_explanation *x)
{
	char a[32], b[32];
	int best = x->best;
	uint64_t best_peak = best >= 0 ? ab_explain_at(x, (size_t)best, 0)->row.check.peak_bytes : 0;

	fprintf(f, "\nplanners at %u-byte alignment (every plan is checked: geometric sweep and execution)\n",
		x->align);
	fprintf(f, "  %-20s %14s %9s %8s %14s  %s\n", "planner", "arena_bytes",
		"x_bound", "reuse", "vs_best", "checks");
	for (size_t k = 0; k < x->n_planners; k++) {
		const struct ab_explain_result *r = ab_explain_at(x, k, 0);

		if (!r->row.check.valid) {
			fprintf(f, "  %-20s %14s %9s %8s %14s  INVALID: %s\n",
				r->planner->name, r->row.check.peak_bytes ? grouped(r->row.check.peak_bytes, a, sizeof(a)) : "-",
				"-", "-", "-", r->row.check.message ? r->row.check.message : "?");
			continue;
		}
		snprintf(b, sizeof(b), "+%" PRIu64, r->row.check.peak_bytes - best_peak);
		fprintf(f, "  %-20s %14s %9.4f %7.1f%% %14s  valid (execution %s)\n",
			r->planner->name, grouped(r->row.check.peak_bytes, a, sizeof(a)),
			ratio(r->row.check.peak_bytes, x->lower_bound_bytes),
			100.0 * reuse(r->row.check.peak_bytes, x->sum_bytes),
			(int)k == best ? "best" : b,
			ab_exec_mode_name(r->row.check.exec_mode));
	}
	fputs("  (x_bound = arena / lower bound; reuse = 1 - arena / sum of sizes)\n", f);
	if (x->has_offline)
		fprintf(f, "  offline: the model's own plan places %zu buffers; %zu marked -1 were placed by first fit%s\n",
			x->offline.fixed, x->offline.runtime,
			x->offline.misaligned_fixed ? "" : "; every fixed offset meets the alignment");
	if (x->has_offline && x->offline.misaligned_fixed)
		fprintf(f, "  offline: %zu fixed offsets are not multiples of %u (used as given; checked at alignment 1)\n",
			x->offline.misaligned_fixed, x->align);
	if (!x->invalid)
		fprintf(f, "  all %zu plans valid (%zu planners x %zu alignments)\n",
			x->n_planners * x->n_aligns, x->n_planners, x->n_aligns);
	else
		fprintf(f, "  %zu of %zu plans INVALID\n", x->invalid,
			x->n_planners * x->n_aligns);
}

static void text_where(FILE *f, const struct ab_explanation *x)
{
	const struct ab_op *op = x->lb_op >= 0 ? &x->in.graph.ops[x->lb_op] : NULL;
	char a[32];

	fputs("\nwhere the memory goes: the lower-bound step\n", f);
	if (x->lb_step < 0) {
		fputs("  (nothing is live at any step)\n", f);
		return;
	}
	fprintf(f, "  step %" PRId32, x->lb_step);
	if (op)
		fprintf(f, ", operator %d %s '%s'", x->lb_op, op->type ? op->type : "?",
			op->name ? op->name : "");
	else if (x->in.has_graph)
		fputs(", before the first operator (graph inputs)", f);
	fprintf(f, ": %zu buffers live, %s bytes\n", x->n_lb_live,
		grouped(x->lower_bound_bytes, a, sizeof(a)));
	fprintf(f, "  %c %-36s %-18s %-6s %12s  %s\n", '#', "tensor", "shape",
		"dtype", "bytes", "lifetime [first, last]");
	for (size_t k = 0; k < x->n_lb_live; k++)
		text_tensor_row(f, x, x->lb_live[k], true);

	fprintf(f, "\nthe %zu largest tensors\n", x->n_largest);
	for (size_t k = 0; k < x->n_largest; k++)
		text_tensor_row(f, x, x->largest[k], false);
}

static void text_timeline(FILE *f, const struct ab_explanation *x,
			  const struct ab_explain_args *a)
{
	int width = a->timeline_width > 0 ? a->timeline_width : DEFAULT_WIDTH;
	size_t rows = a->timeline_rows ? a->timeline_rows : DEFAULT_ROWS;
	const struct ab_explain_result *r;
	struct timeline tl;
	char *line;
	char g[32], h[32];

	if (x->best < 0 || !x->best_plan.peak) {
		fputs("\ntimeline: no valid plan to draw\n", f);
		return;
	}
	if (width > 1000)
		width = 1000;
	r = ab_explain_at(x, (size_t)x->best, 0);
	line = malloc((size_t)width + 1);
	if (!line || timeline_make(x, rows, &tl)) {
		free(line);
		fputs("\ntimeline: out of memory\n", f);
		return;
	}
	fprintf(f, "\ntimeline of the best plan (%s, %s bytes): one row per %s, the arena across,\n"
		   "one column = %s bytes; a character per buffer (the # above), '.' free\n",
		r->planner->name, grouped(x->best_plan.peak, g, sizeof(g)),
		x->in.has_graph ? "step" : "time",
		grouped((x->best_plan.peak + (uint64_t)width - 1) / (uint64_t)width, h, sizeof(h)));
	if (tl.sampled)
		fprintf(f, "(sampled: %zu of %zu rows, evenly spaced, the lower-bound step kept)\n",
			tl.n, tl.n_all);
	for (size_t j = 0; j < tl.n; j++) {
		const char *type = NULL;
		if (x->in.has_graph) {
			int64_t op = ab_lifetime_op_at_step(x->lifetimes,
							    (int32_t)tl.time[j]);

			type = op >= 0 ? op_type(x, (int)op) : "(inputs)";
		}
		draw_row(x, tl.time[j], width, line);
		fprintf(f, "%7" PRId64 " %-17.17s |%s| %10s%s\n", tl.time[j],
			type ? type : "", line, human(tl.live[j], h, sizeof(h)),
			tl.time[j] == x->lb_step ? "  <- lower bound" : "");
	}
	timeline_free(&tl);
	free(line);
}

/* Index of the jj-th smallest alignment. */
static size_t align_rank(const struct ab_explanation *x, size_t jj)
{
	size_t order[AB_EXPLAIN_MAX_ALIGNS];

	for (size_t j = 0; j < x->n_aligns; j++) {
		size_t k = j;

		while (k > 0 && x->aligns[order[k - 1]] > x->aligns[j]) {
			order[k] = order[k - 1];
			k--;
		}
		order[k] = j;
	}
	return order[jj];
}

/* The planner modelled on the runtime's own arena, if it was run. */
static int runtime_planner(const struct ab_explanation *x)
{
	const char *name = !strcmp(x->runtime, "tflm") ? "tflm_greedy"
						       : "tflite_arena";

	for (size_t k = 0; k < x->n_planners; k++)
		if (!strcmp(ab_explain_at(x, k, 0)->planner->name, name))
			return (int)k;
	return -1;
}

static void text_alternatives(FILE *f, const struct ab_explanation *x)
{
	int b0 = best_at(x, 0);
	uint64_t base = b0 >= 0 ? ab_explain_at(x, (size_t)b0, 0)->row.check.peak_bytes : 0;
	char a[32];

	fputs("\nwhat other choices would give (best valid planner at each alignment)\n", f);
	fprintf(f, "  %-9s %-20s %14s %16s\n", "align", "best planner",
		"arena_bytes", "vs_in_use");
	for (size_t jj = 0; jj < x->n_aligns; jj++) {
		size_t j = align_rank(x, jj);
		int b = best_at(x, j);
		const struct ab_explain_result *r;
		char d[40];

		if (b < 0) {
			fprintf(f, "  %-9u %-20s\n", x->aligns[j], "(no valid plan)");
			continue;
		}
		r = ab_explain_at(x, (size_t)b, j);
		if (j == 0 || b0 < 0)
			snprintf(d, sizeof(d), "%s", j == 0 ? "(in use)" : "-");
		else if (r->row.check.peak_bytes == base)
			snprintf(d, sizeof(d), "same");
		else if (r->row.check.peak_bytes < base)
			snprintf(d, sizeof(d), "saves %" PRIu64, base - r->row.check.peak_bytes);
		else
			snprintf(d, sizeof(d), "costs %" PRIu64, r->row.check.peak_bytes - base);
		fprintf(f, "  %-9u %-20s %14s %16s\n", x->aligns[j],
			r->planner->name, grouped(r->row.check.peak_bytes, a, sizeof(a)), d);
	}
	if (b0 >= 0) {
		uint64_t worst = 0;
		const char *wn = NULL;

		for (size_t k = 0; k < x->n_planners; k++) {
			const struct ab_explain_result *r = ab_explain_at(x, k, 0);

			if (r->row.check.valid && r->row.check.peak_bytes >= worst) {
				worst = r->row.check.peak_bytes;
				wn = r->planner->name;
			}
		}
		int rt = runtime_planner(x);

		if (rt >= 0 && ab_explain_at(x, (size_t)rt, 0)->row.check.valid) {
			uint64_t own = ab_explain_at(x, (size_t)rt, 0)->row.check.peak_bytes;

			fprintf(f, "  strategy: the runtime's own planner (%s) needs %s bytes; ",
				ab_explain_at(x, (size_t)rt, 0)->planner->name,
				grouped(own, a, sizeof(a)));
			if (own > base)
				fprintf(f, "%s saves %s\n",
					ab_explain_at(x, (size_t)b0, 0)->planner->name,
					grouped(own - base, a, sizeof(a)));
			else
				fputs("no planner here does better\n", f);
		}
		if (wn && worst > base)
			fprintf(f, "  strategy: the worst, %s, needs %s bytes more than %s\n",
				wn, grouped(worst - base, a, sizeof(a)),
				ab_explain_at(x, (size_t)b0, 0)->planner->name);
		if (base > x->lower_bound_bytes)
			fprintf(f, "  at most %s bytes more could be saved by any plan (best - lower bound)\n",
				grouped(base - x->lower_bound_bytes, a, sizeof(a)));
		else
			fputs("  the best plan meets the lower bound: no plan can use less\n", f);
	}
}

int ab_explain_write_text(FILE *f, const struct ab_explanation *x,
			  const struct ab_explain_args *a)
{
	text_header(f, x);
	text_planners(f, x);
	text_where(f, x);
	text_timeline(f, x, a);
	text_alternatives(f, x);
	fprintf(f, "\ntime (wall / CPU ms): import %.1f / %.1f; planning at %u (%zu planners) %.1f / %.1f; at the other alignments %.1f / %.1f; checks %.1f / %.1f; total %.1f / %.1f\n",
		x->wall_ms[AB_EXPLAIN_T_IMPORT], x->cpu_ms[AB_EXPLAIN_T_IMPORT],
		x->align, x->n_planners - x->has_offline,
		x->wall_ms[AB_EXPLAIN_T_PLAN], x->cpu_ms[AB_EXPLAIN_T_PLAN],
		x->wall_ms[AB_EXPLAIN_T_PLAN_OTHER], x->cpu_ms[AB_EXPLAIN_T_PLAN_OTHER],
		x->wall_ms[AB_EXPLAIN_T_CHECKS], x->cpu_ms[AB_EXPLAIN_T_CHECKS],
		x->wall_ms[AB_EXPLAIN_T_TOTAL], x->cpu_ms[AB_EXPLAIN_T_TOTAL]);
	return ferror(f) ? -EIO : 0;
}

/* ---------------------------------------------------------------- JSON */

/* Length of a valid UTF-8 sequence at s (1..4), or 0. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n;
	uint32_t c;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0)
		n = 2, c = s[0] & 0x1f;
	else if ((s[0] & 0xf0) == 0xe0)
		n = 3, c = s[0] & 0x0f;
	else if ((s[0] & 0xf8) == 0xf0)
		n = 4, c = s[0] & 0x07;
	else
		return 0;
	for (size_t k = 1; k < n; k++) {
		if ((s[k] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[k] & 0x3f);
	}
	if ((n == 2 && c < 0x80) || (n == 3 && c < 0x800) ||
	    (n == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff))
		return 0;
	return n;
}

/* A JSON string: quotes, backslashes and control characters escaped;
 * bytes that are not UTF-8 become \u00XX (read as Latin-1). */
static void json_str(FILE *f, const char *s)
{
	const unsigned char *u = (const unsigned char *)(s ? s : "");

	if (!s) {
		fputs("null", f);
		return;
	}
	fputc('"', f);
	while (*u) {
		size_t n = utf8_len(u);

		if (*u == '"' || *u == '\\')
			fprintf(f, "\\%c", *u);
		else if (*u < 0x20 || *u == 0x7f || n == 0)
			fprintf(f, "\\u%04x", *u);
		else
			fwrite(u, 1, n, f);
		u += n ? n : 1;
	}
	fputc('"', f);
}

static void json_num(FILE *f, double v)
{
	if (isnan(v) || isinf(v))
		fputs("null", f);
	else
		fprintf(f, "%.6g", v);
}

static void json_tensor(FILE *f, const struct ab_explanation *x, size_t i)
{
	const struct ab_problem *p = &x->in.problem;
	const struct ab_tensor *t = tensor_of(x, i);
	char nb[32];

	fputs("{\"name\": ", f);
	json_str(f, buffer_name(x, i, nb, sizeof(nb)));
	fprintf(f, ", \"buffer\": %zu, \"tensor\": %" PRId32 ", \"kind\": ", i,
		p->tensor ? p->tensor[i] : -1);
	json_str(f, t ? ab_kind_name(t->kind) : NULL);
	fputs(", \"dtype\": ", f);
	json_str(f, t ? ab_dtype_name(t->dtype) : NULL);
	fputs(", \"shape\": ", f);
	if (t && t->rank >= 0) {
		fputc('[', f);
		for (int d = 0; d < t->rank; d++)
			fprintf(f, "%s%" PRId64, d ? ", " : "", t->dims[d]);
		fputc(']', f);
	} else {
		fputs("null", f);
	}
	fprintf(f, ", \"bytes\": %" PRIu64 ", \"first_step\": %" PRId32
		   ", \"last_step\": %" PRId32 ", \"symbol\": \"%c\"}",
		p->buf[i].size, p->buf[i].first, p->buf[i].last, x->symbol[i]);
}

static void json_result(FILE *f, const struct ab_explanation *x,
			const struct ab_explain_result *r)
{
	fputs("{\"planner\": ", f);
	json_str(f, r->planner->name);
	fprintf(f, ", \"align_bytes\": %u, \"valid\": %s, \"error\": ", r->align,
		r->row.check.valid ? "true" : "false");
	json_str(f, r->row.check.message);
	fprintf(f, ", \"peak_bytes\": %" PRIu64 ", \"ratio_to_lower_bound\": ",
		r->row.check.peak_bytes);
	json_num(f, r->row.check.valid ? ratio(r->row.check.peak_bytes, x->lower_bound_bytes) : NAN);
	fputs(", \"reuse_efficiency\": ", f);
	json_num(f, r->row.check.valid ? reuse(r->row.check.peak_bytes, x->sum_bytes) : NAN);
	fprintf(f, ", \"arenas\": %d, \"execution_check\": ", r->row.check.arenas);
	json_str(f, ab_exec_mode_name(r->row.check.exec_mode));
	fprintf(f, ", \"execution_check_reused\": %s", r->exec_reused ? "true" : "false");
	fputc('}', f);
}

int ab_explain_write_json(FILE *f, const struct ab_explanation *x)
{
	const struct ab_input *in = &x->in;
	const struct ab_op *op = x->lb_op >= 0 ? &in->graph.ops[x->lb_op] : NULL;
	struct ab_live_profile lp;
	int b0 = best_at(x, 0);

	fputs("{\n  \"input\": ", f);
	json_str(f, in->path);
	fputs(",\n  \"graph\": ", f);
	json_str(f, in->problem.name);
	fputs(",\n  \"format\": ", f);
	json_str(f, format_name(x));
	fputs(",\n  \"family\": ", f);
	json_str(f, in->family);
	fprintf(f, ",\n  \"operators\": %zu,\n  \"buffers\": %zu,\n  \"steps\": %" PRId32,
		in->has_graph ? in->ops : 0, in->problem.n, in->problem.steps);
	if (in->is_tflite) {
		fprintf(f, ",\n  \"tflite\": {\"subgraphs\": %zu, \"subgraph_name\": ",
			in->tflite.n_subgraphs);
		json_str(f, in->tflite.subgraph_name);
		fputs(", \"description\": ", f);
		json_str(f, in->tflite.description);
		fputc('}', f);
	}
	fputs(",\n  \"conventions\": {\"runtime\": ", f);
	json_str(f, x->runtime);
	fprintf(f, ", \"align_bytes\": %u, \"lifetimes\": ", x->align);
	json_str(f, ab_lifetime_rule_name(x->lifetimes));
	fprintf(f, ", \"round_bytes\": %u, \"round_applied\": %s, \"overridden\": [",
		x->round_to, in->has_graph && x->round_to > 1 ? "true" : "false");
	{
		const char *sep = "";

		if (x->align_given) {
			fputs("\"align\"", f);
			sep = ", ";
		}
		if (x->lifetimes_given) {
			fprintf(f, "%s\"lifetimes\"", sep);
			sep = ", ";
		}
		if (x->round_given)
			fprintf(f, "%s\"round\"", sep);
	}
	fprintf(f, "], \"inplace\": %s, \"aliased_tensors\": %zu, \"reorder\": ",
		x->load_inplace ? "true" : "false", in->problem.n_aliased);
	json_str(f, ab_reorder_method_name(x->reorder_method));
	fprintf(f, ", \"lower_bound_before_reorder_bytes\": %" PRIu64 ", \"tiers\": [",
		in->reordered ? in->reorder.lower_bound_before
			      : x->lower_bound_bytes);
	for (int i = 0; x->tiers && i < x->tiers->n; i++) {
		fputs(i ? ", {\"name\": " : "{\"name\": ", f);
		json_str(f, x->tiers->tier[i].name);
		fprintf(f, ", \"capacity_bytes\": %" PRIu64 "}", x->tiers->tier[i].capacity);
	}
	fputs("]}", f);
	fprintf(f, ",\n  \"sum_bytes\": %" PRIu64 ",\n  \"lower_bound_bytes\": %" PRIu64
		   ",\n  \"weights_bytes\": %" PRIu64 ",\n  \"weights_stored_bytes\": %" PRIu64
		   ",\n  \"persistent_bytes\": %" PRIu64 ",\n  \"persistent_in_arena\": %s",
		x->sum_bytes, x->lower_bound_bytes, x->weights_bytes,
		x->weights_stored_bytes, x->persistent_bytes,
		x->persistent_in_arena ? "true" : "false");
	if (in->problem.capacity)
		fprintf(f, ",\n  \"capacity_bytes\": %" PRIu64, in->problem.capacity);
	fputs(",\n  \"string_tensors\": [", f);
	for (size_t s = 0; s < x->n_strings; s++) {
		fputs(s ? ", " : "", f);
		json_str(f, in->graph.tensors[x->strings[s]].name);
	}
	fprintf(f, "],\n  \"dynamic_tensors\": %zu,\n  \"shape_source\": ", x->n_dynamic);
	json_str(f, !in->is_tflite ? "file" : x->used_dims ? "--dim" : "stored shape");

	fprintf(f, ",\n  \"all_plans_valid\": %s,\n  \"invalid_plans\": %zu,\n  \"planners\": [",
		x->invalid ? "false" : "true", x->invalid);
	for (size_t k = 0; k < x->n_planners; k++) {
		fputs(k ? ",\n    " : "\n    ", f);
		json_result(f, x, ab_explain_at(x, k, 0));
	}
	fputs("\n  ],\n  \"best_planner\": ", f);
	json_str(f, x->best >= 0 ? ab_explain_at(x, (size_t)x->best, 0)->planner->name : NULL);
	fputs(",\n  \"offline\": ", f);
	if (x->has_offline)
		fprintf(f, "{\"fixed_buffers\": %zu, \"runtime_buffers\": %zu, \"misaligned_fixed\": %zu}",
			x->offline.fixed, x->offline.runtime, x->offline.misaligned_fixed);
	else
		fputs("null", f);

	fprintf(f, ",\n  \"lower_bound_step\": {\"step\": %" PRId32 ", \"operator\": ", x->lb_step);
	if (op) {
		fprintf(f, "{\"index\": %d, \"name\": ", x->lb_op);
		json_str(f, op->name);
		fputs(", \"type\": ", f);
		json_str(f, op->type);
		fputc('}', f);
	} else {
		fputs("null", f);
	}
	fprintf(f, ", \"live_bytes\": %" PRIu64 ", \"tensors\": [", x->lower_bound_bytes);
	for (size_t k = 0; k < x->n_lb_live; k++) {
		fputs(k ? ",\n    " : "\n    ", f);
		json_tensor(f, x, x->lb_live[k]);
	}
	fputs("\n  ]},\n  \"largest_tensors\": [", f);
	for (size_t k = 0; k < x->n_largest; k++) {
		fputs(k ? ",\n    " : "\n    ", f);
		json_tensor(f, x, x->largest[k]);
	}
	fputs("\n  ],\n  \"alignments\": [", f);
	for (size_t j = 0; j < x->n_aligns; j++) {
		int b = best_at(x, j);

		fprintf(f, "%s{\"align_bytes\": %u, \"in_use\": %s, \"best_planner\": ",
			j ? ",\n    " : "\n    ", x->aligns[j], j ? "false" : "true");
		json_str(f, b >= 0 ? ab_explain_at(x, (size_t)b, j)->planner->name : NULL);
		if (b >= 0 && b0 >= 0)
			fprintf(f, ", \"peak_bytes\": %" PRIu64 ", \"saving_bytes\": %" PRId64 "}",
				ab_explain_at(x, (size_t)b, j)->row.check.peak_bytes,
				(int64_t)ab_explain_at(x, (size_t)b0, 0)->row.check.peak_bytes -
					(int64_t)ab_explain_at(x, (size_t)b, j)->row.check.peak_bytes);
		else
			fputs(", \"peak_bytes\": null, \"saving_bytes\": null}", f);
	}
	fputs("\n  ],\n  \"all_results\": [", f);
	for (size_t k = 0; k < x->n_planners * x->n_aligns; k++) {
		fputs(k ? ",\n    " : "\n    ", f);
		json_result(f, x, &x->results[k]);
	}
	fputs("\n  ]", f);
	for (int c = 0; c < 2; c++) {
		const double *v = c ? x->cpu_ms : x->wall_ms;

		fprintf(f, ",\n  \"%s\": {\"import\": %.3f, \"plan\": %.3f, \"plan_other_aligns\": %.3f, \"checks\": %.3f, \"total\": %.3f}",
			c ? "cpu_ms" : "time_ms", v[AB_EXPLAIN_T_IMPORT],
			v[AB_EXPLAIN_T_PLAN], v[AB_EXPLAIN_T_PLAN_OTHER],
			v[AB_EXPLAIN_T_CHECKS], v[AB_EXPLAIN_T_TOTAL]);
	}
	fputs(",\n  \"live_profile\": [", f);
	if (!ab_live_profile(&in->problem, &lp)) {
		for (size_t k = 0; k < lp.n; k++)
			fprintf(f, "%s[%" PRId64 ", %" PRIu64 "]", k ? ", " : "",
				lp.time[k], lp.bytes[k]);
		ab_live_profile_free(&lp);
	}
	fputs("]\n}\n", f);
	return ferror(f) ? -EIO : 0;
}

/* ---------------------------------------------------------------- plot */

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
