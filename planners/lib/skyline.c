/*
 * Skyline search: does every buffer fit below C, stacked from the bottom
 * with its lifetime fixed?  Aimed at problems whose optimum wastes no
 * byte, like the known-optimum tilings of graphs/gen/tiling.c.
 *
 * The skyline is, per step, the top of the buffers placed so far that are
 * live there; a buffer is only ever placed on it (holes below it are
 * lost).  A node takes the lowest run of steps at one height h (leftmost
 * on ties), [a, b), and either places an unplaced buffer that starts at a
 * and ends before b at h (aligned up), or raises the run to the lower of
 * its two neighbours (the bytes in between are waste).  This is the
 * best-fit skyline rule of Burke, Kendall and Whitwell ("A new placement
 * heuristic for the orthogonal stock-cutting problem", Operations
 * Research 52(4), 2004) with the x positions (lifetimes) fixed, searched
 * depth first.  Candidates at a: those filling the run exactly (ending at
 * b - 1) first, then the restart's order.  If a plan wastes nothing below
 * C, the buffer covering the lowest free byte of the leftmost lowest run
 * starts at a and ends before b, so some sequence of choices rebuilds it.
 *
 * Pruning: a choice is refused if some step's skyline + unplaced live
 * bytes ("need") exceeds C, or if a run it touched can no longer be
 * filled (run_has_fillers: with less than a granule of slack, a run with
 * a higher step on its left must be covered by a buffer starting there).
 * Restarts: the search is heavy-tailed (a 150-buffer tiling is solved in
 * a few thousand nodes by one order and not in 200,000 by another), so it
 * restarts every RESTART_NODES_PER_BUFFER x buffers nodes, the first run
 * longest lifetime first, the others in seeded random orders, until the
 * node budget is spent (the restart interval chosen by measurement:
 * docs/planners.md).  A run that ends under its limit was exhaustive:
 * no skyline plan fits below C, and it stops (this proves nothing about
 * plans that use holes).
 * Complexity: a node costs O(log T + buffers starting at a + buffers
 * ending at b - 1) (two range trees, range_tree.h; T <= 2n: the
 * steps are renumbered to the points where lifetimes start or end); a
 * restart O(T log T) to reset.
 * Weak spots: it finds nothing on tilings of 1,000 buffers or more; a
 * plan that needs a hole is out of its reach (docs/planners.md has the
 * measurements).
 */
#include "lib/skyline.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/placement.h"
#include "lib/range_tree.h"
#include "lib/rng_clock.h"

#define INF_BYTES UINT64_MAX
#define RAISE UINT32_MAX
#define RESTART_NODES_PER_BUFFER 2

/* One decision of the search, with the change it made (to undo). */
struct frame {
	size_t c0, nc, next; /* its candidates: cand[c0 .. c0 + nc) */
	size_t a, b;         /* the run [a, b) */
	uint64_t h, raise_to;
	uint32_t did;        /* buffer placed, RAISE, or none (n) */
};

struct sky {
	const struct ab_problem *p;
	struct ab_buffer *cb;      /* the buffers, steps compressed */
	size_t n, n_sized, steps;
	uint32_t *bstart, *bucket; /* CSR: sized buffers by first step */
	uint32_t *estart, *ending; /* CSR: sized buffers by last step */
	uint64_t cap;              /* C */
	uint64_t g;                /* gcd of sizes and alignments > 1 */
	uint64_t *align, *key, *off;
	uint8_t *placed;
	size_t n_placed;
	struct ab_range_tree top;            /* skyline per step */
	struct ab_range_tree need;           /* skyline + unplaced live bytes */
	uint64_t *live;            /* live bytes per step */
	uint32_t *cand;
	size_t n_cand, cap_cand;
	struct frame *fr;
	size_t n_fr;
	struct ab_rng rng;
	struct ab_skyline_run *run;
};

