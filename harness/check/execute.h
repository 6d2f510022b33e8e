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
	AB_EXEC_SAMPLED, /* the 8 bytes at every multiple of 4 KiB of the arena */
	AB_EXEC_SKIPPED, /* full mode forced on an arena above its limit */
};
const char *ab_exec_mode_name(enum ab_exec_mode m);

/* Above these, the execution check samples. */
#define AB_EXEC_FULL_MAX_BUFFERS 100000
#define AB_EXEC_FULL_MAX_BYTES (128ull << 20)
/* The largest arena full mode runs (its image is the arena): above it the
 * check samples (a forced full mode is skipped instead).  Sampled mode
 * keeps a word every 4 KiB up to an arena of AB_EXEC_SAMPLED_FINE_BYTES
 * (an image of 256 MiB); above, every 2^k bytes for the least k that keeps
 * the image at that size (ab_exec_sample_shift): 8 KiB up to 256 GiB, 16
 * KiB up to 512 GiB, and so on.  No arena is too large to sample. */
#define AB_EXEC_MAX_ARENA_BYTES (4ull << 30)
#define AB_EXEC_SAMPLED_FINE_BYTES (128ull << 30)

/*
 * What each mode catches.  The check keeps an image of the arena's words:
 * in full mode every word, in sampled mode the word (8 bytes) at each
 * multiple of AB_EXEC_SAMPLE_STRIDE of the arena, wherever the buffers
 * start.  A tensor writes, and later compares, the bytes of those words
 * that lie inside its buffer.  So when two tensors live at the same time
 * (by the schedule below) overlap in the arena:
 * - if their overlap holds a whole kept word (in sampled mode: any overlap
 *   of at least AB_EXEC_SAMPLE_STRIDE + 7 bytes; in full mode: of 15), the
 *   check reports a stomp, for certain (at the same word two different
 *   seeds give different streams);
 * - if it holds part of a kept word only, it reports one unless the few
 *   bytes they share happen to agree (a chance of 2^-8 per shared byte);
 * - if it holds no byte of a kept word (in sampled mode an overlap inside
 *   the 4,088 bytes between two kept words), it cannot see it.
 * The geometric check sees every overlap; this one runs the schedule
 * (above all: it does not share the lifetime code's mistakes).  The image
 * is peak / 512 words in sampled mode, peak bytes in full mode.
 */
#define AB_EXEC_SAMPLE_SHIFT 12
#define AB_EXEC_SAMPLE_STRIDE (1ull << AB_EXEC_SAMPLE_SHIFT)

/* log2 of the sampled mode's stride for an arena of peak bytes: 12 (4 KiB)
 * up to AB_EXEC_SAMPLED_FINE_BYTES, then one more per doubling.  What the
 * check guarantees (above) holds with this stride in place of 4 KiB. */
unsigned ab_exec_sample_shift(uint64_t peak);

/*
 * The execution check: run the schedule on an image of an arena of the
 * plan's peak (full or sampled, above).  Each tensor's content is a pseudo-random stream seeded from
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

/* The same, reusing the caller's image memory (words of cap words, grown
 * as needed, freed by the caller) to save page faults across many checks.
 * Safe because a check only ever compares bytes it wrote in the same run. */
struct ab_exec_memory {
	uint64_t *words;
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
