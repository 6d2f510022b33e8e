/*
 * exact: a complete branch and bound over canonical placements; reports
 * whether it proved the optimum.
 *
 * Algorithm (steps 1-5 decide "does everything fit in C bytes?"):
 *  1. Canonical plans (minimalloc): every plan can be pushed down until
 *     no buffer can move lower on its own; sorted by (offset, rank), such
 *     a plan puts each buffer at its floor, the highest aligned end of the
 *     placed buffers that overlap it in time.  A node branches on the
 *     unplaced buffers at their floors in (floor, rank) order, skipping
 *     those before the last placement in that order (symmetry: each
 *     canonical plan is reached once).
 *  2. Dominance: a placement at or above some unplaced buffer's floor +
 *     size would leave that buffer a hole to drop into: the scan stops.
 *  3. Section bound: a section is a run of steps with one live set; its
 *     unplaced buffers stack, from the lowest of their floors and from the
 *     last placement's offset, below C, each but the top one taking its
 *     size rounded up to the alignment gcd.  A "witness" per section (see
 *     set_witness) keeps this exact at the cost of rescanning a section
 *     only when a placement moves its witness.
 *  4. Decomposition: once no unplaced buffer crosses a section boundary,
 *     the two sides are independent: each piece is searched alone, with
 *     its preorder computed afresh from what is left, and a piece with no
 *     completion fails the node without retrying the others.
 *  5. Preorders: minimalloc's three (width, area and section total in
 *     three lexicographic orders), round robin with node limits doubling
 *     from 2m; a run that ends under its limit was exhaustive, so its
 *     NOT_FOUND proves C infeasible.
 *  6. Optimisation over C: every canonical peak is a multiple of the
 *     granule g (gcd of sizes and alignments).  The bound starts at
 *     max(live-bytes bound, aligned section bound) rounded up to g.
 *     C = bound first with a quarter of the budget; then bisection
 *     between the bound and the incumbent's peak - g (a plan lowers the
 *     top to its own peak - g, a proof raises the bound, a run out of
 *     nodes only moves the bottom up); then the rest of the budget on
 *     C = peak - g.  The first incumbent is best_of's plan.  optimal =
 *     yes iff the peak equals the proven bound.
 * Notes: the budget counts search nodes, default min(10^6, 2 x 10^8 / m)
 * (a node costs O(m)); the wall-clock safety stop only interrupts and sets
 * stopped_by = time; no randomness, so runs are deterministic.
 * Complexity: per node O(k + r log r + overlaps + sections of the piece +
 * members of the sections whose witness moved), k = unplaced buffers of
 * the piece, r = those the last placement raised; exponential in the
 * worst case (the problem is NP-hard).  Problems with more than 4000
 * buffers or 2 x 10^7 overlapping pairs are not searched (best_of's plan).
 * Source: Moffitt, "MiniMalloc: A Lightweight Memory Allocator for
 * Hardware-Accelerated Machine Learning", ASPLOS 2023, and the public
 * google/minimalloc solver (canonical plans, section inference, dominance,
 * dynamic decomposition with per-piece preorders, round robin); own code.
 * Witnesses, the aligned section bound, the granule and the optimisation
 * loop are arenabench's.
 * Weak spots: proving infeasibility just below an optimum that is above
 * every bound can take exponentially many nodes (minimalloc D and J;
 * id_model at alignment >= 16); the bisection takes a run out of nodes
 * for "no".
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/search.h"

/* Default budget: min(DEFAULT_NODES, DEFAULT_WORK / m) nodes, since a node
 * costs O(m): about 2.5 s on minimalloc's D (m = 213), the slowest. */
#define DEFAULT_NODES 1000000ull
#define DEFAULT_WORK 200000000ull
#define MAX_SEARCHED 4000
#define MAX_PAIRS 20000000ull
#define N_PREORDERS 3
#define SHARE_DIV 4 /* a decision gets 1/SHARE_DIV of the nodes left */

