/*
 * The `offline` pseudo-planner: the memory plan a .tflite model carries in
 * its OfflineMemoryAllocation metadata (TFLite Micro's offline planning).
 *
 * The plan gives an arena offset per tensor, or -1 = "plan at runtime".
 * Here, as in TFLite Micro's GreedyMemoryPlanner, the fixed buffers keep
 * their offsets and the -1 buffers are then placed around them by
 * size-descending first fit (the size_first_fit rule) at the alignment in
 * use.  Fixed offsets are used verbatim: an offset that is not a multiple of
 * the alignment in use is counted (misaligned_fixed), not moved, and the
 * geometric check then runs at alignment 1 (each buffer's own alignment
 * still holds).  Overlap of fixed buffers that are live together makes the
 * plan invalid like any other planner's.
 *
 * It is not in the planner registry (which holds planners that need only the
 * problem); ab_planner_offline exists so that result rows can name it.
 * Contract: functions return 0 or a negative errno.
 */
#ifndef AB_OFFLINE_H
#define AB_OFFLINE_H

#include "bench/run.h"

struct ab_offline_stats {
	size_t fixed;            /* buffers placed where the model says */
	size_t runtime;          /* buffers marked -1, placed by first fit */
	size_t misaligned_fixed; /* fixed offsets not multiples of the align */
	/* When --inplace puts two tensors the model places apart into one
	 * buffer: those tensors (else -1), and the plan is refused. */
	int64_t split_tensor[2];
};

/* name "offline"; its .plan returns -ENOTSUP (use ab_offline_plan). */
extern const struct ab_planner ab_planner_offline;

/* True when `in` is a .tflite model with an offline plan. */
bool ab_offline_available(const struct ab_input *in);

/* Fills `plan` (room for in->problem.n buffers) from the model's plan.
 * -ENOENT if the input has none; -EINVAL (st->split_tensor set) when
 * --inplace shares one buffer between tensors the model places apart. */
int ab_offline_plan(const struct ab_input *in, const struct ab_plan_options *o,
		    struct ab_plan *plan, struct ab_offline_stats *st);

/* ab_plan_and_check for the offline plan: plan, geometric check (at align
 * 1, see above), execution check (mode NULL = full unless large); fills
 * row's outcome fields (row->planner = &ab_planner_offline).
 * row->lower_bound_bytes must be set. */
int ab_offline_plan_and_check(const struct ab_input *in,
			      const struct ab_plan_options *o,
			      const enum ab_exec_mode *mode,
			      struct ab_plan *plan, struct ab_row *row,
			      struct ab_offline_stats *st);


#endif
