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
 * 6a. Restarts (restart_phase; only when --budget exceeds the default):
 *     half of the nodes the budget has left after step 6 go to passes of
 *     the same bisection (proven bound .. peak - g), each question
 *     answered by restarts: run i uses preorder i mod 3 with every
 *     buffer's keys scaled by a seeded random factor in [0.9, 1.1] (ties
 *     and near-ties break another way, in the pieces' reranking too),
 *     node limit m x Luby(i) (planners/lib/restarts.c); at most 1/16 of
 *     the phase per question; a pass that closes starts again from the
 *     bound.  A run that ends under its limit is exhaustive, so "no"
 *     still proves.  Measured (docs/planners.md, --budget 10^7, seed 1):
 *     minimalloc D 1,031,168 -> 1,021,952 (3.63% above max-load, the
 *     best bound), J 1,032,192 -> 1,017,856 (2.90%); before, no budget
 *     up to 10^7 moved either.  The default budget is unchanged.
 *  7. Window repair (large-neighbourhood search), when the peak is still
 *     above the bound: a buffer reaching the peak, a time window around
 *     it widened until it holds 1.5 K buffers, the K that end highest
 *     freed, every other buffer live there fixed; steps 1-5 with the fixed
 *     buffers as "pinned" candidates (placed at their own offsets, in
 *     offset order; a free buffer never covers one) decide whether the
 *     free ones fit below peak - g.  Only moves that fit are taken, so the
 *     peak never rises.  K starts at 24 and grows by half after a run of
 *     failures, to 160.  Above 4000 buffers (or 2 x 10^7 overlapping
 *     pairs) this, with steps 8 and 9, is the only search: stopped_by =
 *     size says so.
 *  8. Before the windows, two moves that a time window cannot make (a
 *     buffer living across most steps makes every window hold almost
 *     the whole problem): hole closing (at the busiest step of a buffer
 *     reaching the peak, the buffers above a hole move down by its size,
 *     the ones they now overlap go back at their lowest offsets) and
 *     band repair (the K highest-ending buffers, K = all, then 64, 128,
 *     ..., put back one by one at their lowest offsets, in five orders;
 *     with all buffers and the order "live at the busiest step first"
 *     this is a fresh greedy plan that packs that step without a hole).
 *     Each keeps a move only if nothing ends above the old peak, so the
 *     peak never rises; measured on ../shared/problems/idealloc/ (see
 *     docs/planners.md) they move iopddl S_1 from 1.58% to 0.07% above
 *     max-load and Y_1 from 0.34% to max-load (proved optimal).
 *  9. Right after the complete search (step 6, or in its place above
 *     4000 buffers; so before steps 7 and 8), if the peak is above the
 *     bound: a skyline search
 *     for a plan at the bound itself, one that wastes no byte
 *     (planners/lib/skyline.c: buffers stacked on the top of those below
 *     with their lifetimes fixed, the lowest run of steps filled first,
 *     depth first with a forward check and seeded restarts).  Found, the
 *     plan is optimal; not found proves nothing.  Measured on fresh
 *     tilings (docs/planners.md): it finds the optimum of 5 of the 9
 *     100-300-buffer tilings the branch and bound leaves 1.8-10.9% above,
 *     and of none with 1,000 buffers or more.
 * Notes: the budget counts search nodes (complete search, skyline search
 * and repairs together; in hole closing and band repair, one node per
 * buffer moved); default: min(10^6, 2 x 10^8 / m) for the complete search
 * (a node costs O(m)), min(2 x 10^6, 4 x 10^8 / n) more for the skyline
 * search, times the share of steps whose live bytes are within a granule
 * of the bound (where its forward check bites), and no repairs.  A
 * larger budget's rest goes half to the restarts (step 6a), then a
 * quarter of what is left to the skyline search, the rest to the
 * repairs; above 4000 buffers 3 x 10^6 repair nodes.  The wall-clock safety stop only
 * interrupts and sets stopped_by = time; the repair's randomness comes
 * from the seed (splitmix64), so runs are deterministic.
 * Complexity: per node O(k + r log r + overlaps + sections of the piece +
 * members of the sections whose witness moved), k = unplaced buffers of
 * the piece, r = those the last placement raised; exponential in the
 * worst case (the problem is NP-hard).  A restart costs its node limit
 * plus O(m log m) to rank the buffers.  A repair costs the window's setup
 * (O(w log w + overlaps), w = buffers live in the window) plus its nodes.
 * Source: Moffitt, "MiniMalloc: A Lightweight Memory Allocator for
 * Hardware-Accelerated Machine Learning", ASPLOS 2023, and the public
 * google/minimalloc solver (canonical plans, section inference, dominance,
 * dynamic decomposition with per-piece preorders, round robin); own code.
 * Witnesses, the aligned section bound, the granule and the optimisation
 * loop are arenabench's; the window repair is large-neighbourhood search
 * (Shaw, CP 1998) with this branch and bound as the repair step; the
 * restarts follow Gomes, Selman and Kautz, "Boosting combinatorial search
 * through randomization", AAAI 1998 (randomized tie-breaking, restarts
 * on Luby's schedule).
 * Weak spots (docs/planners.md lists what was measured and left out:
 * greedy orders following a tiling's structure, iterated local search
 * over orders, solution-guided preorders, windows freeing all their
 * buffers): proving infeasibility just below an optimum that is above
 * every bound can take exponentially many nodes (minimalloc D and J;
 * id_model at alignment >= 16); the bisection takes a run out of nodes
 * for "no".  The restarts' result depends on the seed (D at 10^7 nodes:
 * see docs/planners.md for seeds 1-3).  The window repair moves the peak
 * little on the known-optimum tilings (fresh seeds: 1.08-1.15 x the
 * optimum at 10^3 buffers, 1.21-1.33 at 10^4): a window's fixed buffers
 * leave its free ones no room below the peak; the skyline search finds
 * nothing there either.
 * Hole closing and band repair are greedy (lowest offset, one order at a
 * time): on SOMAS pangu 2.6B neither lowers the peak (a hole at the
 * busiest step closes only by moving a chain of short buffers up, which
 * the lowest-offset rule does not do); a band move costs O(K w log w),
 * w = buffers live during a freed buffer's lifetime.
 * Bounds: best_bound = max(live bytes, aligned section bound, C + g for
 * every exhausted "no" at C); tests/test_bounds.c checks it against an
 * enumerated optimum.  A restriction bound (a time window's buffers, or
 * the largest ones, re-solved alone: opt(subset) <= opt) proved nothing
 * above max-load on D, J and the idealloc instances and was left out
 * (docs/planners.md has the measurements).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/placement.h"
