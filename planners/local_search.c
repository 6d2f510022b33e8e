/*
 * local_search: hill climbing over placement orders.
 *
 * Algorithm:
 *  1. Start from the size-descending order (ab_order_size_desc), placed by
 *     first fit and by best fit; keep the better rule for the run.
 *  2. Each iteration perturbs the current order: with probability 3/4 one
 *     buffer that reaches the current peak (chosen at random among them)
 *     moves to a random earlier position; otherwise two random positions
 *     swap.  Only the order from the first changed position on is placed
 *     again (the buffers before it keep their offsets), and the trial
 *     stops as soon as it rises above the current peak.  It is kept if
 *     its peak is not larger (plateau moves allowed), else dropped.
 *  3. Stop at the budget, at the lower bound (optimal), or at the
 *     wall-clock safety stop.
 * Budget: iterations (trial orders).  Default: clamp(4e6 / n, 1, 300)
 * iterations, so the default run places at most about 4e6 + 2n buffers
 * in all: it never grows faster than the placement mechanic itself
 * (O(n) placements; 4 iterations at 10^6 buffers, 300 up to 13,333).
 * Deterministic for a given seed (splitmix64, planners/lib/rng_clock.c);
 * single-threaded.
 * Complexity: O(n log n) to start; per iteration O(n) bookkeeping plus one
 * placement query for each re-placed buffer (placement.h: O((k + 1)
 * log n) with k hits) and O(log n) for each kept one.
 * Source: TVM USMP's hill climb (src/tir/usmp/algo/hill_climb.cc: perturb
 * the order of the buffers that make the peak, re-place, keep if not
 * worse); move set, prefix reuse and early stop are arenabench's.
 * Weak spots: a greedy re-placement after each move only explores orders,
 * not placements a greedy rule never makes; plateaus are wide on large
 * problems, so few iterations rarely move the peak there.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/placement.h"
#include "lib/rng_clock.h"

#define DEFAULT_WORK 4000000 /* buffers re-placed by a default run */
#define MAX_DEFAULT_ITERATIONS 300

/* pos[] = position of each buffer in order; tops[] = the buffers that end
 * at `peak`; returns how many. */
static size_t index_order(const struct ab_problem *p, const uint32_t *order,
			  const uint64_t *off, uint64_t peak, uint32_t *pos,
			  uint32_t *tops)
{
	size_t k = 0;

	for (size_t j = 0; j < p->n; j++) {
		uint32_t i = order[j];

		pos[i] = (uint32_t)j;
		if (off[i] + p->buf[i].size == peak)
			tops[k++] = i;
	}
	return k;
}

static int plan_local_search(const struct ab_problem *p,
			     const struct ab_plan_options *o,
			     struct ab_plan *out)
{
	size_t n = p->n, n_tops = 0;
	uint32_t *order = malloc((n + 1) * sizeof(*order));
	uint32_t *trial = malloc((n + 1) * sizeof(*trial));
	uint32_t *pos = malloc((n + 1) * sizeof(*pos));
	uint32_t *tops = malloc((n + 1) * sizeof(*tops));
	uint64_t *cur = malloc((n + 1) * sizeof(*cur));
	uint64_t *off = malloc((n + 1) * sizeof(*off));
	uint64_t lb = ab_lower_bound(p, NULL), best, peak, budget = o->budget;
	ab_gap_rule rule = ab_fit_first;
	double deadline = o->safety_seconds > 0
				  ? ab_now_seconds() + o->safety_seconds : 0;
	struct ab_rng rng;
	uint64_t it = 0;
	int rc = -ENOMEM;

	if (!order || !trial || !pos || !tops || !cur || !off)
		goto out;
	if (!budget) {
		uint64_t b = n ? DEFAULT_WORK / n : MAX_DEFAULT_ITERATIONS;

		budget = b < 1 ? 1 : b > MAX_DEFAULT_ITERATIONS
					     ? MAX_DEFAULT_ITERATIONS : b;
	}
	ab_rng_seed(&rng, o->seed);
	rc = ab_order_size_desc(p, order);
	if (!rc)
		rc = ab_place_in_order(p, o, order, n, ab_fit_first, cur, &best);
	if (!rc)
		rc = ab_place_in_order(p, o, order, n, ab_fit_best, off, &peak);
	if (rc)
		goto out;
	if (peak < best) {
		uint64_t *t = cur;

		rule = ab_fit_best;
		best = peak;
		cur = off;
		off = t;
	}
	n_tops = index_order(p, order, cur, best, pos, tops);
	out->stopped_by = AB_STOPPED_NONE;
	while (best > lb && n >= 2) {
		size_t a, b, from;

		if (it >= budget) {
			out->stopped_by = AB_STOPPED_BUDGET;
			out->stop_phase = "hill climbing";
			break;
		}
		if (deadline > 0 && ab_now_seconds() > deadline) {
			out->stopped_by = AB_STOPPED_TIME;
			out->stop_phase = "hill climbing";
			break;
		}
		it++;
		memcpy(trial, order, n * sizeof(*order));
		if (ab_rng_below(&rng, 4) != 0) {
			/* a buffer that reaches the peak moves earlier */
			b = pos[tops[ab_rng_below(&rng, n_tops)]];
			a = ab_rng_below(&rng, b + 1);
			if (a == b)
				continue;
			memmove(trial + a + 1, trial + a,
				(b - a) * sizeof(*trial));
			trial[a] = order[b];
			from = a;
		} else {
			uint32_t t;

			a = ab_rng_below(&rng, n);
			b = ab_rng_below(&rng, n);
			t = trial[a];
			trial[a] = trial[b];
			trial[b] = t;
			from = a < b ? a : b;
		}
		/* the buffers before `from` keep their offsets */
		for (size_t j = 0; j < from; j++)
			off[trial[j]] = cur[trial[j]];
		rc = ab_place_suffix_within(p, o, trial, n, from, rule, best,
					    off, &peak);
		if (rc)
			goto out;
		if (peak <= best) {
			uint32_t *to = order;
			uint64_t *tc = cur;

			best = peak;
			order = trial;
			trial = to;
			cur = off;
			off = tc;
			n_tops = index_order(p, order, cur, best, pos, tops);
		}
	}
	memcpy(out->offset, cur, n * sizeof(*cur));
	ab_plan_finish_single(out, p);
	out->iterations = it;
	out->budget = budget;
	out->best_bound = lb;
	out->optimal = out->peak <= lb ? AB_OPTIMAL_YES : AB_OPTIMAL_UNKNOWN;
	rc = 0;
out:
	free(order);
	free(trial);
	free(pos);
	free(tops);
	free(cur);
	free(off);
	return rc;
}

const struct ab_planner ab_planner_local_search = {
	.name = "local_search",
	.about = "hill climbing over placement orders (TVM USMP hill climb), seeded, iteration budget",
	.cost = AB_COST_BUDGETED,
	.plan = plan_local_search,
};
