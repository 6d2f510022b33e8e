/*
 * The offline plan of a .tflite model, as explain shows it: the registered
 * `offline` planner (reached through the registry, by name) run on the
 * problem, whose fixed offsets are the model's OfflineMemoryAllocation metadata (import puts
 * them there), and counted: buffers the model places, buffers it leaves
 * to the runtime (-1, placed by first fit), fixed offsets that are not
 * multiples of the alignment in use (kept as given; the geometric check
 * then runs at alignment 1, each buffer's own alignment still holds).
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

/* True when `in` is a .tflite model with an offline plan. */
bool ab_offline_available(const struct ab_input *in);

/* Fills `plan` (room for in->problem.n buffers) from the model's plan.
 * -ENOENT if the input has none; -EINVAL (st->split_tensor set) when
 * --inplace shares one buffer between tensors the model places apart. */
int ab_offline_plan(const struct ab_input *in, const struct ab_plan_options *o,
		    struct ab_plan *plan, struct ab_offline_stats *st);

/* ab_plan_and_check for the offline plan: plan, geometric check (at align
 * 1, see above), execution check (mode NULL = full unless large); fills
 * row's outcome fields (row->planner = the registry's `offline`).
 * row->lower_bound_bytes must be set. */
int ab_offline_plan_and_check(const struct ab_input *in,
			      const struct ab_plan_options *o,
			      const enum ab_exec_mode *mode,
			      struct ab_plan *plan, struct ab_row *row,
			      struct ab_offline_stats *st);


#endif