static int cand_push(struct sky *s, uint32_t c)
{
	if (s->n_cand == s->cap_cand) {
		size_t cap = s->cap_cand ? 2 * s->cap_cand : 1024;
		void *q = realloc(s->cand, cap * sizeof(*s->cand));

		if (!q)
			return -ENOMEM;
		s->cand = q;
		s->cap_cand = cap;
	}
	s->cand[s->n_cand++] = c;
	return 0;
}

/* Orders each bucket: longest lifetime first (then largest), or at
 * random; ties by index. */
static int order_buckets(struct sky *s, bool random)
{
	const struct ab_buffer *B = s->cb;
	size_t k = 0;
	int rc;

	for (size_t i = 0; i < s->n; i++) {
		uint64_t life = (uint64_t)(B[i].last - B[i].first) + 1;

		if (!B[i].size)
			continue;
		s->key[i] = random ? ab_rng_next(&s->rng)
				   : ~(life << 32 | (B[i].size >> 32 ? UINT32_MAX
								     : B[i].size));
		s->bucket[k++] = (uint32_t)i;
	}
	rc = ab_order_stable_by(s->bucket, k, s->key);
	for (size_t i = 0; i < s->n && !rc; i++)
		s->key[i] = (uint64_t)B[i].first;
	return rc ? rc : ab_order_stable_by(s->bucket, k, s->key);
}

static void reset(struct sky *s)
{
	memset(s->placed, 0, s->n);
	for (size_t i = 0; i < s->n; i++)
		if (!s->cb[i].size)
			s->placed[i] = 1; /* never searched; offset 0 */
	s->n_placed = 0;
	ab_range_tree_clear(&s->top);
	ab_range_tree_clear(&s->need);
	for (size_t t = 0; t < s->steps; t++)
		if (s->live[t])
			ab_range_add(&s->need, t, t, s->live[t]);
	s->n_cand = 0;
	s->n_fr = 0;
}

static bool fillers_around(struct sky *s, size_t f, size_t l);

/* Applies choice c of frame f; false if it breaks C. */
static bool apply(struct sky *s, struct frame *f, uint32_t c)
{
	const struct ab_buffer *B = s->cb;

	f->did = c;
	if (c == RAISE) {
		uint64_t d = f->raise_to - f->h;

		ab_range_add(&s->top, f->a, f->b - 1, d);
		ab_range_add(&s->need, f->a, f->b - 1, d);
	} else {
		uint64_t at = ab_align_up(f->h, s->align[c]);

		s->off[c] = at;
		s->placed[c] = 1;
		s->n_placed++;
		ab_range_add(&s->top, (size_t)B[c].first, (size_t)B[c].last,
			at + B[c].size - f->h);
		ab_range_add(&s->need, (size_t)B[c].first, (size_t)B[c].last,
			at - f->h);
	}
	if (s->need.mx[1] > s->cap)
		return false;
	if (c == RAISE)
		return fillers_around(s, f->a, f->b - 1);
	return fillers_around(s, (size_t)B[c].first, (size_t)B[c].last);
}

static void undo(struct sky *s, struct frame *f)
{
	const struct ab_buffer *B = s->cb;
	uint32_t c = f->did;

	if (c == (uint32_t)s->n)
		return;
	f->did = (uint32_t)s->n;
	if (c == RAISE) {
		uint64_t d = f->raise_to - f->h;

		ab_range_add(&s->top, f->a, f->b - 1, 0 - d);
		ab_range_add(&s->need, f->a, f->b - 1, 0 - d);
	} else {
		uint64_t at = s->off[c];

		s->placed[c] = 0;
		s->n_placed--;
		ab_range_add(&s->top, (size_t)B[c].first, (size_t)B[c].last,
			0 - (at + B[c].size - f->h));
		ab_range_add(&s->need, (size_t)B[c].first, (size_t)B[c].last,
			0 - (at - f->h));
	}
}

