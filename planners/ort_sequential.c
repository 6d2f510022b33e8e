/*
 * ort_sequential: ONNX Runtime's default CPU session planning: the
 * sequential allocation planner's buffer reuse, then the memory pattern
 * over the reused buffers.
 *
 * Algorithm (onnxruntime/core/framework/allocation_planner.cc,
 * ComputeSingleStreamReusePlan / FindReusableTensor):
 *  1. Walk the schedule (lib/replay.h order).  A buffer produced at a step
 *     takes the first entry of the free list with exactly its size (ORT:
 *     same element size and same shape); else it is a new allocation.
 *  2. After each step, the buffers read for the last time are pushed on
 *     the *front* of the free list (in index order, so the last pushed is
 *     found first): most recently freed first.
 *  3. The reused buffers form groups (one allocation each, from the first
 *     tenant's first use to the last one's last use), placed by the memory
 *     pattern planner (lib/ort_mem_pattern.c: best fit among live blocks).
 * Alignment and ties: as ort_mem_pattern; free-list ties by recency, then
 * the reverse of index order within a step.
 * Complexity: O(n log n) + the pattern's O(n log L): the free list is kept as
 * one stack per size, which finds what ORT's front-to-back scan finds.
 * Source: microsoft/onnxruntime allocation_planner.cc at 005c1925 and
 * mem_pattern_planner.h at 00ca1689; tests pin ORT's
 * allocation_planner_test.cc ChainTest and hand cases.
 * Not expressible in a problem: ORT matches shapes, not bytes (two tensors
 * of equal bytes and different shapes are not reused: here they are, so
 * this planner reuses at least as often as ORT on the same schedule); the
 * in-place reuse of an input (kernels' MayInplace / Alias, with the input
 * at its last use) needs kernel information: on a graph use --inplace
 * (arenabench's rule for elementwise ops), on a CSV there is none; graph
 * inputs and outputs, which ORT never reuses, are not marked in a CSV.
 * Weak spots: exact-size matching leaves freed buffers of other sizes
 * idle; the layout of the groups is as online as the pattern planner's.
 */
#include <errno.h>
#include <stdlib.h>

#include "lib/ort_mem_pattern.h"
#include "lib/placement.h"
#include "lib/replay.h"

/* Per buffer, a dense id of its size (equal sizes, equal ids). */
static int size_ids(const struct ab_problem *p, uint32_t *id)
{
	size_t n = p->n;
	uint32_t *order = malloc((n + 1) * sizeof(*order));
	uint64_t *size = calloc(n + 1, sizeof(*size));
	int rc = -ENOMEM;

	if (!order || !size)
		goto out;
	for (size_t i = 0; i < n; i++) {
		order[i] = (uint32_t)i;
		size[i] = p->buf[i].size;
	}
	rc = ab_order_stable_by(order, n, size);
	for (size_t k = 0, next = 0; !rc && k < n; k++) {
		if (k && size[order[k]] != size[order[k - 1]])
			next++;
		id[order[k]] = (uint32_t)next;
	}
out:
	free(order);
	free(size);
	return rc;
}

static int plan_ort_sequential(const struct ab_problem *p,
			       const struct ab_plan_options *o,
			       struct ab_plan *out)
{
	size_t n = p->n;
	struct ab_replay_event *ev = malloc((2 * n + 1) * sizeof(*ev));
	uint32_t *group = malloc((n + 1) * sizeof(*group));
	uint32_t *id = malloc((n + 1) * sizeof(*id));
	/* The free list, by size: the first entry of a size from the front is
	 * the most recently freed of that size, so one stack per size gives
	 * ORT's scan in O(1). */
	uint32_t *head = malloc((n + 1) * sizeof(*head));
	uint32_t *below = malloc((n + 1) * sizeof(*below));
	uint64_t peak;
	int rc = -ENOMEM;

	if (!ev || !group || !id || !head || !below)
		goto out;
	rc = size_ids(p, id);
	if (!rc)
		rc = ab_replay_events(p, ev);
	for (size_t i = 0; i < n; i++)
		head[i] = UINT32_MAX;
	for (size_t k = 0; !rc && k < 2 * n; k++) {
		uint32_t i = ev[k].buffer, g = group[i];

		if (ev[k].kind == AB_REPLAY_FREE) {
			if (!p->buf[i].size)
				continue;
			below[g] = head[id[g]];
			head[id[g]] = g;
			continue;
		}
		group[i] = i;
		if (p->buf[i].size && head[id[i]] != UINT32_MAX) {
			group[i] = head[id[i]];
			head[id[i]] = below[group[i]];
		}
	}
	if (!rc)
		rc = ab_ort_mem_pattern(p, o, group, out->offset, &peak);
	if (rc)
		goto out;
	ab_plan_finish_single(out, p);
	out->peak = out->arena_size[0] = peak;
out:
	free(ev);
	free(group);
	free(id);
	free(head);
	free(below);
	return rc;
}

const struct ab_planner ab_planner_ort_sequential = {
	.name = "ort_sequential",
	.about = "ONNX Runtime sequential planner: reuse a freed buffer of the same size (most recent first), then the memory pattern",
	.cost = AB_COST_FAST,
	.plan = plan_ort_sequential,
};
