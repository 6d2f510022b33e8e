/*
 * The decision search: see fit_search.h for the contract and
 * planners/exact.c for the steps (canonical plans, dominance, the
 * section bound and its witnesses, decomposition, preorders).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fit_search.h"
#include "lib/rng_clock.h"

#define LOG_SECTION 0x80000000u
#define NO_WITNESS UINT32_MAX
#define PLACED UINT64_MAX /* the floor of a placed buffer */

void ab_fit_report(struct ab_fit_search *x, bool improved)
{
	if (!x->line || ab_now_seconds() - x->line->t0 < 1.0)
		return;
	ab_progress_line_say(x->line, improved ? AB_REPORT_IMPROVED : AB_REPORT_TICK,
		     x->peak_now, x->bound_now, x->nodes_total);
}

/* Logs a change: a buffer's old floor (set .old after) or a section's
 * old witness. */
static int log_push(struct ab_fit_search *x, uint32_t what, uint32_t aux)
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
	x->log[x->n_log].aux = aux;
	x->n_log++;
	return 0;
}

static bool is_placed(const struct ab_fit_search *x, uint32_t b)
{
	return x->min_off[b] == PLACED;
}

static bool is_pinned(const struct ab_fit_search *x, uint32_t b)
{
	return x->pin && x->pin[b] != AB_FIT_NO_PIN;
}

/* Where b goes if placed now: its floor, or a fixed buffer's own offset. */
static uint64_t place_at(const struct ab_fit_search *x, uint32_t b)
{
	return is_pinned(x, b) ? x->pin[b] : x->min_off[b];
}

static int stack_room(struct ab_fit_search *x, size_t need)
{
	if (x->n_stk + need > x->cap_stk) {
		size_t cap = 2 * (x->n_stk + need);
		void *s = realloc(x->stk, cap * sizeof(*x->stk));

		if (!s)
			return -ENOMEM;
		x->stk = s;
		x->cap_stk = cap;
	}
	return 0;
}

/*
 * The section bound.  Every unplaced buffer live in section s overlaps all
 * the others there, so they stack: the lowest starts at its floor or
 * higher, and the stack needs that floor + the section's unplaced total
 * <= C.  That holds iff some unplaced buffer of s has floor <= C - total:
 * a witness.  Totals only fall and floors only rise while descending, so
 * a witness stays one until it rises past the threshold or is placed;
 * only then is s scanned for another.  (The other half of the bound, with
 * the offset of the last placement as the floor, is checked per node with
 * the largest section total.)
 */
static void set_witness(struct ab_fit_search *x, uint32_t s, uint32_t w)
{
	if (x->witness[s] != NO_WITNESS)
		x->n_witnessed[x->witness[s]]--;
	x->witness[s] = w;
	if (w != NO_WITNESS)
		x->n_witnessed[w]++;
}

/* Re-finds section s a witness if it lost its own, logging the change.
 * Returns 0, or 1 if s has unplaced bytes and no witness. */
static int rewitness(struct ab_fit_search *x, uint32_t s)
{
	uint32_t w = x->witness[s];
	uint64_t thr;

	if (!x->sec_total[s])
		return 0;
	if (x->sec_total[s] > x->cap + x->sec_pad[s])
		return 1;
	thr = x->cap + x->sec_pad[s] - x->sec_total[s];
	if (w != NO_WITNESS && x->min_off[w] <= thr)
		return 0; /* still one (a placed buffer's floor is PLACED) */
	w = NO_WITNESS;
	for (uint32_t k = x->sm_start[s]; k < x->sm_start[s + 1]; k++)
		if (x->min_off[x->sm[k]] <= thr) {
			w = x->sm[k];
			break;
		}
	if (log_push(x, s | LOG_SECTION, x->witness[s]))
		return -ENOMEM;
	set_witness(x, s, w);
	return w == NO_WITNESS;
}

/* Places b at offset: raises the floors of the unplaced buffers over it,
 * takes its bytes out of its sections and re-finds the witnesses it
 * broke.  Returns 0, 1 when a section bound fails, or -ENOMEM; every
 * change is undone by unplace(). */