/*
 * Forward check of the run of equal skyline containing step t, [a, b) at
 * height h.  Bytes at a step are wasted only by raising a run holding it,
 * which adds at least g to skyline + unplaced live bytes ("need") there.
 * If the step left of the run is higher or a = 0 (a wall), the run keeps
 * its start until a buffer starting at a covers byte h there, or until
 * it is raised whole; so if some unplaced buffer is live at a and some
 * step of the run has need > C - g, a buffer starting at a (and ending
 * before b, unless the step right of the run is lower: the run may still
 * grow there) must remain.  Likewise a wall right of the run, with need
 * > C - g at b - 1 itself (the run shrinks from the left), needs a buffer
 * ending at b - 1.  No such unplaced buffer: the node has no completion.
 */
static bool run_has_fillers(struct sky *s, size_t t)
{
	const struct ab_buffer *B = s->cb;
	uint64_t h = ab_range_get(&s->top, t), left = INF_BYTES, right = INF_BYTES;
	size_t a = t ? ab_range_prev_diff(&s->top, t - 1, h)
		     : s->steps;
	size_t b = ab_range_next_diff(&s->top, t + 1, h);
	bool ok;

	a = a == s->steps ? 0 : a + 1;
	if (a)
		left = ab_range_get(&s->top, a - 1);
	if (b < s->steps)
		right = ab_range_get(&s->top, b);
	if (left > h && ab_range_get(&s->need, a) > h &&
	    s->cap - ab_range_max(&s->need, a, b - 1) < s->g) {
		ok = false;
		for (uint32_t k = s->bstart[a]; k < s->bstart[a + 1] && !ok; k++) {
			uint32_t i = s->bucket[k];

			ok = !s->placed[i] &&
			     ((size_t)B[i].last < b || right < h) &&
			     ab_align_up(h, s->align[i]) + B[i].size <= s->cap;
		}
		if (!ok)
			return false;
	}
	if (right > h && ab_range_get(&s->need, b - 1) > h &&
	    s->cap - ab_range_get(&s->need, b - 1) < s->g) {
		ok = false;
		for (uint32_t k = s->estart[b - 1]; k < s->estart[b] && !ok; k++) {
			uint32_t i = s->ending[k];

			ok = !s->placed[i] &&
			     ((size_t)B[i].first >= a || left < h) &&
			     ab_align_up(h, s->align[i]) + B[i].size <= s->cap;
		}
		if (!ok)
			return false;
	}
	return true;
}

/* The runs a change over steps [f, l] touched still have fillers. */
static bool fillers_around(struct sky *s, size_t f, size_t l)
{
	if (!run_has_fillers(s, f))
		return false;
	if (l + 1 < s->steps && !run_has_fillers(s, l + 1))
		return false;
	return !f || run_has_fillers(s, f - 1);
}

/* Lists the choices at the lowest run into a new frame. */
static int expand(struct sky *s)
{
	const struct ab_buffer *B = s->cb;
	struct frame *f = &s->fr[s->n_fr++];
	size_t a, b, from;
	uint64_t h = ab_range_leftmost_min(&s->top, &a), left, right;
	int rc;

	b = ab_range_first_above(&s->top, a + 1, h);
	f->a = a;
	f->b = b;
	f->h = h;
	f->did = (uint32_t)s->n;
	f->c0 = s->n_cand;
	f->next = 0;
	left = a ? ab_range_get(&s->top, a - 1) : INF_BYTES;
	right = b < s->steps ? ab_range_get(&s->top, b) : INF_BYTES;
	f->raise_to = left < right ? left : right;
	/* where the candidates start: a, or if the whole skyline is flat and
	 * nothing starts at a, the first step with an unplaced buffer */
	for (from = a; from < b; from++) {
		bool any = false;

		for (uint32_t k = s->bstart[from]; k < s->bstart[from + 1]; k++)
			if (!s->placed[s->bucket[k]]) {
				any = true;
				break;
			}
		if (any || f->raise_to != INF_BYTES)
			break;
	}
	for (int pass = 0; pass < 2 && from < b; pass++)
		for (uint32_t k = s->bstart[from]; k < s->bstart[from + 1]; k++) {
			uint32_t i = s->bucket[k];
			bool exact = (size_t)B[i].last + 1 == b;

			if (s->placed[i] || (size_t)B[i].last >= b ||
			    exact != (pass == 0) ||
			    ab_align_up(h, s->align[i]) + B[i].size > s->cap)
				continue;
			rc = cand_push(s, i);
			if (rc)
				return rc;
		}
	if (f->raise_to != INF_BYTES && f->raise_to <= s->cap) {
		rc = cand_push(s, RAISE);
		if (rc)
			return rc;
	}
	f->nc = s->n_cand - f->c0;
	return 0;
}

