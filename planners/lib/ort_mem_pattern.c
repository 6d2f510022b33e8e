/*
 * ONNX Runtime's MemPatternPlanner, re-implemented from
 * microsoft/onnxruntime onnxruntime/core/framework/mem_pattern_planner.h at
 * 00ca168922183eeb0c1e0f93c04f2f707087f86d (TraceAllocation, TraceFree).
 *
 * State: the live blocks, sorted by offset.  TraceAllocation(size): the
 * default offset is the end of the last (highest) live block, 0 when none
 * is live; walking the blocks in offset order with `current` = the end of
 * the previous block, each gap [current, block offset) that holds the size
 * is a candidate and the one wasting least (strictly less: ties to the
 * lower offset) wins; there is no candidate above the last block.  The
 * peak is the highest end ever.  Zero-size allocations get offset 0 and no
 * block.  TraceFree removes the block.  Sizes are padded to the common
 * alignment (ORT pads to kAllocAlignment, 64, before tracing).
 * A group (the sequential planner's reuse) is one allocation from its
 * first tenant's first use to its last tenant's last use.
 *
 * Kept here as ORT's scan decides, without the scan: the live blocks in a
 * list by offset, and the gap before each block (from the end of the block
 * below it, or 0) in an ordered set by (width, offset) (lib/ordset.h).
 * ORT's candidate, the least waste with ties to the lower offset, is the
 * set's least gap of width >= size; a free joins the gaps on both sides.
 * O(log L) per event for L live blocks, where the scan was O(L).
 */
#include <errno.h>
#include <stdlib.h>

#include "lib/ordset.h"
#include "lib/ort_mem_pattern.h"
#include "lib/replay.h"

#define NONE UINT32_MAX

/* The live blocks, doubly linked in offset order, and their gaps. */
struct pattern {
	uint64_t *off, *size;   /* per unit */
	uint32_t *prev, *next;  /* per live unit, NONE at the ends */
	uint32_t tail;          /* the highest live block, NONE when none */
	struct ab_ordset gaps;  /* (width, start) -> the block above */
};

static uint64_t gap_start(const struct pattern *pt, uint32_t u)
{
	uint32_t below = pt->prev[u];

	return below == NONE ? 0 : pt->off[below] + pt->size[below];
}

/* Adds (add) or removes the gap below live block u; zero widths are never
 * candidates (sizes are > 0), so they are not kept. */
static int gap_below(struct pattern *pt, uint32_t u, bool add)
{
	uint64_t start = gap_start(pt, u);
	struct ab_ordset_key k = { pt->off[u] - start, start };

	if (!k.a)
		return 0;
	if (add)
		return ab_ordset_insert(&pt->gaps, k, u);
	ab_ordset_erase(&pt->gaps, k);
	return 0;
}

static int trace_alloc(struct pattern *pt, uint32_t u, uint64_t size)
{
	struct ab_ordset_key g;
	uint32_t above;
	int rc;

	pt->size[u] = size;
	if (ab_ordset_lower_bound(&pt->gaps, (struct ab_ordset_key){ size, 0 },
				  &g, &above)) {
		/* into the gap below `above`, at its start */
		gap_below(pt, above, false);
		pt->off[u] = g.b;
		pt->prev[u] = pt->prev[above];
		pt->next[u] = above;
		if (pt->prev[above] != NONE)
			pt->next[pt->prev[above]] = u;
		pt->prev[above] = u;
		return gap_below(pt, above, true);
	}
	/* above the highest live block */
	pt->off[u] = pt->tail == NONE ? 0
				      : pt->off[pt->tail] + pt->size[pt->tail];
	pt->prev[u] = pt->tail;
	pt->next[u] = NONE;
	if (pt->tail != NONE)
		pt->next[pt->tail] = u;
	pt->tail = u;
	rc = gap_below(pt, u, true);
	return rc;
}

static int trace_free(struct pattern *pt, uint32_t u)
{
	uint32_t above = pt->next[u], below = pt->prev[u];

	gap_below(pt, u, false);
	if (above != NONE)
		gap_below(pt, above, false);
	if (below != NONE)
		pt->next[below] = above;
	if (above != NONE)
		pt->prev[above] = below;
	else
		pt->tail = below;
	return above != NONE ? gap_below(pt, above, true) : 0;
}

int ab_ort_mem_pattern(const struct ab_problem *p,
		       const struct ab_plan_options *o, const uint32_t *group,
		       uint64_t *offsets, uint64_t *peak)
{
	size_t n = p->n;
	struct ab_buffer *unit = malloc((n + 1) * sizeof(*unit));
	struct ab_replay_event *ev = malloc((2 * n + 1) * sizeof(*ev));
	struct pattern pt = {
		.off = malloc((n + 1) * sizeof(*pt.off)),
		.size = malloc((n + 1) * sizeof(*pt.size)),
		.prev = malloc((n + 1) * sizeof(*pt.prev)),
		.next = malloc((n + 1) * sizeof(*pt.next)),
		.tail = NONE,
	};
	uint64_t align = ab_common_align(p, o), top = 0;
	struct ab_problem up = { 0 };
	int rc = -ENOMEM;

	ab_ordset_init(&pt.gaps);
	if (!unit || !ev || !pt.off || !pt.size || !pt.prev || !pt.next)
		goto out;
	rc = -EOVERFLOW;
	if (!align)
		goto out;
	/* One allocation unit per group, spanning its tenants. */
	for (size_t i = 0; i < n; i++) {
		unit[i] = p->buf[i];
		unit[i].size = 0;
	}
	for (size_t i = 0; i < n; i++) {
		uint32_t g = group ? group[i] : (uint32_t)i;
		const struct ab_buffer *b = &p->buf[i];

		if (g == i) {
			unit[g].first = b->first;
			unit[g].last = b->last;
			unit[g].size = b->size;
		}
	}
	for (size_t i = 0; group && i < n; i++) {
		struct ab_buffer *u = &unit[group[i]];

		if (p->buf[i].first < u->first)
			u->first = p->buf[i].first;
		if (p->buf[i].last > u->last)
			u->last = p->buf[i].last;
	}
	up.n = n;
	up.buf = unit;
	rc = ab_replay_events(&up, ev);
	for (size_t k = 0; !rc && k < 2 * n; k++) {
		uint32_t u = ev[k].buffer;
		uint64_t size = ab_align_up(unit[u].size, align);

		if (group && group[u] != u)
			continue; /* a later tenant: no allocation of its own */
		if (!size) {
			pt.off[u] = 0; /* no block */
			continue;
		}
		if (ev[k].kind == AB_REPLAY_FREE) {
			rc = trace_free(&pt, u);
			continue;
		}
		rc = trace_alloc(&pt, u, size);
		if (pt.off[u] + size > top)
			top = pt.off[u] + size;
		if (!rc && ab_above_cutoff(o, top))
			rc = AB_ABOVE_CUTOFF;
	}
	if (rc)
		goto out;
	for (size_t i = 0; i < n; i++)
		offsets[i] = pt.off[group ? group[i] : i];
	*peak = top;
out:
	ab_ordset_free(&pt.gaps);
	free(unit);
	free(ev);
	free(pt.off);
	free(pt.size);
	free(pt.prev);
	free(pt.next);
	return rc;
}
