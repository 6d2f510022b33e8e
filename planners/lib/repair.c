/*
 * The repairs of a valid plan (repair.h): window repair, band repair and
 * hole closing, each a kind of move tried in rounds by one keep-move loop
 * (keep_moves), which copies a plan out only after a kept move.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fit_search.h"
#include "lib/repair.h"
#include "lib/rng_clock.h"

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
/* Work counted in nodes: besides its one node, a step that scans, sorts
 * or copies w buffers costs w / SCAN_PER_NODE more (floor, so the small
 * windows of small problems cost what they did), so a node stays about
 * the same work at 10^4 buffers as at 10^2. */
#define SCAN_PER_NODE 256

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
	size_t fails;             /* window repairs failed since the last move */
	struct ab_rng rng;
	uint64_t nodes, budget;
	double deadline;
	bool timed_out;
	struct ab_progress_line *line;
	uint64_t nodes_before;    /* spent by the complete search */
	int32_t busiest;          /* a step of maximum live bytes */
	uint64_t *load;           /* live bytes per step */
	uint32_t *live, *rip;     /* hole closing: a step's buffers; freed */
	uint64_t *below;          /* hole closing: top of live[0..k) */
	struct end_key *band;     /* band repair: buffers by end, highest first */
	uint64_t *band_old;       /* the freed buffers' offsets, to undo */
	struct span *spans;       /* band repair: placed neighbours in time */
};

/* Counts w buffers' worth of scanning (see SCAN_PER_NODE).  The count
 * stops at the budget: the step that reaches it is the last. */
static void spend_nodes(struct repair *r, uint64_t k)
{
	r->nodes = k < r->budget - r->nodes ? r->nodes + k : r->budget;
}

static void spend(struct repair *r, uint64_t w)
{
	spend_nodes(r, w / SCAN_PER_NODE);
}

static uint64_t end_of(const struct repair *r, uint32_t i)
{
	return r->off[i] + r->p->buf[i].size;
}

static void find_tops(struct repair *r)
{
	uint64_t top = 0;

	spend(r, 2 * r->n_sized);
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
	size_t k0 = a;

	for (; a < r->n_sized && r->first_sorted[a] <= w1; a++) {
		uint32_t i = r->by_first[a];

		if (B[i].last >= w0 && B[i].last - B[i].first + 1 <= r->long_len)
			r->win[n_win++] = i;
	}
	spend(r, (a - k0) + r->n_long);
	for (size_t k = 0; k < r->n_long; k++) {
		uint32_t i = r->longs[k];

		if (B[i].first <= w1 && B[i].last >= w0)
			r->win[n_win++] = i;
	}
	return n_win;
}

/* Places a window around top buffer t's lifetime, widened until it
 * holds 1.5 K buffers (K = r->k_free), at random around it: [*w0, *w1],
 * its buffers in r->win; returns how many. */
static size_t place_window(struct repair *r, uint32_t t, int32_t *w0,
			   int32_t *w1)
{
	const struct ab_buffer *B = r->p->buf;
	int32_t len = B[t].last - B[t].first + 1;
	int32_t ext = len / 2 + 1;
	size_t n_win;

	for (;;) {
		int32_t left = (int32_t)ab_rng_below(&r->rng, (uint64_t)ext + 1);
		size_t inside = 0;

		*w0 = B[t].first > left ? B[t].first - left : 0;
		*w1 = B[t].last + (ext - left);
		n_win = collect(r, *w0, *w1);
		for (size_t k = 0; k < n_win; k++)
			inside += B[r->win[k]].first >= *w0 &&
				  B[r->win[k]].last <= *w1;
		if (2 * inside >= 3 * r->k_free || ext > r->steps)
			break;
		ext = 2 * ext + 1;
	}
	return n_win;
}

/* The decision search on the window's problem (r->sb[0..n_sub), the
 * fixed ones pinned by r->spin): do its n_free free buffers fit below
 * cap?  If they do, they move.  Returns 1 if they moved, 0 if not, or
 * -errno. */
