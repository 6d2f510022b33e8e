/*
 * greedy_last_use: slot colouring by last use.
 *
 * Algorithm: sort buffers by last use ascending (ties: first use, then
 * index).  A buffer may join a slot whose last use is strictly before its
 * first use; among those it joins the one with the largest last use,
 * otherwise it opens a new slot.  A slot's size is its largest buffer;
 * slots are laid out one after another in order of creation, each aligned
 * to the largest alignment among its buffers.
 * Complexity: O(n log n).  Because buffers arrive by ascending last use, a
 * slot's new last use is always the largest so far: the slots form a
 * priority queue whose keys arrive in order (an append-only array), a
 * query is a binary search for the largest key < first use, and a slot
 * that moves is deleted from its old entry via union-find skipping.
 * Source: register-allocation-style interval colouring; the "shared
 * objects" strategies of TFLite's GPU delegate (Pisarchyk & Lee, 2020).
 * Weak spots: a slot is as big as its biggest tenant, so mixing sizes in a
 * slot wastes bytes; no slot ever shares addresses with another.
 */
#include <errno.h>
#include <stdlib.h>

#include "lib/memo.h"
#include "lib/placement.h"

struct slot_queue {
	int32_t *key;    /* entry -> slot last use (non-decreasing) */
	uint32_t *slot;  /* entry -> slot */
	uint32_t *left;  /* union-find: nearest live entry at or left of e */
	size_t n;
};

/* The nearest live entry at or left of e, or UINT32_MAX; path-halving. */
static uint32_t find_live(struct slot_queue *q, uint32_t e)
{
	while (e != UINT32_MAX && q->left[e] != e) {
		uint32_t up = q->left[e];

		if (up != UINT32_MAX)
			q->left[e] = q->left[up];
		e = q->left[e];
	}
	return e;
}

static int plan_greedy_last_use(const struct ab_problem *p,
				const struct ab_plan_options *o,
				struct ab_plan *out)
{
	size_t n = p->n, n_slots = 0;
	uint32_t *order = malloc((n + 1) * sizeof(*order));
	uint64_t *key = malloc((n + 1) * sizeof(*key));
	uint32_t *slot_of = malloc((n + 1) * sizeof(*slot_of));
	uint64_t *slot_size = calloc(n + 1, sizeof(*slot_size));
	uint64_t *slot_align = calloc(n + 1, sizeof(*slot_align));
	struct slot_queue q = {
		.key = malloc((n + 1) * sizeof(int32_t)),
		.slot = malloc((n + 1) * sizeof(uint32_t)),
		.left = malloc((n + 1) * sizeof(uint32_t)),
	};
	uint64_t cursor = 0;
	int rc = -ENOMEM;

	if (!order || !key || !slot_of || !slot_size ||
	    !slot_align || !q.key || !q.slot || !q.left)
		goto out;
	rc = ab_order_first_use_memo(p, o, order);
	for (size_t i = 0; !rc && i < n; i++)
		key[i] = (uint64_t)p->buf[i].last;
	if (!rc)
		rc = ab_order_stable_by(order, n, key);
	if (rc)
		goto out;
	for (size_t j = 0; j < n; j++) {
		size_t i = order[j];
		int32_t f = p->buf[i].first;
		uint32_t e, s;
		size_t lo = 0, hi = q.n;

		/* Largest entry with key < f. */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (q.key[mid] < f)
				lo = mid + 1;
			else
				hi = mid;
		}
		e = lo ? find_live(&q, (uint32_t)(lo - 1)) : UINT32_MAX;
		if (e == UINT32_MAX) {
			s = (uint32_t)n_slots++;
		} else {
			s = q.slot[e];
			/* Delete the old entry: skip to its left neighbour. */
			q.left[e] = e ? e - 1 : UINT32_MAX;
		}
		slot_of[i] = s;
		if (p->buf[i].size > slot_size[s])
			slot_size[s] = p->buf[i].size;
		if (ab_effective_align(p, i, o) > slot_align[s])
			slot_align[s] = ab_effective_align(p, i, o);
		q.key[q.n] = p->buf[i].last;
		q.slot[q.n] = s;
		q.left[q.n] = (uint32_t)q.n;
		q.n++;
	}
	/* Slots end to end in creation order; reuse slot_size as the base. */
	for (size_t s = 0; s < n_slots; s++) {
		uint64_t base = ab_align_up(cursor, slot_align[s]);

		cursor = base + slot_size[s];
		slot_size[s] = base;
	}
	for (size_t i = 0; i < n; i++)
		out->offset[i] = slot_size[slot_of[i]];
	ab_plan_finish_single(out, p);
	rc = 0;
out:
	free(order);
	free(key);
	free(slot_of);
	free(slot_size);
	free(slot_align);
	free(q.key);
	free(q.slot);
	free(q.left);
	return rc;
}

const struct ab_planner ab_planner_greedy_last_use = {
	.name = "greedy_last_use",
	.about = "slot colouring: join the slot with the latest last use that ended before",
	.cost = AB_COST_FAST,
	.plan = plan_greedy_last_use,
};