static int place(struct ab_fit_search *x, uint32_t b, uint64_t offset)
{
	uint64_t end = offset + x->size[b];
	size_t n_aff = 0;

	if (++x->clock == 0) {
		memset(x->stamp, 0, x->n_sec * sizeof(*x->stamp));
		x->clock = 1;
	}
	x->sol[b] = offset;
	x->min_off[b] = PLACED;
	for (uint32_t k = x->ov_start[b]; k < x->ov_start[b + 1]; k++) {
		uint32_t o = x->ov[k];
		uint64_t need = ab_align_up(end, x->align[o]);

		if (x->min_off[o] >= need)
			continue; /* high enough, or placed */
		if (log_push(x, o, 0) < 0)
			return -ENOMEM;
		x->log[x->n_log - 1].old = x->min_off[o];
		x->min_off[o] = need;
		x->raised[o] = x->clock;
		if (!x->n_witnessed[o])
			continue;
		for (uint32_t s = x->sec_lo[o]; s < x->sec_hi[o]; s++)
			if (x->witness[s] == o && x->stamp[s] != x->clock) {
				x->stamp[s] = x->clock;
				x->affected[n_aff++] = s;
			}
	}
	for (uint32_t s = x->sec_lo[b]; s < x->sec_hi[b]; s++) {
		x->sec_total[s] -= x->asize[b];
		if (s + 1 < x->sec_hi[b])
			x->cuts[s]--;
		if (x->witness[s] == b && x->stamp[s] != x->clock) {
			x->stamp[s] = x->clock;
			x->affected[n_aff++] = s;
		}
	}
	for (size_t a = 0; a < n_aff; a++) {
		int rc = rewitness(x, x->affected[a]);

		if (rc)
			return rc;
	}
	return 0;
}

static void unplace(struct ab_fit_search *x, uint32_t b, size_t mark)
{
	while (x->n_log > mark) {
		const struct ab_fit_undo *u = &x->log[--x->n_log];

		if (u->what & LOG_SECTION)
			set_witness(x, u->what & ~LOG_SECTION, u->aux);
		else
			x->min_off[u->what] = u->old;
	}
	for (uint32_t s = x->sec_lo[b]; s < x->sec_hi[b]; s++) {
		x->sec_total[s] += x->asize[b];
		if (s + 1 < x->sec_hi[b])
			x->cuts[s]++;
	}
	x->min_off[b] = x->sol[b];
}

/* Did placing b leave a boundary inside its range that no unplaced buffer
 * crosses? */
static bool splits(const struct ab_fit_search *x, uint32_t b)
{
	for (uint32_t s = x->sec_lo[b]; s + 1 < x->sec_hi[b]; s++)
		if (!x->cuts[s])
			return true;
	return false;
}

static int search(struct ab_fit_search *x, uint32_t lo, uint32_t hi, size_t at,
		  size_t kp, uint32_t raised_at, uint64_t last_off,
		  uint32_t last_rank);

/* Would free buffer b at off overlap a fixed buffer not yet placed? */
static bool covers_pinned(const struct ab_fit_search *x, uint32_t b, uint64_t off)
{
	uint64_t end = off + x->size[b];

	for (uint32_t k = x->ov_start[b]; k < x->ov_start[b + 1]; k++) {
		uint32_t o = x->ov[k];

		if (is_pinned(x, o) && !is_placed(x, o) && x->pin[o] < end &&
		    x->pin[o] + x->size[o] > off)
			return true;
	}
	return false;
}

static bool before(const struct ab_fit_search *x, uint32_t a, uint32_t b)
{
	uint64_t pa = place_at(x, a), pb = place_at(x, b);

	return pa < pb || (pa == pb && x->rank[a] < x->rank[b]);
}

static int cmp_candidate(const void *pa, const void *pb)
{
	const struct ab_fit_candidate *a = pa, *b = pb;

	if (a->floor != b->floor)
		return a->floor < b->floor ? -1 : 1;
	return (a->rank > b->rank) - (a->rank < b->rank);
}

/* Writes the unplaced buffers of the list stk[at..at+kp) to c sorted by
 * (floor, rank) and returns their number.  If raised_at is the clock of
 * the placement since which the list was sorted, only the buffers that
 * placement raised are out of order: they are sorted apart and merged
 * back.  raised_at = 0: sort everything. */
static size_t order_candidates(struct ab_fit_search *x, size_t at, size_t kp,
			       uint32_t raised_at, uint32_t *c)
{
	struct ab_fit_candidate *r = x->scratch;
	size_t k = 0, n_r = 0, i, j;

	for (size_t q = 0; q < kp; q++) {
		uint32_t b = x->stk[at + q];

		if (is_placed(x, b))
			continue;
		if (!raised_at || x->raised[b] == raised_at) {
			r[n_r].floor = place_at(x, b);
			r[n_r].rank = x->rank[b];
			r[n_r++].b = b;
		} else {
			c[k++] = b;
		}
	}
	if (n_r > 24) {
		qsort(r, n_r, sizeof(*r), cmp_candidate);
	} else {
		for (i = 1; i < n_r; i++) {
			struct ab_fit_candidate t = r[i];

			for (j = i; j > 0 && cmp_candidate(&r[j - 1], &t) > 0;
			     j--)
				r[j] = r[j - 1];
			r[j] = t;
		}
	}
	/* merge from the back */
	i = k;
	j = n_r;
	for (size_t w = k + n_r; w-- > 0;) {
		if (j > 0 && (i == 0 || before(x, c[i - 1], r[j - 1].b)))
			c[w] = r[--j].b;
		else
			c[w] = c[--i];
	}
	return k + n_r;
}

