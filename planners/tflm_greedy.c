/*
 * tflm_greedy: TensorFlow Lite Micro's GreedyMemoryPlanner, reproduced.
 *
 * Algorithm (tflite-micro, micro/memory_planner/greedy_memory_planner.cc):
 *  1. The planner copies the buffers into its sort arrays from the tail
 *     (buffer 0 lands last), then bubble-sorts them by size descending,
 *     swapping only strictly smaller-before-larger pairs.  The bubble sort
 *     is stable, so equal sizes end up in reverse order of addition: the
 *     order here is size descending, ties by index descending.
 *  2. The first buffer goes to offset 0.  Each next one walks the placed
 *     buffers in offset order, skipping those not live at the same time
 *     (closed intervals), and takes the first gap between the highest end
 *     seen so far and the next live buffer that is large enough, else the
 *     end of the last live one: first fit (placement.h's ab_fit_first).
 *  3. The arena size is the highest end.
 * Alignment: TFLM aligns by rounding sizes (option --round 16), not
 * offsets; here offsets are also aligned up when --align > 1, which is a
 * no-op at the reference's alignment 1.
 * Ties: equal sizes in reverse index order (above); among placed buffers at
 * one offset the scan order cannot change a first-fit answer.
 * Complexity: O(n log n) sort + first fit by ab_place_in_order (interval
 * index, or first_fit_index.h's checkpoints at scale: same offsets); TFLM
 * itself is O(n^2) (bubble sort and list walk).
 * Source: tflite-micro GreedyMemoryPlanner; ground truth
 * reference/baselines.csv `tflm_greedy_peak`, matched exactly
 * (tests/test_baselines.c).
 * Weak spots: TFLM's header says it: "not guaranteed to produce the best
 * placement"; size order ignores lifetimes, so long small buffers placed
 * late can land on top of everything.
 */
#include <errno.h>
#include <stdlib.h>

#include "lib/placement.h"

static int plan_tflm_greedy(const struct ab_problem *p,
			    const struct ab_plan_options *o,
			    struct ab_plan *out)
{
	/* TFLM fills its array from the tail: equal sizes in reverse order */
	return ab_plan_by_size_desc(p, o, true, ab_fit_first, out);
}

const struct ab_planner ab_planner_tflm_greedy = {
	.name = "tflm_greedy",
	.about = "TFLite Micro GreedyMemoryPlanner: size desc (ties reverse index), first fit",
	.cost = AB_COST_FAST,
	.plan = plan_tflm_greedy,
};
