/*
 * exact: a complete branch and bound over canonical placements.
 *
 * Algorithm:
 *  1. Seed: the best fast heuristic (best_of) gives the incumbent plan and
 *     the upper bound UB; the live-bytes lower bound LB is the first bound.
 *     UB == LB: optimal, done.
 *  2. Decision search "fits in C bytes?" (minimalloc, Moffitt 2023):
 *     every solution can be pushed down until each buffer sits at 0 or on
 *     top of a time-overlapping buffer (gravity); sorted by (offset,
 *     preorder), such a solution places each buffer at its floor = the
 *     highest aligned end of the placed buffers overlapping it.  So a node
 *     branches on the unplaced buffers at their floors, in (floor,
 *     preorder) order, and only on those not lexicographically below the
 *     previous placement (symmetry: each canonical solution is reached
 *     once).  Pruning: dominance - a buffer whose floor is at or above
 *     some unplaced buffer's floor + size would leave that one a hole it
 *     could drop into, so the sorted scan stops there; bound - for every
 *     time section (maximal run of steps with one live set) the unplaced
 *     bytes must fit between max(section floor, current offset) and C.
 *  3. Three preorders (section total, section width, area - each with the
 *     other two as ties) are tried round-robin with node limits doubling
 *     from n, as minimalloc does; one exhaustive run proves C infeasible.
 *  4. Optimisation: C = LB first; if not found, a bisection on C between
 *     the best proven bound and the incumbent's peak - 1, where a found
 *     plan lowers UB to its own peak and a proof raises the bound to C + 1.
 * optimal = yes iff peak == proven bound; best_bound = that bound.
 * Budget: nodes (default 5000, option --budget), each decision getting
 * half of what remains (nodes and, with --safety-seconds, time); the
 * wall-clock safety stop sets stopped_by = time.  Deterministic: no
 * randomness, a node count is the only limit besides the safety stop.
 * Complexity: per node O(k log k + overlaps + sections), k = unplaced
 * buffers; exponential in the worst case (the problem is NP-hard).
 * Problems with more than 4000 buffers or 2e7 overlapping pairs are not
 * searched (the heuristic plan is returned, optimality unknown unless
 * UB == LB).
 * Source: Moffitt, "MiniMalloc: A Lightweight Memory Allocator for
 * Hardware-Accelerated Machine Learning", ASPLOS 2023 (canonical search,
 * section inference, dominance); own code.
 * Weak spots: proving infeasibility just below the optimum can need
 * exponentially many nodes when the optimum is above the live-bytes bound
 * (minimalloc D and J); no decomposition into independent time partitions.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "search.h"

#define DEFAULT_BUDGET 5000
#define MAX_SEARCHED 4000 /* buffers; the per-depth candidate arrays are m^2 */
#define MAX_PAIRS 20000000ull
#define N_PREORDERS 3

enum { FOUND, NOT_FOUND, ABORTED, TIMED_OUT };

struct exact {
	const struct ab_problem *p;
	size_t m;              /* searched buffers (size > 0) */
	uint32_t *buf;         /* search index -> problem index */
	uint64_t *size, *align;
	uint32_t *ov_start, *ov; /* CSR overlap lists (search indices) */
	uint32_t *sec_lo, *sec_hi; /* section range [lo, hi) per buffer */
	size_t n_sec;
	uint64_t *sec_total0;  /* initial unplaced bytes per section */
	uint32_t *sm_start, *sm; /* CSR: buffers live in each section */
	uint32_t *stamp, *affected; /* sections touched by one placement */
	uint32_t clock;
	uint32_t *pre[N_PREORDERS]; /* preorder rank per buffer */
	/* search state */
	const uint32_t *rank;
	uint64_t cap;
	uint64_t *off, *min_off, *sec_floor, *sec_total;
	bool *placed;
	size_t n_placed;
	uint32_t *cand;        /* per-depth candidate arrays, m * (m + 1) */
	uint32_t *root;        /* buffers by rank */
	/* undo log */
	struct undo { uint32_t what; uint64_t old; } *log;
	size_t n_log, cap_log;
	/* limits */
	uint64_t nodes, node_limit, nodes_total, budget;
	double deadline, sub_deadline; /* safety stop; this decision's share */
	bool timed_out;
};

