/*
 * The order in which an online allocator (ggml's graph allocator, ONNX
 * Runtime's memory-pattern trace) sees a schedule: step by step, first
 * every buffer whose first use is the step (in index order), then every
 * buffer whose last use is the step is freed (in index order).  So a buffer
 * freed at step t is reusable from step t + 1 on, as closed intervals say.
 *
 * Contract: returns 0 or a negative errno; prints nothing.
 */
#ifndef AB_REPLAY_H
#define AB_REPLAY_H

#include "core/arenabench.h"

enum ab_replay_kind { AB_REPLAY_ALLOC, AB_REPLAY_FREE };

struct ab_replay_event {
	enum ab_replay_kind kind;
	uint32_t buffer;
};

/* ev[0 .. 2n) = the allocations and frees of every buffer in replay order. */
int ab_replay_events(const struct ab_problem *p, struct ab_replay_event *ev);

/* Least common multiple of o->align and every buffer's own alignment (the
 * one alignment of an allocator that pads every size to it), or 0 when it
 * does not fit in 32 bits. */
uint64_t ab_common_align(const struct ab_problem *p,
			 const struct ab_plan_options *o);

#endif
