/*
 * best_of: every other fast planner, keep the smallest peak.
 *
 * Algorithm: walk the registry (ab_planner_count / ab_planner_at), skip
 * itself and budgeted planners, run each on a scratch plan and keep the
 * first plan with the smallest peak (ties: registry order, i.e. file-name
 * order).  The kept plan is copied whole (offsets, arenas, extents), so a
 * multi-arena winner stays multi-arena.  A plan whose peak is the lower
 * bound (the most bytes live at one step) cannot be beaten, and ties keep
 * the earlier plan, so the walk stops there: the same plan as running
 * every member, sooner on inputs some member solves exactly (most real
 * models at alignment 1).
 * Complexity: the sum of the fast planners' costs (each near-linear), plus
 * O(n) per copy and one lower bound (O(n + T) or O(n log n)).
 * Source: ExecuTorch's memory-planning algorithm suite
 * (exir/memory_planning.py: run greedy and the alternatives, keep the
 * smallest); the same idea as XLA's ChooseBestHeapAlgorithm.
 * Weak spots: only as good as the best member; the cost grows with every
 * planner added to planners/.
 */
#include <errno.h>

#include "core/arenabench.h"

extern const struct ab_planner ab_planner_best_of; /* itself: skipped */

static int plan_best_of(const struct ab_problem *p,
			const struct ab_plan_options *o, struct ab_plan *out)
{
	struct ab_plan tmp;
	uint64_t best = UINT64_MAX, bound = ab_lower_bound(p, NULL);
	int rc = ab_plan_alloc(&tmp, p->n);

	if (rc)
		return rc;
	for (size_t k = 0; k < ab_planner_count() && best > bound; k++) {
		const struct ab_planner *pl = ab_planner_at(k);

		if (pl->cost != AB_COST_FAST || pl == &ab_planner_best_of)
			continue;
		ab_plan_reset(&tmp);
		rc = pl->plan(p, o, &tmp);
		if (rc)
			break;
		if (tmp.peak < best) {
			best = tmp.peak;
			ab_plan_copy(out, &tmp);
		}
	}
	ab_plan_free(&tmp);
	if (!rc && best == UINT64_MAX) /* no other fast planner */
		rc = -ENOENT;
	return rc;
}

const struct ab_planner ab_planner_best_of = {
	.name = "best_of",
	.about = "every other fast planner; keep the smallest peak (ties: registry order)",
	.cost = AB_COST_FAST,
	.plan = plan_best_of,
};
