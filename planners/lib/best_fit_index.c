/*
 * Best fit through the checkpoint index (first_fit_index.h has the rules
 * and costs).
 *
 * Buffer i = [a, b] asks checkpoint T = b rounded down to w, as first fit
 * does: its conflicts are the addresses where H_T >= a and the entries of
 * T's gap list live at some step of [a, b].  Their union U is walked in
 * address order as one merge of two sorted streams, H_T's blocked runs at
 * threshold a (pw_next_run) and the live list entries (ff_next_live; both
 * shared with first fit's walk, with y = 0: nothing is passed over), with U's
 * end so far: a piece starting past that end leaves a gap [c, o) (bytes:
 * c = the doubled end / 2, o = the next start / 2), exactly the gaps the
 * listing rules see between hits sorted by offset: with no zero-size
 * conflict, a hit that starts inside a run opens no candidate under any of
 * the three rules (its aligned start is at or past the hit), and every gap
 * of U is the gap before the first hit above it.  The top of U is the highest conflict end.  So each rule below is the
 * listing rule read over U's gaps, and the offsets are the same
 * (tests/test_mechanics.c pins them against the listing path and the
 * O(n^2) oracle).  XLA's rule also reads the heap size over every buffer
 * before it in `order`; ff_place_xla_batches below keeps that exact in
 * time-local batches.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "lib/first_fit_internal.h"

/* Takes gap [c, o); true when no later gap can win (a room of exactly
 * size: every rule needs a room >= size and a strictly smaller one). */
static bool take_gap(struct bf_pick *pk, enum ab_index_rule rule, uint64_t c,
		     uint64_t o, uint64_t size, uint64_t align)
{
	uint64_t start = ab_align_up(c, align);

	if (start >= o || o - start < size || o - start >= pk->room)
		return false;
	pk->best = start;
	/* SimpleMemoryArena keeps the unaligned room of its best */
	pk->room = rule == AB_INDEX_TFLITE ? o - c : o - start;
	return pk->room == size;
}

/* XLA's choice from its pick and the heap size: the top chunk [top,
 * heap) when it holds the buffer and is smaller than the best gap, else
 * the best gap, else the top. */
static uint64_t xla_choice(const struct bf_pick *pk, uint64_t size,
			   uint64_t heap)
{
	if (heap > pk->top && heap - pk->top >= size && heap - pk->top < pk->room)
		return pk->top;
	return pk->best != UINT64_MAX ? pk->best : pk->top;
}

/* A straddling chunk's count and values (read whole by pw_blocked_mask;
 * its starts are read only where a run opens or closes). */
static inline void prefetch_values(const struct chunk *c)
{
	const char *v = (const char *)c;

	for (size_t b = 0; b < offsetof(struct chunk, start); b += 64)
		__builtin_prefetch(v + b);
	__builtin_prefetch(v + offsetof(struct chunk, start) - 1);
}

uint64_t ff_best_fit(struct index *ix, int32_t a, int32_t b, uint64_t size,
		     uint64_t align, enum ab_index_rule rule, uint64_t heap,
		     struct bf_pick *out)
{
	size_t c = (size_t)b >> ix->shift;
	const struct fun *f = &ix->fun[c];
	const struct list *l = &ix->list[c];
	struct bf_pick pk = { UINT64_MAX, UINT64_MAX, 0 };
	struct pw_runs h;
	struct ff_live lv;
	uint64_t end = 0; /* doubled end of U so far */
	uint64_t hs = UINT64_MAX, he = 0; /* H_T's next blocked run */
	uint64_t ls = UINT64_MAX, le = 0; /* the next live list entry */

	/* the walk reads every chunk that straddles a, up to U's top, one
	 * after the other: ask for them all at once, so that their lines
	 * arrive in parallel instead of one chunk's latency per step */
	for (uint32_t r = 0; r < f->n; r++)
		if (f->vmin[r] < a && f->vmax[r] >= a)
			prefetch_values(pw_chunk_of(&ix->pool, f, r));
	pw_runs_init(&h, &ix->pool, f, a);
	ff_live_init(&lv, l, a, b);
	if (!pw_next_run(&h, 0, &hs, &he))
		hs = UINT64_MAX;
	if (!ff_next_live(&lv, 0, &ls, &le))
		ls = UINT64_MAX;
	/* U's pieces, H_T's runs and the live list entries, merged by start:
	 * a piece starting past U's end so far leaves the gap [end, start) */
	for (;;) {
		uint64_t s, e;

		if (ls < hs) {
			s = ls;
			e = le;
			if (!ff_next_live(&lv, 0, &ls, &le))
				ls = UINT64_MAX;
		} else if (hs != UINT64_MAX) {
			s = hs;
			e = he;
			if (!pw_next_run(&h, 0, &hs, &he))
				hs = UINT64_MAX;
		} else {
			break;
		}
		if (s > end && take_gap(&pk, rule, end >> 1, s >> 1, size, align)) {
			ix->st.walk_steps += h.runs;
			ix->st.list_scanned += lv.scanned;
			if (out)
				*out = pk; /* an exact fit: nothing else can win */
			return pk.best;
		}
		if (e > end)
			end = e;
	}
	ix->st.walk_steps += h.runs;
	ix->st.list_scanned += lv.scanned;
	pk.top = ab_align_up(end >> 1, align);
	if (out)
		*out = pk;
	if (rule == AB_INDEX_XLA)
		return xla_choice(&pk, size, heap);
	return pk.best != UINT64_MAX ? pk.best : pk.top;
}

