/*
 * The execution check (execute.c): the plan run on real memory, every
 * tensor's bytes written and verified.  May include: core, check.
 */
#ifndef AB_EXECUTE_H
#define AB_EXECUTE_H

#include "core/arenabench.h"
#include "check/validate.h"

enum ab_exec_mode {
	AB_EXEC_FULL,    /* every byte written and verified */
	AB_EXEC_SAMPLED, /* first/last word and one word per 4 KiB */
	AB_EXEC_SKIPPED, /* the arena is too large to allocate */
};
const char *ab_exec_mode_name(enum ab_exec_mode m);

/* Above these, the execution check samples. */
#define AB_EXEC_FULL_MAX_BUFFERS 100000
#define AB_EXEC_FULL_MAX_BYTES (128ull << 20)
#define AB_EXEC_MAX_ARENA_BYTES (4ull << 30)

/*
 * The execution check: allocate an arena of the plan's peak and run the
 * schedule.  Each tensor's content is a pseudo-random stream seeded from
 * its producer and the seeds of the producer's inputs.  With a graph, what
 * must survive comes from the graph's declarations and operator order, not
 * from the problem's intervals (the problem only says where each tensor
 * is): tensors no operator writes (graph inputs, vars, outputs passed
 * through or left to the runtime, tensors the runtime provides) are written
 * first and verified; at step k the op's inputs are verified, its outputs
 * and scratch written, then inputs, outputs and scratch verified again;
 * graph outputs (the role, whatever the kind), vars and, under the tflite
 * rule (p->lifetimes), graph inputs are verified at the end.  A stomp is thus seen at the
 * victim's next read at the latest, and is attributed to the write that
 * hit it.  Tensors share buffers as p->tensor_buffer says; an input that
 * shares a buffer with an output of the same AB_OP_ELEMENTWISE op is
 * overwritten in place, so it is not verified after that op's writes (a
 * later read of it fails).  Without a graph (a CSV problem) every distinct
 * time is a step: buffers are written at their first time and verified
 * then and at their last.  `force` selects a mode; NULL = full unless large.
 */
enum ab_verdict ab_execute_plan(const struct ab_graph *g,
				const struct ab_problem *p,
				const struct ab_plan *plan,
				const enum ab_exec_mode *force,
				enum ab_exec_mode *mode,
				struct ab_check_result *res);

/* The same, reusing the caller's arena memory (*mem of *cap bytes, grown
 * as needed, freed by the caller) to save page faults across many checks.
 * Safe because a check only ever reads bytes it wrote in the same run. */
struct ab_exec_memory {
	uint8_t *mem;
	size_t cap;
};
enum ab_verdict ab_execute_plan_reuse(const struct ab_graph *g,
				      const struct ab_problem *p,
				      const struct ab_plan *plan,
				      const enum ab_exec_mode *force,
				      enum ab_exec_mode *mode,
				      struct ab_check_result *res,
				      struct ab_exec_memory *memory);

#endif
