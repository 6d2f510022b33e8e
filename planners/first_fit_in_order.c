/*
 * first_fit_in_order: first fit in order of first use (the "default
 * order" of a runtime that allocates as it executes).
 *
 * Algorithm: buffers by first use ascending, ties by index; each at the
 * lowest aligned offset where it meets no placed buffer live at the same
 * time (placement.h's ab_fit_first).  Since buffers arrive by first use,
 * every placed buffer that overlaps in time is still live at the new
 * buffer's first step: this is an online first-fit allocator run on the
 * schedule (malloc/free in program order).
 * Ties: first use, then index; ab_fit_first's answer does not depend on
 * the order of placed buffers at one offset.
 * Complexity: O(n log n) sort + first fit by ab_place_in_order (interval
 * index, or first_fit_index.h's checkpoints at scale: same offsets; in
 * this order the checkpoints are asked in time order, which helps the
 * cache: docs/planners.md has the times).
 * Source: the "default order" of size-order papers (e.g. Pisarchyk & Lee
 * 2020 compare against it).  The GPU delegate's GREEDY_IN_ORDER visits
 * tensors in this same order but does not first-fit them: it assigns
 * shared objects and lays them end to end, which is the separate faithful
 * baseline gpu_greedy_in_order (matching reference/baselines.csv
 * `gpu_greedy_in_order_peak`).  No first-fit rule reproduces that figure;
 * this planner's own figures on the reference problems are pinned in
 * tests/test_baselines.c.
 * Weak spots: online: a buffer never knows what comes later, so a small
 * long-lived buffer can pin the middle of the arena (Robson's bound:
 * first fit can need O(log(max/min)) times the lower bound).
 */
#include "lib/memo.h"
#include "lib/placement.h"

static int plan_first_fit_in_order(const struct ab_problem *p,
				   const struct ab_plan_options *o,
				   struct ab_plan *out)
{
	return ab_plan_ordered_by(p, o, ab_order_first_use_memo, ab_fit_first, out);
}

const struct ab_planner ab_planner_first_fit_in_order = {
	.name = "first_fit_in_order",
	.about = "first fit in order of first use (online allocator on the schedule)",
	.cost = AB_COST_FAST,
	.plan = plan_first_fit_in_order,
};
