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

/* ------------------------------------------------------------ parts */

/* Buffers of part j of p, in p's order, into sub (map[k] = p's index). */
static int part_problem(const struct ab_problem *p, int j,
			struct ab_problem *sub, size_t *map)
{
	size_t m = 0;
	int rc;

	memset(sub, 0, sizeof(*sub));
	for (size_t i = 0; i < p->n; i++)
		if (p->part[i] == j)
			map[m++] = i;
	rc = ab_problem_alloc(sub, m);
	if (rc)
		return rc;
	if (p->fixed_offset) {
		sub->fixed_offset = malloc((m ? m : 1) * sizeof(*sub->fixed_offset));
		if (!sub->fixed_offset) {
			ab_problem_free(sub);
			return -ENOMEM;
		}
	}
	for (size_t k = 0; k < m; k++) {
		sub->buf[k] = p->buf[map[k]];
		sub->id[k] = p->id[map[k]];
		sub->tensor[k] = p->tensor[map[k]];
		if (p->fixed_offset)
			sub->fixed_offset[k] = p->fixed_offset[map[k]];
	}
	sub->lifetimes = p->lifetimes;
	sub->steps = p->steps;
	sub->capacity = 0;
	return 0;
}

int ab_planner_run(const struct ab_planner *pl, const struct ab_problem *p,
		   const struct ab_plan_options *o, struct ab_plan *out)
{
	uint64_t base = 0, align = 1;
	size_t *map;
	int rc = 0;

	if (p->n_parts <= 1 || !p->part)
		return pl->plan(p, o, out);
	if (p->n_parts > AB_MAX_ARENAS)
		return -E2BIG;
	for (size_t i = 0; i < p->n; i++)
		if (ab_effective_align(p, i, o) > align)
			align = ab_effective_align(p, i, o);
	map = malloc((p->n + 1) * sizeof(*map));
	if (!map)
		return -ENOMEM;
	for (int j = 0; j < p->n_parts && !rc; j++) {
		struct ab_problem sub;
		struct ab_plan sp;

		rc = part_problem(p, j, &sub, map);
		if (rc)
			break;
		rc = ab_plan_alloc(&sp, sub.n);
		if (!rc) {
			rc = sub.n ? pl->plan(&sub, o, &sp) : 0;
			if (!rc) {
				base = ab_align_up(base, align);
				for (size_t k = 0; k < sub.n; k++) {
					out->offset[map[k]] = base + sp.offset[k];
					out->arena[map[k]] = (uint16_t)j;
				}
				out->arena_base[j] = base;
				out->arena_size[j] = sub.n ? sp.peak : 0;
				base += out->arena_size[j];
				if (sp.stopped_by != AB_STOPPED_NONE)
					out->stopped_by = sp.stopped_by;
				out->iterations += sp.iterations;
				out->fixed_kept = sp.fixed_kept;
			}
			ab_plan_free(&sp);
		}
		ab_problem_free(&sub);
	}
	free(map);
	out->n_arenas = p->n_parts;
	out->peak = base;
	out->optimal = AB_OPTIMAL_UNKNOWN;
	out->best_bound = 0;
	return rc;
}
