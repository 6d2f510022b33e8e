/*
 * gpu_greedy_in_order: the TFLite GPU delegate's GREEDY_IN_ORDER offset
 * assignment, reproduced (a faithful baseline).
 *
 * Algorithm (tensorflow/lite/delegates/gpu/common/memory_management/
 * greedy_in_order_assignment.h, then memory_management.cc's
 * ObjectsToOffsets):
 *  1. Tensors are visited by first use ascending (stable: ties by index).
 *  2. Each takes a shared object from the pool of objects whose last
 *     tenant died before its first use: the smallest pooled object at
 *     least its size, or the largest smaller one if that one is closer in
 *     size (it then grows to the tensor's size); with an empty pool, a new
 *     object.  The object returns to the pool after the tensor's last use.
 *  3. Objects are laid end to end in creation order; a tensor's offset is
 *     its object's base.
 * The core (steps 1-3 at alignment 1) is planners/lib/gpu_objects.c's
 * ab_gpu_greedy_in_order.  Alignment: each object's base is aligned up to
 * the largest effective alignment of its tenants (a no-op at the
 * reference's alignment 1, where the peaks equal
 * reference/baselines.csv `gpu_greedy_in_order_peak` exactly:
 * tests/test_baselines.c).
 * Ties: by index among equal first use; among pooled objects of equal size,
 * the one created first.
 * Complexity: O(n log n) for the order and the release heap, plus O(pool)
 * per sorted-array insert into the pool (O(n * pool) worst case).
 * Weak spots: not first fit: objects never share bytes with a different
 * object, so one object sized for a large tenant wastes its tail whenever a
 * small tenant holds it; the end-to-end layout ignores lifetimes entirely.
 * This is why it is usually far above first_fit_in_order, which visits the
 * same order but reuses any free gap.
 */
#include <errno.h>
#include <stdlib.h>

#include "lib/gpu_objects.h"
#include "lib/placement.h"
#include "core/arenabench.h"

static int plan_gpu_greedy_in_order(const struct ab_problem *p,
				    const struct ab_plan_options *o,
				    struct ab_plan *out)
{
	struct ab_key_index *by_base = malloc((p->n + 1) * sizeof(*by_base));
	uint64_t total, top = 0;
	int rc = -ENOMEM;

	if (!by_base)
		return rc;
	rc = ab_gpu_greedy_in_order(p, out->offset, &total);
	if (rc)
		goto out;
	/* Objects are identified by their base at alignment 1 (sizes are
	 * > 0, so two objects never share a base); re-lay them end to end
	 * with aligned bases, in base (= creation) order. */
	for (size_t i = 0; i < p->n; i++)
		by_base[i] = (struct ab_key_index){ out->offset[i], (uint32_t)i };
	rc = ab_sort_key_index(by_base, p->n);
	if (rc)
		goto out;
	for (size_t j = 0; j < p->n;) {
		size_t end = j;
		uint64_t base = by_base[j].key, size = 0, align = 1;

		for (; end < p->n && by_base[end].key == base; end++) {
			size_t i = by_base[end].index;
			uint64_t a = ab_effective_align(p, i, o);

			if (p->buf[i].size > size)
				size = p->buf[i].size;
			if (a > align)
				align = a;
		}
		top = ab_align_up(top, align);
		for (size_t k = j; k < end; k++)
			out->offset[by_base[k].index] = top;
		top += size;
		j = end;
	}
	ab_plan_finish_single(out, p);
out:
	free(by_base);
	return rc;
}

const struct ab_planner ab_planner_gpu_greedy_in_order = {
	.name = "gpu_greedy_in_order",
	.about = "TFLite GPU delegate's greedy-in-order shared objects, laid end to end",
	.cost = AB_COST_FAST,
	.plan = plan_gpu_greedy_in_order,
};
