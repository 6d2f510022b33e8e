/*
 * greedy_by_size_gpu: the TFLite GPU delegate's greedy-by-size offset
 * assignment (Pisarchyk & Lee, "Efficient Memory Management for Deep
 * Neural Net Inference", 2020), reproduced.
 *
 * Algorithm (tensorflow/lite/delegates/gpu/common/memory_management/
 * greedy_by_size_assignment.cc, GreedyBySizeAssignment):
 *  1. Sort the usage records by size descending (CompareBySize).  Ties:
 *     the paper's version and older delegate code use std::stable_sort, so
 *     equal sizes stay in index order; that is what is reproduced here
 *     (later TF versions call std::sort, which is free on ties).
 *  2. For each record, walk the placed records in offset order, skipping
 *     those whose [first_task, last_task] does not intersect its own.
 *     prev = highest (aligned) end seen so far; before each live record
 *     the gap [prev, record offset) is a candidate if it holds the size;
 *     the smallest candidate wins, ties to the lowest (strict <).  With no
 *     candidate, the record goes at prev (on top of the live records).
 *     That is placement.h's ab_fit_best.
 * Complexity: O(n log n) sort + interval-index best fit, or at scale the
 * checkpoint index's best fit (ab_place_in_order routes it when no buffer
 * is empty; identical offsets).  The delegate is O(n^2).
 * Source: as above; ground truth reference/baselines.csv
 * `gpu_greedy_by_size_peak`, matched exactly (tests/test_baselines.c).
 * Weak spots: a pure size order; best fit keeps big holes for later but
 * ignores how long a hole stays free in time.
 */
#include <errno.h>
#include <stdlib.h>

#include "lib/placement.h"

static int plan_greedy_by_size_gpu(const struct ab_problem *p,
				   const struct ab_plan_options *o,
				   struct ab_plan *out)
{
	/* a stable sort: equal sizes in index order */
	return ab_plan_by_size_desc(p, o, false, ab_fit_best, out);
}

const struct ab_planner ab_planner_greedy_by_size_gpu = {
	.name = "greedy_by_size_gpu",
	.about = "TFLite GPU delegate greedy-by-size: stable size desc, best fit",
	.cost = AB_COST_FAST,
	.plan = plan_greedy_by_size_gpu,
};