/* ------------------------------------------------ XLA in batches */

/*
 * XLA's heap size for a buffer is the highest end over every buffer before
 * it in `order`, not only the overlapping ones.  In a time-local batch a
 * buffer comes after the batch-mates that precede it in `order` and
 * overlap it, but others that precede it may not be placed yet.  So each
 * buffer is asked with the heap size over what is placed (the batch's
 * slots, by position in `order`, in a prefix-max tree), and its choice is
 * kept only when it is settled: the same for every heap size at least
 * that one.  XLA's choice depends on the heap size h only through "the top
 * chunk [top, h) holds the buffer and is smaller than the best gap", true
 * for h in [top + size, top + room); so it is settled when no gap holds
 * the buffer, when room = size, or when h >= top + room already.  When it
 * is not, the batch-mates before it in `order` that are still waiting are
 * placed first, in `order` (each with every predecessor placed: its exact
 * heap size), and then it takes its choice with the exact heap size.
 * Those batch-mates do not overlap it (the time-local order put the
 * overlapping ones before it), so its pick does not change.  Every buffer
 * is thus placed with XLA's own heap size and pick, and the offsets are
 * XLA's in `order`.  With a cutoff (o->cutoff: best_of's, or xla_best_fit's
 * spatial pass against the temporal peak) the loop stops once the heap over
 * the placed buffers reaches it: the pass's final heap is at least that.
 */
struct xla_batch {
	uint32_t *slot;  /* by buffer: position in order */
	uint64_t *tree;  /* Fenwick prefix max of ends over the batch's slots */
	uint8_t *done;   /* by slot of the batch */
	size_t b0, nb;   /* the batch: order[b0 .. b0 + nb) */
	size_t low;      /* every slot below is placed */
	uint64_t heap0;  /* the heap size before the batch */
};

/* The heap size over the batch's placed slots below k. */
static uint64_t heap_below(const struct xla_batch *xb, size_t k)
{
	uint64_t h = xb->heap0;

	for (; k; k &= k - 1)
		if (xb->tree[k] > h)
			h = xb->tree[k];
	return h;
}

/* Slot k (buffer i, asking as schedule position pos) placed at x. */
static int xla_put(struct xla_batch *xb, struct index *ix,
		   const struct ranks *r, uint32_t i, size_t k, size_t pos,
		   uint64_t x, uint64_t size, uint64_t *offsets, uint64_t *top)
{
	offsets[i] = x;
	if (x + size > *top)
		*top = x + size;
	xb->done[k] = 1;
	for (size_t t = k + 1; t <= xb->nb; t += t & -t)
		if (x + size > xb->tree[t])
			xb->tree[t] = x + size;
	while (xb->low < xb->nb && xb->done[xb->low])
		xb->low++;
	return ff_place(ix, r->first[i], r->last[i], pos, x, size);
}

