/*
 * Developer tool: could best_of cut a member earlier than "its heap has
 * reached the cutoff"?  A buffer j not placed yet will be placed at or
 * above the lowest offset where it fits among the buffers placed so far
 * that overlap it (every later position is free of those too), so
 * max over unplaced j of (that offset + size) bounds the member's final
 * heap from below.  This runs PLANNER whole, replays its plan in ORDER,
 * and at every 5 % of the order prints the heap so far and that bound
 * over a sample of about 20,000 unplaced buffers, each found by listing
 * its placed conflicts (alignment 1).  "cut" marks a fraction where
 * either reaches CUTOFF.  ORDER is the planner's own, made by the same
 * order function: temporal and spatial are XLA's two (keys as in
 * planners/xla_best_fit.c), size is size descending with ties by index
 * (greedy_by_size_gpu's).  It must be the order whose plan PLANNER keeps:
 * xla_best_fit keeps the smaller heap of its two (on the sweep, temporal
 * at 10^6 and spatial at 10^5).
 *   cc -Iharness -Iplanners -Ibuild -O2 -o build/cut_probe scripts/dev/cut_probe.c \
 *      build/libarenabench.a -lstdc++ -lbenchmark -lpthread -lm
 *   build/cut_probe PROBLEM PLANNER temporal|spatial|size CUTOFF
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arenabench.h"
#include "import/input.h"
#include "lib/placement.h"

#define SAMPLES 20000

struct range {
	uint64_t lo, hi;
};

static const struct ab_problem *prob;

/* order[] = the buffers in ORDER's keys, ascending, ties by index. */
static int make_order(const char *name, uint32_t *order)
{
	size_t n = prob->n;
	uint64_t *neg_size = malloc((n + 1) * sizeof(*neg_size));
	uint64_t *neg_len = malloc((n + 1) * sizeof(*neg_len));
	int rc = -ENOMEM;

	if (neg_size && neg_len) {
		for (size_t i = 0; i < n; i++) {
			neg_size[i] = ~prob->buf[i].size;
			neg_len[i] = ~(uint64_t)(prob->buf[i].last - prob->buf[i].first);
		}
		const uint64_t *temporal[] = { neg_len, neg_size }, *spatial[] = { neg_size, neg_len };

		if (!strcmp(name, "temporal"))
			rc = ab_order_by_keys(prob, order, temporal, 2);
		else if (!strcmp(name, "spatial"))
			rc = ab_order_by_keys(prob, order, spatial, 2);
		else if (!strcmp(name, "size"))
			rc = ab_order_by_keys(prob, order, spatial, 1);
		else
			rc = -EINVAL;
	}
	free(neg_size);
	free(neg_len);
	return rc;
}

static int by_lo(const void *x, const void *y)
{
	const struct range *a = x, *b = y;

	return a->lo < b->lo ? -1 : a->lo > b->lo;
}

/* Lowest offset where buffer j fits among the first `placed` buffers of
 * the order that overlap it (pos[] = place in the order). */
static uint64_t lowest_fit(const struct ab_plan *pl, const uint32_t *by_start,
			   const uint32_t *pos, int32_t longest, size_t placed,
			   uint32_t j, struct range *hits)
{
	const struct ab_buffer *bj = &prob->buf[j];
	size_t lo = 0, hi = prob->n, k = 0;
	uint64_t x = 0;

	while (lo < hi) { /* first buffer that may reach bj->first */
		size_t mid = lo + (hi - lo) / 2;

		if (prob->buf[by_start[mid]].first < bj->first - longest)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t q = lo; q < prob->n && prob->buf[by_start[q]].first <= bj->last; q++) {
		uint32_t i = by_start[q];

		if (pos[i] < placed && prob->buf[i].last >= bj->first && prob->buf[i].size)
			hits[k++] = (struct range){ pl->offset[i], pl->offset[i] + prob->buf[i].size };
	}
	qsort(hits, k, sizeof(*hits), by_lo);
	for (size_t q = 0; q < k && hits[q].lo < x + bj->size; q++)
		if (hits[q].hi > x)
			x = hits[q].hi;
	return x;
}

int main(int argc, char **argv)
{
	struct ab_load_options lo;
	struct ab_input in;
	struct ab_error err;
	struct ab_plan pl;
	struct ab_plan_options o = { .align = 1 };
	const struct ab_planner *planner = NULL;
	uint32_t *order, *pos, *by_start;
	struct range *hits;
	int32_t longest = 0;
	uint64_t cutoff;
	size_t n;

	memset(&lo, 0, sizeof(lo));
	if (argc != 5 || ab_input_load(argv[1], &lo, &in, &err)) {
		fprintf(stderr, "usage: cut_probe PROBLEM PLANNER temporal|spatial|size CUTOFF (%s)\n",
			argc != 5 ? "" : err.msg);
		return 2;
	}
	prob = &in.problem;
	n = prob->n;
	cutoff = strtoull(argv[4], NULL, 10);
	planner = ab_planner_find(argv[2]);
	order = malloc((n + 1) * sizeof(*order));
	pos = malloc(n * sizeof(*pos));
	by_start = malloc((n + 1) * sizeof(*by_start));
	hits = malloc(n * sizeof(*hits));
	if (!order || !pos || !by_start || !hits || ab_plan_alloc(&pl, n))
		return 1;
	if (make_order(argv[3], order) || ab_order_first_use(prob, by_start)) {
		fprintf(stderr, "cut_probe: %s: not an order (temporal, spatial or size)\n", argv[3]);
		return 2;
	}
	if (!planner || planner->plan(prob, &o, &pl)) {
		fprintf(stderr, "cut_probe: %s: no such planner, or it failed\n", argv[2]);
		return 1;
	}
	printf("%s: final peak %llu, cutoff %llu\n", argv[2], (unsigned long long)pl.peak,
	       (unsigned long long)cutoff);
	for (uint32_t i = 0; i < n; i++)
		if (prob->buf[i].last - prob->buf[i].first > longest)
			longest = prob->buf[i].last - prob->buf[i].first;
	for (uint32_t k = 0; k < n; k++)
		pos[order[k]] = k;
	for (int twentieth = 1; twentieth < 20; twentieth++) {
		size_t placed = n * (size_t)twentieth / 20, step = (n - placed) / SAMPLES + 1;
		uint64_t heap = 0, bound = 0;

		for (size_t k = 0; k < placed; k++) {
			uint64_t end = pl.offset[order[k]] + prob->buf[order[k]].size;

			if (end > heap)
				heap = end;
		}
		for (size_t k = placed; k < n; k += step) {
			uint32_t j = order[k];
			uint64_t end;

			if (!prob->buf[j].size)
				continue;
			end = lowest_fit(&pl, by_start, pos, longest, placed, j, hits) + prob->buf[j].size;
			if (end > bound)
				bound = end;
		}
		printf("%3d %%  heap %12llu  bound %12llu%s\n", twentieth * 5,
		       (unsigned long long)heap, (unsigned long long)bound,
		       heap >= cutoff || bound >= cutoff ? "  cut" : "");
	}
	ab_plan_free(&pl);
	ab_input_free(&in);
	return 0;
}