/* search outcomes; negative values are errors */
enum { FOUND = 1, NOT_FOUND, ABORTED, TIMED_OUT };

/* The preorders, minimalloc's three: (width, area, total), (total, area,
 * width), (total, width, area), all descending, ties by index; width =
 * steps live, area = width x size, total = the largest section total. */
enum { KEY_WIDTH, KEY_AREA, KEY_TOTAL };
static const int preorder_keys[N_PREORDERS][3] = {
	{ KEY_WIDTH, KEY_AREA, KEY_TOTAL },
	{ KEY_TOTAL, KEY_AREA, KEY_WIDTH },
	{ KEY_TOTAL, KEY_WIDTH, KEY_AREA },
};

struct undo {
	uint32_t what; /* buffer, or section | LOG_SECTION */
	uint32_t aux;  /* a section's old witness */
	uint64_t old;  /* a buffer's old floor */
};
struct candidate { /* order_candidates */
	uint64_t floor;
	uint32_t rank, b;
};
struct rank_key { /* rerank */
	uint64_t key[3];
	uint32_t b;
};
#define LOG_SECTION 0x80000000u
#define NO_WITNESS UINT32_MAX
#define PLACED UINT64_MAX /* the floor of a placed buffer */

struct exact {
	const struct ab_problem *p;
	size_t m;                  /* searched buffers (size > 0) */
	uint32_t *buf;             /* search index -> problem index */
	uint64_t *size, *align, *width; /* width = steps live */
	uint64_t *asize;           /* size rounded up to the alignment gcd */
	uint64_t granule;          /* gcd of sizes and alignments > 1 */
	uint32_t *ov_start, *ov;   /* CSR overlap lists */
	uint32_t *sec_lo, *sec_hi; /* section range [lo, hi) per buffer */
	size_t n_sec;
	uint64_t *sec_total0;      /* asize bytes per section */
	uint64_t *sec_pad;         /* largest asize - size in a section */
	uint32_t *sm_start, *sm;   /* CSR: buffers live in each section */
	uint32_t *cuts0;           /* buffers crossing boundary s | s + 1 */
	uint32_t *pre[N_PREORDERS];/* preorder rank per buffer */
	/* one decision's state */
	uint64_t cap;              /* C */
	int heuristic;             /* the preorder of this run */
	uint32_t *rank;            /* current rank (pieces rerank) */
	uint64_t *min_off;         /* floor of each buffer; PLACED if placed */
	uint64_t *sol;             /* offset at placement: the plan once FOUND */
	uint64_t *sec_total;       /* unplaced asize bytes per section */
	uint32_t *cuts;            /* unplaced buffers crossing s | s + 1 */
	uint32_t *witness;         /* see set_witness */
	uint32_t *n_witnessed;     /* sections a buffer is the witness of */
	uint32_t *raised;          /* clock of the placement that last raised */
	uint32_t *stamp, *affected, clock;
	struct rank_key *rank_keys;/* rerank's scratch */
	struct candidate *scratch; /* order_candidates' scratch */
	uint32_t *stk;             /* candidate lists, one per frame */
	size_t n_stk, cap_stk;
	struct undo *log;          /* changes to undo, newest last */
	size_t n_log, cap_log;
	/* limits */
	uint64_t nodes, node_limit, nodes_total, budget;
	double deadline;           /* safety stop, 0 = none */
	bool timed_out;
};

/* Logs a change: a buffer's old floor (set .old after) or a section's
 * old witness. */
static int log_push(struct exact *x, uint32_t what, uint32_t aux)
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

static bool is_placed(const struct exact *x, uint32_t b)
{
	return x->min_off[b] == PLACED;
}

static int stack_room(struct exact *x, size_t need)
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
static void set_witness(struct exact *x, uint32_t s, uint32_t w)
{
	if (x->witness[s] != NO_WITNESS)
		x->n_witnessed[x->witness[s]]--;
	x->witness[s] = w;
	if (w != NO_WITNESS)
		x->n_witnessed[w]++;
}

