/* Memory tiers as a planner combinator: see tiers.h for the algorithm,
 * its cost and weak spots. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lib/range_tree.h"
#include "lib/tiers.h"

/* ---------------------------------------------------------- the ranking */

struct rank_entry {
	uint32_t index;
	uint32_t weight; /* benefit per byte: 1 or accesses */
	uint64_t size;
	uint64_t steps;  /* last - first + 1 */
	int32_t first;
};

/* Higher benefit / (size x steps) = weight / steps first; ties: larger,
 * earlier, lower index.  weight and steps are < 2^32: exact products. */
static int rank_cmp(const void *va, const void *vb)
{
	const struct rank_entry *a = va, *b = vb;
	uint64_t da, db;

	if ((a->size == 0) != (b->size == 0))
		return a->size == 0 ? -1 : 1;
	da = (uint64_t)a->weight * b->steps;
	db = (uint64_t)b->weight * a->steps;
	if (da != db)
		return da > db ? -1 : 1;
	if (a->size != b->size)
		return a->size > b->size ? -1 : 1;
	if (a->first != b->first)
		return a->first < b->first ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

static int rank_buffers(const struct ab_problem *p, const uint32_t *accesses,
			enum ab_tier_benefit benefit, uint32_t *ranked)
{
	struct rank_entry *e = malloc((p->n + 1) * sizeof(*e));

	if (!e)
		return -ENOMEM;
	for (size_t i = 0; i < p->n; i++) {
		uint32_t w = 1;

		if (benefit == AB_TIER_BY_ACCESSES && accesses)
			w = accesses[i] ? accesses[i] : 1;
		e[i] = (struct rank_entry){
			.index = (uint32_t)i,
			.weight = w,
			.size = p->buf[i].size,
			.steps = (uint64_t)((int64_t)p->buf[i].last - p->buf[i].first + 1),
			.first = p->buf[i].first,
		};
	}
	qsort(e, p->n, sizeof(*e), rank_cmp);
	for (size_t i = 0; i < p->n; i++)
		ranked[i] = e[i].index;
	free(e);
	return 0;
}

/* ------------------------------------------------------------- the search */

struct tier_search {
	const struct ab_problem *p;
	const struct ab_planner *pl;
	const struct ab_plan_options *o;
	struct ab_problem sub;   /* the buffers of one planner run */
	struct ab_plan sub_plan;
	uint32_t *map;           /* sub index -> buffer */
	bool *in_run;            /* buffer is in the next run */
	int *tier;               /* buffer -> tier, -1 while unplaced */
	uint64_t *tier_offset;   /* buffer -> offset inside its tier */
	int64_t *times;          /* distinct firsts and lasts + 1, ascending */
	size_t n_times;
	struct ab_range_tree live; /* raw bytes of the chosen set per time */
	uint64_t runs;
	uint64_t iterations;
	bool stopped_by_budget, stopped_by_time, stopped_by_size;
};

static size_t time_pos(const struct tier_search *s, int64_t t)
{
	size_t lo = 0, hi = s->n_times;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->times[mid] < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void live_range(const struct tier_search *s, size_t i, size_t *l,
		       size_t *r)
{
	*l = time_pos(s, s->p->buf[i].first);
	*r = time_pos(s, (int64_t)s->p->buf[i].last + 1);
}

static void live_reset(struct tier_search *s)
{
	ab_range_tree_clear(&s->live);
}

static void live_insert(struct tier_search *s, size_t i)
{
	size_t l, r;

	live_range(s, i, &l, &r);
	ab_range_add(&s->live, l, r - 1, s->p->buf[i].size);
}

/* The most raw bytes live at one step if buffer i joined the chosen set. */
static uint64_t live_peak_with(struct tier_search *s, size_t i)
{
	uint64_t size = s->p->buf[i].size, most;
	size_t l, r;

	live_range(s, i, &l, &r);
	most = ab_range_max(&s->live, l, r - 1);
	return most > UINT64_MAX - size ? UINT64_MAX : most + size;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static int search_init(struct tier_search *s, const struct ab_problem *p,
		       const struct ab_planner *pl,
		       const struct ab_plan_options *o)
{
	size_t n = p->n, m = n ? n : 1, k = 0;
	int rc;

	memset(s, 0, sizeof(*s));
	s->p = p;
	s->pl = pl;
	s->o = o;
	s->sub.buf = malloc(m * sizeof(*s->sub.buf));
	s->sub.id = malloc(m * sizeof(*s->sub.id));
	s->sub.tensor = malloc(m * sizeof(*s->sub.tensor));
	s->sub.label = p->label ? malloc(m * sizeof(*s->sub.label)) : NULL;
	s->map = malloc(m * sizeof(*s->map));
	s->in_run = calloc(m, sizeof(*s->in_run));
	s->tier = malloc(m * sizeof(*s->tier));
	s->tier_offset = calloc(m, sizeof(*s->tier_offset));
	s->times = malloc(2 * m * sizeof(*s->times));
	if (!s->sub.buf || !s->sub.id || !s->sub.tensor ||
	    (p->label && !s->sub.label) || !s->map || !s->in_run || !s->tier ||
	    !s->tier_offset || !s->times)
		return -ENOMEM;
	rc = ab_plan_alloc(&s->sub_plan, n);
	if (rc)
		return rc;
	for (size_t i = 0; i < n; i++) {
		s->tier[i] = -1;
		s->times[k++] = p->buf[i].first;
		s->times[k++] = (int64_t)p->buf[i].last + 1;
	}
	qsort(s->times, k, sizeof(*s->times), cmp_i64);
	for (size_t j = 0; j < k; j++)
		if (!s->n_times || s->times[s->n_times - 1] != s->times[j])
			s->times[s->n_times++] = s->times[j];
	if (ab_range_tree_init(&s->live, s->n_times ? s->n_times : 1))
		return -ENOMEM;
	/* The sub-problem keeps the problem's identity and schedule. */
	s->sub.name = p->name;
	s->sub.steps = p->steps;
	s->sub.n_phase_starts = p->n_phase_starts;
	s->sub.phase_starts = p->phase_starts;
	s->sub.weights_bytes = p->weights_bytes;
	s->sub.capacity = p->capacity;
	return 0;
}

static void search_free(struct tier_search *s)
{
	free(s->sub.buf);
	free(s->sub.id);
	free(s->sub.tensor);
	free(s->sub.label);
	free(s->map);
	free(s->in_run);
	free(s->tier);
	free(s->tier_offset);
	free(s->times);
	ab_range_tree_free(&s->live);
	ab_plan_free(&s->sub_plan);
}

/* Plans the buffers marked in_run (in index order); peak in *peak. */
static int run_planner(struct tier_search *s, uint64_t *peak)
{
	const struct ab_problem *p = s->p;
	size_t m = 0;
	int rc;

	for (size_t i = 0; i < p->n; i++) {
		if (!s->in_run[i])
			continue;
		s->map[m] = (uint32_t)i;
		s->sub.buf[m] = p->buf[i];
		s->sub.id[m] = p->id[i];
		s->sub.tensor[m] = p->tensor ? p->tensor[i] : -1;
		if (s->sub.label)
			s->sub.label[m] = p->label[i];
		m++;
	}
	s->sub.n = m;
	s->sub_plan.n = m;
	ab_plan_reset(&s->sub_plan);
	s->runs++;
	rc = s->pl->plan(&s->sub, s->o, &s->sub_plan);
	if (rc)
		return rc;
	s->iterations += s->sub_plan.iterations;
	s->stopped_by_budget |= s->sub_plan.stopped_by == AB_STOPPED_BUDGET;
	s->stopped_by_time |= s->sub_plan.stopped_by == AB_STOPPED_TIME;
	s->stopped_by_size |= s->sub_plan.stopped_by == AB_STOPPED_SIZE;
	*peak = s->sub_plan.peak;
	return 0;
}

/* Keeps the last run's offsets as the tier's. */
static void keep_run(struct tier_search *s)
{
	for (size_t j = 0; j < s->sub.n; j++)
		s->tier_offset[s->map[j]] = s->sub_plan.offset[j];
}

/* Marks exactly cand[0..len) (and nothing else of cand[0..m)) for a run. */
static void mark_prefix(struct tier_search *s, const uint32_t *cand,
			size_t m, size_t len)
{
	for (size_t j = 0; j < m; j++)
		s->in_run[cand[j]] = j < len;
}

/* Plans the prefix cand[0..len) alone: 1 if its peak fits in cap (kept:
 * *peak and the tier's offsets), 0 if not, or -errno. */
static int try_prefix(struct tier_search *s, const uint32_t *cand, size_t m,
		      size_t len, uint64_t cap, uint64_t *peak)
{
	uint64_t got;
	int rc;

	mark_prefix(s, cand, m, len);
	rc = run_planner(s, &got);
	if (rc)
		return rc;
	if (got > cap)
		return 0;
	*peak = got;
	keep_run(s);
	return 1;
}

/*
 * Fills a bounded tier from the candidates cand[0..m) (unplaced, in rank
 * order, each no larger than cap).  Chosen buffers get in_run set and
 * tier_offset filled; *peak is their planned peak.
 */
static int fill_tier(struct tier_search *s, const uint32_t *cand, size_t m,
		     uint64_t cap, uint64_t max_runs, uint64_t *peak,
		     bool *budget_hit)
{
	uint64_t start = s->runs, got;
	size_t hi = 0, lo = 0, fail_at = SIZE_MAX;
	int rc;

	*peak = 0;
	live_reset(s);
	while (hi < m && live_peak_with(s, cand[hi]) <= cap)
		live_insert(s, cand[hi++]);
	/* Step 2b: the lower-bound prefix, else binary search below it. */
	if (hi > 0) { /* max_runs >= 1 */
		rc = try_prefix(s, cand, m, hi, cap, peak);
		if (rc < 0)
			return rc;
		if (rc) {
			lo = hi;
		} else {
			size_t bad = hi;

			while (bad - lo > 1 && s->runs - start < max_runs) {
				size_t mid = lo + (bad - lo) / 2;

				rc = try_prefix(s, cand, m, mid, cap, peak);
				if (rc < 0)
					return rc;
				if (rc)
					lo = mid;
				else
					bad = mid;
			}
			if (bad == lo + 1)
				fail_at = lo; /* chosen + cand[lo] is known not to fit */
			else
				*budget_hit = true;
		}
	}
	mark_prefix(s, cand, m, lo);
	live_reset(s);
	for (size_t j = 0; j < lo; j++)
		live_insert(s, cand[j]);
	/* Step 2c: the greedy pass over the rest. */
	for (size_t j = lo; j < m; j++) {
		size_t i = cand[j];

		if (j == fail_at || live_peak_with(s, i) > cap)
			continue;
		if (s->runs - start >= max_runs) {
			*budget_hit = true;
			break;
		}
		s->in_run[i] = true;
		rc = run_planner(s, &got);
		if (rc)
			return rc;
		if (got <= cap) {
			*peak = got;
			keep_run(s);
			live_insert(s, i);
		} else {
			s->in_run[i] = false;
		}
	}
	return 0;
}

static int layout(struct tier_search *s, const struct ab_tier *tiers,
		  int n_tiers, const uint64_t *tier_peak, struct ab_plan *out)
{
	const struct ab_problem *p = s->p;
	uint64_t max_align = 1, base = 0;

	for (size_t i = 0; i < p->n; i++) {
		uint64_t a = ab_effective_align(p, i, s->o);

		if (a > max_align)
			max_align = a;
	}
	for (int t = 0; t < n_tiers; t++) {
		if (t > 0) {
			base = ab_align_up(out->arena_base[t - 1] +
						   out->arena_size[t - 1],
					   max_align);
			if (base < out->arena_base[t - 1])
				return -EOVERFLOW;
		}
		out->arena_base[t] = base;
		out->arena_size[t] = tier_peak[t];
		if (base + tier_peak[t] < base)
			return -EOVERFLOW;
	}
	for (size_t i = 0; i < p->n; i++) {
		out->arena[i] = (uint16_t)s->tier[i];
		out->offset[i] = out->arena_base[s->tier[i]] + s->tier_offset[i];
	}
	out->n_arenas = n_tiers;
	out->peak = out->arena_base[n_tiers - 1] + out->arena_size[n_tiers - 1];
	return 0;
}

static int need_message(struct tier_search *s, const struct ab_tier *tier,
			uint64_t need, struct ab_error *err)
{
	uint64_t lb = ab_lower_bound(&s->sub, NULL);

	return ab_fail(err, -ENOSPC,
		       "tier '%s': needs %" PRIu64 " bytes (the peak of the %zu remaining buffers, %" PRIu64
		       " bytes in all, under %s; no plan needs fewer than %" PRIu64 "), capacity %" PRIu64 " bytes",
		       tier->name, need, s->sub.n, ab_sum_bytes(&s->sub),
		       s->pl->name, lb, tier->capacity);
}

/* What the tiers hold, into *rep (zeroed by the caller). */
static void report(const struct tier_search *s, const uint32_t *accesses,
		   const struct ab_tier *tiers, int n_tiers,
		   const struct ab_plan *out, struct ab_tier_report *rep)
{
	const struct ab_problem *p = s->p;

	rep->n_tiers = n_tiers;
	rep->planner_runs = s->runs;
	for (int t = 0; t < n_tiers; t++) {
		rep->peak[t] = out->arena_size[t];
		rep->capacity[t] = tiers[t].capacity;
	}
	for (size_t i = 0; i < p->n; i++) {
		int t = s->tier[i];
		uint64_t a = accesses && accesses[i] ? accesses[i] : 1;
		uint64_t sz = p->buf[i].size;

		rep->buffers[t]++;
		rep->bytes[t] += sz;
		rep->access_bytes[t] += sz > UINT64_MAX / a ? UINT64_MAX : sz * a;
		if (t > 0) {
			rep->spilled_bytes += sz;
			rep->spilled_buffers++;
		}
	}
}

int ab_plan_tiers(const struct ab_problem *p, const uint32_t *accesses,
		  const struct ab_planner *pl, const struct ab_plan_options *o,
		  const struct ab_tier *tiers, int n_tiers,
		  const struct ab_tier_options *to, struct ab_plan *out,
		  struct ab_tier_report *rep, struct ab_error *err)
{
	struct ab_tier_options defaults = { .benefit = AB_TIER_BY_BYTES };
	struct ab_tier_report dummy;
	uint64_t tier_peak[AB_MAX_ARENAS] = { 0 };
	uint64_t max_runs;
	struct tier_search s;
	uint32_t *ranked = NULL, *cand = NULL;
	size_t n = p->n;
	int rc;

	if (!to)
		to = &defaults;
	if (!rep)
		rep = &dummy;
	memset(rep, 0, sizeof(*rep));
	rc = ab_tiers_check_list(tiers, n_tiers, err);
	if (rc)
		return rc;
	if (out->n != n)
		return ab_fail(err, -EINVAL,
			       "problem '%s': the plan has room for %zu buffers, expected %zu",
			       p->name ? p->name : "?", out->n, n);
	if (n > UINT32_MAX)
		return ab_fail(err, -EOVERFLOW, "problem '%s': too many buffers for tiers",
			       p->name ? p->name : "?");
	max_runs = to->max_runs_per_tier ? to->max_runs_per_tier
					 : AB_TIER_DEFAULT_RUNS;
	ab_plan_reset(out);
	rc = search_init(&s, p, pl, o);
	ranked = malloc((n + 1) * sizeof(*ranked));
	cand = malloc((n + 1) * sizeof(*cand));
	if (rc || !ranked || !cand) {
		rc = ab_fail(err, rc ? rc : -ENOMEM, "problem '%s': out of memory",
			     p->name ? p->name : "?");
		goto out;
	}
	rc = rank_buffers(p, accesses, to->benefit, ranked);
	if (rc) {
		rc = ab_fail(err, rc, "problem '%s': out of memory",
			     p->name ? p->name : "?");
		goto out;
	}
	for (int t = 0; t < n_tiers; t++) {
		bool last = t == n_tiers - 1;
		size_t m = 0;

		for (size_t j = 0; j < n; j++) {
			uint32_t i = ranked[j];

			s.in_run[i] = false;
			if (s.tier[i] < 0 &&
			    (last || p->buf[i].size <= tiers[t].capacity))
				cand[m++] = i;
		}
		if (last) {
			for (size_t j = 0; j < m; j++)
				s.in_run[cand[j]] = true;
			if (m) {
				rc = run_planner(&s, &tier_peak[t]);
				if (rc) {
					rc = ab_fail(err, rc, "tier '%s': planner %s failed on %zu buffers",
						     tiers[t].name, pl->name, m);
					goto out;
				}
				if (tiers[t].capacity &&
				    tier_peak[t] > tiers[t].capacity) {
					rc = need_message(&s, &tiers[t],
							  tier_peak[t], err);
					goto out;
				}
				keep_run(&s);
			}
		} else {
			rc = fill_tier(&s, cand, m, tiers[t].capacity, max_runs,
				       &tier_peak[t], &rep->budget_exhausted);
			if (rc) {
				rc = ab_fail(err, rc, "tier '%s': planner %s failed",
					     tiers[t].name, pl->name);
				goto out;
			}
		}
		for (size_t j = 0; j < m; j++)
			if (s.in_run[cand[j]])
				s.tier[cand[j]] = t;
	}
	rc = layout(&s, tiers, n_tiers, tier_peak, out);
	if (rc) {
		rc = ab_fail(err, rc, "problem '%s': the tiers' flat layout overflows 64 bits",
			     p->name ? p->name : "?");
		goto out;
	}
	/* One run over every buffer: the planner's own plan, outcome included. */
	if (s.runs == 1 && n_tiers == 1) {
		out->optimal = s.sub_plan.optimal;
		out->best_bound = s.sub_plan.best_bound;
	}
	out->iterations = s.iterations;
	out->stopped_by = s.stopped_by_budget ? AB_STOPPED_BUDGET
			  : s.stopped_by_time ? AB_STOPPED_TIME
			  : s.stopped_by_size ? AB_STOPPED_SIZE
					      : AB_STOPPED_NONE;
	report(&s, accesses, tiers, n_tiers, out, rep);
	rc = 0;
out:
	free(ranked);
	free(cand);
	search_free(&s);
	return rc;
}

int ab_tiers_combine(const void *self, const struct ab_planner *pl,
		     const struct ab_problem *p, const uint32_t *accesses,
		     const struct ab_plan_options *o, struct ab_plan *out,
		     struct ab_combined *res, struct ab_error *err)
{
	const struct ab_tier_set *t = self;
	struct ab_tier_report rep;
	int rc = ab_plan_tiers(p, accesses, pl, o, t->tier, t->n, &t->opt, out,
			       &rep, err);

	memset(res, 0, sizeof(*res));
	if (rc)
		return rc;
	memcpy(res->peak, rep.peak, sizeof(res->peak));
	res->spilled_bytes = rep.spilled_bytes;
	return 0;
}