#include "lib/restarts.h"
#include "lib/rng_clock.h"
#include "lib/skyline.h"

/* Default budget: min(DEFAULT_NODES, DEFAULT_WORK / m) nodes, since a node
 * costs O(m): about 2.5 s on minimalloc's D (m = 213), the slowest. */
#define DEFAULT_NODES 1000000ull
#define DEFAULT_WORK 200000000ull
/* skyline search (step 9): min(NODES, WORK / buffers) by default (a node
 * costs about 2 us; it finds nothing on tilings of 1,000 buffers or more,
 * docs/planners.md) */
#define DEFAULT_SKYLINE_NODES 2000000ull
#define DEFAULT_SKYLINE_WORK 400000000ull
#define MAX_SEARCHED 4000
#define MAX_PAIRS 20000000ull
#define N_PREORDERS 3
#define SHARE_DIV 4 /* a decision gets 1/SHARE_DIV of the nodes left */
#define RESTART_SHARE_DIV 16 /* restart_phase: per question, of its nodes */
#define RESTART_SPREAD 0.1   /* restarts: keys scaled by 1 +- this */

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
#define NO_PIN UINT64_MAX

/* The progress lines (`plan`'s stderr) of one plan, every phase: each
 * improvement, a tick at most once a second, a phase's final line only
 * after the plan's first second (short runs stay quiet).  Seconds and
 * nodes count from the plan's start; the first line is preceded by one
 * for the starting plan (best_of's, at 0 nodes and 0 s). */
enum { REPORT_TICK, REPORT_IMPROVED, REPORT_FINAL };
struct progress_line {
	void (*fn)(void *, const struct ab_progress *); /* NULL = none */
	void *user;
	const char *phase;
	double t0, last;          /* the plan's start; the last line */
	uint64_t start_peak;      /* best_of's peak */
	bool opened;              /* the starting plan's line is out */
};

static void progress_say(struct progress_line *l, int why, uint64_t peak,
			 uint64_t bound, uint64_t nodes)
{
	struct ab_progress pr;
	double now;

	if (!l || !l->fn)
		return;
	now = ab_now_seconds();
	if ((why == REPORT_TICK && now - l->last < 1.0) ||
	    (why == REPORT_FINAL && now - l->t0 < 1.0))
		return;
	if (!l->opened) {
		struct ab_progress start = { "best_of", l->start_peak, bound, 0, 0 };

		l->opened = true;
		l->fn(l->user, &start);
	}
	l->last = now;
	pr.phase = l->phase;
	pr.peak = peak;
	pr.bound = bound;
	pr.nodes = nodes;
	pr.seconds = now - l->t0;
	l->fn(l->user, &pr);
}

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
	uint64_t *pin;             /* window repair: a fixed buffer's offset,
				    * NO_PIN for the free ones; NULL = none */
	uint64_t *sec_total;       /* unplaced asize bytes per section */
	uint32_t *cuts;            /* unplaced buffers crossing s | s + 1 */
	uint32_t *witness;         /* see set_witness */
	uint32_t *n_witnessed;     /* sections a buffer is the witness of */
	uint32_t *raised;          /* clock of the placement that last raised */
	uint32_t *stamp, *affected, clock;
	struct rank_key *rank_keys;/* rerank's scratch */
	double *factor;            /* restarts: a factor per buffer on the
				    * preorder's keys; NULL = none */
	struct candidate *scratch; /* order_candidates' scratch */
	uint32_t *stk;             /* candidate lists, one per frame */
	size_t n_stk, cap_stk;
	struct undo *log;          /* changes to undo, newest last */
	size_t n_log, cap_log;
	/* limits */
	uint64_t nodes, node_limit, nodes_total, budget;
	double deadline;           /* safety stop, 0 = none */
	bool timed_out;
	struct progress_line *line; /* the plan's; NULL in window repairs */
	uint64_t peak_now, bound_now; /* the incumbent's peak, the bound */
};

/* A progress line from the complete search or the restarts (nothing in
 * the plan's first second: on the corpus it settles well within it). */
static void search_report(struct exact *x, bool improved)
{
	if (!x->line || ab_now_seconds() - x->line->t0 < 1.0)
		return;
	progress_say(x->line, improved ? REPORT_IMPROVED : REPORT_TICK,
		     x->peak_now, x->bound_now, x->nodes_total);
}

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

static bool is_pinned(const struct exact *x, uint32_t b)
{
	return x->pin && x->pin[b] != NO_PIN;
}