static int log_push(struct exact *x, uint32_t what, uint64_t old)
{
	if (x->n_log == x->cap_log) {
		size_t cap = x->cap_log ? 2 * x->cap_log : 1024;
		void *l = realloc(x->log, cap * sizeof(*x->log));

		if (!l)
			return -ENOMEM;
		x->log = l;
		x->cap_log = cap;
	}
	x->log[x->n_log].what = what;
	x->log[x->n_log].old = old;
	x->n_log++;
	return 0;
}

/* The section bound after placing at `offset`. */
static bool check(const struct exact *x, uint64_t offset)
{
	for (size_t s = 0; s < x->n_sec; s++) {
		uint64_t f;

		if (!x->sec_total[s])
			continue;
		f = x->sec_floor[s] > offset ? x->sec_floor[s] : offset;
		if (f + x->sec_total[s] > x->cap)
			return false;
	}
	return true;
}

#define LOG_SEC 0x80000000u

static int place(struct exact *x, uint32_t b, uint64_t offset)
{
	uint64_t end = offset + x->size[b];
	size_t n_aff = 0;
	int rc = 0;

	if (++x->clock == 0) {
		memset(x->stamp, 0, x->n_sec * sizeof(*x->stamp));
		x->clock = 1;
	}
	x->off[b] = offset;
	x->placed[b] = true;
	x->n_placed++;
	for (uint32_t k = x->ov_start[b]; k < x->ov_start[b + 1] && !rc; k++) {
		uint32_t o = x->ov[k];
		uint64_t need;

		if (x->placed[o])
			continue;
		need = ab_align_up(end, x->align[o]);
		if (x->min_off[o] >= need)
			continue;
		rc = log_push(x, o, x->min_off[o]);
		x->min_off[o] = need;
		for (uint32_t s = x->sec_lo[o]; s < x->sec_hi[o]; s++)
			if (x->stamp[s] != x->clock) {
				x->stamp[s] = x->clock;
				x->affected[n_aff++] = s;
			}
	}
	for (uint32_t s = x->sec_lo[b]; s < x->sec_hi[b] && !rc; s++) {
		rc = log_push(x, s | LOG_SEC, x->sec_floor[s]);
		if (end > x->sec_floor[s])
			x->sec_floor[s] = end;
		x->sec_total[s] -= x->size[b];
	}
	/* A section's floor is at least its lowest unplaced floor. */
	for (size_t a = 0; a < n_aff && !rc; a++) {
		uint32_t s = x->affected[a];
		uint64_t low = UINT64_MAX;

		for (uint32_t k = x->sm_start[s]; k < x->sm_start[s + 1]; k++)
			if (!x->placed[x->sm[k]] && x->min_off[x->sm[k]] < low)
				low = x->min_off[x->sm[k]];
		if (low != UINT64_MAX && low > x->sec_floor[s]) {
			rc = log_push(x, s | LOG_SEC, x->sec_floor[s]);
			x->sec_floor[s] = low;
		}
	}
	return rc;
}

static void unplace(struct exact *x, uint32_t b, size_t mark)
{
	while (x->n_log > mark) {
		struct undo *u = &x->log[--x->n_log];

		if (u->what & LOG_SEC)
			x->sec_floor[u->what & ~LOG_SEC] = u->old;
		else
			x->min_off[u->what] = u->old;
	}
	for (uint32_t s = x->sec_lo[b]; s < x->sec_hi[b]; s++)
		x->sec_total[s] += x->size[b];
	x->placed[b] = false;
	x->n_placed--;
}

