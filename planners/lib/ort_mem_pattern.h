/*
 * ONNX Runtime's memory-pattern planner (MemPatternPlanner) over the
 * replay order of lib/replay.h, shared by ort_mem_pattern (every buffer its
 * own allocation) and ort_sequential (buffers grouped by the sequential
 * planner's reuse).  Rules in ort_mem_pattern.c's header.
 */
#ifndef AB_ORT_MEM_PATTERN_H
#define AB_ORT_MEM_PATTERN_H

#include "core/arenabench.h"

/* group[i] = the buffer whose allocation buffer i shares (group[i] == i for
 * the first tenant; NULL = no sharing).  Tenants of a group must have the
 * group's size and disjoint lifetimes.  Fills offsets[] and *peak (the
 * pattern's peak_size, over sizes padded to the alignment).  Returns 0,
 * -ENOMEM or -EOVERFLOW (alignments without a common multiple < 2^32). */
int ab_ort_mem_pattern(const struct ab_problem *p,
		       const struct ab_plan_options *o, const uint32_t *group,
		       uint64_t *offsets, uint64_t *peak);

#endif
