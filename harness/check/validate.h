/*
 * The geometric check of a plan (validate.c) and the verdict type both
 * checks share: no two buffers live at the same step overlap in address,
 * every offset keeps its alignment, every buffer lies inside its arena and
 * under the plan's peak, fixed buffers stay where a plan that keeps them
 * says.  May include: core.
 */
#ifndef AB_VALIDATE_H
#define AB_VALIDATE_H

#include "core/arenabench.h"

enum ab_verdict {
	AB_PLAN_VALID,
	AB_PLAN_OVERLAP,        /* a and b are live together and overlap */
	AB_PLAN_MISALIGNED,     /* a's offset is not a multiple of its align */
	AB_PLAN_OUTSIDE_ARENA,  /* a lies (partly) outside its arena */
	AB_PLAN_BAD_ARENA,      /* a's arena index or an arena's extent is bad */
	AB_PLAN_ABOVE_PEAK,     /* a ends above the plan's reported peak */
	AB_PLAN_STOMP,          /* execution check: b overwrote a while live */
	AB_PLAN_MOVED_FIXED,    /* a plan that keeps the fixed offsets put a
				 * fixed buffer a elsewhere */
	AB_PLAN_CHECK_FAILED,   /* the check itself could not run (memory) */
};

struct ab_check_result {
	enum ab_verdict verdict;
	size_t a, b;         /* buffer indices involved */
	int32_t step;        /* execution check: step of detection, or -1 */
	/* Execution check with a graph: the victim and culprit tensors (under
	 * --inplace a buffer holds several), or -1. */
	int32_t tensor_a, tensor_b;
	/* Execution check with a graph, run to the end: a hash of the graph
	 * outputs' verified contents (their stream seeds) in tensor-index
	 * order: two orders of one graph that compute the same outputs give
	 * the same digest.  0 when not computed. */
	uint64_t outputs_digest;
};

const char *ab_verdict_name(enum ab_verdict v);

/* The geometric check: an O(n log n) sweep over time with the live
 * buffers ordered by address.  Returns the verdict (also in *res). */
enum ab_verdict ab_validate_plan(const struct ab_problem *p,
				 const struct ab_plan *plan, uint32_t align,
				 struct ab_check_result *res);

#endif