/* Re-finds section s a witness if it lost its own, logging the change.
 * Returns 0, or 1 if s has unplaced bytes and no witness. */
static int rewitness(struct exact *x, uint32_t s)
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
static int place(struct exact *x, uint32_t b, uint64_t offset)
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

static void unplace(struct exact *x, uint32_t b, size_t mark)
{
	while (x->n_log > mark) {
		const struct undo *u = &x->log[--x->n_log];

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
static bool splits(const struct exact *x, uint32_t b)
{
	for (uint32_t s = x->sec_lo[b]; s + 1 < x->sec_hi[b]; s++)
		if (!x->cuts[s])
			return true;
	return false;
}

static int search(struct exact *x, uint32_t lo, uint32_t hi, size_t at,
		  size_t kp, uint32_t raised_at, uint64_t last_off,
		  uint32_t last_rank);

static bool before(const struct exact *x, uint32_t a, uint32_t b)
{
	return x->min_off[a] < x->min_off[b] ||
	       (x->min_off[a] == x->min_off[b] && x->rank[a] < x->rank[b]);
}

static int cmp_candidate(const void *pa, const void *pb)
{
	const struct candidate *a = pa, *b = pb;

	if (a->floor != b->floor)
		return a->floor < b->floor ? -1 : 1;
	return (a->rank > b->rank) - (a->rank < b->rank);
}

/* Writes the unplaced buffers of the list stk[at..at+kp) to c sorted by
 * (floor, rank) and returns their number.  If raised_at is the clock of
 * the placement since which the list was sorted, only the buffers that
 * placement raised are out of order: they are sorted apart and merged
 * back.  raised_at = 0: sort everything. */
static size_t order_candidates(struct exact *x, size_t at, size_t kp,
			       uint32_t raised_at, uint32_t *c)
{
	struct candidate *r = x->scratch;
	size_t k = 0, n_r = 0, i, j;

	for (size_t q = 0; q < kp; q++) {
		uint32_t b = x->stk[at + q];

		if (is_placed(x, b))
			continue;
		if (!raised_at || x->raised[b] == raised_at) {
			r[n_r].floor = x->min_off[b];
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
			struct candidate t = r[i];

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
	const struct rank_key *a = pa, *b = pb;

	for (int k = 0; k < 3; k++)
		if (a->key[k] != b->key[k])
			return a->key[k] > b->key[k] ? -1 : 1;
	return (a->b > b->b) - (a->b < b->b);
}

/* Ranks the piece list[0..k) afresh by the current preorder with section
 * totals of what is left (minimalloc's per-partition preorder), and sorts
 * the list by it. */
static void rerank(struct exact *x, uint32_t *list, size_t k)
{
	struct rank_key *rk = x->rank_keys;

	for (size_t j = 0; j < k; j++) {
		uint32_t b = list[j];
		uint64_t v[3], t = 0;

		for (uint32_t s = x->sec_lo[b]; s < x->sec_hi[b]; s++)
			if (x->sec_total[s] > t)
				t = x->sec_total[s];
		v[KEY_WIDTH] = x->width[b];
		v[KEY_AREA] = x->width[b] * x->size[b];
		v[KEY_TOTAL] = t;
		for (int i = 0; i < 3; i++)
			rk[j].key[i] = v[preorder_keys[x->heuristic][i]];
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
static int solve_pieces(struct exact *x, uint32_t lo, uint32_t hi, size_t at,
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
			if (r != FOUND)
				return r;
		}
		start = end;
	}
	return FOUND;
}

/* One node: the piece [lo, hi) whose candidates are the unplaced buffers
 * of the parent's list stk[at..at+kp); the last placement was (last_off,
 * last_rank). */
static int search(struct exact *x, uint32_t lo, uint32_t hi, size_t at,
		  size_t kp, uint32_t raised_at, uint64_t last_off,
		  uint32_t last_rank)
{
	size_t mine, k = 0;
	uint64_t min_height = UINT64_MAX, max_total = 0;
	int r = NOT_FOUND;

	if (x->nodes >= x->node_limit || x->nodes_total >= x->budget)
		return ABORTED;
	x->nodes++;
	x->nodes_total++;
	if (x->deadline > 0 && (x->nodes_total & 255) == 0 &&
	    ab_now_seconds() > x->deadline) {
		x->timed_out = true;
		return TIMED_OUT;
	}
	if (stack_room(x, kp))
		return -ENOMEM;
	mine = x->n_stk;
	k = order_candidates(x, at, kp, raised_at, x->stk + mine);
	for (size_t j = 0; j < k; j++) {
		uint32_t b = x->stk[mine + j];

		if (x->min_off[b] + x->size[b] < min_height)
			min_height = x->min_off[b] + x->size[b];
	}
	if (!k)
		return FOUND;
	x->n_stk += k;
	/* Every later placement is at or above off: it needs off + the
	 * largest unplaced section total to fit. */
	for (uint32_t s = lo; s < hi; s++)
		if (x->sec_total[s] > max_total + x->sec_pad[s])
			max_total = x->sec_total[s] - x->sec_pad[s];
	for (size_t j = 0; j < k && r == NOT_FOUND; j++) {
		uint32_t b = x->stk[mine + j];
		uint64_t off = x->min_off[b];
		size_t mark = x->n_log;

		if (off >= min_height)
			break; /* dominance: an unplaced buffer fits below */
		if (off + max_total > x->cap)
			break; /* section bound, here and at every later offset */
		if (off < last_off ||
		    (off == last_off && x->rank[b] < last_rank))
			continue; /* not canonical */
		if (off + x->size[b] > x->cap)
			continue;
		r = place(x, b, off);
		if (r == 1)
			r = NOT_FOUND;
		else if (!r)
			r = splits(x, b)
				? solve_pieces(x, lo, hi, mine, k, off,
					       x->rank[b], true)
				: search(x, lo, hi, mine, k, x->clock, off,
					 x->rank[b]);
		unplace(x, b, mark);
	}
	x->n_stk = mine;
	return r;
}

static void reset_state(struct exact *x)
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
static int decide_once(struct exact *x, uint64_t cap, int h, uint64_t limit)
{
	x->cap = cap;
	x->heuristic = h;
	memcpy(x->rank, x->pre[h], x->m * sizeof(*x->rank));
	x->nodes = 0;
	x->node_limit = limit;
	reset_state(x);
	for (size_t s = 0; s < x->n_sec; s++)
		if (x->sec_total[s] > cap + x->sec_pad[s])
			return NOT_FOUND;
	if (stack_room(x, x->m))
		return -ENOMEM;
	for (size_t b = 0; b < x->m; b++)
		x->stk[x->rank[b]] = (uint32_t)b;
	x->n_stk = x->m;
	return solve_pieces(x, 0, (uint32_t)x->n_sec, 0, x->m, 0, 0, false);
}

/* Round robin over the preorders with doubling node limits (minimalloc),
 * at most `budget` nodes in all. */
static int decide(struct exact *x, uint64_t cap, uint64_t budget)
{
	uint64_t start = x->nodes_total, limit = x->m + 1;

	for (;;) {
		limit *= 2;
		for (int h = 0; h < N_PREORDERS; h++) {
			uint64_t used = x->nodes_total - start;
			int r;

			if (used >= budget)
				return ABORTED;
			r = decide_once(x, cap, h,
					limit < budget - used ? limit
							      : budget - used);
			if (r != ABORTED || x->nodes_total >= x->budget)
				return r;
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
static int build_overlaps(struct exact *x, const uint32_t *by_first)
{
	size_t m = x->m, pairs = 0, n_act = 0;
	uint32_t *act = malloc((m + 1) * sizeof(*act));
	uint32_t *deg = calloc(m + 1, sizeof(*deg));
	const struct ab_buffer *B = x->p->buf;
	int rc = -ENOMEM;

	if (!act || !deg)
		goto out;
	for (int pass = 0; pass < 2; pass++) { /* degrees, then fill */
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

/* Sections, their members and totals, and the crossing counts. */
static int build_sections(struct exact *x)
{
	const struct ab_problem *p = x->p;
	size_t m = x->m, n_ev = 0;
	uint64_t *ev = malloc((2 * m + 1) * sizeof(*ev)), cells = 0;
	int rc = -ENOMEM;

	if (!ev)
		return -ENOMEM;
	for (size_t b = 0; b < m; b++) {
		ev[n_ev++] = (uint64_t)p->buf[x->buf[b]].first;
		ev[n_ev++] = (uint64_t)p->buf[x->buf[b]].last + 1;
	}
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
	x->sec_pad = calloc(x->n_sec + 1, sizeof(*x->sec_pad));
	x->cuts0 = calloc(x->n_sec + 1, sizeof(*x->cuts0));
	x->cuts = calloc(x->n_sec + 1, sizeof(*x->cuts));
	x->witness = calloc(x->n_sec + 1, sizeof(*x->witness));
	x->sm_start = calloc(x->n_sec + 2, sizeof(*x->sm_start));
	x->stamp = calloc(x->n_sec + 1, sizeof(*x->stamp));
	x->affected = malloc((x->n_sec + 1) * sizeof(*x->affected));
	if (!x->sec_total0 || !x->sec_total || !x->sec_pad || !x->cuts0 ||
	    !x->cuts || !x->witness || !x->sm_start || !x->stamp ||
	    !x->affected)
		goto out;
	for (size_t b = 0; b < m; b++) {
		const struct ab_buffer *B = &p->buf[x->buf[b]];

		x->sec_lo[b] = (uint32_t)lower_u64(ev, n_ev,
						   (uint64_t)B->first);
		x->sec_hi[b] = (uint32_t)lower_u64(ev, n_ev,
						   (uint64_t)B->last + 1);
		cells += x->sec_hi[b] - x->sec_lo[b];
		for (uint32_t s = x->sec_lo[b]; s < x->sec_hi[b]; s++) {
			x->sec_total0[s] += x->asize[b];
			if (x->asize[b] - x->size[b] > x->sec_pad[s])
				x->sec_pad[s] = x->asize[b] - x->size[b];
			x->sm_start[s + 2]++;
			if (s + 1 < x->sec_hi[b])
				x->cuts0[s]++;
		}
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
	rc = 0;
out:
	free(ev);
	return rc;
}

static int build_preorders(struct exact *x, uint32_t *order)
{
	const struct ab_problem *p = x->p;
	size_t m = x->m;
	uint64_t *key[3];
	struct ab_problem view = { .n = m }; /* ab_order_by_keys reads n */
	int rc = -ENOMEM;

	for (int k = 0; k < 3; k++)
		key[k] = malloc((m + 1) * sizeof(*key[k]));
	if (!key[0] || !key[1] || !key[2])
		goto out;
	for (size_t b = 0; b < m; b++) {
		const struct ab_buffer *B = &p->buf[x->buf[b]];
		uint64_t t = 0;

		for (uint32_t s = x->sec_lo[b]; s < x->sec_hi[b]; s++)
			if (x->sec_total0[s] > t)
				t = x->sec_total0[s];
		key[KEY_TOTAL][b] = ~t;
		key[KEY_WIDTH][b] = ~(uint64_t)(B->last - B->first + 1);
		key[KEY_AREA][b] = ~(x->size[b] *
				     (uint64_t)(B->last - B->first + 1));
	}
	for (int h = 0; h < N_PREORDERS; h++) {
		const uint64_t *keys[3] = { key[preorder_keys[h][0]],
					    key[preorder_keys[h][1]],
					    key[preorder_keys[h][2]] };

		x->pre[h] = malloc((m + 1) * sizeof(*x->pre[h]));
		if (!x->pre[h])
			goto out;
		rc = ab_order_by_keys(&view, order, keys, 3);
		if (rc)
			goto out;
		for (size_t r = 0; r < m; r++)
			x->pre[h][order[r]] = (uint32_t)r;
	}
	rc = 0;
out:
	for (int k = 0; k < 3; k++)
		free(key[k]);
	return rc;
}

static uint64_t gcd_u64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

static int setup(struct exact *x, const struct ab_problem *p,
		 const struct ab_plan_options *o)
{
	size_t m = 0;
	uint32_t *order = NULL;
	uint64_t *first = NULL, align_gcd = 0;
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
	x->asize = malloc((m + 1) * sizeof(*x->asize));
	x->align = malloc((m + 1) * sizeof(*x->align));
	x->sec_lo = malloc((m + 1) * sizeof(*x->sec_lo));
	x->sec_hi = malloc((m + 1) * sizeof(*x->sec_hi));
	x->sol = calloc(m + 1, sizeof(*x->sol));
	x->min_off = calloc(m + 1, sizeof(*x->min_off));
	x->rank = calloc(m + 1, sizeof(*x->rank));
	x->n_witnessed = calloc(m + 1, sizeof(*x->n_witnessed));
	x->width = calloc(m + 1, sizeof(*x->width));
	x->rank_keys = calloc(m + 1, sizeof(*x->rank_keys));
	x->scratch = calloc(m + 1, sizeof(*x->scratch));
	x->raised = calloc(m + 1, sizeof(*x->raised));
	order = malloc((m + 1) * sizeof(*order));
	first = malloc((m + 1) * sizeof(*first));
	if (!x->size || !x->asize || !x->align || !x->sec_lo || !x->sec_hi ||
	    !x->sol || !x->min_off || !x->rank || !x->width ||
	    !x->n_witnessed || !x->rank_keys || !x->scratch || !x->raised ||
	    !order || !first)
		goto out;
	for (size_t b = 0; b < m; b++) {
		x->size[b] = p->buf[x->buf[b]].size;
		x->granule = gcd_u64(x->granule, x->size[b]);
		x->align[b] = ab_effective_align(p, x->buf[b], o);
		align_gcd = gcd_u64(align_gcd, x->align[b]);
		x->width[b] = (uint64_t)(p->buf[x->buf[b]].last -
					 p->buf[x->buf[b]].first) + 1;
		order[b] = (uint32_t)b;
		first[b] = (uint64_t)p->buf[x->buf[b]].first;
	}
	/* Every offset is a multiple of align_gcd (the gcd of all the
	 * alignments), so a buffer with another above it uses its size
	 * rounded up to that.  Canonical offsets are 0, ends of buffers, or
	 * multiples of an alignment > 1, so they and the peak are multiples
	 * of the granule, the gcd of the sizes and of the alignments > 1. */
	for (size_t b = 0; b < m; b++) {
		x->asize[b] = ab_align_up(x->size[b], align_gcd);
		if (x->align[b] > 1)
			x->granule = gcd_u64(x->granule, x->align[b]);
	}
	rc = build_sections(x);
	if (!rc)
		rc = ab_order_stable_by(order, m, first);
	if (!rc)
		rc = build_overlaps(x, order);
	if (!rc)
		rc = build_preorders(x, order);
out:
	free(order);
	free(first);
	return rc;
}

static void teardown(struct exact *x)
{
	free(x->buf);
	free(x->size);
	free(x->asize);
	free(x->align);
	free(x->ov_start);
	free(x->ov);
	free(x->sec_lo);
	free(x->sec_hi);
	free(x->sec_total0);
	free(x->sm_start);
	free(x->sm);
	free(x->cuts0);
	free(x->cuts);
	free(x->witness);
	for (int h = 0; h < N_PREORDERS; h++)
		free(x->pre[h]);
	free(x->sol);
	free(x->min_off);
	free(x->sec_total);
	free(x->sec_pad);
	free(x->rank);
	free(x->n_witnessed);
	free(x->width);
	free(x->rank_keys);
	free(x->scratch);
	free(x->raised);
	free(x->stamp);
	free(x->affected);
	free(x->stk);
	free(x->log);
}

/* ------------------------------------------------------------ planner */

/* The bound at the root: in every section, the buffers stack, each but
 * the top one taking its size rounded up to the alignment gcd; rounded up
 * to the granule. */
static uint64_t raise_to_section_bound(const struct exact *x, uint64_t bound)
{
	for (size_t s = 0; s < x->n_sec; s++)
		if (x->sec_total0[s] > bound + x->sec_pad[s])
			bound = x->sec_total0[s] - x->sec_pad[s];
	return (bound + x->granule - 1) / x->granule * x->granule;
}

/* The plan found by the last successful decision. */
static void take(const struct exact *x, struct ab_plan *out)
{
	for (size_t i = 0; i < x->p->n; i++)
		out->offset[i] = 0;
	for (size_t b = 0; b < x->m; b++)
		out->offset[x->buf[b]] = x->sol[b];
	ab_plan_finish_single(out, x->p);
}

/* The seed: the best fast plan (planners/best_of.c). */
extern const struct ab_planner ab_planner_best_of;

static int plan_exact(const struct ab_problem *p,
		      const struct ab_plan_options *o, struct ab_plan *out)
{
	const struct ab_planner *seed = &ab_planner_best_of;
	struct exact x;
	uint64_t lb = ab_lower_bound(p, NULL), bound = lb, lo, hi, g;
	int rc;

	rc = seed->plan(p, o, out);
	if (rc)
		return rc;
	out->stopped_by = AB_STOPPED_NONE;
	out->iterations = 0;
	if (out->peak <= bound)
		goto done;
	rc = setup(&x, p, o);
	if (rc == -E2BIG) {
		teardown(&x);
		rc = 0;
		goto done;
	}
	if (rc)
		goto out_free;
	x.budget = o->budget ? o->budget : DEFAULT_WORK / x.m;
	if (!o->budget && x.budget > DEFAULT_NODES)
		x.budget = DEFAULT_NODES;
	x.deadline = o->safety_seconds > 0
			     ? ab_now_seconds() + o->safety_seconds : 0;
	/* Every canonical plan's offsets and peak are multiples of the
	 * granule g (gcd of sizes and alignments), so C and the bound move
	 * in steps of g.  C = LB first, with 1/SHARE_DIV of the budget; then
	 * bisection on C between the proven bound and the incumbent's peak
	 * - g, where a plan lowers the top to its own peak - g, a proof
	 * raises the bound to C + g, and a run out of nodes moves the bottom
	 * up without proving anything; once it closes, what is left of the
	 * budget goes to C = peak - g, the one question whose answer either
	 * improves the plan or proves it optimal. */
	g = x.granule;
	bound = raise_to_section_bound(&x, bound);
	lo = bound;
	hi = out->peak > g ? (out->peak - 1) / g * g : 0;
	while (bound < out->peak && !x.timed_out && x.nodes_total < x.budget) {
		uint64_t left = x.budget - x.nodes_total, c, share = left;
		int r;

		if (lo > hi) {
			c = (out->peak - 1) / g * g; /* the last question */
		} else {
			c = x.nodes_total ? lo + (hi - lo) / g / 2 * g : lo;
			if (left / SHARE_DIV > x.m)
				share = left / SHARE_DIV;
		}
		r = decide(&x, c, share);
		if (r < 0) {
			rc = r;
			goto out_free;
		}
		if (r == FOUND) {
			take(&x, out);
			hi = (out->peak - 1) / g * g;
		} else if (r == NOT_FOUND) {
			bound = c + g;
			lo = c + g;
		} else if (lo > hi) {
			break; /* the last question ran out of nodes */
		} else {
			lo = c + g;
		}
	}
	out->iterations = x.nodes_total;
	if (x.timed_out)
		out->stopped_by = AB_STOPPED_TIME;
	else if (out->peak > bound)
		out->stopped_by = AB_STOPPED_BUDGET; /* a decision ran out */
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
	.about = "branch and bound over canonical placements (minimalloc-style), proves optimality; node budget",
	.cost = AB_COST_BUDGETED,
	.plan = plan_exact,
};
