/* O(n^2) test oracles for the fast mechanics: see oracle.h. */
#include <errno.h>
#include <stdlib.h>

#include "oracle.h"
#include "check/check.h"

static bool live_together(const struct ab_buffer *a, const struct ab_buffer *b)
{
	return a->first <= b->last && b->first <= a->last;
}

int oracle_first_fit(const struct ab_problem *p,
		     const struct ab_plan_options *o, const uint32_t *order,
		     size_t m, uint64_t *offsets)
{
	for (size_t j = 0; j < m; j++) {
		size_t i = order[j];
		uint64_t a = ab_effective_align(p, i, o), size = p->buf[i].size;
		uint64_t x = 0;
		bool moved = true;

		while (moved) {
			moved = false;
			for (size_t q = 0; q < j; q++) {
				size_t h = order[q];
				uint64_t off = offsets[h], end = off + p->buf[h].size;

				if (live_together(&p->buf[i], &p->buf[h]) &&
				    off < x + size && end > x) {
					x = ab_align_up(end, a);
					moved = true;
				}
			}
		}
		offsets[i] = x;
	}
	return 0;
}

/* The three gap rules over the conflicts sorted by (offset, end), each
 * written from its planner's description (tflite_arena.c, xla_best_fit.c,
 * placement.h), not from their code. */
int oracle_gap_rule(const struct ab_problem *p,
		    const struct ab_plan_options *o, const uint32_t *order,
		    size_t m, enum oracle_rule rule, uint64_t *offsets)
{
	uint64_t *lo = malloc((m + 1) * sizeof(*lo));
	uint64_t *hi = malloc((m + 1) * sizeof(*hi));
	uint64_t heap = 0; /* XLA: the arena's size over every placed buffer */
	bool skip_empty = rule != ORACLE_SMALLEST;

	if (!lo || !hi) {
		free(lo);
		free(hi);
		return -ENOMEM;
	}
	for (size_t j = 0; j < m; j++) {
		size_t i = order[j], k = 0;
		uint64_t a = ab_effective_align(p, i, o), size = p->buf[i].size;
		uint64_t cur = 0, best = UINT64_MAX, room = UINT64_MAX;

		if (skip_empty && !size) { /* offset 0, never recorded */
			offsets[i] = 0;
			continue;
		}
		for (size_t q = 0; q < j; q++) {
			size_t h = order[q], at;

			if (!live_together(&p->buf[i], &p->buf[h]) ||
			    (skip_empty && !p->buf[h].size))
				continue;
			/* insertion by (offset, end) */
			for (at = k; at > 0 &&
				     (lo[at - 1] > offsets[h] ||
				      (lo[at - 1] == offsets[h] &&
				       hi[at - 1] > offsets[h] + p->buf[h].size));
			     at--) {
				lo[at] = lo[at - 1];
				hi[at] = hi[at - 1];
			}
			lo[at] = offsets[h];
			hi[at] = offsets[h] + p->buf[h].size;
			k++;
		}
		for (size_t q = 0; q < k; q++) {
			uint64_t start = ab_align_up(cur, a);

			/* a gap before hit q holding the buffer, from the
			 * aligned end of everything below */
			if (start + size <= lo[q] && lo[q] - start < room) {
				best = start;
				/* SimpleMemoryArena remembers offset - cur */
				room = rule == ORACLE_TFLITE ? lo[q] - cur
							     : lo[q] - start;
			}
			if (hi[q] > cur)
				cur = hi[q];
			if (rule == ORACLE_TFLITE && room == 0)
				break;
		}
		/* XLA's top chunk: [aligned top of the hits, heap size) */
		if (rule == ORACLE_XLA && heap > ab_align_up(cur, a) &&
		    heap - ab_align_up(cur, a) >= size &&
		    heap - ab_align_up(cur, a) < room)
			best = ab_align_up(cur, a);
		offsets[i] = best != UINT64_MAX ? best : ab_align_up(cur, a);
		if (offsets[i] + size > heap)
			heap = offsets[i] + size;
	}
	free(lo);
	free(hi);
	return 0;
}

int oracle_best_fit(const struct ab_problem *p,
		    const struct ab_plan_options *o, const uint32_t *order,
		    size_t m, uint64_t *offsets)
{
	return oracle_gap_rule(p, o, order, m, ORACLE_SMALLEST, offsets);
}

