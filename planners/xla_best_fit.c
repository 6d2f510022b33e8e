/*
 * xla_best_fit: XLA's GlobalDecreasingSizeBestFitHeap, reproduced, with
 * XLA buffer assignment's choice between its two orders.
 *
 * Algorithm (xla/service/heap_simulator.cc, buffer_assignment.cc):
 *  1. Order.  Spatial (the class default, kSpatial): size descending, then
 *     live-range length (last - first) descending, then buffer id (index)
 *     ascending.  Temporal (kTemporal): length descending, then size
 *     descending, then id.
 *  2. Each buffer (FindChunkCandidate): the placed chunks that overlap it
 *     in time (closed intervals), by offset; `off` runs over them as the
 *     max of their ends rounded up to the alignment, and every
 *     [off, next chunk offset) with off < that offset is a free chunk; so
 *     is the top one, [off, heap size), where heap size is the arena's
 *     current size over *all* placed buffers.  The smallest free chunk that
 *     holds the buffer wins (strict <, so ties go to the lowest offset);
 *     with none, the buffer goes at `off` and the heap grows.  Zero-size
 *     buffers get offset 0 and are not recorded (XLA's Alloc does this).
 *  3. BufferAssigner runs both orders under ChooseBestHeapAlgorithm and
 *     keeps the smaller heap; ties keep the first (spatial).  This planner
 *     does the same, the temporal order first: through the index the
 *     spatial pass stops once its heap exceeds the temporal peak (a heap
 *     only grows, so spatial has lost; 39 % of the way on the 10^6 sweep).
 *     Under a caller's cutoff (ab_plan_options.cutoff: best_of) either
 *     pass may stop there; the planner stops only when both have.
 * Ties: as above; every key ends in the buffer index, so the order is
 * total and the result deterministic.
 * Complexity: two passes of O(n log n) sort + interval-index scans; from
 * 256 buffers, when ab_first_fit_spacing chooses it, the same rule through
 * the checkpoint index (first_fit_index.h, AB_INDEX_XLA: every gap of the
 * conflicts' union walked without listing them; identical offsets).
 * Source: XLA (TensorFlow) heap simulator, the FindChunkCandidate rule of
 * the unsliced heap (2020-2022 sources); colocations and preferred offsets
 * do not exist in an arenabench problem and are not modelled.
 * Weak spots: the top chunk lets a buffer use head-room below the current
 * heap size even where it then blocks later, larger buffers; both orders
 * are greedy and blind to how long a hole stays free.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/first_fit_index.h"
#include "lib/placement.h"

static uint64_t xla_fit(const struct ab_hit *hits, size_t k, uint64_t size,
			uint64_t align, uint64_t heap)
{
	uint64_t off = 0, best = UINT64_MAX, best_size = UINT64_MAX;

	for (size_t j = 0; j < k; j++) {
		if (off < hits[j].offset) {
			uint64_t room = hits[j].offset - off;

			if (room >= size && room < best_size) {
				best_size = room;
				best = off;
			}
		}
		if (ab_align_up(hits[j].end, align) > off)
			off = ab_align_up(hits[j].end, align);
	}
	if (heap > off && heap - off >= size && heap - off < best_size)
		best = off;
	return best != UINT64_MAX ? best : off;
}

/* One order's plan; through the index, it may stop once its heap exceeds
 * stop_above (0 = never), with *peak above it and the offsets partial. */
static int plan_order(const struct ab_problem *p,
		      const struct ab_plan_options *o, bool temporal,
		      uint64_t stop_above, uint32_t *order, uint64_t *k1,
		      uint64_t *k2, uint64_t *offsets, uint64_t *peak)
{
	for (size_t i = 0; i < p->n; i++) {
		uint64_t neg_size = ~p->buf[i].size;
		uint64_t neg_len = ~(uint64_t)(p->buf[i].last - p->buf[i].first);

		k1[i] = temporal ? neg_len : neg_size;
		k2[i] = temporal ? neg_size : neg_len;
	}
	const uint64_t *keys[] = { k1, k2 };
	int rc = ab_order_by_keys(p, order, keys, 2);

	/* the same rule through the checkpoint index when that pays */
	if (!rc)
		rc = ab_best_fit_route_until(p, o, order, p->n, stop_above,
					     offsets, peak);
	if (rc == 1)
		rc = ab_place_nonempty_in_order(p, o, order, p->n, xla_fit, offsets,
					   peak);
	return rc;
}

static int plan_xla_best_fit(const struct ab_problem *p,
			     const struct ab_plan_options *o,
			     struct ab_plan *out)
{
	size_t n = p->n;
	uint32_t *order = malloc((n + 1) * sizeof(*order));
	uint64_t *k1 = malloc((n + 1) * sizeof(*k1));
	uint64_t *k2 = malloc((n + 1) * sizeof(*k2));
	uint64_t *spatial = malloc((n + 1) * sizeof(*spatial));
	uint64_t spatial_peak, temporal_peak;
	int rc = -ENOMEM;

	if (!order || !k1 || !k2 || !spatial)
		goto out;
	/* the temporal order first: the spatial one loses once its heap
	 * exceeds the temporal peak (a heap only grows, and a tie keeps
	 * spatial), so it may stop there; the choice is XLA's either way */
	rc = plan_order(p, o, true, 0, order, k1, k2, out->offset,
			&temporal_peak);
	if (rc == AB_ABOVE_CUTOFF) { /* the spatial order may still be below */
		temporal_peak = UINT64_MAX;
		rc = 0;
	}
	if (!rc)
		rc = plan_order(p, o, false,
				temporal_peak == UINT64_MAX ? 0 : temporal_peak,
				order, k1, k2, spatial, &spatial_peak);
	if (rc == AB_ABOVE_CUTOFF && temporal_peak != UINT64_MAX) {
		/* at the cutoff, so above the temporal peak: temporal's */
		spatial_peak = UINT64_MAX;
		rc = 0;
	}
	if (rc)
		goto out;
	if (spatial_peak <= temporal_peak)
		memcpy(out->offset, spatial, n * sizeof(*spatial));
	ab_plan_finish_single(out, p);
out:
	free(order);
	free(k1);
	free(k2);
	free(spatial);
	return rc;
}

const struct ab_planner ab_planner_xla_best_fit = {
	.name = "xla_best_fit",
	.about = "XLA GlobalDecreasingSizeBestFitHeap: best of spatial and temporal orders",
	.cost = AB_COST_FAST,
	.plan = plan_xla_best_fit,
};
