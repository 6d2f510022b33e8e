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
 * Complexity: O(n log n) + O(n F) free-list scans + the pattern's O(n L).
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
#include "lib/replay.h"

static int plan_ort_sequential(const struct ab_problem *p,
			       const struct ab_plan_options *o,
			       struct ab_plan *out)
{
	size_t n = p->n, n_free = 0;
	struct ab_replay_event *ev = malloc((2 * n + 1) * sizeof(*ev));
	uint32_t *group = malloc((n + 1) * sizeof(*group));
	uint32_t *freelist = malloc((n + 1) * sizeof(*freelist)); /* top = front */
	uint64_t peak;
	int rc = -ENOMEM;

	if (!ev || !group || !freelist)
		goto out;
	rc = ab_replay_events(p, ev);
	for (size_t k = 0; !rc && k < 2 * n; k++) {
		uint32_t i = ev[k].buffer;

		if (ev[k].kind == AB_REPLAY_FREE) {
			freelist[n_free++] = group[i];
			continue;
		}
		group[i] = i;
		if (!p->buf[i].size)
			continue;
		for (size_t j = n_free; j-- > 0;)
			if (p->buf[freelist[j]].size == p->buf[i].size) {
				group[i] = freelist[j];
				for (; j + 1 < n_free; j++)
					freelist[j] = freelist[j + 1];
				n_free--;
				break;
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
	free(freelist);
	return rc;
}

const struct ab_planner ab_planner_ort_sequential = {
	.name = "ort_sequential",
	.about = "ONNX Runtime sequential planner: reuse a freed buffer of the same size (most recent first), then the memory pattern",
	.cost = AB_COST_FAST,
	.plan = plan_ort_sequential,
};