static int solve_window(struct repair *r, size_t n_sub, size_t n_free,
			uint64_t cap)
{
	struct ab_problem sub = { 0 };
	struct ab_fit_search x;
	uint64_t limit = REPAIR_NODES_PER_FREE * (uint64_t)n_free + 1000;
	int rc, res;

	sub.n = n_sub;
	sub.buf = r->sb;
	rc = ab_fit_setup(&x, &sub, r->o, r->spin, SIZE_MAX);
	if (rc) {
		ab_fit_teardown(&x);
		return rc == -E2BIG ? 0 : rc;
	}
	spend(r, 2 * n_sub); /* the set-up: sorts and overlaps */
	if (r->nodes >= r->budget)
		limit = 0;
	else if (limit > r->budget - r->nodes)
		limit = r->budget - r->nodes;
	x.budget = limit;
	x.deadline = r->deadline;
	res = ab_fit_decide(&x, cap, limit);
	r->nodes += x.nodes_total;
	if (x.timed_out)
		r->timed_out = true;
	rc = res < 0 ? res : 0;
	if (res == AB_FIT_FOUND) {
		for (size_t b = 0; b < x.m; b++) {
			uint32_t i = r->smap[x.buf[b]];

			if (r->mark[i] == 1)
				r->off[i] = x.sol[b];
		}
		rc = 1;
	}
	ab_fit_teardown(&x);
	return rc;
}

/* One repair around top buffer t.  Returns 1 if the window's free buffers
 * moved below C, 0 if not, or -errno. */
static int repair_once(struct repair *r, uint32_t t)
{
	const struct ab_buffer *B = r->p->buf;
	uint64_t cap = r->peak - r->g;
	int32_t w0, w1, h0 = INT32_MAX, h1 = INT32_MIN;
	size_t n_win, n_free = 0, n_sub = 0;
	struct end_key *keys;
	int rc = 0;

	n_win = place_window(r, t, &w0, &w1);
	spend_nodes(r, 1); /* every attempt costs one, so failures end too */
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
	spend(r, 2 * n_win + n_free);
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
	for (size_t k = 0; k < n_win; k++) {
		uint32_t i = r->win[k];

		if (!r->mark[i] && B[i].first <= h1 && B[i].last >= h0) {
			if (end_of(r, i) > cap)
				goto out_marks; /* rc 0 */
			r->mark[i] = 2;
		}
		if (r->mark[i]) {
			r->sb[n_sub] = B[i];
			if (r->sb[n_sub].first < h0)
				r->sb[n_sub].first = h0;
			if (r->sb[n_sub].last > h1)
				r->sb[n_sub].last = h1;
			r->spin[n_sub] = r->mark[i] == 1 ? AB_FIT_NO_PIN : r->off[i];
			r->smap[n_sub++] = i;
		}
	}
	rc = solve_window(r, n_sub, n_free, cap);
out_marks:
	for (size_t k = 0; k < n_win; k++)
		r->mark[r->win[k]] = 0;
	free(keys);
	return rc;
}