int oracle_greedy_last_use(const struct ab_problem *p,
			   const struct ab_plan_options *o, uint64_t *offsets)
{
	size_t n = p->n, n_slots = 0;
	uint32_t *order = malloc((n + 1) * sizeof(*order));
	uint32_t *slot_of = malloc((n + 1) * sizeof(*slot_of));
	int32_t *slot_last = malloc((n + 1) * sizeof(*slot_last));
	size_t *slot_stamp = malloc((n + 1) * sizeof(*slot_stamp));
	uint64_t *slot_size = calloc(n + 1, sizeof(*slot_size));
	uint64_t *slot_align = calloc(n + 1, sizeof(*slot_align));
	uint64_t cursor = 0;
	int rc = -ENOMEM;

	if (!order || !slot_of || !slot_last || !slot_stamp || !slot_size ||
	    !slot_align)
		goto out;
	/* by last use, then first use, then index: an insertion sort */
	for (size_t j = 0; j < n; j++) {
		size_t at = j;
		const struct ab_buffer *b = &p->buf[j];

		for (; at > 0; at--) {
			const struct ab_buffer *c = &p->buf[order[at - 1]];

			if (c->last < b->last ||
			    (c->last == b->last && c->first <= b->first))
				break;
			order[at] = order[at - 1];
		}
		order[at] = (uint32_t)j;
	}
	for (size_t j = 0; j < n; j++) {
		size_t i = order[j], s = SIZE_MAX;

		/* the free slot with the latest last use, latest update wins */
		for (size_t c = 0; c < n_slots; c++)
			if (slot_last[c] < p->buf[i].first &&
			    (s == SIZE_MAX || slot_last[c] > slot_last[s] ||
			     (slot_last[c] == slot_last[s] &&
			      slot_stamp[c] > slot_stamp[s])))
				s = c;
		if (s == SIZE_MAX)
			s = n_slots++;
		slot_of[i] = (uint32_t)s;
		slot_last[s] = p->buf[i].last;
		slot_stamp[s] = j;
		if (p->buf[i].size > slot_size[s])
			slot_size[s] = p->buf[i].size;
		if (ab_effective_align(p, i, o) > slot_align[s])
			slot_align[s] = ab_effective_align(p, i, o);
	}
	for (size_t s = 0; s < n_slots; s++) {
		uint64_t base = ab_align_up(cursor, slot_align[s]);

		cursor = base + slot_size[s];
		slot_size[s] = base;
	}
	for (size_t i = 0; i < n; i++)
		offsets[i] = slot_size[slot_of[i]];
	rc = 0;
out:
	free(order);
	free(slot_of);
	free(slot_last);
	free(slot_stamp);
	free(slot_size);
	free(slot_align);
	return rc;
}

static enum ab_verdict put(struct ab_check_result *res, enum ab_verdict v,
			   size_t a, size_t b)
{
	res->verdict = v;
	res->a = a;
	res->b = b;
	res->step = -1;
	return v;
}

enum ab_verdict oracle_validate(const struct ab_problem *p,
				const struct ab_plan *plan, uint32_t align,
				struct ab_check_result *res)
{
	struct ab_plan_options o = { .align = align };
	struct ab_check_result dummy;

	if (!res)
		res = &dummy;
	put(res, AB_PLAN_VALID, 0, 0);
	if (plan->n != p->n || plan->n_arenas < 1 ||
	    plan->n_arenas > AB_MAX_ARENAS)
		return put(res, AB_PLAN_BAD_ARENA, 0, 0);
	for (int a = 0; a < plan->n_arenas; a++) {
		uint64_t e = plan->arena_base[a] + plan->arena_size[a];

		if (e < plan->arena_base[a] || e > plan->peak)
			return put(res, AB_PLAN_BAD_ARENA, 0, 0);
	}
	for (size_t i = 0; i < p->n; i++) {
		uint64_t al = ab_effective_align(p, i, &o);
		uint64_t off = plan->offset[i], end = off + p->buf[i].size;
		unsigned a = plan->arena[i];
		uint64_t base;

		if (end < off)
			return put(res, AB_PLAN_OUTSIDE_ARENA, i, i);
		if (a >= (unsigned)plan->n_arenas)
			return put(res, AB_PLAN_BAD_ARENA, i, i);
		base = plan->arena_base[a];
		if (off % al || (off >= base && (off - base) % al))
			return put(res, AB_PLAN_MISALIGNED, i, i);
		if (off < base || end > base + plan->arena_size[a])
			return put(res, AB_PLAN_OUTSIDE_ARENA, i, i);
		if (end > plan->peak)
			return put(res, AB_PLAN_ABOVE_PEAK, i, i);
	}
	for (size_t i = 0; i < p->n; i++)
		for (size_t j = i + 1; j < p->n; j++)
			if (p->buf[i].size && p->buf[j].size &&
			    live_together(&p->buf[i], &p->buf[j]) &&
			    plan->offset[i] < plan->offset[j] + p->buf[j].size &&
			    plan->offset[j] < plan->offset[i] + p->buf[i].size)
				return put(res, AB_PLAN_OVERLAP, i, j);
	return AB_PLAN_VALID;
}