int ff_place_xla_batches(struct run *rn, const struct ab_problem *p,
			 const struct ab_plan_options *o,
			 const uint32_t *order, const size_t *ends,
			 const struct ranks *r,
			 uint64_t *offsets, uint64_t *top)
{
	struct xla_batch xb = { 0 };
	struct index *ix = &rn->ix;
	size_t longest = 0;
	int rc = -ENOMEM;

	for (size_t b0 = 0, q = 0; b0 < rn->m; b0 = ends[q++])
		if (ends[q] - b0 > longest)
			longest = ends[q] - b0;
	xb.slot = malloc((p->n + 1) * sizeof(*xb.slot));
	xb.tree = malloc((longest + 1) * sizeof(*xb.tree));
	xb.done = malloc(longest + 1);
	if (!xb.slot || !xb.tree || !xb.done)
		goto out;
	for (size_t j = 0; j < rn->m; j++)
		xb.slot[order[j]] = (uint32_t)j;
	rc = 0;
	*top = 0;
	for (size_t b0 = 0, q = 0; b0 < rn->m && !rc; b0 = ends[q++]) {
		xb.b0 = b0;
		xb.nb = ends[q] - b0;
		xb.low = 0;
		xb.heap0 = *top;
		memset(xb.tree, 0, (xb.nb + 1) * sizeof(*xb.tree));
		memset(xb.done, 0, xb.nb);
		for (size_t j = b0; j < ends[q] && !rc; j++) {
			uint32_t i = rn->sched[j];
			size_t k = xb.slot[i] - b0;
			uint64_t size = p->buf[i].size, h = heap_below(&xb, k);
			struct bf_pick pk;

			if (xb.done[k])
				continue; /* placed early, in order */
			ff_best_fit(ix, rn->sf[j], rn->sl[j], size,
				    ab_effective_align(p, i, o), AB_INDEX_XLA, h,
				    &pk);
			if (xb.low < k && pk.best != UINT64_MAX &&
			    pk.room != size && h < pk.top + pk.room) {
				/* not settled: the waiting predecessors first;
				 * any buffer from position j on may ask what
				 * they paint */
				ix->st.xla_waits++;
				while (!rc && xb.low < k) {
					size_t s = xb.low;
					uint32_t u = order[b0 + s];

					rc = xla_put(&xb, ix, r, u, s, j - 1,
						     ff_best_fit(ix, r->first[u],
								 r->last[u],
								 p->buf[u].size,
								 ab_effective_align(p, u, o),
								 AB_INDEX_XLA,
								 heap_below(&xb, s), NULL),
						     p->buf[u].size, offsets, top);
				}
				h = heap_below(&xb, k);
			}
			if (!rc)
				rc = xla_put(&xb, ix, r, i, k, j,
					     xla_choice(&pk, size, h), size,
					     offsets, top);
			if (!rc && ab_above_cutoff(o, *top))
				rc = AB_ABOVE_CUTOFF; /* a heap only grows */
		}
	}
out:
	free(xb.slot);
	free(xb.tree);
	free(xb.done);
	return rc;
}

/* order[0..m) without its zero-size buffers (offset 0), into *kept. */
static int drop_empty(const struct ab_problem *p, const uint32_t *order,
		      size_t m, uint64_t *offsets, uint32_t **kept,
		      size_t *n_kept)
{
	*kept = malloc((m + 1) * sizeof(**kept));
	*n_kept = 0;
	if (!*kept)
		return -ENOMEM;
	for (size_t j = 0; j < m; j++) {
		if (p->buf[order[j]].size)
			(*kept)[(*n_kept)++] = order[j];
		else
			offsets[order[j]] = 0;
	}
	return 0;
}

static int place_rule(const struct ab_problem *p,
		      const struct ab_plan_options *o, const uint32_t *order,
		      size_t m, enum ab_index_rule rule,
		      const struct ab_first_fit_config *cfg, bool route,
		      uint64_t *offsets, uint64_t *top,
		      struct ab_first_fit_stats *stats)
{
	struct ab_first_fit_config c1 = cfg ? *cfg : (struct ab_first_fit_config){ 0 };
	uint32_t *kept = NULL;
	size_t n = m;
	struct ranks r;
	int rc;

	if (rule == AB_INDEX_FIRST_FIT)
		return -EINVAL;
	if (rule == AB_INDEX_BEST_FIT) {
		for (size_t j = 0; j < m; j++)
			if (!p->buf[order[j]].size)
				return 1; /* indexed by the listing path */
	} else {
		rc = drop_empty(p, order, m, offsets, &kept, &n);
		if (rc)
			return rc;
		order = kept;
	}
	if (route && n < 256) {
		rc = 1;
		goto out;
	}
	rc = ff_rank_lifetimes_memo(p, o, order, n, &r);
	if (rc)
		goto out;
	if (route)
		c1.spacing = ff_choose_spacing_memo(&r, order, n);
	c1.threads = 1;
	rc = route && !c1.spacing ? 1
				  : ff_place_ranked(p, o, order, n, &r, &c1, rule,
						    offsets, top, stats);
	ff_ranks_free(&r);
out:
	free(kept);
	return rc;
}

int ab_best_fit_place(const struct ab_problem *p,
		      const struct ab_plan_options *o, const uint32_t *order,
		      size_t m, enum ab_index_rule rule,
		      const struct ab_first_fit_config *cfg, uint64_t *offsets,
		      uint64_t *top, struct ab_first_fit_stats *stats)
{
	return place_rule(p, o, order, m, rule, cfg, false, offsets, top, stats);
}

int ab_best_fit_route(const struct ab_problem *p,
		      const struct ab_plan_options *o, const uint32_t *order,
		      size_t m, enum ab_index_rule rule, uint64_t *offsets,
		      uint64_t *top)
{
	if (o->route == AB_ROUTE_LISTING)
		return 1;
	/* forced: the default spacing and batch, whatever the size */
	return place_rule(p, o, order, m, rule, NULL,
			  o->route != AB_ROUTE_INDEX, offsets, top, NULL);
}