/* Where b goes if placed now: its floor, or a fixed buffer's own offset. */
static uint64_t place_at(const struct exact *x, uint32_t b)
{
	return is_pinned(x, b) ? x->pin[b] : x->min_off[b];
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

/* Would free buffer b at off overlap a fixed buffer not yet placed? */
static bool covers_pinned(const struct exact *x, uint32_t b, uint64_t off)
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

static bool before(const struct exact *x, uint32_t a, uint32_t b)
{
	uint64_t pa = place_at(x, a), pb = place_at(x, b);

	return pa < pb || (pa == pb && x->rank[a] < x->rank[b]);
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
		if (x->factor)
			for (int i = 0; i < 3; i++)
				v[i] = (uint64_t)((double)v[i] * x->factor[b]);
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
	if ((x->nodes_total & 4095) == 0)
		search_report(x, false);
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
		return FOUND;
	x->n_stk += k;
	/* Every later placement is at or above off: it needs off + the
	 * largest unplaced section total to fit. */
	for (uint32_t s = lo; s < hi; s++)
		if (x->sec_total[s] > max_total + x->sec_pad[s])
			max_total = x->sec_total[s] - x->sec_pad[s];
	for (size_t j = 0; j < k && r == NOT_FOUND; j++) {
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
			r = NOT_FOUND;
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
	if (x->factor) /* restarts: the perturbed preorder instead */
		rerank(x, x->stk, x->m);
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

/* pin: per problem buffer, a fixed offset or NO_PIN; NULL = all free. */
static int setup(struct exact *x, const struct ab_problem *p,
		 const struct ab_plan_options *o, const uint64_t *pin,
		 size_t max_searched)
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
	if (m > max_searched)
		return -E2BIG;
	if (pin) {
		x->pin = malloc((m + 1) * sizeof(*x->pin));
		if (!x->pin)
			return -ENOMEM;
		for (size_t b = 0; b < m; b++)
			x->pin[b] = pin[x->buf[b]];
	}
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
		x->granule = ab_gcd(x->granule, x->size[b]);
		x->align[b] = ab_effective_align(p, x->buf[b], o);
		align_gcd = ab_gcd(align_gcd, x->align[b]);
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
			x->granule = ab_gcd(x->granule, x->align[b]);
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
	free(x->pin);
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

/* ------------------------------------------------------ window repair */

/*
 * Large-neighbourhood search: while some buffer ends above C = peak - g,
 * take one such buffer t, a time window around its lifetime, and free the
 * K buffers lying inside the window that end highest (t among them); every
 * other buffer live in the window stays where it is (a fixed, "pinned"
 * buffer of the search above, its lifetime cut to the window).  The
 * branch and bound then decides whether the free ones fit below C around
 * the fixed ones; if they do, they move.  Once nothing ends above C the
 * peak has dropped by a granule or more, and C follows.  Failures widen
 * the neighbourhood (K grows by half, to REPAIR_MAX_FREE), successes keep
 * it.  Every accepted move keeps the plan valid, so the peak never rises.
 */
#define REPAIR_FIRST_FREE 24
#define REPAIR_MAX_FREE 160
#define REPAIR_NODES_PER_FREE 64 /* node limit of one repair, per buffer */
#define REPAIR_MAX_WINDOW 1500   /* buffers live in a window, at most */
#define DEFAULT_REPAIR_NODES 3000000ull /* above MAX_SEARCHED */

/* Window members by end, highest first, ties by index. */
struct end_key {
	uint64_t end;
	uint32_t i;
};

/* An occupied address range [off, end). */
struct span {
	uint64_t off, end;
};

struct repair {
	const struct ab_problem *p;
	const struct ab_plan_options *o;
	uint64_t *off;            /* the incumbent, problem order */
	uint64_t peak, g, bound;
	uint32_t *by_first;       /* sized buffers sorted by first use */
	size_t n_sized;
	int32_t *first_sorted;    /* first use of by_first[k] */
	uint32_t *longs;          /* lifetimes longer than long_len */
	size_t n_long;
	int32_t long_len;
	int32_t steps;            /* last step + 1 */
	uint32_t *tops;           /* buffers ending above peak - g */
	size_t n_tops;
	uint32_t *win, *pick;     /* window members; scratch */
	uint8_t *mark;            /* 1 free, 2 fixed, per problem buffer */
	struct ab_buffer *sb;     /* the window's problem */
	uint64_t *spin;
	uint32_t *smap;           /* window buffer -> problem buffer */
	size_t k_free;
	struct ab_rng rng;
	uint64_t nodes, budget, repairs, moves;
	double deadline;
	bool timed_out;
	struct progress_line *line;
	uint64_t nodes_before;    /* spent by the complete search */
	int32_t busiest;          /* a step of maximum live bytes */
	uint64_t *load;           /* live bytes per step */
	uint32_t *live, *rip;     /* hole closing: a step's buffers; freed */
	struct end_key *band;     /* band repair: buffers by end, highest first */
	uint64_t *band_old;       /* the freed buffers' offsets, to undo */
	struct span *spans;       /* band repair: placed neighbours in time */
};

static uint64_t end_of(const struct repair *r, uint32_t i)
{
	return r->off[i] + r->p->buf[i].size;
}

static void find_tops(struct repair *r)
{
	uint64_t top = 0;

	for (size_t k = 0; k < r->n_sized; k++)
		if (end_of(r, r->by_first[k]) > top)
			top = end_of(r, r->by_first[k]);
	r->peak = top;
	r->n_tops = 0;
	for (size_t k = 0; k < r->n_sized && top > r->bound; k++)
		if (end_of(r, r->by_first[k]) + r->g > top)
			r->tops[r->n_tops++] = r->by_first[k];
}

static int cmp_end_key(const void *pa, const void *pb)
{
	const struct end_key *a = pa, *b = pb;

	if (a->end != b->end)
		return a->end > b->end ? -1 : 1;
	return (a->i > b->i) - (a->i < b->i);
}

/* Writes the buffers live in [w0, w1] to r->win; returns how many. */
static size_t collect(struct repair *r, int32_t w0, int32_t w1)
{
	const struct ab_buffer *B = r->p->buf;
	int32_t from = w0 > r->long_len ? w0 - r->long_len : 0;
	size_t a = 0, b = r->n_sized, n_win = 0;

	while (a < b) { /* short lifetimes: by first use */
		size_t mid = a + (b - a) / 2;

		if (r->first_sorted[mid] < from)
			a = mid + 1;
		else
			b = mid;
	}
	for (size_t k = a; k < r->n_sized && r->first_sorted[k] <= w1; k++) {
		uint32_t i = r->by_first[k];

		if (B[i].last >= w0 && B[i].last - B[i].first + 1 <= r->long_len)
			r->win[n_win++] = i;
	}
	for (size_t k = 0; k < r->n_long; k++) {
		uint32_t i = r->longs[k];

		if (B[i].first <= w1 && B[i].last >= w0)
			r->win[n_win++] = i;
	}
	return n_win;
}

/* One repair around top buffer t.  Returns 1 if the window's free buffers
 * moved below C, 0 if not, or -errno. */
static int repair_once(struct repair *r, uint32_t t)
{
	const struct ab_problem *p = r->p;
	const struct ab_buffer *B = p->buf;
	uint64_t cap = r->peak - r->g;
	int32_t len = B[t].last - B[t].first + 1, w0, w1, h0 = INT32_MAX,
		h1 = INT32_MIN;
	int32_t ext = len / 2 + 1;
	size_t n_win = 0, n_free = 0, n_sub = 0;
	struct end_key *keys;
	struct ab_problem sub = { 0 };
	struct exact x;
	int rc, res;

	/* widen the window until it holds 1.5 K buffers, then place it at
	 * random around t's lifetime */
	for (;;) {
		int32_t left = (int32_t)ab_rng_below(&r->rng, (uint64_t)ext + 1);
		size_t inside = 0;

		w0 = B[t].first > left ? B[t].first - left : 0;
		w1 = B[t].last + (ext - left);
		n_win = collect(r, w0, w1);
		for (size_t k = 0; k < n_win; k++)
			inside += B[r->win[k]].first >= w0 &&
				  B[r->win[k]].last <= w1;
		if (2 * inside >= 3 * r->k_free || ext > r->steps)
			break;
		ext = 2 * ext + 1;
	}
	r->nodes++; /* every attempt costs a node, so failures end too */
	if (n_win > REPAIR_MAX_WINDOW)
		return 0; /* too dense to set up: another window */
	keys = malloc((n_win + 1) * sizeof(*keys));
	if (!keys)
		return -ENOMEM;
	for (size_t k = 0; k < n_win; k++) {
		uint32_t i = r->win[k];

		if (B[i].first >= w0 && B[i].last <= w1) {
			keys[n_free].end = end_of(r, i);
			keys[n_free++].i = i;
		} else if (end_of(r, i) > cap) {
			free(keys);
			return 0; /* a fixed buffer would stay above C */
		}
	}
	qsort(keys, n_free, sizeof(*keys), cmp_end_key);
	if (n_free > r->k_free)
		n_free = r->k_free;
	for (size_t k = 0; k < n_free; k++) {
		uint32_t i = keys[k].i;

		r->mark[i] = 1;
		if (B[i].first < h0)
			h0 = B[i].first;
		if (B[i].last > h1)
			h1 = B[i].last;
	}
	rc = 0;
	for (size_t k = 0; k < n_win; k++) {
		uint32_t i = r->win[k];

		if (!r->mark[i] && B[i].first <= h1 && B[i].last >= h0) {
			if (end_of(r, i) > cap)
				goto out_marks; /* res 0 */
			r->mark[i] = 2;
		}
		if (r->mark[i]) {
			r->sb[n_sub] = B[i];
			if (r->sb[n_sub].first < h0)
				r->sb[n_sub].first = h0;
			if (r->sb[n_sub].last > h1)
				r->sb[n_sub].last = h1;
			r->spin[n_sub] = r->mark[i] == 1 ? NO_PIN : r->off[i];
			r->smap[n_sub++] = i;
		}
	}
	sub.n = n_sub;
	sub.buf = r->sb;
	rc = setup(&x, &sub, r->o, r->spin, SIZE_MAX);
	if (rc == -E2BIG) {
		rc = 0;
		goto out_teardown;
	}
	if (rc)
		goto out_teardown;
	{
		uint64_t limit = REPAIR_NODES_PER_FREE * (uint64_t)n_free + 1000;

		if (r->nodes >= r->budget)
			limit = 0;
		else if (limit > r->budget - r->nodes)
			limit = r->budget - r->nodes;
		x.budget = limit;
		x.deadline = r->deadline;
		res = decide(&x, cap, limit);
		r->nodes += x.nodes_total;
		r->repairs++;
		if (x.timed_out)
			r->timed_out = true;
	}
	if (res < 0) {
		rc = res;
	} else if (res == FOUND) {
		for (size_t b = 0; b < x.m; b++) {
			uint32_t i = r->smap[x.buf[b]];

			if (r->mark[i] == 1)
				r->off[i] = x.sol[b];
		}
		r->moves++;
		rc = 1;
	}
out_teardown:
	teardown(&x);
out_marks:
	for (size_t k = 0; k < n_win; k++)
		r->mark[r->win[k]] = 0;
	free(keys);
	return rc;
}

static void report(struct repair *r, int why)
{
	progress_say(r->line, why, r->peak, r->bound,
		     r->nodes + r->nodes_before);
}

/* ------------------------------------------------------- band repair */

/*
 * Band repair (large-neighbourhood search over an address band): free the
 * K buffers that end highest, keep every other buffer where it is, and
 * put the freed ones back one by one, each at the lowest aligned offset
 * where it overlaps no placed buffer live at the same time, in one of
 * BAND_ORDERS orders: longest lifetime first, largest first, or lowest
 * current offset first.  The move is kept only if every freed buffer ends
 * below the old peak, so the peak never rises.  K doubles from
 * BAND_FIRST_FREE to all buffers; after a kept move it starts over.  Unlike
 * the window repair, a band has no time window, so it also moves buffers
 * that live across most of the steps (SOMAS instances: a hole at the
 * busiest step under a stack of long-lived buffers).
 */
#define BAND_FIRST_FREE 64
#define BAND_ORDERS 5
enum { BAND_SPIKE, BAND_SPIKE_LONGEST, BAND_LONGEST, BAND_LARGEST,
       BAND_LOWEST };

struct band_key {
	uint64_t k1, k2;
	uint32_t i;
};
/* k1 descending, then k2 descending, then index */
static int cmp_band_key(const void *pa, const void *pb)
{
	const struct band_key *a = pa, *b = pb;

	if (a->k1 != b->k1)
		return a->k1 > b->k1 ? -1 : 1;
	if (a->k2 != b->k2)
		return a->k2 > b->k2 ? -1 : 1;
	return (a->i > b->i) - (a->i < b->i);
}

static int cmp_span(const void *pa, const void *pb)
{
	const struct span *a = pa, *b = pb;

	if (a->off != b->off)
		return a->off < b->off ? -1 : 1;
	return (a->end > b->end) - (a->end < b->end);
}

/* The lowest offset, a multiple of align, where size bytes fit among the
 * placed buffers live during buffer i's lifetime (r->mark[j] == 1: not
 * placed). */
static uint64_t lowest_fit(struct repair *r, uint32_t i, uint64_t align)
{
	const struct ab_buffer *B = r->p->buf;
	size_t n_win = collect(r, B[i].first, B[i].last), n_sp = 0;
	uint64_t at = 0;

	for (size_t k = 0; k < n_win; k++) {
		uint32_t j = r->win[k];

		if (r->mark[j] != 1) {
			r->spans[n_sp].off = r->off[j];
			r->spans[n_sp++].end = end_of(r, j);
		}
	}
	qsort(r->spans, n_sp, sizeof(*r->spans), cmp_span);
	for (size_t k = 0; k < n_sp; k++) {
		if (r->spans[k].off >= at + B[i].size)
			break; /* the gap below this span holds it */
		if (r->spans[k].end > at)
			at = (r->spans[k].end + align - 1) / align * align;
	}
	return at;
}

/* One band move: the k highest-ending buffers put back in the given
 * order.  Returns 1 if the peak dropped (the move is kept), 0 if not (the
 * plan is unchanged), or -errno. */
static int band_once(struct repair *r, size_t k, int order)
{
	const struct ab_buffer *B = r->p->buf;
	struct band_key *keys;
	size_t n_free = k < r->n_sized ? k : r->n_sized;
	int rc = 0;

	for (size_t j = 0; j < r->n_sized; j++) {
		r->band[j].i = r->by_first[j];
		r->band[j].end = end_of(r, r->by_first[j]);
	}
	qsort(r->band, r->n_sized, sizeof(*r->band), cmp_end_key);
	if (n_free < r->n_sized && r->band[n_free].end >= r->peak)
		return 0; /* a kept buffer reaches the peak */
	keys = malloc((n_free + 1) * sizeof(*keys));
	if (!keys)
		return -ENOMEM;
	for (size_t j = 0; j < n_free; j++) {
		uint32_t i = r->band[j].i;
		uint64_t life = (uint64_t)(B[i].last - B[i].first) + 1;

		r->mark[i] = 1;
		r->band_old[j] = r->off[i];
		keys[j].i = i;
		keys[j].k1 = order == BAND_LONGEST ? life
			   : order == BAND_LARGEST ? B[i].size
			   : order == BAND_LOWEST ? UINT64_MAX - r->off[i]
			   : (uint64_t)(B[i].first <= r->busiest &&
					B[i].last >= r->busiest);
		keys[j].k2 = order == BAND_LONGEST ? B[i].size : life;
		if (order == BAND_SPIKE && !keys[j].k1)
			keys[j].k2 = B[i].size;
	}
	qsort(keys, n_free, sizeof(*keys), cmp_band_key);
	for (size_t j = 0; j < n_free; j++) {
		uint32_t i = keys[j].i;
		uint64_t at = lowest_fit(r, i, ab_effective_align(r->p, i, r->o));

		r->nodes++;
		if (at + B[i].size >= r->peak || r->nodes >= r->budget)
			goto undo;
		if (r->deadline > 0 && (r->nodes & 1023) == 0 &&
		    ab_now_seconds() > r->deadline) {
			r->timed_out = true;
			goto undo;
		}
		r->off[i] = at;
		r->mark[i] = 0;
	}
	rc = 1;
	goto out;
undo:
	for (size_t j = 0; j < n_free; j++) {
		r->off[r->band[j].i] = r->band_old[j];
		r->mark[r->band[j].i] = 0;
	}
out:
	free(keys);
	r->repairs++;
	return rc;
}

/* A kept move: the new tops, the plan copied out, progress reported. */
static void keep_move(struct repair *r, struct ab_plan *out)
{
	r->moves++;
	find_tops(r);
	memcpy(out->offset, r->off, r->p->n * sizeof(*r->off));
	report(r, REPORT_IMPROVED);
}

/* Band moves until none of the sizes and orders lowers the peak, the
 * peak reaches the bound or the nodes run out. */
static int band_search(struct repair *r, struct ab_plan *out)
{
	bool improved = true;

	while (improved && r->peak > r->bound && r->nodes < r->budget &&
	       !r->timed_out) {
		improved = false;
		/* all buffers first, then the bands from the top */
		for (unsigned pass = 0; !improved; pass++) {
			size_t k = pass ? (size_t)BAND_FIRST_FREE << (pass - 1)
					: r->n_sized;

			if (pass && k >= r->n_sized)
				break;
			for (int h = 0; h < BAND_ORDERS && !improved; h++) {
				int res = band_once(r, k, h);

				if (res < 0)
					return res;
				if (r->nodes >= r->budget || r->timed_out)
					return 0;
				improved = res == 1;
			}
		}
		if (improved)
			keep_move(r, out);
	}
	return 0;
}

/* ------------------------------------------------------- hole closing */

/*
 * Hole closing: at the busiest step of a buffer that reaches the peak,
 * the buffers live there leave holes (address ranges that step does not
 * use).  For a hole of d bytes, every buffer live at that step above the
 * hole moves down by d (their relative positions kept, so they never
 * collide with each other), the other buffers they now overlap are
 * freed and put back, largest first, each at its lowest aligned offset.
 * The move is kept if every freed buffer ends below the peak and the
 * number of buffers reaching the peak (or the peak) dropped; the holes
 * are tried from the highest down.  This targets what a time window
 * cannot move: a hole under a stack of long-lived buffers.
 */
static uint64_t count_tops(const struct repair *r, uint64_t peak)
{
	uint64_t c = 0;

	for (size_t k = 0; k < r->n_sized; k++)
		c += end_of(r, r->by_first[k]) + r->g > peak;
	return c;
}

/* The sum of every buffer's end: a kept move with as many buffers at
 * the peak must lower it, so hole closing cannot cycle. */
static uint64_t sum_ends(const struct repair *r)
{
	uint64_t s = 0;

	for (size_t k = 0; k < r->n_sized; k++)
		s += end_of(r, r->by_first[k]);
	return s;
}

static int hole_try(struct repair *r, size_t from, size_t n_live,
		    uint64_t d)
{
	const struct ab_buffer *B = r->p->buf;
	size_t n_undo = 0, n_rip = 0;
	uint64_t tops_before = r->n_tops, peak = 0, sum_before = sum_ends(r);
	uint64_t tops_after;
	struct band_key *keys = NULL;
	int rc = 0;

	if (n_live - from >= r->budget - r->nodes)
		return 0; /* not enough nodes left */
	for (size_t k = from; k < n_live; k++) {
		uint32_t s = r->live[k];

		if (d % ab_effective_align(r->p, s, r->o))
			return 0; /* the shift would break an alignment */
	}
	for (size_t k = from; k < n_live; k++) {
		uint32_t s = r->live[k];

		r->band[n_undo].i = s;
		r->band[n_undo++].end = r->off[s];
		r->off[s] -= d;
		r->mark[s] = 2;
	}
	for (size_t k = from; k < n_live; k++) {
		uint32_t s = r->live[k];
		size_t n_win = collect(r, B[s].first, B[s].last);

		for (size_t w = 0; w < n_win; w++) {
			uint32_t j = r->win[w];

			if (r->mark[j] || r->off[j] >= end_of(r, s) ||
			    end_of(r, j) <= r->off[s])
				continue;
			r->mark[j] = 1;
			r->band[n_undo].i = j;
			r->band[n_undo++].end = r->off[j];
			r->rip[n_rip++] = j;
		}
	}
	keys = malloc((n_rip + 1) * sizeof(*keys));
	if (!keys) {
		rc = -ENOMEM;
		goto undo;
	}
	for (size_t k = 0; k < n_rip; k++) {
		keys[k].i = r->rip[k];
		keys[k].k1 = B[r->rip[k]].size;
		keys[k].k2 = (uint64_t)(B[r->rip[k]].last - B[r->rip[k]].first);
	}
	qsort(keys, n_rip, sizeof(*keys), cmp_band_key);
	r->nodes += n_live - from;
	for (size_t k = 0; k < n_rip; k++) {
		uint32_t i = keys[k].i;
		uint64_t at = lowest_fit(r, i, ab_effective_align(r->p, i, r->o));

		r->nodes++;
		if (at + B[i].size > r->peak || r->nodes >= r->budget)
			goto undo;
		r->off[i] = at;
		r->mark[i] = 0;
	}
	for (size_t k = 0; k < r->n_sized; k++)
		if (end_of(r, r->by_first[k]) > peak)
			peak = end_of(r, r->by_first[k]);
	tops_after = count_tops(r, r->peak);
	if (peak < r->peak || tops_after < tops_before ||
	    (tops_after == tops_before && sum_ends(r) < sum_before)) {
		rc = 1;
		for (size_t k = 0; k < n_undo; k++)
			r->mark[r->band[k].i] = 0;
		goto out;
	}
undo:
	for (size_t k = n_undo; k-- > 0;) {
		r->off[r->band[k].i] = r->band[k].end;
		r->mark[r->band[k].i] = 0;
	}
out:
	free(keys);
	r->repairs++;
	return rc;
}

/* Tries the holes at the busiest step of top buffer t, highest first. */
static int hole_once(struct repair *r, uint32_t t)
{
	const struct ab_buffer *B = r->p->buf;
	int32_t at = B[t].first;
	size_t n_live;

	for (int32_t s = B[t].first; s <= B[t].last; s++)
		if (r->load[s] > r->load[at])
			at = s;
	n_live = collect(r, at, at);
	for (size_t k = 0; k < n_live; k++) {
		r->band[k].i = r->win[k];
		r->band[k].end = r->off[r->win[k]];
	}
	/* by offset, lowest first (cmp_end_key sorts highest first) */
	qsort(r->band, n_live, sizeof(*r->band), cmp_end_key);
	for (size_t k = 0; k < n_live; k++)
		r->live[k] = r->band[n_live - 1 - k].i;
	for (size_t k = n_live; k-- > 0;) {
		uint64_t below = 0; /* top of the buffers under live[k] */
		int res;

		if (k && r->off[r->live[k]] == r->off[r->live[k - 1]])
			continue; /* not the start of a run */
		for (size_t j = 0; j < k; j++)
			if (end_of(r, r->live[j]) > below)
				below = end_of(r, r->live[j]);
		if (below >= r->off[r->live[k]])
			continue; /* no hole under it */
		res = hole_try(r, k, n_live, r->off[r->live[k]] - below);
		if (res)
			return res;
		if (r->nodes >= r->budget)
			return 0;
	}
	return 0;
}

/* Hole closing until no top buffer's holes give a kept move. */
static int hole_search(struct repair *r, struct ab_plan *out)
{
	bool improved = true;

	while (improved && r->peak > r->bound && r->nodes < r->budget &&
	       !r->timed_out) {
		improved = false;
		for (size_t k = 0; k < r->n_tops && !improved; k++) {
			int res = hole_once(r, r->tops[k]);

			if (res < 0)
				return res;
			if (r->deadline > 0 && ab_now_seconds() > r->deadline)
				r->timed_out = true;
			if (r->nodes >= r->budget || r->timed_out)
				return 0;
			improved = res == 1;
		}
		if (improved)
			keep_move(r, out);
	}
	return 0;
}

/* Improves out (a valid plan) by window repairs until its peak reaches
 * bound or the nodes run out.  *used = nodes spent. */
static int repair_plan(const struct ab_problem *p,
		       const struct ab_plan_options *o, struct ab_plan *out,
		       uint64_t g, uint64_t bound, uint64_t budget,
		       double deadline, uint64_t nodes_before,
		       struct progress_line *line, uint64_t *used,
		       bool *timed_out)
{
	struct repair r = { .p = p, .o = o, .g = g, .bound = bound,
			    .budget = budget, .deadline = deadline,
			    .k_free = REPAIR_FIRST_FREE };
	size_t n = p->n, fails = 0;
	uint64_t *lens = NULL, *firsts = NULL;
	int rc = -ENOMEM;

	r.off = malloc((n + 1) * sizeof(*r.off));
	r.by_first = malloc((n + 1) * sizeof(*r.by_first));
	r.first_sorted = malloc((n + 1) * sizeof(*r.first_sorted));
	r.longs = malloc((n + 1) * sizeof(*r.longs));
	r.tops = malloc((n + 1) * sizeof(*r.tops));
	r.win = malloc((n + 1) * sizeof(*r.win));
	r.mark = calloc(n + 1, 1);
	r.sb = malloc((n + 1) * sizeof(*r.sb));
	r.spin = malloc((n + 1) * sizeof(*r.spin));
	r.smap = malloc((n + 1) * sizeof(*r.smap));
	r.band = malloc((n + 1) * sizeof(*r.band));
	r.band_old = malloc((n + 1) * sizeof(*r.band_old));
	r.spans = malloc((n + 1) * sizeof(*r.spans));
	r.live = malloc((n + 1) * sizeof(*r.live));
	r.rip = malloc((n + 1) * sizeof(*r.rip));
	lens = malloc((n + 1) * sizeof(*lens));
	firsts = malloc((n + 1) * sizeof(*firsts));
	if (!r.off || !r.by_first || !r.first_sorted || !r.longs || !r.tops ||
	    !r.win || !r.mark || !r.sb || !r.spin || !r.smap || !r.band ||
	    !r.band_old || !r.spans || !r.live || !r.rip || !lens || !firsts)
		goto out;
	r.line = line;
	ab_rng_seed(&r.rng, o->seed);
	memcpy(r.off, out->offset, n * sizeof(*r.off));
	for (size_t i = 0; i < n; i++)
		if (p->buf[i].size) {
			firsts[i] = (uint64_t)p->buf[i].first;
			lens[r.n_sized] = (uint64_t)(p->buf[i].last - p->buf[i].first) + 1;
			r.by_first[r.n_sized++] = (uint32_t)i;
		}
	rc = ab_order_stable_by(r.by_first, r.n_sized, firsts);
	if (rc)
		goto out;
	/* "long" = over 4 x the median lifetime: scanned in every window */
	{
		uint64_t *sorted = firsts; /* reuse */

		memcpy(sorted, lens, r.n_sized * sizeof(*sorted));
		qsort(sorted, r.n_sized, sizeof(*sorted), cmp_u64);
		r.long_len = r.n_sized ? (int32_t)(4 * sorted[r.n_sized / 2] + 1) : 1;
	}
	for (size_t k = 0; k < r.n_sized; k++) {
		uint32_t i = r.by_first[k];

		r.first_sorted[k] = p->buf[i].first;
		if (p->buf[i].last + 1 > r.steps)
			r.steps = p->buf[i].last + 1;
		if (p->buf[i].last - p->buf[i].first + 1 > r.long_len)
			r.longs[r.n_long++] = i;
	}
	find_tops(&r);
	(void)ab_lower_bound(p, &r.busiest);
	r.load = calloc((size_t)r.steps + 1, sizeof(*r.load));
	if (!r.load)
		goto out;
	for (size_t k = 0; k < r.n_sized; k++) {
		uint32_t i = r.by_first[k];

		r.load[p->buf[i].first] += p->buf[i].size;
		r.load[p->buf[i].last + 1] -= p->buf[i].size;
	}
	for (int32_t s = 1; s <= r.steps; s++)
		r.load[s] += r.load[s - 1];
	r.nodes_before = nodes_before;
	line->phase = "hole closing";
	rc = hole_search(&r, out);
	if (rc)
		goto out;
	line->phase = "band repair";
	rc = band_search(&r, out);
	if (rc)
		goto out;
	line->phase = "window repair";
	while (r.peak > r.bound && r.nodes < r.budget && !r.timed_out &&
	       r.n_tops) {
		uint32_t t = r.tops[ab_rng_below(&r.rng, r.n_tops)];
		int res;

		/* a window skipped as too dense costs no search, so the
		 * safety stop is checked here too */
		if (r.deadline > 0 && ab_now_seconds() > r.deadline) {
			r.timed_out = true;
			break;
		}
		res = repair_once(&r, t);

		if (res < 0) {
			rc = res;
			goto out;
		}
		if (res == 1) {
			size_t w = 0;

			for (size_t k = 0; k < r.n_tops; k++)
				if (end_of(&r, r.tops[k]) + r.g > r.peak)
					r.tops[w++] = r.tops[k];
			r.n_tops = w;
			fails = 0;
			if (!w) {
				find_tops(&r);
				memcpy(out->offset, r.off, n * sizeof(*r.off));
				report(&r, REPORT_IMPROVED);
			}
			report(&r, REPORT_TICK);
		} else if (++fails >= 2 * r.n_tops + 4) {
			fails = 0;
			if (r.k_free >= REPAIR_MAX_FREE)
				r.k_free = REPAIR_FIRST_FREE; /* start over */
			else
				r.k_free += r.k_free / 2;
		}
	}
	report(&r, REPORT_FINAL);
	ab_plan_finish_single(out, p);
	rc = 0;
out:
	*used = r.nodes;
	*timed_out = r.timed_out;
	free(r.off);
	free(r.by_first);
	free(r.first_sorted);
	free(r.longs);
	free(r.tops);
	free(r.win);
	free(r.mark);
	free(r.sb);
	free(r.spin);
	free(r.smap);
	free(r.band);
	free(r.band_old);
	free(r.spans);
	free(r.live);
	free(r.rip);
	free(r.load);
	free(lens);
	free(firsts);
	return rc;
}

/* Restarts at one C: preorder h = i mod 3, its keys scaled by fresh
 * random factors, node limits on Luby's schedule times m. */
static int decide_restarts(struct exact *x, uint64_t cap, uint64_t budget,
			   struct ab_rng *rng)
{
	uint64_t start = x->nodes_total, base = x->m;
	int r = ABORTED;

	x->factor = malloc(x->m * sizeof(*x->factor));
	if (!x->factor)
		return -ENOMEM;
	for (uint64_t i = 1; r == ABORTED; i++) {
		uint64_t used = x->nodes_total - start;
		uint64_t limit = ab_luby(i) * base;

		if (used >= budget || x->nodes_total >= x->budget)
			break;
		ab_random_factors(x->factor, x->m, RESTART_SPREAD, rng);
		r = decide_once(x, cap, (int)(i % N_PREORDERS),
				limit < budget - used ? limit : budget - used);
	}
	free(x->factor);
	x->factor = NULL;
	return r;
}

/* One answer of the bisection over C in [lo, hi] (multiples of g): a
 * plan found lowers the top to its peak - g; a proof that C does not fit
 * raises the bound and the bottom to C + g; a run out of nodes only moves
 * the bottom up.  The complete search's loop and the restarts' passes
 * both take their answers here. */
static void bisect_answer(struct exact *x, struct ab_plan *out, int r,
			  uint64_t c, uint64_t g, uint64_t *lo, uint64_t *hi,
			  uint64_t *bound)
{
	if (r == FOUND) {
		take(x, out);
		*hi = (out->peak - 1) / g * g;
	} else {
		if (r == NOT_FOUND)
			*bound = c + g;
		*lo = c + g;
	}
	x->peak_now = out->peak;
	x->bound_now = *bound;
	search_report(x, r == FOUND || r == NOT_FOUND);
}

/* A budget above the default buys passes of bisection after the complete
 * search: C between the proven bound and the incumbent's peak - g, each
 * question answered by decide_restarts with at most 1/RESTART_SHARE_DIV
 * of the phase's nodes; a pass that closes without proving starts again
 * from the bound. */
static int restart_phase(struct exact *x, struct ab_plan *out, uint64_t g,
			 uint64_t *bound, uint64_t budget, uint64_t seed)
{
	struct ab_rng rng;
	uint64_t share = budget / RESTART_SHARE_DIV, lo = *bound, hi = 0;

	if (!share)
		share = 1; /* each question must spend a node, or the passes
			    * never end */
	ab_rng_seed(&rng, seed);
	x->budget = x->nodes_total + budget;
	if (x->line)
		x->line->phase = "restarts";
	while (*bound < out->peak && !x->timed_out &&
	       x->nodes_total < x->budget) {
		uint64_t c;
		int r;

		if (lo > hi) { /* a new pass */
			lo = *bound;
			hi = (out->peak - 1) / g * g;
		}
		c = lo + (hi - lo) / g / 2 * g;
		r = decide_restarts(x, c, share, &rng);
		if (r < 0)
			return r;
		bisect_answer(x, out, r, c, g, &lo, &hi, bound);
	}
	return 0;
}

/* The granule of the whole problem: gcd of the sizes and of the
 * alignments > 1 (every canonical offset and peak is a multiple). */
static uint64_t problem_granule(const struct ab_problem *p,
				const struct ab_plan_options *o)
{
	uint64_t g = 0;

	for (size_t i = 0; i < p->n; i++) {
		uint64_t a = ab_effective_align(p, i, o);

		if (!p->buf[i].size)
			continue;
		g = ab_gcd(g, p->buf[i].size);
		if (a > 1)
			g = ab_gcd(g, a);
	}
	return g ? g : 1;
}

/* The skyline search's default nodes: min(NODES, WORK / buffers) times
 * the share of steps whose live bytes are within a granule of the bound,
 * the only steps where its forward check bites (all of a tiling's; few
 * of minimalloc's D, where it would otherwise add 7 s and find nothing).
 * Returns 0 or -ENOMEM. */
static int skyline_default(const struct ab_problem *p, uint64_t bound,
			   uint64_t g, uint64_t *nodes)
{
	struct ab_live_profile lp;
	uint64_t full = 0, all = 0;
	int rc = ab_live_profile(p, &lp);

	if (rc)
		return rc;
	for (size_t k = 0; k + 1 < lp.n; k++) {
		uint64_t len = (uint64_t)(lp.time[k + 1] - lp.time[k]);

		all += len;
		if (lp.bytes[k] + g > bound)
			full += len;
	}
	ab_live_profile_free(&lp);
	*nodes = DEFAULT_SKYLINE_WORK / (p->n ? p->n : 1);
	if (*nodes > DEFAULT_SKYLINE_NODES)
		*nodes = DEFAULT_SKYLINE_NODES;
	if (all)
		*nodes = (uint64_t)((double)*nodes * (double)full / (double)all);
	return 0;
}

/* Step 9: the skyline search (planners/lib/skyline.c) for a plan at the
 * bound itself, i.e. one that wastes nothing; found, it is optimal. */
static int skyline_at_bound(const struct ab_problem *p,
			    const struct ab_plan_options *o, struct ab_plan *out,
			    uint64_t bound, uint64_t budget, double deadline,
			    struct progress_line *line, uint64_t nodes_before,
			    uint64_t *used, bool *timed_out)
{
	struct ab_skyline_run run = { .budget = budget, .seed = o->seed,
				      .deadline = deadline };
	uint64_t *off = malloc((p->n + 1) * sizeof(*off));
	int rc;

	if (!off)
		return -ENOMEM;
	rc = ab_skyline_fit(p, o, bound, off, &run);
	if (rc == 1) {
		memcpy(out->offset, off, p->n * sizeof(*off));
		ab_plan_finish_single(out, p);
		rc = 0;
	}
	line->phase = "skyline search";
	progress_say(line, REPORT_FINAL, out->peak, bound, nodes_before + run.nodes);
	*used = run.nodes;
	*timed_out = *timed_out || run.timed_out;
	free(off);
	return rc;
}

/* The seed: the best fast plan (planners/best_of.c). */
extern const struct ab_planner ab_planner_best_of;

static int plan_exact(const struct ab_problem *p,
		      const struct ab_plan_options *o, struct ab_plan *out)
{
	const struct ab_planner *seed = &ab_planner_best_of;
	struct exact x;
	uint64_t lb = ab_lower_bound(p, NULL), bound = lb, lo, hi, g;
	uint64_t budget, whole_budget, used = 0, start_peak;
	double deadline, t0 = ab_now_seconds();
	struct progress_line line = { .fn = o->progress,
				      .user = o->progress_user, .t0 = t0 };
	bool whole = false, timed_out = false;
	int rc;

	rc = seed->plan(p, o, out);
	if (rc)
		return rc;
	start_peak = out->peak;
	line.start_peak = start_peak;
	out->stopped_by = AB_STOPPED_NONE;
	out->iterations = 0;
	g = problem_granule(p, o);
	bound = (bound + g - 1) / g * g;
	if (out->peak <= bound)
		goto done;
	deadline = o->safety_seconds > 0
			   ? ab_now_seconds() + o->safety_seconds : 0;
	rc = setup(&x, p, o, NULL, MAX_SEARCHED);
	if (rc == -E2BIG) {
		teardown(&x);
		rc = 0;
		budget = o->budget ? o->budget : DEFAULT_REPAIR_NODES;
		goto repair;
	}
	if (rc)
		goto out_free;
	whole = true;
	whole_budget = DEFAULT_WORK / x.m;
	if (whole_budget > DEFAULT_NODES)
		whole_budget = DEFAULT_NODES;
	/* by default no repairs after a complete search (they cost the test
	 * suite minutes on the corpus); a larger --budget buys them */
	budget = o->budget ? o->budget : whole_budget;
	x.budget = whole_budget < budget ? whole_budget : budget;
	x.deadline = deadline;
	x.line = &line;
	line.phase = "complete search";
	x.peak_now = out->peak;
	x.bound_now = bound;
	/* Every canonical plan's offsets and peak are multiples of the
	 * granule g (gcd of sizes and alignments), so C and the bound move
	 * in steps of g.  C = LB first, with 1/SHARE_DIV of the budget; then
	 * bisection on C between the proven bound and the incumbent's peak
	 * - g, where a plan lowers the top to its own peak - g, a proof
	 * raises the bound to C + g, and a run out of nodes moves the bottom
	 * up without proving anything; once it closes, what is left of the
	 * budget goes to C = peak - g, the one question whose answer either
	 * improves the plan or proves it optimal. */
	bound = raise_to_section_bound(&x, bound);
	x.bound_now = bound;
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
		if (r != FOUND && r != NOT_FOUND && lo > hi)
			break; /* the last question ran out of nodes */
		bisect_answer(&x, out, r, c, g, &lo, &hi, &bound);
	}
	progress_say(&line, REPORT_FINAL, out->peak, bound, x.nodes_total);
	if (budget > x.budget && out->peak > bound && !x.timed_out) {
		rc = restart_phase(&x, out, g, &bound, (budget - x.budget) / 2,
				   o->seed);
		if (rc)
			goto out_free;
		progress_say(&line, REPORT_FINAL, out->peak, bound,
			     x.nodes_total);
	}
	used = x.nodes_total;
	timed_out = x.timed_out;
	teardown(&x);
repair:
	if (out->peak > bound && !timed_out) {
		uint64_t more = 0, nodes = 0;

		if (o->budget)
			nodes = budget > used ? (budget - used) / SHARE_DIV : 0;
		else if ((rc = skyline_default(p, bound, g, &nodes)))
			return rc;
		rc = skyline_at_bound(p, o, out, bound, nodes, deadline, &line,
				      used, &more, &timed_out);
		used += more;
		if (!o->budget)
			budget += more; /* the default gives it its own nodes */
		if (rc)
			return rc;
	}
	if (out->peak > bound && !timed_out && used < budget) {
		uint64_t more = 0;

		rc = repair_plan(p, o, out, g, bound, budget - used, deadline,
				 used, &line, &more, &timed_out);
		used += more;
		if (rc)
			return rc;
	}
	out->iterations = used;
	if (timed_out)
		out->stopped_by = AB_STOPPED_TIME;
	else if (out->peak > bound)
		out->stopped_by = whole ? AB_STOPPED_BUDGET : AB_STOPPED_SIZE;
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
