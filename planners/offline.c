/*
 * offline: the input's own plan, completed.  Buffers the input fixes
 * (p->fixed_offset: a .tflite model's OfflineMemoryAllocation metadata, a
 * minimalloc CSV's `offset` column) keep their offsets; the others are
 * placed around them by size-descending first fit, as TFLite Micro's
 * GreedyMemoryPlanner does with AddBuffer(..., offline_offset) buffers.
 *
 * Algorithm:
 *  1. Every fixed buffer goes to its offset as given: an offset that is
 *     not a multiple of the alignment in use is kept too (the harness
 *     checks this plan at alignment 1; each buffer's own alignment holds).
 *  2. The others, by size descending, then first use, then index (the
 *     size_first_fit order), each at the lowest aligned offset that meets
 *     no placed buffer live at the same time (planners/lib/placement.h's
 *     ab_place_around_fixed with ab_fit_first).
 * The plan says it keeps the fixed offsets (fixed_kept), so the geometric
 * check reports a fixed buffer placed elsewhere as moved from its fixed
 * offset.  Fixed buffers that are live together and overlap make the
 * plan invalid like any planner's.
 * Cost class `fixed`: the harness runs it only on inputs that fix some
 * offsets (bench and suite skip it elsewhere, plan refuses).  Called on a
 * problem without fixed offsets, it is size_first_fit.
 * Complexity: O(n log n + sum (k + 1) log n), k the conflicts listed.
 * Source: TFLite Micro, micro_allocation_info.cc / greedy_memory_planner.cc
 * (offline-planned buffers are placed first, the rest around them).
 * Weak spots: only as good as the given offsets; first fit only.
 */
#include <errno.h>
#include <stdlib.h>

#include "lib/memo.h"
#include "lib/placement.h"

static int plan_offline(const struct ab_problem *p,
			const struct ab_plan_options *o, struct ab_plan *out)
{
	uint32_t *order;
	uint64_t top;
	int rc;

	if (!p->fixed_offset)
		return ab_plan_ordered_by(p, o, ab_order_size_desc_memo, ab_fit_first,
					  out);
	order = malloc((p->n + 1) * sizeof(*order));
	if (!order)
		return -ENOMEM;
	rc = ab_order_size_desc(p, order);
	if (!rc)
		rc = ab_place_around_fixed(p, o, p->fixed_offset, order,
					   ab_fit_first, out->offset, &top);
	if (!rc) {
		ab_plan_finish_single(out, p);
		out->fixed_kept = true;
	}
	free(order);
	return rc;
}

const struct ab_planner ab_planner_offline = {
	.name = "offline",
	.about = "the input's own offsets (a model's offline plan, a CSV's offset column); the rest by first fit",
	.cost = AB_COST_FIXED,
	.plan = plan_offline,
};