static int cmp_rank_key(const void *pa, const void *pb)
{
	const struct ab_fit_rank_key *a = pa, *b = pb;

	for (int k = 0; k < 3; k++)
		if (a->key[k] != b->key[k])
			return a->key[k] > b->key[k] ? -1 : 1;
	return (a->b > b->b) - (a->b < b->b);
}

/* Ranks the piece list[0..k) afresh by the current preorder with section
 * totals of what is left (minimalloc's per-partition preorder), and sorts
 * the list by it. */
static void rerank(struct ab_fit_search *x, uint32_t *list, size_t k)
{
	struct ab_fit_rank_key *rk = x->rank_keys;

	for (size_t j = 0; j < k; j++) {
		uint32_t b = list[j];
		uint64_t v[3], t = 0;

		for (uint32_t s = x->sec_lo[b]; s < x->sec_hi[b]; s++)
			if (x->sec_total[s] > t)
				t = x->sec_total[s];
		v[AB_FIT_KEY_WIDTH] = x->width[b];
		v[AB_FIT_KEY_AREA] = x->width[b] * x->size[b];
		v[AB_FIT_KEY_TOTAL] = t;
		if (x->factor)
			for (int i = 0; i < 3; i++)
				v[i] = (uint64_t)((double)v[i] * x->factor[b]);
		for (int i = 0; i < 3; i++)
			rk[j].key[i] = v[ab_fit_preorder_keys[x->heuristic][i]];
		rk[j].b = b;
	}
	qsort(rk, k, sizeof(*rk), cmp_rank_key);
	for (size_t j = 0; j < k; j++) {
		list[j] = rk[j].b;
		x->rank[rk[j].b] = (uint32_t)j;
	}
}

/* Splits the unplaced buffers of the list at stk[at..at+kp) into pieces at
 * the boundaries of [lo, hi) that no unplaced buffer crosses, and searches
 * each piece; all must succeed.  Each piece continues the canonical order
 * from (last_off, last_rank); with fresh_ranks (after a placement) it is
 * ranked afresh, so only last_off carries over (ties at it all allowed).
 * The parent's ranks are restored after each piece. */
static int solve_pieces(struct ab_fit_search *x, uint32_t lo, uint32_t hi, size_t at,
			size_t kp, uint64_t last_off, uint32_t last_rank,
			bool fresh_ranks)
{
	uint32_t start = lo;

	while (start < hi) {
		uint32_t end = start + 1;
		size_t mine, k = 0;
		int r;

		while (end < hi && x->cuts[end - 1])
			end++;
		if (stack_room(x, 3 * kp))
			return -ENOMEM;
		mine = x->n_stk;
		for (size_t j = 0; j < kp; j++) {
			uint32_t b = x->stk[at + j];

			if (!is_placed(x, b) && x->sec_lo[b] >= start &&
			    x->sec_lo[b] < end)
				x->stk[mine + k++] = b;
		}
		if (k) {
			/* (buffer, rank) pairs to restore the parent's ranks */
			uint32_t *saved = x->stk + mine + k;

			for (size_t j = 0; j < k; j++) {
				saved[2 * j] = x->stk[mine + j];
				saved[2 * j + 1] = x->rank[x->stk[mine + j]];
			}
			x->n_stk += 3 * k;
			if (fresh_ranks)
				rerank(x, x->stk + mine, k);
			r = search(x, start, end, mine, k, 0, last_off,
				   fresh_ranks ? 0 : last_rank);
			saved = x->stk + mine + k;
			for (size_t j = 0; j < k; j++)
				x->rank[saved[2 * j]] = saved[2 * j + 1];
			x->n_stk = mine;
			if (r != AB_FIT_FOUND)
				return r;
		}
		start = end;
	}
	return AB_FIT_FOUND;
}

/* One node: the piece [lo, hi) whose candidates are the unplaced buffers
 * of the parent's list stk[at..at+kp); the last placement was (last_off,
 * last_rank). */