enum { FOUND = 1, NOT_FOUND, ABORTED };

/* Depth-first search for a skyline plan below s->cap, at most limit
 * nodes; the plan is left in s->off. */
static int search(struct sky *s, uint64_t limit)
{
	struct ab_skyline_run *run = s->run;
	uint64_t start = run->nodes;
	int rc;

	reset(s);
	rc = expand(s);
	if (rc)
		return rc;
	while (s->n_fr) {
		struct frame *f = &s->fr[s->n_fr - 1];
		uint32_t c;

		undo(s, f);
		if (f->next == f->nc) {
			s->n_cand = f->c0;
			s->n_fr--;
			continue;
		}
		if (run->nodes - start >= limit)
			return ABORTED;
		if (run->deadline > 0 && (run->nodes & 1023) == 0 &&
		    ab_now_seconds() > run->deadline) {
			run->timed_out = true;
			return ABORTED;
		}
		run->nodes++;
		c = s->cand[f->c0 + f->next++];
		if (!apply(s, f, c))
			continue;
		if (s->n_placed == s->n_sized)
			return FOUND;
		rc = expand(s);
		if (rc)
			return rc;
	}
	return NOT_FOUND;
}

static int cmp_i32(const void *pa, const void *pb)
{
	int32_t a = *(const int32_t *)pa, b = *(const int32_t *)pb;

	return (a > b) - (a < b);
}

/* s->cb = the buffers with their steps renumbered to the points where
 * some lifetime starts or ends (same overlaps, at most 2n steps: a
 * minimalloc problem numbers its steps up to 10^6). */
static int compress_steps(struct sky *s)
{
	const struct ab_buffer *B = s->p->buf;
	int32_t *pt = malloc((2 * s->n + 1) * sizeof(*pt));
	size_t k = 0, u = 0;

	s->cb = malloc((s->n + 1) * sizeof(*s->cb));
	if (!pt || !s->cb) {
		free(pt);
		return -ENOMEM;
	}
	for (size_t i = 0; i < s->n; i++)
		if (B[i].size) {
			pt[k++] = B[i].first;
			pt[k++] = B[i].last + 1;
		}
	qsort(pt, k, sizeof(*pt), cmp_i32);
	for (size_t j = 0; j < k; j++)
		if (!u || pt[j] != pt[u - 1])
			pt[u++] = pt[j];
	for (size_t i = 0; i < s->n; i++) {
		s->cb[i] = B[i];
		s->cb[i].first = s->cb[i].last = 0;
		if (B[i].size) {
			/* the point's index = the points below it */
			s->cb[i].first = (int32_t)ab_count_le_i32(pt, u, B[i].first - 1);
			s->cb[i].last = (int32_t)ab_count_le_i32(pt, u, B[i].last) - 1;
		}
	}
	s->steps = u > 1 ? u - 1 : 1;
	free(pt);
	return 0;
}

