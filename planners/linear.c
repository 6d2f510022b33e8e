/*
 * linear: no reuse.  The baseline every reuse-aware planner is measured
 * against.
 *
 * Algorithm: order buffers by first use (ties by index); lay them end to
 * end, each offset aligned up to max(--align, the buffer's own alignment).
 * Peak = the end of the last buffer = sum of sizes at alignment 1.
 * Complexity: O(n) (radix sort on first use, one pass).
 * Source: TFLite Micro's LinearMemoryPlanner; "no reuse" in every survey.
 * Weak spots: ignores lifetimes entirely, so it is the worst possible
 * valid plan up to padding; useful only as the upper reference.
 */
#include <errno.h>
#include <stdlib.h>

#include "lib/memo.h"
#include "lib/placement.h"

static int plan_linear(const struct ab_problem *p,
		       const struct ab_plan_options *o, struct ab_plan *out)
{
	uint32_t *order = malloc((p->n ? p->n : 1) * sizeof(*order));
	uint64_t cursor = 0;
	int rc;

	if (!order)
		return -ENOMEM;
	rc = ab_order_first_use_memo(p, o, order);
	if (!rc) {
		for (size_t j = 0; j < p->n; j++) {
			size_t i = order[j];

			out->offset[i] = ab_align_up(cursor,
						     ab_effective_align(p, i, o));
			cursor = out->offset[i] + p->buf[i].size;
		}
		ab_plan_finish_single(out, p);
	}
	free(order);
	return rc;
}

const struct ab_planner ab_planner_linear = {
	.name = "linear",
	.about = "no reuse: buffers end to end in first-use order",
	.cost = AB_COST_FAST,
	.plan = plan_linear,
};
