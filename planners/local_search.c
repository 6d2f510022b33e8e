/*
 * local_search: hill climbing over placement orders.
 *
 * Algorithm:
 *  1. Start from the size-descending order (ab_order_size_desc), placed by
 *     first fit and by best fit; keep the better rule for the run.
 *  2. Each iteration perturbs the current order and re-places everything:
 *     with probability 3/4 one buffer that reaches the current peak
 *     (chosen at random among them) moves to a random earlier position;
 *     otherwise two random positions swap.  The new order is kept if its
 *     peak is not larger (plateau moves allowed), else undone.
 *  3. Stop at the budget, at the lower bound (optimal), or at the
 *     wall-clock safety stop.
 * Budget: iterations (re-placements).  Default: clamp(4e6 / n, 1, 300), so
 * the total work stays about 4e6 placements' worth of O(log n) steps: near
 * linear up to 10^6 buffers (4 iterations there).  Deterministic for a
 * given seed (splitmix64, planners/lib/search.c); single-threaded.
 * Complexity: O(iterations x (n log n + sum of hit counts)).
 * Source: TVM USMP's hill climb (src/tir/usmp/algo/hill_climb.cc: perturb
 * the order of the buffers that make the peak, re-place, keep if not
 * worse); move set and acceptance are arenabench's own.
 * Weak spots: a greedy re-placement after each move only explores orders,
 * not placements a greedy rule never makes; plateaus are wide on large
 * problems, so few iterations rarely move the peak there.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "search.h"

static int evaluate(const struct ab_problem *p, const struct ab_plan_options *o,
		    const uint32_t *order, enum ab_fit_rule rule,
		    uint64_t *off, uint64_t *peak)
{
	return ab_place_in_order(p, o, order, p->n, rule, off, peak);
}

static int plan_local_search(const struct ab_problem *p,
			     const struct ab_plan_options *o,
			     struct ab_plan *out)
{
	size_t n = p->n;
	uint32_t *order = malloc((n + 1) * sizeof(*order));
	uint32_t *trial = malloc((n + 1) * sizeof(*trial));
	uint32_t *pos = malloc((n + 1) * sizeof(*pos));
	uint32_t *top_set = malloc((n + 1) * sizeof(*top_set));
	uint64_t *off = malloc((n + 1) * sizeof(*off));
	uint64_t lb = ab_lower_bound(p, NULL), best, peak, budget = o->budget;
	enum ab_fit_rule rule = AB_FIT_FIRST;
	double deadline = o->safety_seconds > 0
				  ? ab_now_seconds() + o->safety_seconds : 0;
	struct ab_rng rng;
	uint64_t it = 0;
	int rc = -ENOMEM;

	if (!order || !trial || !pos || !top_set || !off)
		goto out;
	if (!budget) {
		uint64_t b = n ? 4000000 / n : 300;

		budget = b < 1 ? 1 : b > 300 ? 300 : b;
	}
	ab_rng_seed(&rng, o->seed);
	rc = ab_order_size_desc(p, order);
	if (!rc)
		rc = evaluate(p, o, order, AB_FIT_FIRST, out->offset, &best);
	if (!rc)
		rc = evaluate(p, o, order, AB_FIT_BEST, off, &peak);
	if (rc)
		goto out;
	if (peak < best) {
		rule = AB_FIT_BEST;
		best = peak;
		memcpy(out->offset, off, n * sizeof(*off));
	}
	out->stopped_by = AB_STOPPED_NONE;
	while (best > lb && n >= 2) {
		size_t a, b, k = 0;

		if (it >= budget) {
			out->stopped_by = AB_STOPPED_BUDGET;
			break;
		}
		if (deadline > 0 && ab_now_seconds() > deadline) {
			out->stopped_by = AB_STOPPED_TIME;
			break;
		}
		it++;
		memcpy(trial, order, n * sizeof(*order));
		if (ab_rng_below(&rng, 4) != 0) {
			/* a buffer that reaches the peak moves earlier */
			for (size_t j = 0; j < n; j++) {
				pos[order[j]] = (uint32_t)j;
				if (out->offset[order[j]] + p->buf[order[j]].size ==
				    best)
					top_set[k++] = order[j];
			}
			b = pos[top_set[ab_rng_below(&rng, k)]];
			a = ab_rng_below(&rng, b + 1);
			if (a == b)
				continue;
			memmove(trial + a + 1, trial + a,
				(b - a) * sizeof(*trial));
			trial[a] = order[b];
		} else {
			uint32_t t;

			a = ab_rng_below(&rng, n);
			b = ab_rng_below(&rng, n);
			t = trial[a];
			trial[a] = trial[b];
			trial[b] = t;
		}
		rc = evaluate(p, o, trial, rule, off, &peak);
		if (rc)
			goto out;
		if (peak <= best) {
			best = peak;
			memcpy(order, trial, n * sizeof(*order));
			memcpy(out->offset, off, n * sizeof(*off));
		}
	}
	ab_plan_finish_single(out, p);
	out->iterations = it;
	out->best_bound = lb;
	out->optimal = out->peak <= lb ? AB_OPTIMAL_YES : AB_OPTIMAL_UNKNOWN;
	rc = 0;
out:
	free(order);
	free(trial);
	free(pos);
	free(top_set);
	free(off);
	return rc;
}

const struct ab_planner ab_planner_local_search = {
	.name = "local_search",
	.about = "hill climbing over placement orders (TVM USMP hill climb), seeded, iteration budget",
	.cost = AB_COST_BUDGETED,
	.plan = plan_local_search,
};
