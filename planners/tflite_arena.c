/*
 * tflite_arena: TensorFlow Lite's ArenaPlanner over a SimpleMemoryArena,
 * reproduced.
 *
 * Algorithm (tensorflow/lite/arena_planner.cc, simple_memory_arena.cc):
 *  1. Order (ArenaPlanner's tensor_compare): buffers live for the whole
 *     run (allocated at the first step and never freed; here first == 0
 *     and last == steps - 1) come first, by index; then the rest by size
 *     descending, ties by first use ascending.
 *  2. Each buffer is placed by SimpleMemoryArena::Allocate: walk the
 *     placed buffers in offset order, skipping those not live at the same
 *     time (closed intervals); `cur` = highest end so far; before each live
 *     one, the gap from align(cur) is a candidate if it holds the size and
 *     its room is below the best so far (strictly: ties to the lowest).  No
 *     candidate: align(cur), on top.  Zero-size buffers get offset 0 and
 *     are not recorded.  At alignment > 1 the arena compares the new
 *     candidate's aligned room against the best's *unaligned* room
 *     (`offset - cur`), which this file reproduces; ab_fit_best uses the
 *     aligned room for both, so this is a local rule.
 * Ties: ArenaPlanner calls std::sort (unstable, libstdc++ introsort), so
 * buffers with equal size and equal first use have no defined order; here
 * they go by index.  The reference peaks were produced in file order too;
 * every problem where equal size and first use could move the result is
 * named in tests/test_baselines.c.
 * Complexity: O(n log n) sort + interval-index gap scans, or at scale the
 * same rule through the checkpoint index (first_fit_index.h,
 * AB_INDEX_TFLITE, chosen as first fit chooses it; identical offsets).  The
 * arena itself scans all allocations: O(n^2).
 * Source: TensorFlow Lite ArenaPlanner/SimpleMemoryArena; ground truth
 * reference/baselines.csv `tflite_arena_peak`.
 * Weak spots: whole-run buffers pinned at the bottom; size order blind to
 * lifetimes; best fit may split a large hole that a later buffer needed.
 */
#include <errno.h>
#include <stdlib.h>

#include "lib/first_fit_index.h"
#include "lib/placement.h"
#include "lib/stdsort.h"

/* SimpleMemoryArena::Allocate's gap rule (see the header comment). */
static uint64_t tflite_fit(const struct ab_hit *hits, size_t k,
			   uint64_t size, uint64_t align, uint64_t top)
{
	uint64_t cur = 0, best = UINT64_MAX, best_fit = UINT64_MAX;

	for (size_t j = 0; j < k; j++) {
		uint64_t start = ab_align_up(cur, align);

		if (start + size <= hits[j].offset &&
		    hits[j].offset - start < best_fit) {
			best = start;
			best_fit = hits[j].offset - cur;
		}
		if (hits[j].end > cur)
			cur = hits[j].end;
		if (best_fit == 0)
			break;
	}
	return best != UINT64_MAX ? best : ab_align_up(cur, align);
}

struct arena_ctx {
	const struct ab_problem *p;
};

static bool whole_run(const struct ab_problem *p, uint32_t i)
{
	return p->buf[i].first == 0 && p->buf[i].last == p->steps - 1;
}

/* ArenaPlanner's tensor_compare. */
static bool arena_less(uint32_t a, uint32_t b, const void *ctx)
{
	const struct ab_problem *p = ((const struct arena_ctx *)ctx)->p;
	bool wa = whole_run(p, a), wb = whole_run(p, b);

	if (wa || wb)
		return wa && wb ? a < b : wa;
	if (p->buf[a].size != p->buf[b].size)
		return p->buf[a].size > p->buf[b].size;
	return p->buf[a].first < p->buf[b].first;
}

static int plan_tflite_arena(const struct ab_problem *p,
			     const struct ab_plan_options *o,
			     struct ab_plan *out)
{
	struct arena_ctx ctx = { p };
	uint32_t *order = malloc((p->n + 1) * sizeof(*order));
	uint64_t top;
	int rc;

	if (!order)
		return -ENOMEM;
	for (size_t i = 0; i < p->n; i++)
		order[i] = (uint32_t)i;
	ab_sort_like_libstdcxx(order, p->n, arena_less, &ctx);
	/* the same rule through the checkpoint index when that pays */
	rc = ab_best_fit_route(p, o, order, p->n, AB_INDEX_TFLITE, out->offset,
			       &top);
	if (rc == 1)
		rc = ab_place_nonempty_in_order(p, o, order, p->n, tflite_fit,
					   out->offset, &top);
	if (!rc)
		ab_plan_finish_single(out, p);
	free(order);
	return rc;
}

const struct ab_planner ab_planner_tflite_arena = {
	.name = "tflite_arena",
	.about = "TFLite ArenaPlanner: whole-run first, size desc, SimpleMemoryArena best fit",
	.cost = AB_COST_FAST,
	.plan = plan_tflite_arena,
};
