/*
 * ort_mem_pattern: ONNX Runtime's memory-pattern planner on its own (the
 * session with memory reuse off and the memory pattern on: every value is
 * one allocation in the traced order).
 *
 * Algorithm (onnxruntime/core/framework/mem_pattern_planner.h,
 * lib/ort_mem_pattern.c has the rules):
 *  1. Replay the schedule: at each step trace the allocations of the
 *     buffers it produces (index order), then the frees of those it reads
 *     last (lib/replay.h), as ORT's pattern generation walks the execution
 *     plan and its deallocation plan.
 *  2. Each allocation takes the gap between live blocks (offset order) that
 *     wastes least, ties to the lower offset, else the end of the highest
 *     live block; the pattern's peak is the highest end.
 * Alignment: sizes padded to the lcm of --align and the buffers' own (ORT
 * pads to 64); --align 1 traces raw sizes.
 * Complexity: O(n log n) ordering + O(n log L), L = live blocks: the gaps
 * sit in an ordered set by width (lib/ort_mem_pattern.c), so a best fit is
 * one lower bound; ORT walks a std::list, O(L) per event, and this finds
 * what that walk finds.
 * Source: microsoft/onnxruntime mem_pattern_planner.h at 00ca1689 (the
 * rule is unchanged in later revisions read: 2019-2025).
 * Not expressible in a problem: ORT leaves graph inputs and outputs to the
 * caller (not in the pattern) and CSV problems cannot mark them, so every
 * buffer is traced; on a graph the inputs and outputs are planned too.
 * Weak spots: online best fit with no look-ahead; the fallback is the top
 * of the *live* blocks, so a free hole right below it is skipped when too
 * small and a large buffer lands above it.
 */
#include "lib/ort_mem_pattern.h"

static int plan_ort_mem_pattern(const struct ab_problem *p,
				const struct ab_plan_options *o,
				struct ab_plan *out)
{
	uint64_t peak;
	int rc = ab_ort_mem_pattern(p, o, NULL, out->offset, &peak);

	if (rc)
		return rc;
	ab_plan_finish_single(out, p);
	out->peak = out->arena_size[0] = peak;
	return 0;
}

const struct ab_planner ab_planner_ort_mem_pattern = {
	.name = "ort_mem_pattern",
	.about = "ONNX Runtime MemPatternPlanner: traced online best fit among live blocks (ties lower)",
	.cost = AB_COST_FAST,
	.plan = plan_ort_mem_pattern,
};
