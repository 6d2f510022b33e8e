/*
 * The checks of a finished plan as one service (check/check.h): the
 * geometric check, then the execution check through one verdict cache.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"

struct ab_verdict_cached {
	uint64_t hash;
	uint64_t peak;
	int n_arenas;
	int force; /* the requested mode + 1, 0 = none */
	uint64_t *offset;
	uint16_t *arena;
	enum ab_verdict verdict;
	enum ab_exec_mode mode;
	struct ab_check_result res;
};

const char *ab_buffer_name(const struct ab_graph *g, const struct ab_problem *p,
			   size_t i, char *buf, size_t len)
{
	if (g && p->tensor && p->tensor[i] >= 0 &&
	    (size_t)p->tensor[i] < g->n_tensors)
		snprintf(buf, len, "'%s'", g->tensors[p->tensor[i]].name);
	else if (p->label && p->csv_name && p->csv_name[i] && *p->csv_name[i])
		snprintf(buf, len, "id %s '%s'", p->label[i], p->csv_name[i]);
	else if (p->label)
		snprintf(buf, len, "id %s", p->label[i]);
	else
		snprintf(buf, len, "id %" PRId64, p->id[i]);
	return buf;
}

char *ab_describe_check(const struct ab_graph *g, const struct ab_problem *p,
			const struct ab_plan *plan,
			const struct ab_check_result *r, const char *check)
{
	char a[160], b[160];

	ab_buffer_name(g, p, r->a, a, sizeof(a));
	ab_buffer_name(g, p, r->b, b, sizeof(b));
	switch (r->verdict) {
	case AB_PLAN_OVERLAP:
		return ab_strdupf("%s check: buffers %s [%" PRId32 ",%" PRId32 "] at bytes [%" PRIu64 ",%" PRIu64 ") and %s [%" PRId32 ",%" PRId32 "] at bytes [%" PRIu64 ",%" PRIu64 ") are live together and overlap in address",
				  check, a, p->buf[r->a].first, p->buf[r->a].last,
				  plan->offset[r->a], plan->offset[r->a] + p->buf[r->a].size,
				  b, p->buf[r->b].first, p->buf[r->b].last,
				  plan->offset[r->b], plan->offset[r->b] + p->buf[r->b].size);
	case AB_PLAN_STOMP:
		/* Under --inplace a buffer holds several tensors: name them. */
		if (g && r->tensor_a >= 0 && r->tensor_b >= 0 &&
		    (size_t)r->tensor_a < g->n_tensors &&
		    (size_t)r->tensor_b < g->n_tensors) {
			snprintf(a, sizeof(a), "'%s'", g->tensors[r->tensor_a].name);
			snprintf(b, sizeof(b), "'%s'", g->tensors[r->tensor_b].name);
		}
		return ab_strdupf("%s check: buffer %s was overwritten by %s while live (detected at step %" PRId32 ")",
				  check, a, b, r->step);
	case AB_PLAN_MOVED_FIXED:
		return ab_strdupf("%s check: buffer %s is at byte %" PRIu64 ", not at its fixed offset %" PRId64,
				  check, a, plan->offset[r->a],
				  p->fixed_offset[r->a]);
	case AB_PLAN_MISALIGNED:
	case AB_PLAN_OUTSIDE_ARENA:
	case AB_PLAN_ABOVE_PEAK:
		return ab_strdupf("%s check: buffer %s is %s", check, a,
				  ab_verdict_name(r->verdict));
	default:
		return ab_strdupf("%s check: %s", check, ab_verdict_name(r->verdict));
	}
}

void ab_verdict_cache_free(struct ab_verdict_cache *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->entry[i].offset);
		free(c->entry[i].arena);
	}
	free(c->entry);
	free(c->memory.words);
	memset(c, 0, sizeof(*c));
}

/* Larger plans are not cached: comparing them costs about what a
 * sampled check does. */
#define VERDICT_CACHE_MAX_BUFFERS 100000

static uint64_t plan_hash(const struct ab_plan *plan)
{
	uint64_t h = 1469598103934665603ull;

	for (size_t i = 0; i < plan->n; i++)
		h = (h ^ (plan->offset[i] + ((uint64_t)plan->arena[i] << 56))) *
		    1099511628211ull;
	return h ^ plan->peak;
}