/* parent: the parent's candidates sorted by (floor, rank), k of them. */
static int search(struct exact *x, size_t depth, const uint32_t *parent,
		  size_t kp, uint64_t last_off, uint32_t last_rank)
{
	uint32_t *c = x->cand + depth * (x->m + 1);
	size_t k = 0;
	uint64_t min_height = UINT64_MAX;

	if (x->n_placed == x->m)
		return FOUND;
	if (x->nodes >= x->node_limit || x->nodes_total >= x->budget)
		return ABORTED;
	x->nodes++;
	x->nodes_total++;
	if (x->sub_deadline > 0 && (x->nodes_total & 63) == 0) {
		double now = ab_now_seconds();

		if (x->deadline > 0 && now > x->deadline) {
			x->timed_out = true;
			return TIMED_OUT;
		}
		if (now > x->sub_deadline)
			return ABORTED;
	}
	/* The parent's order minus the placed buffer, re-sorted by insertion:
	 * floors only rose, so few entries move. */
	for (size_t j = 0; j < kp; j++) {
		uint32_t b = parent[j];
		size_t at;

		if (x->placed[b])
			continue;
		at = k++;
		while (at > 0 && (x->min_off[c[at - 1]] > x->min_off[b] ||
				  (x->min_off[c[at - 1]] == x->min_off[b] &&
				   x->rank[c[at - 1]] > x->rank[b]))) {
			c[at] = c[at - 1];
			at--;
		}
		c[at] = b;
		if (x->min_off[b] + x->size[b] < min_height)
			min_height = x->min_off[b] + x->size[b];
	}
	for (size_t j = 0; j < k; j++) {
		uint32_t b = c[j];
		uint64_t off = x->min_off[b];
		size_t mark = x->n_log;
		int r = NOT_FOUND;

		if (off >= min_height)
			break; /* dominance: an unplaced buffer fits below */
		if (off < last_off ||
		    (off == last_off && x->rank[b] < last_rank))
			continue; /* not canonical */
		if (off + x->size[b] > x->cap)
			continue;
		if (place(x, b, off))
			return -ENOMEM;
		if (check(x, off))
			r = search(x, depth + 1, c, k, off, x->rank[b]);
		unplace(x, b, mark);
		if (r != NOT_FOUND)
			return r;
	}
	return NOT_FOUND;
}

/* One decision run with a given preorder and node limit. */
static int decide_once(struct exact *x, uint64_t cap, int h, uint64_t limit)
{
	x->cap = cap;
	x->rank = x->pre[h];
	x->nodes = 0;
	x->node_limit = limit;
	x->n_placed = 0;
	x->n_log = 0;
	for (size_t b = 0; b < x->m; b++) {
		x->placed[b] = false;
		x->min_off[b] = 0;
	}
	memset(x->sec_floor, 0, x->n_sec * sizeof(*x->sec_floor));
	memcpy(x->sec_total, x->sec_total0, x->n_sec * sizeof(*x->sec_total));
	if (!check(x, 0))
		return NOT_FOUND;
	/* root order: by rank (all floors are 0) */
	for (size_t b = 0; b < x->m; b++)
		x->root[x->rank[b]] = (uint32_t)b;
	return search(x, 0, x->root, x->m, 0, 0);
}

/* Round robin over the preorders with doubling limits (minimalloc). */
static int decide(struct exact *x, uint64_t cap, uint64_t budget)
{
	uint64_t start = x->nodes_total, limit = x->m + 1;

	for (;;) {
		limit *= 2;
		for (int h = 0; h < N_PREORDERS; h++) {
			int r;

			if (x->nodes_total - start >= budget)
				return ABORTED;
			r = decide_once(x, cap, h,
					limit < budget - (x->nodes_total - start)
						? limit
						: budget - (x->nodes_total - start));
			if (r != ABORTED || x->nodes_total >= x->budget)
				return r;
			if (x->sub_deadline > 0 &&
			    ab_now_seconds() > x->sub_deadline)
				return ABORTED;
		}
	}
}

