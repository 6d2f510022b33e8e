/*
 * size_first_fit: size-descending first-fit.
 *
 * Algorithm: sort buffers by size descending (ties: first use, then
 * index); place each at the lowest aligned offset where it overlaps no
 * already placed buffer whose live range intersects its own.
 * Complexity: O(n log n + sum over buffers of (k + 1) log n), k = placed
 * buffers overlapping in time, with placement.h's interval index; at scale
 * (first_fit_index.h, chosen from the lifetimes) each buffer instead paints
 * (len + R) / w checkpoint functions and walks J blocked stretches, in
 * time-local batches and from 4096 buffers on two threads cut in time
 * when two CPUs are there (same offsets; docs/scaling.md; the measured
 * paints and J: docs/planners.md).
 * Source: the family of TFLite Micro's GreedyMemoryPlanner and of the GPU
 * delegate's greedy-by-size (Pisarchyk & Lee, 2020); `tflm_greedy` is the
 * faithful baseline with TFLM's own tie-breaking.
 * Weak spots: first fit is not monotone in alignment; big long-lived
 * buffers placed first can strand holes that small ones cannot fill
 * (Robson-style fragmentation).
 */
#include "lib/memo.h"
#include "lib/placement.h"

static int plan_size_first_fit(const struct ab_problem *p,
			       const struct ab_plan_options *o,
			       struct ab_plan *out)
{
	return ab_plan_ordered_by(p, o, ab_order_size_desc_memo, ab_fit_first, out);
}

const struct ab_planner ab_planner_size_first_fit = {
	.name = "size_first_fit",
	.about = "size-descending first-fit over time-overlapping buffers",
	.cost = AB_COST_FAST,
	.plan = plan_size_first_fit,
};