static void report(struct repair *r, int why)
{
	ab_progress_line_say(r->line, why, r->peak, r->bound,
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
	spend(r, n_sp);
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
	spend(r, 2 * r->n_sized);
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

		spend_nodes(r, 1);
		report(r, AB_REPORT_TICK);
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
	return rc;
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
	spend(r, 4 * r->n_sized); /* sum_ends twice, count_tops, the peak */
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
	spend_nodes(r, n_live - from);
	for (size_t k = 0; k < n_rip; k++) {
		uint32_t i = keys[k].i;
		uint64_t at = lowest_fit(r, i, ab_effective_align(r->p, i, r->o));

		spend_nodes(r, 1);
		report(r, AB_REPORT_TICK);
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
	spend(r, (uint64_t)(B[t].last - B[t].first) + 1);
	n_live = collect(r, at, at);
	spend(r, 3 * n_live);
	for (size_t k = 0; k < n_live; k++) {
		r->band[k].i = r->win[k];
		r->band[k].end = r->off[r->win[k]];
	}
	/* by offset, lowest first (cmp_end_key sorts highest first) */
	qsort(r->band, n_live, sizeof(*r->band), cmp_end_key);
	for (size_t k = 0; k < n_live; k++) {
		r->live[k] = r->band[n_live - 1 - k].i;
		r->below[k + 1] = r->below[k] > end_of(r, r->live[k])
					  ? r->below[k] : end_of(r, r->live[k]);
	}
	/* hole_try undoes a move it does not keep, and a kept one ends the
	 * loop, so below[] holds throughout */
	for (size_t k = n_live; k-- > 0;) {
		uint64_t below = r->below[k]; /* top of the buffers under live[k] */
		int res;

		if (k && r->off[r->live[k]] == r->off[r->live[k - 1]])
			continue; /* not the start of a run */
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

/* ------------------------------------------------ the keep-move loop */

/* What a round of moves did. */
enum { ROUND_NONE, ROUND_KEPT, ROUND_STOP };

/* A kept move: the new tops, the plan copied out, progress reported. */
static void keep_move(struct repair *r, struct ab_plan *out)
{
	find_tops(r);
	memcpy(out->offset, r->off, r->p->n * sizeof(*r->off));
	report(r, AB_REPORT_IMPROVED);
}

/*
 * The one loop of the three repairs: rounds of moves until a round keeps
 * none (ROUND_NONE), runs out of nodes or time (ROUND_STOP: its last
 * move, if any, is not copied out), or the peak reaches the bound.  A
 * round returns ROUND_KEPT once it has moved buffers so that the peak
 * dropped (window repair) or the move passed its own test (hole closing,
 * band repair); the loop then copies the plan out.
 */
static int keep_moves(struct repair *r, struct ab_plan *out,
		      const char *phase, int (*round)(struct repair *))
{
	r->line->phase = phase;
	while (r->peak > r->bound && r->nodes < r->budget && !r->timed_out) {
		int res = round(r);

		if (res < 0)
			return res;
		if (res != ROUND_KEPT)
			return 0;
		keep_move(r, out);
		report(r, AB_REPORT_TICK);
	}
	return 0;
}

/* Hole closing: the holes of each top buffer in turn. */
static int hole_round(struct repair *r)
{
	for (size_t k = 0; k < r->n_tops; k++) {
		int res = hole_once(r, r->tops[k]);

		if (res < 0)
			return res;
		report(r, AB_REPORT_TICK);
		if (r->deadline > 0 && ab_now_seconds() > r->deadline)
			r->timed_out = true;
		if (r->nodes >= r->budget || r->timed_out)
			return ROUND_STOP;
		if (res == 1)
			return ROUND_KEPT;
	}
	return ROUND_NONE;
}

/* Band repair: all buffers first, then the bands from the top, each in
 * every order. */
static int band_round(struct repair *r)
{
	for (unsigned pass = 0;; pass++) {
		size_t k = pass ? (size_t)BAND_FIRST_FREE << (pass - 1)
				: r->n_sized;

		if (pass && k >= r->n_sized)
			return ROUND_NONE;
		for (int h = 0; h < BAND_ORDERS; h++) {
			int res = band_once(r, k, h);

			if (res < 0)
				return res;
			if (r->nodes >= r->budget || r->timed_out)
				return ROUND_STOP;
			if (res == 1)
				return ROUND_KEPT;
		}
	}
}

/* Window repair: windows around random top buffers until every one has
 * moved below peak - g, so the peak dropped. */
static int window_round(struct repair *r)
{
	while (r->peak > r->bound && r->nodes < r->budget && !r->timed_out &&
	       r->n_tops) {
		uint32_t t = r->tops[ab_rng_below(&r->rng, r->n_tops)];
		int res;

		/* a window skipped as too dense costs no search, so the
		 * safety stop is checked here too */
		if (r->deadline > 0 && ab_now_seconds() > r->deadline) {
			r->timed_out = true;
			return ROUND_STOP;
		}
		res = repair_once(r, t);
		if (res < 0)
			return res;
		report(r, AB_REPORT_TICK);
		if (res == 1) {
			size_t w = 0;

			for (size_t k = 0; k < r->n_tops; k++)
				if (end_of(r, r->tops[k]) + r->g > r->peak)
					r->tops[w++] = r->tops[k];
			r->n_tops = w;
			r->fails = 0;
			if (!w)
				return ROUND_KEPT;
			report(r, AB_REPORT_TICK);
		} else if (++r->fails >= 2 * r->n_tops + 4) {
			r->fails = 0;
			if (r->k_free >= REPAIR_MAX_FREE)
				r->k_free = REPAIR_FIRST_FREE; /* start over */
			else
				r->k_free += r->k_free / 2;
		}
	}
	return ROUND_NONE;
}

/* ------------------------------------------------------------ set-up */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The repair's state for out's offsets: the sized buffers by first use,
 * the long-lived ones, the tops, the live bytes per step.  0 or -ENOMEM
 * (repair_free frees what was made). */
static int repair_init(struct repair *r, const struct ab_plan *out)
{
	const struct ab_problem *p = r->p;
	const struct ab_plan_options *o = r->o;
	size_t n = p->n;
	uint64_t *lens = NULL, *firsts = NULL;
	int rc = -ENOMEM;

	r->off = malloc((n + 1) * sizeof(*r->off));
	r->by_first = malloc((n + 1) * sizeof(*r->by_first));
	r->first_sorted = malloc((n + 1) * sizeof(*r->first_sorted));
	r->longs = malloc((n + 1) * sizeof(*r->longs));
	r->tops = malloc((n + 1) * sizeof(*r->tops));
	r->win = malloc((n + 1) * sizeof(*r->win));
	r->mark = calloc(n + 1, 1);
	r->sb = malloc((n + 1) * sizeof(*r->sb));
	r->spin = malloc((n + 1) * sizeof(*r->spin));
	r->smap = malloc((n + 1) * sizeof(*r->smap));
	r->band = malloc((n + 1) * sizeof(*r->band));
	r->band_old = malloc((n + 1) * sizeof(*r->band_old));
	r->spans = malloc((n + 1) * sizeof(*r->spans));
	r->live = malloc((n + 1) * sizeof(*r->live));
	r->rip = malloc((n + 1) * sizeof(*r->rip));
	r->below = calloc(n + 2, sizeof(*r->below));
	lens = malloc((n + 1) * sizeof(*lens));
	firsts = malloc((n + 1) * sizeof(*firsts));
	if (!r->off || !r->by_first || !r->first_sorted || !r->longs ||
	    !r->tops || !r->win || !r->mark || !r->sb || !r->spin || !r->smap ||
	    !r->band || !r->band_old || !r->spans || !r->live || !r->rip ||
	    !r->below ||
	    !lens || !firsts)
		goto out;
	ab_rng_seed(&r->rng, o->seed);
	memcpy(r->off, out->offset, n * sizeof(*r->off));
	for (size_t i = 0; i < n; i++)
		if (p->buf[i].size) {
			firsts[i] = (uint64_t)p->buf[i].first;
			lens[r->n_sized] =
				(uint64_t)(p->buf[i].last - p->buf[i].first) + 1;
			r->by_first[r->n_sized++] = (uint32_t)i;
		}
	rc = ab_order_stable_by(r->by_first, r->n_sized, firsts);
	if (rc)
		goto out;
	/* "long" = over 4 x the median lifetime: scanned in every window */
	{
		uint64_t *sorted = firsts; /* reuse */

		memcpy(sorted, lens, r->n_sized * sizeof(*sorted));
		qsort(sorted, r->n_sized, sizeof(*sorted), cmp_u64);
		r->long_len = r->n_sized
				      ? (int32_t)(4 * sorted[r->n_sized / 2] + 1)
				      : 1;
	}
	for (size_t k = 0; k < r->n_sized; k++) {
		uint32_t i = r->by_first[k];

		r->first_sorted[k] = p->buf[i].first;
		if (p->buf[i].last + 1 > r->steps)
			r->steps = p->buf[i].last + 1;
		if (p->buf[i].last - p->buf[i].first + 1 > r->long_len)
			r->longs[r->n_long++] = i;
	}
	find_tops(r);
	(void)ab_lower_bound(p, &r->busiest);
	r->load = calloc((size_t)r->steps + 1, sizeof(*r->load));
	if (!r->load) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t k = 0; k < r->n_sized; k++) {
		uint32_t i = r->by_first[k];

		r->load[p->buf[i].first] += p->buf[i].size;
		r->load[p->buf[i].last + 1] -= p->buf[i].size;
	}
	for (int32_t s = 1; s <= r->steps; s++)
		r->load[s] += r->load[s - 1];
	rc = 0;
out:
	free(lens);
	free(firsts);
	return rc;
}

static void repair_free(struct repair *r)
{
	free(r->off);
	free(r->by_first);
	free(r->first_sorted);
	free(r->longs);
	free(r->tops);
	free(r->win);
	free(r->mark);
	free(r->sb);
	free(r->spin);
	free(r->smap);
	free(r->band);
	free(r->band_old);
	free(r->spans);
	free(r->live);
	free(r->rip);
	free(r->below);
	free(r->load);
}

int ab_repair_plan(const struct ab_problem *p,
		   const struct ab_plan_options *o, struct ab_plan *out,
		   struct ab_repair_run *run)
{
	struct repair r = { .p = p, .o = o, .g = run->granule,
			    .bound = run->bound, .budget = run->budget,
			    .deadline = run->deadline,
			    .k_free = REPAIR_FIRST_FREE, .line = run->line,
			    .nodes_before = run->nodes_before };
	int rc = repair_init(&r, out);

	if (!rc)
		rc = keep_moves(&r, out, "hole closing", hole_round);
	if (!rc)
		rc = keep_moves(&r, out, "band repair", band_round);
	if (!rc)
		rc = keep_moves(&r, out, "window repair", window_round);
	if (!rc) {
		report(&r, AB_REPORT_FINAL);
		ab_plan_finish_single(out, p);
	}
	run->nodes = r.nodes;
	run->timed_out = r.timed_out;
	repair_free(&r);
	return rc;
}
