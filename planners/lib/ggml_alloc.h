/*
 * ggml's dynamic tensor allocator (ggml-alloc.c, ggml_dyn_tallocr) driven by
 * the replay order of lib/replay.h, as ggml_gallocr_alloc_graph_impl drives
 * it in graph order.  One call plans a problem; planners/ggml_gallocr.c is
 * the planner, the tests call this with a chunk limit (the backend's
 * maximum buffer size).  The rules are in ggml_alloc.c's header.
 */
#ifndef AB_GGML_ALLOC_H
#define AB_GGML_ALLOC_H

#include "core/arenabench.h"

#define AB_GGML_MAX_CHUNKS 16 /* GGML_VBUFFER_MAX_CHUNKS */

/* Fills out (offsets, one arena per chunk laid end to end, peak = the sum
 * of the chunks' sizes, which is what ggml allocates).  max_chunk = the
 * backend's maximum buffer size, 0 = none.  Returns 0, -ENOMEM, or
 * -EOVERFLOW when the alignments have no common multiple below 2^32. */
int ab_ggml_gallocr_plan(const struct ab_problem *p,
			 const struct ab_plan_options *o, uint64_t max_chunk,
			 struct ab_plan *out);

#endif