static int search(struct ab_fit_search *x, uint32_t lo, uint32_t hi, size_t at,
		  size_t kp, uint32_t raised_at, uint64_t last_off,
		  uint32_t last_rank)
{
	size_t mine, k = 0;
	uint64_t min_height = UINT64_MAX, max_total = 0;
	int r = AB_FIT_NOT_FOUND;

	if (x->nodes >= x->node_limit || x->nodes_total >= x->budget)
		return AB_FIT_ABORTED;
	x->nodes++;
	x->nodes_total++;
	if (x->deadline > 0 && (x->nodes_total & 255) == 0 &&
	    ab_now_seconds() > x->deadline) {
		x->timed_out = true;
		return AB_FIT_TIMED_OUT;
	}
	if ((x->nodes_total & 4095) == 0)
		ab_fit_report(x, false);
	if (stack_room(x, kp))
		return -ENOMEM;
	mine = x->n_stk;
	k = order_candidates(x, at, kp, raised_at, x->stk + mine);
	for (size_t j = 0; j < k; j++) {
		uint32_t b = x->stk[mine + j];

		if (!is_pinned(x, b) &&
		    x->min_off[b] + x->size[b] < min_height)
			min_height = x->min_off[b] + x->size[b];
	}
	if (!k)
		return AB_FIT_FOUND;
	x->n_stk += k;
	/* Every later placement is at or above off: it needs off + the
	 * largest unplaced section total to fit. */
	for (uint32_t s = lo; s < hi; s++)
		if (x->sec_total[s] > max_total + x->sec_pad[s])
			max_total = x->sec_total[s] - x->sec_pad[s];
	for (size_t j = 0; j < k && r == AB_FIT_NOT_FOUND; j++) {
		uint32_t b = x->stk[mine + j];
		uint64_t off = place_at(x, b);
		size_t mark = x->n_log;
		bool pinned = is_pinned(x, b);

		if (off >= min_height)
			break; /* dominance: an unplaced buffer fits below */
		if (off + max_total > x->cap)
			break; /* section bound, here and at every later offset */
		if (off < last_off ||
		    (off == last_off && x->rank[b] < last_rank)) {
			if (pinned)
				break; /* a fixed buffer can no longer go */
			continue; /* not canonical */
		}
		if (off + x->size[b] > x->cap || x->min_off[b] > off) {
			if (pinned)
				break; /* a fixed buffer is covered */
			continue;
		}
		if (!pinned && x->pin && covers_pinned(x, b, off))
			continue; /* it goes above that fixed buffer, later */
		r = place(x, b, off);
		if (r == 1)
			r = AB_FIT_NOT_FOUND;
		else if (!r)
			r = splits(x, b)
				? solve_pieces(x, lo, hi, mine, k, off,
					       x->rank[b], true)
				: search(x, lo, hi, mine, k, x->clock, off,
					 x->rank[b]);
		unplace(x, b, mark);
		if (pinned)
			break; /* every later candidate is above a fixed one */
	}
	x->n_stk = mine;
	return r;
}

static void reset_state(struct ab_fit_search *x)
{
	memset(x->min_off, 0, x->m * sizeof(*x->min_off));
	memcpy(x->sec_total, x->sec_total0, x->n_sec * sizeof(*x->sec_total));
	memcpy(x->cuts, x->cuts0, x->n_sec * sizeof(*x->cuts));
	memset(x->n_witnessed, 0, x->m * sizeof(*x->n_witnessed));
	for (size_t s = 0; s < x->n_sec; s++) {
		x->witness[s] = NO_WITNESS;
		set_witness(x, (uint32_t)s,
			    x->sm_start[s] < x->sm_start[s + 1]
				    ? x->sm[x->sm_start[s]] : NO_WITNESS);
	}
	x->n_log = 0;
	x->n_stk = 0;
}

/* One decision run with preorder h and a node limit. */
int ab_fit_decide_once(struct ab_fit_search *x, uint64_t cap, int h,
		       uint64_t limit)
{
	x->cap = cap;
	x->heuristic = h;
	memcpy(x->rank, x->pre[h], x->m * sizeof(*x->rank));
	x->nodes = 0;
	x->node_limit = limit;
	reset_state(x);
	for (size_t s = 0; s < x->n_sec; s++)
		if (x->sec_total[s] > cap + x->sec_pad[s])
			return AB_FIT_NOT_FOUND;
	if (stack_room(x, x->m))
		return -ENOMEM;
	for (size_t b = 0; b < x->m; b++)
		x->stk[x->rank[b]] = (uint32_t)b;
	x->n_stk = x->m;
	if (x->factor) /* restarts: the perturbed preorder instead */
		rerank(x, x->stk, x->m);
	return solve_pieces(x, 0, (uint32_t)x->n_sec, 0, x->m, 0, 0, false);
}

/* Round robin over the preorders with doubling node limits (minimalloc),
 * at most `budget` nodes in all. */
int ab_fit_decide(struct ab_fit_search *x, uint64_t cap, uint64_t budget)
{
	uint64_t start = x->nodes_total, limit = x->m + 1;

	for (;;) {
		limit *= 2;
		for (int h = 0; h < AB_FIT_PREORDERS; h++) {
			uint64_t used = x->nodes_total - start;
			int r;

			if (used >= budget)
				return AB_FIT_ABORTED;
			r = ab_fit_decide_once(x, cap, h,
					limit < budget - used ? limit
							      : budget - used);
			if (r != AB_FIT_ABORTED || x->nodes_total >= x->budget)
				return r;
		}
	}
}
