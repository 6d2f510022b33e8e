/*
 * `arenabench explain`: the analysis (ab_explain): every planner at every
 * alignment, checked, the lower-bound step, the largest buffers and the
 * timeline symbols.  The writers are explain_text.c, explain_json.c and
 * explain_plot.c, over the helpers of explain_format.c.  See explain.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report/explain.h"
#include "report/explain_format.h"
#include "bench/run.h"
#include "check/check.h"
#include "core/sort.h"
#include "core/strmap.h"

#define FULL_CHECK_BYTES (8ull << 20)

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

int ab_unknown_planner(const char *name, struct ab_error *err)
{
	const char *names[128], *near;
	size_t n = 0;

	for (size_t i = 0; i < ab_planner_count() && n < 128; i++)
		names[n++] = ab_planner_at(i)->name;
	near = ab_closest_name(name, names, n);
	return ab_fail(err, -EINVAL, "unknown planner '%s' (%s%s%ssee arenabench list)", name,
		       near ? "did you mean " : "", near ? near : "", near ? "? " : "");
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
				rc = ab_unknown_planner(t, err);
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
 * whose last holder ended earliest.  Up to 62 buffers every one has its
 * own; beyond, a character is reused once its holder has ended, so
 * buffers live together differ whenever at most 62 are live at once, and
 * x->symbol_clashes counts the buffers whose character's holder was still
 * live at their first step. */
static const char symbols[] =
	"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
#define N_SYMBOLS (sizeof(symbols) - 1)

static int assign_symbols(struct ab_explanation *x)
{
	const struct ab_problem *p = &x->in.problem;
	int64_t holder_last[N_SYMBOLS];
	uint32_t *order = malloc((p->n + 1) * sizeof(*order));

	x->symbol = malloc(p->n + 1);
	x->by_first_use = order;
	if (!order || !x->symbol || ab_order_first_use(p, order))
		return -ENOMEM;
	for (size_t s = 0; s < N_SYMBOLS; s++)
		holder_last[s] = INT64_MIN + (int64_t)s;
	for (size_t j = 0; j < p->n; j++) {
		size_t best = 0;

		for (size_t s = 1; s < N_SYMBOLS; s++)
			if (holder_last[s] < holder_last[best])
				best = s;
		if (holder_last[best] >= p->buf[order[j]].first)
			x->symbol_clashes++;
		holder_last[best] = p->buf[order[j]].last;
		x->symbol[order[j]] = symbols[best];
	}
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
				: x->in.is_onnx ? x->in.onnx.weights_bytes
						: p->weights_bytes;
	x->persistent_in_arena = x->lifetimes == AB_LIFETIMES_DEFAULT;
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
	x->lb_part = -1;
	for (int j = 0; p->part && p->n_parts > 1 && j < p->n_parts; j++) {
		static const uint64_t none = 0;
		size_t nb;
		uint64_t b = ab_explain_part_bound(x, j, &nb);
		uint64_t top = x->lb_part < 0 ? none
			       : ab_explain_part_bound(x, x->lb_part, &nb);

		/* ab_lower_bound's step is the first largest part's */
		if (x->lb_part < 0 || b > top)
			x->lb_part = j;
	}
	for (size_t i = 0; i < p->n; i++) {
		all[i] = i;
		if (p->buf[i].first <= x->lb_step && x->lb_step <= p->buf[i].last &&
		    (x->lb_part < 0 || p->part[i] == x->lb_part)) {
			x->lb_live[x->n_lb_live++] = i;
			x->lb_live_bytes += p->buf[i].size;
		}
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

/* Which of tied planners names the best plan: the runtime's own planner
 * (what the user would get without a choice) first, then best_of (it
 * copies one of the tied plans), then registry order (alphabetical). */
static int tie_rank(const struct ab_explanation *x, const struct ab_planner *pl)
{
	if (!strcmp(pl->name, ab_explain_runtime_planner_name(x)))
		return 0;
	return !strcmp(pl->name, "best_of") ? 1 : 2;
}

int ab_explain_best_at(const struct ab_explanation *x, size_t j)
{
	int best = -1;

	for (size_t k = 0; k < x->n_planners; k++) {
		const struct ab_explain_result *r = ab_explain_at(x, k, j), *b;

		if (!r->row.check.valid)
			continue;
		b = best >= 0 ? ab_explain_at(x, (size_t)best, j) : NULL;
		if (!b || r->row.check.peak_bytes < b->row.check.peak_bytes ||
		    (r->row.check.peak_bytes == b->row.check.peak_bytes &&
		     tie_rank(x, r->planner) < tie_rank(x, b->planner)))
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
	return ab_clock_ns(c) / 1e6;
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
		r->planner = ab_planner_find("offline");
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
	rc = ab_check_plan(ab_input_graph(&x->in), &x->in.problem, plan, o->align, mode, cache, &r->row.check);
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
		int b = ab_explain_best_at(x, 0);

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
	x->runtime_reason = a->runtime_reason;
	x->align = a->plan.align ? a->plan.align : 1;
	x->lifetimes = a->load.problem.lifetimes;
	x->round_to = a->load.problem.round_to > 1 ? a->load.problem.round_to : 1;
	x->align_given = a->align_given;
	x->lifetimes_given = a->lifetimes_given;
	x->round_given = a->round_given;
	x->load_inplace = a->load.problem.inplace;
	x->reorder_method = a->load.reorder.method;
	x->tiers = a->tiers && a->tiers->n ? a->tiers : NULL;
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
	free(x->by_first_use);
	if (x->best_plan.offset)
		ab_plan_free(&x->best_plan);
	ab_input_free(&x->in);
	memset(x, 0, sizeof(*x));
}

const char *ab_explain_runtime_planner_name(const struct ab_explanation *x)
{
	return !strcmp(x->runtime, "tflm")	   ? "tflm_greedy"
	       : !strcmp(x->runtime, "onnxruntime") ? "ort_sequential"
						     : "tflite_arena";
}

int ab_explain_runtime_planner(const struct ab_explanation *x)
{
	const char *name = ab_explain_runtime_planner_name(x);

	for (size_t k = 0; k < x->n_planners; k++)
		if (!strcmp(ab_explain_at(x, k, 0)->planner->name, name))
			return (int)k;
	return -1;
}

uint64_t ab_explain_part_bound(const struct ab_explanation *x, int j,
			       size_t *buffers)
{
	const struct ab_problem *p = &x->in.problem;
	struct ab_problem one = { 0 };
	uint64_t lb;

	*buffers = 0;
	if (!p->part || j < 0 || j >= p->n_parts)
		return 0;
	one.buf = malloc((p->n + 1) * sizeof(*one.buf));
	if (!one.buf)
		return 0;
	for (size_t i = 0; i < p->n; i++)
		if (p->part[i] == j)
			one.buf[one.n++] = p->buf[i];
	lb = ab_lower_bound(&one, NULL);
	*buffers = one.n;
	free(one.buf);
	return lb;
}