static struct ab_verdict_cached *cache_find(struct ab_verdict_cache *c,
					    const struct ab_plan *plan,
					    uint64_t h, int force)
{
	for (size_t i = 0; i < c->n; i++) {
		struct ab_verdict_cached *e = &c->entry[i];

		if (e->hash == h && e->force == force && e->peak == plan->peak &&
		    e->n_arenas == plan->n_arenas &&
		    !memcmp(e->offset, plan->offset, plan->n * sizeof(*e->offset)) &&
		    !memcmp(e->arena, plan->arena, plan->n * sizeof(*e->arena)))
			return e;
	}
	return NULL;
}

static void cache_add(struct ab_verdict_cache *c, const struct ab_plan *plan,
		      uint64_t h, int force, enum ab_verdict v,
		      enum ab_exec_mode m, const struct ab_check_result *res)
{
	struct ab_verdict_cached *e;

	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 16;
		void *p = realloc(c->entry, cap * sizeof(*c->entry));

		if (!p)
			return; /* no cache entry: only slower */
		c->entry = p;
		c->cap = cap;
	}
	e = &c->entry[c->n];
	e->offset = malloc((plan->n + 1) * sizeof(*e->offset));
	e->arena = malloc((plan->n + 1) * sizeof(*e->arena));
	if (!e->offset || !e->arena) {
		free(e->offset);
		free(e->arena);
		return;
	}
	memcpy(e->offset, plan->offset, plan->n * sizeof(*e->offset));
	memcpy(e->arena, plan->arena, plan->n * sizeof(*e->arena));
	e->hash = h;
	e->force = force;
	e->peak = plan->peak;
	e->n_arenas = plan->n_arenas;
	e->verdict = v;
	e->mode = m;
	e->res = *res;
	c->n++;
}

int ab_check_outcome_fail(struct ab_check_outcome *out, char *msg)
{
	out->valid = false;
	out->verdict = AB_PLAN_CHECK_FAILED;
	out->message = msg;
	return msg ? 0 : -ENOMEM;
}

int ab_check_plan(const struct ab_graph *g, const struct ab_problem *p,
		  const struct ab_plan *plan, uint32_t align,
		  const enum ab_exec_mode *mode,
		  struct ab_verdict_cache *cache, struct ab_check_outcome *out)
{
	struct ab_check_result res;
	struct ab_verdict_cached *hit = NULL;
	int force = mode ? (int)*mode + 1 : 0;
	enum ab_verdict v;
	uint64_t h = 0;
	double t0 = ab_clock_ns(CLOCK_PROCESS_CPUTIME_ID);

	out->valid = false;
	out->exec_mode = AB_EXEC_SKIPPED;
	out->exec_cached = false;
	out->message = NULL;
	out->peak_bytes = plan->peak;
	out->arenas = plan->n_arenas;
	out->geometric_cpu_ns = out->execution_cpu_ns = 0;
	/* The geometric check always runs: it depends on the alignment. */
	out->verdict = ab_validate_plan(p, plan, align, &res);
	out->geometric_cpu_ns = ab_clock_ns(CLOCK_PROCESS_CPUTIME_ID) - t0;
	t0 = ab_clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	if (out->verdict != AB_PLAN_VALID) {
		out->message = ab_describe_check(g, p, plan, &res, "geometric");
		return out->message ? 0 : -ENOMEM;
	}
	if (cache && plan->n <= VERDICT_CACHE_MAX_BUFFERS) {
		h = plan_hash(plan);
		hit = cache_find(cache, plan, h, force);
	}
	if (hit) {
		v = hit->verdict;
		out->exec_mode = hit->mode;
		out->exec_cached = true;
		res = hit->res;
	} else if (cache) {
		v = ab_execute_plan_reuse(g, p, plan, mode,
					  &out->exec_mode, &res, &cache->memory);
		if (plan->n <= VERDICT_CACHE_MAX_BUFFERS && !cache->lookup_only &&
		    v != AB_PLAN_CHECK_FAILED)
			cache_add(cache, plan, h, force, v, out->exec_mode, &res);
	} else {
		v = ab_execute_plan(g, p, plan, mode,
				    &out->exec_mode, &res);
	}
	if (!hit)
		out->execution_cpu_ns = ab_clock_ns(CLOCK_PROCESS_CPUTIME_ID) - t0;
	out->verdict = v;
	if (v != AB_PLAN_VALID) {
		out->message = ab_describe_check(g, p, plan, &res, "execution");
		return out->message ? 0 : -ENOMEM;
	}
	out->valid = true;
	return 0;
}
