/*
 * Plain O(n^2) versions of the fast mechanics, as test oracles only (never
 * registered as planners): every query scans every placed buffer.
 * tests/test_mechanics.c compares them with placement.c, the planners and
 * validate.c on random problems.
 */
#ifndef AB_ORACLE_H
#define AB_ORACLE_H

#include "core/arenabench.h"
#include "check/check.h"

/* Places order[0..m) one by one.  First fit: the lowest multiple x of the
 * buffer's effective alignment such that no placed buffer live at the same
 * time has offset < x + size and end > x (found by repeated scans).  Best
 * fit: placement.h's TFLite rule over the placed, time-overlapping buffers
 * sorted by (offset, end) with an insertion sort.  Returns 0 or -ENOMEM. */
int oracle_first_fit(const struct ab_problem *p,
		     const struct ab_plan_options *o, const uint32_t *order,
		     size_t m, uint64_t *offsets);
int oracle_best_fit(const struct ab_problem *p,
		    const struct ab_plan_options *o, const uint32_t *order,
		    size_t m, uint64_t *offsets);

/* oracle_best_fit's scan with each best-fit planner's rule (the same
 * conflicts, sorted the same way):
 *  - ORACLE_SMALLEST: oracle_best_fit (placement.h's ab_fit_best);
 *  - ORACLE_TFLITE: SimpleMemoryArena::Allocate (tflite_arena.c): a gap
 *    wins when its aligned room is below the best's unaligned room;
 *  - ORACLE_XLA: FindChunkCandidate (xla_best_fit.c): the smallest gap,
 *    and the top chunk up to the heap size (highest end over every buffer
 *    placed before).
 * TFLITE and XLA give zero-size buffers offset 0 and never count them. */
enum oracle_rule { ORACLE_SMALLEST, ORACLE_TFLITE, ORACLE_XLA };
int oracle_gap_rule(const struct ab_problem *p,
		    const struct ab_plan_options *o, const uint32_t *order,
		    size_t m, enum oracle_rule rule, uint64_t *offsets);

/* greedy_last_use by scanning every slot for each buffer. */
int oracle_greedy_last_use(const struct ab_problem *p,
			   const struct ab_plan_options *o, uint64_t *offsets);

/* The geometric check by comparing every pair: the same verdicts as
 * ab_validate_plan (a, b of an overlap may differ: any overlapping pair). */
enum ab_verdict oracle_validate(const struct ab_problem *p,
				const struct ab_plan *plan, uint32_t align,
				struct ab_check_result *res);

#endif