/* ------------------------------------------------------------- set-up */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static size_t lower_u64(const uint64_t *a, size_t n, uint64_t v)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (a[mid] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Overlap lists by a sweep over buffers sorted by first use. */
static int build_overlaps(struct exact *x, uint32_t *by_first)
{
	size_t m = x->m, pairs = 0, n_act = 0;
	uint32_t *act = malloc((m + 1) * sizeof(*act));
	uint32_t *deg = calloc(m + 1, sizeof(*deg));
	int rc = -ENOMEM;
	const struct ab_buffer *B = x->p->buf;

	if (!act || !deg)
		goto out;
	/* pass 1: degrees; pass 2: fill */
	for (int pass = 0; pass < 2; pass++) {
		n_act = 0;
		for (size_t j = 0; j < m; j++) {
			uint32_t b = by_first[j];
			size_t w = 0;

			for (size_t a = 0; a < n_act; a++) {
				uint32_t o = act[a];

				if (B[x->buf[o]].last < B[x->buf[b]].first)
					continue;
				act[w++] = o;
				if (pass == 0) {
					deg[o]++;
					deg[b]++;
					if (++pairs > MAX_PAIRS) {
						rc = -E2BIG;
						goto out;
					}
				} else {
					x->ov[deg[o]++] = b;
					x->ov[deg[b]++] = o;
				}
			}
			n_act = w;
			act[n_act++] = b;
		}
		if (pass == 0) {
			x->ov_start = malloc((m + 1) * sizeof(*x->ov_start));
			x->ov = malloc((2 * pairs + 1) * sizeof(*x->ov));
			if (!x->ov_start || !x->ov)
				goto out;
			x->ov_start[0] = 0;
			for (size_t b = 0; b < m; b++)
				x->ov_start[b + 1] = x->ov_start[b] + deg[b];
			for (size_t b = 0; b < m; b++)
				deg[b] = x->ov_start[b];
		}
	}
	rc = 0;
out:
	free(act);
	free(deg);
	return rc;
}

static int setup(struct exact *x, const struct ab_problem *p,
		 const struct ab_plan_options *o)
{
	size_t m = 0, n_ev = 0;
	uint64_t *ev = NULL, *k1 = NULL, *k2 = NULL, *k3 = NULL;
	uint64_t *width = NULL, *total = NULL;
	uint32_t *order = NULL;
	struct ab_problem sub = { 0 };
	int rc = -ENOMEM;

	memset(x, 0, sizeof(*x));
	x->p = p;
	x->buf = malloc((p->n + 1) * sizeof(*x->buf));
	if (!x->buf)
		return -ENOMEM;
	for (size_t i = 0; i < p->n; i++)
		if (p->buf[i].size)
			x->buf[m++] = (uint32_t)i;
	x->m = m;
	if (m > MAX_SEARCHED)
		return -E2BIG;
	x->size = malloc((m + 1) * sizeof(*x->size));
	x->align = malloc((m + 1) * sizeof(*x->align));
	x->sec_lo = malloc((m + 1) * sizeof(*x->sec_lo));
	x->sec_hi = malloc((m + 1) * sizeof(*x->sec_hi));
	ev = malloc((2 * m + 1) * sizeof(*ev));
	order = malloc((m + 1) * sizeof(*order));
	k1 = malloc((m + 1) * sizeof(*k1));
	k2 = malloc((m + 1) * sizeof(*k2));
	k3 = malloc((m + 1) * sizeof(*k3));
	width = malloc((m + 1) * sizeof(*width));
	total = malloc((m + 1) * sizeof(*total));
	if (!x->size || !x->align || !x->sec_lo || !x->sec_hi || !ev ||
	    !order || !k1 || !k2 || !k3 || !width || !total)
		goto out;
	for (size_t b = 0; b < m; b++) {
		const struct ab_buffer *B = &p->buf[x->buf[b]];

		x->size[b] = B->size;
		x->align[b] = ab_effective_align(p, x->buf[b], o);
		ev[n_ev++] = (uint64_t)B->first;
		ev[n_ev++] = (uint64_t)B->last + 1;
	}
	/* Sections: between consecutive distinct event times. */
	qsort(ev, n_ev, sizeof(*ev), cmp_u64);
	{
		size_t w = 0;

		for (size_t e = 0; e < n_ev; e++)
			if (!w || ev[w - 1] != ev[e])
				ev[w++] = ev[e];
		n_ev = w;
	}
	x->n_sec = n_ev ? n_ev - 1 : 0;
	x->sec_total0 = calloc(x->n_sec + 1, sizeof(*x->sec_total0));
	x->sec_total = calloc(x->n_sec + 1, sizeof(*x->sec_total));
	x->sec_floor = calloc(x->n_sec + 1, sizeof(*x->sec_floor));
	x->off = calloc(m + 1, sizeof(*x->off));
	x->min_off = calloc(m + 1, sizeof(*x->min_off));
	x->placed = calloc(m + 1, sizeof(*x->placed));
	if (!x->sec_total0 || !x->sec_total || !x->sec_floor || !x->off ||
	    !x->min_off || !x->placed)
		goto out;
	for (size_t b = 0; b < m; b++) {
		const struct ab_buffer *B = &p->buf[x->buf[b]];

		x->sec_lo[b] = (uint32_t)lower_u64(ev, n_ev, (uint64_t)B->first);
		x->sec_hi[b] = (uint32_t)lower_u64(ev, n_ev,
						   (uint64_t)B->last + 1);
		for (uint32_t s = x->sec_lo[b]; s < x->sec_hi[b]; s++)
			x->sec_total0[s] += x->size[b];
	}
	x->sm_start = calloc(x->n_sec + 2, sizeof(*x->sm_start));
	x->stamp = calloc(x->n_sec + 1, sizeof(*x->stamp));
	x->affected = malloc((x->n_sec + 1) * sizeof(*x->affected));
	if (!x->sm_start || !x->stamp || !x->affected)
		goto out;
	{
		uint64_t cells = 0;

		for (size_t b = 0; b < m; b++) {
			cells += x->sec_hi[b] - x->sec_lo[b];
			for (uint32_t s = x->sec_lo[b]; s < x->sec_hi[b]; s++)
				x->sm_start[s + 2]++;
		}
		if (cells > MAX_PAIRS) {
			rc = -E2BIG;
			goto out;
		}
		for (size_t s = 0; s < x->n_sec; s++)
			x->sm_start[s + 2] += x->sm_start[s + 1];
		x->sm = malloc((cells + 1) * sizeof(*x->sm));
		if (!x->sm)
			goto out;
		for (size_t b = 0; b < m; b++)
			for (uint32_t s = x->sec_lo[b]; s < x->sec_hi[b]; s++)
				x->sm[x->sm_start[s + 1]++] = (uint32_t)b;
	}
	/* Overlaps: sort search indices by first use. */
	for (size_t b = 0; b < m; b++) {
		order[b] = (uint32_t)b;
		k1[b] = (uint64_t)p->buf[x->buf[b]].first;
	}
	rc = ab_order_stable_by(order, m, k1);
	if (!rc)
		rc = build_overlaps(x, order);
	if (rc)
		goto out;
	/* Preorders: keys per buffer, descending. */
	for (size_t b = 0; b < m; b++) {
		uint64_t t = 0;

		for (uint32_t s = x->sec_lo[b]; s < x->sec_hi[b]; s++)
			if (x->sec_total0[s] > t)
				t = x->sec_total0[s];
		total[b] = ~t;
		width[b] = ~(uint64_t)(x->sec_hi[b] - x->sec_lo[b]);
		k3[b] = ~(x->size[b] * (uint64_t)(p->buf[x->buf[b]].last -
						  p->buf[x->buf[b]].first + 1));
	}
	/* ab_order_by_keys works on a problem's n: a view with n = m. */
	sub.n = m;
	for (int h = 0; h < N_PREORDERS; h++) {
		const uint64_t *keys[3];

		x->pre[h] = malloc((m + 1) * sizeof(*x->pre[h]));
		if (!x->pre[h]) {
			rc = -ENOMEM;
			goto out;
		}
		keys[0] = h == 0 ? total : h == 1 ? width : k3;
		keys[1] = h == 0 ? width : h == 1 ? k3 : total;
		keys[2] = h == 0 ? k3 : h == 1 ? total : width;
		rc = ab_order_by_keys(&sub, order, keys, 3);
		if (rc)
			goto out;
		for (size_t r = 0; r < m; r++)
			x->pre[h][order[r]] = (uint32_t)r;
	}
	x->cand = malloc((m + 1) * (m + 1) * sizeof(*x->cand));
	x->root = malloc((m + 1) * sizeof(*x->root));
	rc = x->cand && x->root ? 0 : -ENOMEM;
out:
	free(ev);
	free(order);
	free(k1);
	free(k2);
	free(k3);
	free(width);
	free(total);
	return rc;
}

static void teardown(struct exact *x)
{
	free(x->buf);
	free(x->size);
	free(x->align);
	free(x->ov_start);
	free(x->ov);
	free(x->sec_lo);
	free(x->sec_hi);
	free(x->sec_total0);
	free(x->sm_start);
	free(x->sm);
	free(x->stamp);
	free(x->affected);
	free(x->sec_total);
	free(x->sec_floor);
	for (int h = 0; h < N_PREORDERS; h++)
		free(x->pre[h]);
	free(x->off);
	free(x->min_off);
	free(x->placed);
	free(x->cand);
	free(x->root);
	free(x->log);
}

/* ------------------------------------------------------------ planner */

static void take(struct exact *x, struct ab_plan *out)
{
	for (size_t i = 0; i < x->p->n; i++)
		out->offset[i] = 0;
	for (size_t b = 0; b < x->m; b++)
		out->offset[x->buf[b]] = x->off[b];
	ab_plan_finish_single(out, x->p);
}

static int plan_exact(const struct ab_problem *p,
		      const struct ab_plan_options *o, struct ab_plan *out)
{
	const struct ab_planner *seed = ab_planner_find("best_of");
	struct exact x;
	uint64_t lb = ab_lower_bound(p, NULL), bound, lo, hi;
	uint64_t budget = o->budget ? o->budget : DEFAULT_BUDGET;
	bool exhausted = false;
	int rc;

	if (!seed)
		return -ENOENT;
	rc = seed->plan(p, o, out);
	if (rc)
		return rc;
	out->stopped_by = AB_STOPPED_NONE;
	out->iterations = 0;
	bound = lb;
	if (out->peak <= bound || out->n_arenas != 1 || out->arena_base[0]) {
		/* A multi-arena seed is flattened by re-running below only if
		 * the search finds a single-arena plan; keep it otherwise. */
		if (out->peak <= bound)
			goto done;
	}
	rc = setup(&x, p, o);
	if (rc == -E2BIG) {
		teardown(&x);
		rc = 0;
		goto done;
	}
	if (rc)
		goto out_free;
	x.budget = budget;
	x.deadline = o->safety_seconds > 0
			     ? ab_now_seconds() + o->safety_seconds
			     : 0;
	/* C = LB first, then bisect between the bound and UB - 1. */
	lo = bound;
	hi = out->peak - 1;
	while (lo <= hi && !x.timed_out && x.nodes_total < x.budget) {
		uint64_t c = lo == bound && lo == lb && !x.nodes_total
				     ? lo
				     : lo + (hi - lo) / 2;
		uint64_t share = x.budget - x.nodes_total;
		int r;

		share = share / 2 > x.m ? share / 2 : share;
		/* half the remaining safety time too, so bisection gets a turn */
		x.sub_deadline = x.deadline > 0
			? (ab_now_seconds() + x.deadline) / 2 : 0;
		r = decide(&x, c, share);
		if (r < 0) {
			rc = r;
			goto out_free;
		}
		if (r == FOUND) {
			take(&x, out);
			hi = out->peak - 1;
		} else if (r == NOT_FOUND) {
			bound = c + 1;
			lo = c + 1;
		} else {
			/* unknown: look higher, prove nothing */
			lo = c + 1;
		}
	}
	exhausted = lo > hi;
	out->iterations = x.nodes_total;
	if (x.timed_out)
		out->stopped_by = AB_STOPPED_TIME;
	else if (!exhausted || out->peak > bound)
		out->stopped_by = x.nodes_total >= x.budget ? AB_STOPPED_BUDGET
							    : AB_STOPPED_NONE;
	teardown(&x);
done:
	out->best_bound = bound;
	out->optimal = out->peak <= bound ? AB_OPTIMAL_YES : AB_OPTIMAL_UNKNOWN;
	return 0;
out_free:
	teardown(&x);
	return rc;
}

const struct ab_planner ab_planner_exact = {
	.name = "exact",
	.about = "branch and bound over canonical placements (minimalloc-style), seeded by best_of",
	.cost = AB_COST_BUDGETED,
	.plan = plan_exact,
};
