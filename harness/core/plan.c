/* The plan stage: storage for offsets and arenas. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/arenabench.h"

int ab_plan_alloc(struct ab_plan *plan, size_t n)
{
	memset(plan, 0, sizeof(*plan));
	plan->n = n;
	plan->offset = calloc(n ? n : 1, sizeof(*plan->offset));
	plan->arena = calloc(n ? n : 1, sizeof(*plan->arena));
	if (!plan->offset || !plan->arena) {
		ab_plan_free(plan);
		return -ENOMEM;
	}
	ab_plan_reset(plan);
	return 0;
}

void ab_plan_reset(struct ab_plan *plan)
{
	memset(plan->offset, 0, (plan->n ? plan->n : 1) * sizeof(*plan->offset));
	memset(plan->arena, 0, (plan->n ? plan->n : 1) * sizeof(*plan->arena));
	plan->n_arenas = 1;
	memset(plan->arena_base, 0, sizeof(plan->arena_base));
	memset(plan->arena_size, 0, sizeof(plan->arena_size));
	plan->peak = 0;
	plan->stopped_by = AB_STOPPED_NONE;
	plan->optimal = AB_OPTIMAL_UNKNOWN;
	plan->best_bound = 0;
	plan->iterations = 0;
	plan->budget = 0;
	plan->stop_phase = NULL;
	plan->threads = 1;
	plan->fixed_kept = false;
}

void ab_plan_copy(struct ab_plan *dst, const struct ab_plan *src)
{
	memcpy(dst->offset, src->offset, src->n * sizeof(*dst->offset));
	memcpy(dst->arena, src->arena, src->n * sizeof(*dst->arena));
	dst->n_arenas = src->n_arenas;
	memcpy(dst->arena_base, src->arena_base, sizeof(dst->arena_base));
	memcpy(dst->arena_size, src->arena_size, sizeof(dst->arena_size));
	dst->peak = src->peak;
	dst->fixed_kept = src->fixed_kept;
}

void ab_plan_free(struct ab_plan *plan)
{
	free(plan->offset);
	free(plan->arena);
	memset(plan, 0, sizeof(*plan));
}

void ab_plan_finish_single(struct ab_plan *plan, const struct ab_problem *p)
{
	uint64_t peak = 0;

	for (size_t i = 0; i < p->n; i++) {
		uint64_t end = plan->offset[i] + p->buf[i].size;

		plan->arena[i] = 0;
		if (end > peak)
			peak = end;
	}
	plan->n_arenas = 1;
	plan->arena_base[0] = 0;
	plan->arena_size[0] = peak;
	plan->peak = peak;
}

const char *ab_stopped_by_name(enum ab_stopped_by s)
{
	static const char *const names[] = { "none", "budget", "time", "size" };

	return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : "?";
}
