/*
 * best_of: every other fast planner, keep the smallest peak.
 *
 * Algorithm: the members are the registry's fast planners but itself
 * (ab_planner_count / ab_planner_at); the kept plan is the first, in
 * registry order (file-name order), with the smallest peak.  The kept plan
 * is copied whole (offsets, arenas, extents), so a multi-arena winner stays
 * multi-arena.  The members run in another order that ends on the same
 * plan: first the leaders (size_first_fit and tflm_greedy, cheap and often
 * the best; xla_best_fit, often the best on real models and the idealloc
 * problems), then the rest in registry order.  Each member after the first
 * gets the best peak so far as its cutoff (ab_plan_options.cutoff): it may
 * stop as soon as its peak is sure to reach it, since a member registered
 * after the best so far must beat it strictly; one registered before it
 * may tie and then wins, so its cutoff is one byte higher.  A plan at the
 * lower bound (the most bytes live at one step) cannot be beaten, so once
 * one is kept only the members registered before it still run (a tie at
 * the bound would win): most real models at alignment 1.  The members
 * share one memo (ab_plan_options.memo, lib/memo.h: every buffer's
 * lifetime ranks, the index spacing they give, and the orders of every
 * buffer by first use and by size, each worked out by the first member
 * that asks).
 * Complexity: the sum of the members' costs, each only up to the step where
 * its arena reaches the best peak so far (on the scale sweep the size-
 * ordered members stop after about a third of their buffers and those in
 * first-use order after a few per cent: docs/scaling.md), plus O(n) per
 * copy and one lower bound (O(n + T) or O(n log n)).  Members that ignore
 * the cutoff (gpu_greedy_in_order, greedy_last_use, linear: each a pass
 * or two) run whole.
 * Source: ExecuTorch's memory-planning algorithm suite
 * (exir/memory_planning.py: run greedy and the alternatives, keep the
 * smallest); the same idea as XLA's ChooseBestHeapAlgorithm.
 * Weak spots: only as good as the best member; the leaders and the member
 * that wins run whole, so the cost is at least theirs, and a member whose
 * arena reaches its final size late (first-use orders on inputs whose
 * peak step is late) is cut late.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/arenabench.h"
#include "lib/memo.h"

extern const struct ab_planner ab_planner_best_of; /* itself: skipped */

/* Run first: on most inputs near the best, so the cutoff the others get
 * is low from the start.  Which run first changes the time, never the
 * plan. */
static const char *const leaders[] = { "size_first_fit", "tflm_greedy",
					 "xla_best_fit" };

static bool is_member(const struct ab_planner *pl)
{
	return pl->cost == AB_COST_FAST && pl != &ab_planner_best_of;
}

/* seq[] = the members' registry indexes, leaders first; returns how many. */
static size_t run_order(size_t *seq, bool *queued, size_t count)
{
	size_t n = 0;

	for (size_t l = 0; l < sizeof(leaders) / sizeof(leaders[0]); l++)
		for (size_t k = 0; k < count; k++)
			if (!queued[k] && is_member(ab_planner_at(k)) &&
			    !strcmp(ab_planner_at(k)->name, leaders[l])) {
				seq[n++] = k;
				queued[k] = true;
			}
	for (size_t k = 0; k < count; k++)
		if (!queued[k] && is_member(ab_planner_at(k)))
			seq[n++] = k;
	return n;
}

static int plan_best_of(const struct ab_problem *p,
			const struct ab_plan_options *o, struct ab_plan *out)
{
	size_t count = ab_planner_count(), n_seq, best_k = SIZE_MAX;
	size_t *seq = malloc((count + 1) * sizeof(*seq));
	bool *queued = calloc(count + 1, sizeof(*queued)), cut = false;
	struct ab_plan_memo *memo = NULL; /* shared by the members */
	uint64_t best = UINT64_MAX, bound = ab_lower_bound(p, NULL);
	struct ab_plan tmp;
	int rc = -ENOMEM;

	if (!o->memo && !(memo = ab_plan_memo_new(p)))
		goto out;
	if (!seq || !queued || ab_plan_alloc(&tmp, p->n))
		goto out;
	n_seq = run_order(seq, queued, count);
	rc = 0;
	for (size_t s = 0; s < n_seq && !rc; s++) {
		size_t k = seq[s];
		/* registered before the best so far: a tie wins */
		bool may_tie = k < best_k;
		struct ab_plan_options om = *o;

		if (memo)
			om.memo = memo;
		if (best <= bound && !may_tie)
			continue;
		if (best != UINT64_MAX) {
			uint64_t c = may_tie ? best + 1 : best;

			if (!om.cutoff || c < om.cutoff)
				om.cutoff = c;
		}
		ab_plan_reset(&tmp);
		rc = ab_planner_at(k)->plan(p, &om, &tmp);
		if (rc == AB_ABOVE_CUTOFF) { /* cannot win */
			cut = true;
			rc = 0;
			continue;
		}
		if (!rc && (tmp.peak < best || (tmp.peak == best && may_tie))) {
			best = tmp.peak;
			best_k = k;
			ab_plan_copy(out, &tmp);
		}
	}
	ab_plan_free(&tmp);
	if (!rc && best == UINT64_MAX) /* every member cut, or none */
		rc = cut ? AB_ABOVE_CUTOFF : -ENOENT;
	/* a member that ignores the caller's cutoff may have been kept in
	 * place of one that was cut */
	if (!rc && ab_above_cutoff(o, best))
		rc = AB_ABOVE_CUTOFF;
out:
	ab_plan_memo_free(memo);
	free(seq);
	free(queued);
	return rc;
}

const struct ab_planner ab_planner_best_of = {
	.name = "best_of",
	.about = "every other fast planner; keep the smallest peak (ties: registry order)",
	.cost = AB_COST_FAST,
	.plan = plan_best_of,
};