static int setup(struct sky *s, const struct ab_problem *p,
		 const struct ab_plan_options *o)
{
	const struct ab_buffer *B;
	size_t n = p->n;
	uint32_t *fill;

	memset(s, 0, sizeof(*s));
	s->p = p;
	s->n = n;
	if (compress_steps(s))
		return -ENOMEM;
	B = s->cb;
	s->bstart = calloc(s->steps + 2, sizeof(*s->bstart));
	s->estart = calloc(s->steps + 2, sizeof(*s->estart));
	s->bucket = malloc((n + 1) * sizeof(*s->bucket));
	s->ending = malloc((n + 1) * sizeof(*s->ending));
	s->align = malloc((n + 1) * sizeof(*s->align));
	s->key = malloc((n + 1) * sizeof(*s->key));
	s->off = calloc(n + 1, sizeof(*s->off));
	s->placed = calloc(n + 1, 1);
	s->live = calloc(s->steps + 2, sizeof(*s->live));
	/* depth <= placements + raises; a raise merges two runs */
	s->fr = malloc((4 * n + 4) * sizeof(*s->fr));
	fill = calloc(s->steps + 1, sizeof(*fill));
	if (!s->bstart || !s->estart || !s->bucket || !s->ending ||
	    !s->align || !s->key || !s->off || !s->placed || !s->live ||
	    !s->fr || !fill || ab_range_tree_init(&s->top, s->steps) ||
	    ab_range_tree_init(&s->need, s->steps)) {
		free(fill);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		s->align[i] = ab_effective_align(p, i, o);
		if (!B[i].size)
			continue;
		s->n_sized++;
		s->g = ab_gcd(s->g, B[i].size);
		if (s->align[i] > 1)
			s->g = ab_gcd(s->g, s->align[i]);
		s->bstart[B[i].first + 1]++;
		s->estart[B[i].last + 1]++;
		s->live[B[i].first] += B[i].size;
		s->live[B[i].last + 1] -= B[i].size;
	}
	for (size_t t = 0; t < s->steps; t++) {
		s->bstart[t + 1] += s->bstart[t];
		s->estart[t + 1] += s->estart[t];
		s->live[t + 1] += s->live[t];
	}
	for (size_t i = 0; i < n; i++)
		if (B[i].size)
			s->ending[s->estart[B[i].last] + fill[B[i].last]++] =
				(uint32_t)i;
	free(fill);
	return 0;
}

static void teardown(struct sky *s)
{
	free(s->cb);
	free(s->bstart);
	free(s->estart);
	free(s->bucket);
	free(s->ending);
	free(s->align);
	free(s->key);
	free(s->off);
	free(s->placed);
	free(s->live);
	free(s->fr);
	free(s->cand);
	ab_range_tree_free(&s->top);
	ab_range_tree_free(&s->need);
}

int ab_skyline_fit(const struct ab_problem *p,
		   const struct ab_plan_options *o, uint64_t cap,
		   uint64_t *off, struct ab_skyline_run *run)
{
	struct sky s;
	int rc = setup(&s, p, o), res = NOT_FOUND;

	s.run = run;
	s.cap = cap;
	ab_rng_seed(&s.rng, run->seed);
	if (rc)
		goto out;
	if (!s.n_sized) {
		res = FOUND;
		goto found;
	}
	for (unsigned k = 0; run->nodes < run->budget && !run->timed_out; k++) {
		uint64_t limit = RESTART_NODES_PER_BUFFER * (uint64_t)s.n_sized;

		if (limit > run->budget - run->nodes)
			limit = run->budget - run->nodes;
		rc = order_buckets(&s, k > 0);
		if (rc)
			goto out;
		res = search(&s, limit);
		if (res < 0) {
			rc = res;
			goto out;
		}
		if (res != ABORTED)
			break; /* found, or no skyline plan at all */
	}
found:
	if (res == FOUND) {
		for (size_t i = 0; i < s.n; i++)
			off[i] = p->buf[i].size ? s.off[i] : 0;
		rc = 1;
	}
out:
	teardown(&s);
	return rc;
}
