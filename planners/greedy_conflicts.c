/*
 * greedy_conflicts: TVM USMP's greedy-by-conflicts.
 *
 * Algorithm (TVM, src/tir/usmp/algo/greedy.cc, GreedyByConflicts):
 *  1. conflicts(b) = number of other buffers live at some common step.
 *  2. Order by conflicts descending, then size descending, then index
 *     (TVM breaks the last tie by buffer name; the index stands in for it).
 *  3. Place each by first fit over the already placed buffers it conflicts
 *     with, in offset order (TVM's greedy base: the lowest offset above
 *     every conflicting buffer it cannot sit under) - ab_fit_first.
 * Complexity: conflict counts as #(first <= my last) - #(last < my first)
 * - 1, in O(n + span) by prefix counts over the steps when they span at
 * most 4n, else O(n log n) by binary searches over sorted first and last
 * uses; the sort, then first fit by ab_place_in_order (interval index, or
 * first_fit_index.h's checkpoints at scale: same offsets).
 * Source: TVM Unified Static Memory Planning (USMP), greedy_by_conflicts.
 * Weak spots: a buffer with many short conflicts outranks a huge
 * long-lived one; counts ignore how large the conflicting buffers are.
 */
#include <errno.h>
#include <stdlib.h>

#include "lib/placement.h"

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return (x > y) - (x < y);
}

/* conf[i] = ~(buffers other than i live at some step of i's lifetime),
 * as #(first <= my last) - #(last < my first) - 1.  Steps spanning at most
 * four times the buffers are counted in prefix sums over the span (O(n +
 * span)); otherwise the sorted firsts and lasts are searched (firsts and
 * lasts are the caller's scratch arrays of n + 1). */
static int count_conflicts(const struct ab_problem *p, int32_t *firsts,
			   int32_t *lasts, uint64_t *conf)
{
	size_t n = p->n;
	int64_t lo = INT64_MAX, hi = INT64_MIN;

	for (size_t i = 0; i < n; i++) {
		lo = p->buf[i].first < lo ? p->buf[i].first : lo;
		hi = p->buf[i].last > hi ? p->buf[i].last : hi;
	}
	if (n && (uint64_t)(hi - lo) < 4 * (uint64_t)n) {
		/* le_first[t] = #(first <= lo + t - 1), le_last alike */
		size_t span = (size_t)(hi - lo) + 1;
		uint32_t *le_first = calloc(span + 1, sizeof(*le_first));
		uint32_t *le_last = calloc(span + 1, sizeof(*le_last));

		if (!le_first || !le_last) {
			free(le_first);
			free(le_last);
			return -ENOMEM;
		}
		for (size_t i = 0; i < n; i++) {
			le_first[p->buf[i].first - lo + 1]++;
			le_last[p->buf[i].last - lo + 1]++;
		}
		for (size_t t = 1; t <= span; t++) {
			le_first[t] += le_first[t - 1];
			le_last[t] += le_last[t - 1];
		}
		for (size_t i = 0; i < n; i++)
			conf[i] = ~(uint64_t)(le_first[p->buf[i].last - lo + 1] -
					      le_last[p->buf[i].first - lo] - 1);
		free(le_first);
		free(le_last);
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		firsts[i] = p->buf[i].first;
		lasts[i] = p->buf[i].last;
	}
	qsort(firsts, n, sizeof(*firsts), cmp_i32);
	qsort(lasts, n, sizeof(*lasts), cmp_i32);
	for (size_t i = 0; i < n; i++)
		conf[i] = ~(uint64_t)(ab_count_le_i32(firsts, n, p->buf[i].last) -
				      ab_count_le_i32(lasts, n, p->buf[i].first - 1) - 1);
	return 0;
}

static int plan_greedy_conflicts(const struct ab_problem *p,
				 const struct ab_plan_options *o,
				 struct ab_plan *out)
{
	size_t n = p->n;
	int32_t *firsts = malloc((n + 1) * sizeof(*firsts));
	int32_t *lasts = malloc((n + 1) * sizeof(*lasts));
	uint64_t *conf = malloc((n + 1) * sizeof(*conf));
	uint64_t *size = malloc((n + 1) * sizeof(*size));
	uint32_t *order = malloc((n + 1) * sizeof(*order));
	uint64_t top;
	int rc = -ENOMEM;

	if (!firsts || !lasts || !conf || !size || !order)
		goto out;
	rc = count_conflicts(p, firsts, lasts, conf);
	if (rc)
		goto out;
	for (size_t i = 0; i < n; i++)
		size[i] = ~p->buf[i].size;
	const uint64_t *keys[] = { conf, size };
	rc = ab_order_by_keys(p, order, keys, 2);
	if (!rc)
		rc = ab_place_in_order(p, o, order, n, ab_fit_first,
				       out->offset, &top);
	if (!rc)
		ab_plan_finish_single(out, p);
out:
	free(firsts);
	free(lasts);
	free(conf);
	free(size);
	free(order);
	return rc;
}

const struct ab_planner ab_planner_greedy_conflicts = {
	.name = "greedy_conflicts",
	.about = "TVM USMP greedy by conflicts: most conflicts first, then size, first fit",
	.cost = AB_COST_FAST,
	.plan = plan_greedy_conflicts,
};
