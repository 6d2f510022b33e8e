/*
 * ONNX Runtime's MemPatternPlanner, re-implemented from
 * microsoft/onnxruntime onnxruntime/core/framework/mem_pattern_planner.h at
 * 00ca168922183eeb0c1e0f93c04f2f707087f86d (TraceAllocation, TraceFree).
 *
 * State: the live blocks, sorted by offset.  TraceAllocation(size): the
 * default offset is the end of the last (highest) live block, 0 when none
 * is live; walking the blocks in offset order with `current` = the end of
 * the previous block, each gap [current, block offset) that holds the size
 * is a candidate and the one wasting least (strictly less: ties to the
 * lower offset) wins; there is no candidate above the last block.  The
 * peak is the highest end ever.  Zero-size allocations get offset 0 and no
 * block.  TraceFree removes the block.  Sizes are padded to the common
 * alignment (ORT pads to kAllocAlignment, 64, before tracing).
 * A group (the sequential planner's reuse) is one allocation from its
 * first tenant's first use to its last tenant's last use.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/ort_mem_pattern.h"
#include "lib/replay.h"

struct live {
	uint64_t offset, size;
	uint32_t unit;
};

int ab_ort_mem_pattern(const struct ab_problem *p,
		       const struct ab_plan_options *o, const uint32_t *group,
		       uint64_t *offsets, uint64_t *peak)
{
	size_t n = p->n, n_live = 0;
	struct ab_buffer *unit = malloc((n + 1) * sizeof(*unit));
	struct ab_replay_event *ev = malloc((2 * n + 1) * sizeof(*ev));
	struct live *blocks = malloc((n + 1) * sizeof(*blocks));
	uint64_t *unit_off = malloc((n + 1) * sizeof(*unit_off));
	uint64_t align = ab_common_align(p, o), top = 0;
	struct ab_problem up = { 0 };
	int rc = -ENOMEM;

	if (!unit || !ev || !blocks || !unit_off)
		goto out;
	rc = -EOVERFLOW;
	if (!align)
		goto out;
	/* One allocation unit per group, spanning its tenants. */
	for (size_t i = 0; i < n; i++) {
		unit[i] = p->buf[i];
		unit[i].size = 0;
	}
	for (size_t i = 0; i < n; i++) {
		uint32_t g = group ? group[i] : (uint32_t)i;
		const struct ab_buffer *b = &p->buf[i];

		if (g == i) {
			unit[g].first = b->first;
			unit[g].last = b->last;
			unit[g].size = b->size;
		}
	}
	for (size_t i = 0; group && i < n; i++) {
		struct ab_buffer *u = &unit[group[i]];

		if (p->buf[i].first < u->first)
			u->first = p->buf[i].first;
		if (p->buf[i].last > u->last)
			u->last = p->buf[i].last;
	}
	up.n = n;
	up.buf = unit;
	rc = ab_replay_events(&up, ev);
	for (size_t k = 0; !rc && k < 2 * n; k++) {
		uint32_t u = ev[k].buffer;
		uint64_t size = ab_align_up(unit[u].size, align);

		if (group && group[u] != u)
			continue; /* a later tenant: no allocation of its own */
		if (ev[k].kind == AB_REPLAY_FREE) {
			for (size_t j = 0; j < n_live; j++)
				if (blocks[j].unit == u) {
					memmove(blocks + j, blocks + j + 1,
						(n_live - j - 1) * sizeof(*blocks));
					n_live--;
					break;
				}
			continue;
		}
		if (!size) {
			unit_off[u] = 0;
			continue;
		}
		uint64_t current = 0, waste = UINT64_MAX, best = 0;
		size_t at = n_live;

		if (n_live)
			best = blocks[n_live - 1].offset + blocks[n_live - 1].size;
		for (size_t j = 0; j < n_live; j++) {
			if (blocks[j].offset >= current) {
				uint64_t gap = blocks[j].offset - current;

				if (gap >= size && gap - size < waste) {
					at = j;
					waste = gap - size;
					best = current;
				}
			}
			current = blocks[j].offset + blocks[j].size;
		}
		if (best + size > top)
			top = best + size;
		memmove(blocks + at + 1, blocks + at,
			(n_live - at) * sizeof(*blocks));
		blocks[at] = (struct live){ best, size, u };
		n_live++;
		unit_off[u] = best;
	}
	if (rc)
		goto out;
	for (size_t i = 0; i < n; i++)
		offsets[i] = unit_off[group ? group[i] : i];
	*peak = top;
out:
	free(unit);
	free(ev);
	free(blocks);
	free(unit_off);
	return rc;
}
