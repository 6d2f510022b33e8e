/*
 * Best fit through the checkpoint index (first_fit_index.h has the rules
 * and costs).
 *
 * Buffer i = [a, b] asks checkpoint T = b rounded down to w, as first fit
 * does: its conflicts are the addresses where H_T >= a and the entries of
 * T's gap list live at some step of [a, b].  Their union U is walked run
 * by run in address order: the next run starts at the nearer of H_T's next
 * blocked piece and the next live list entry; it ends where neither H_T
 * nor a list entry starting inside it reaches further.  Between two runs
 * lies a gap [c, o) (bytes: c = the run's doubled end / 2, o = the next
 * start / 2), exactly the gaps the listing rules see between hits sorted by
 * offset: with no zero-size conflict, a hit that starts inside a run opens
 * no candidate under any of the three rules (its aligned start is at or
 * past the hit), and every gap of U is the gap before the first hit above
 * it.  The top of U is the highest conflict end.  So each rule below is the
 * listing rule read over U's gaps, and the offsets are the same
 * (tests/test_mechanics.c pins them against the listing path and the
 * O(n^2) oracle).
 */
#include <errno.h>
#include <stdlib.h>

#include "lib/first_fit_internal.h"

/* A rule's state over the gaps seen so far. */
struct pick {
	uint64_t best, room; /* chosen offset (UINT64_MAX: none), its room */
};

/* Takes gap [c, o); true when no later gap can win (a room of exactly
 * size: every rule needs a room >= size and a strictly smaller one). */
static bool take_gap(struct pick *pk, enum ab_index_rule rule, uint64_t c,
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

/* Is H_T at or above a at y (*at moved to y's piece)? */
static bool blocked_at(const struct pool *pl, const struct fun *f,
		       struct at *at, uint64_t y, int32_t a)
{
	if (!f->n)
		return false;
	pw_seek(pl, f, at, y);
	return pw_chunk_of(pl, f, at->r)->val[at->k] >= a;
}

uint64_t ff_best_fit(struct index *ix, int32_t a, int32_t b, uint64_t size,
		     uint64_t align, enum ab_index_rule rule, uint64_t heap)
{
	size_t c = (size_t)b >> ix->shift;
	const struct fun *f = &ix->fun[c];
	const struct list *l = &ix->list[c];
	struct pick pk = { UINT64_MAX, UINT64_MAX };
	struct at at = { 0, 0 };
	uint64_t end = 0; /* doubled end of the run below */
	uint32_t j = 0;
	uint64_t off;

	for (;;) {
		uint64_t s = UINT64_MAX, e;
		bool grew;

		/* entries below `end` were taken in by the runs before */
		while (j < l->n && (l->e[j].first > b || l->e[j].last < a)) {
			ix->st.list_scanned++;
			j++;
		}
		if (j < l->n)
			s = l->e[j].lo;
		if (f->n) {
			uint64_t y;

			pw_seek(&ix->pool, f, &at, end);
			y = pw_next_blocked(&ix->pool, f, &at, end, s, a);
			if (y < s)
				s = y;
		}
		if (s == UINT64_MAX)
			break;
		ix->st.walk_steps++;
		if (s > end && take_gap(&pk, rule, end >> 1, s >> 1, size, align))
			return pk.best;
		/* the run from s: H_T's blocked stretch and the list entries
		 * starting in it, in turn, until neither reaches further */
		e = s;
		do {
			grew = false;
			if (blocked_at(&ix->pool, f, &at, e, a)) {
				e = pw_next_free(&ix->pool, f, &at, a);
				grew = true;
			}
			for (; j < l->n && l->e[j].lo <= e; j++) {
				const struct entry *en = &l->e[j];

				ix->st.list_scanned++;
				if (en->first <= b && en->last >= a && en->hi > e) {
					e = en->hi;
					grew = true;
				}
			}
		} while (grew && blocked_at(&ix->pool, f, &at, e, a));
		end = e;
	}
	off = ab_align_up(end >> 1, align);
	if (rule == AB_INDEX_XLA && heap > off && heap - off >= size &&
	    heap - off < pk.room)
		return off; /* the top chunk, below the heap size */
	return pk.best != UINT64_MAX ? pk.best : off;
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
	rc = ff_rank_lifetimes(p, order, n, &r);
	if (rc)
		goto out;
	if (route)
		c1.spacing = ff_choose_spacing(&r, order, n);
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
	return place_rule(p, o, order, m, rule, NULL, true, offsets, top, NULL);
}
