/*
 * Developer tool: could best_of cut a member earlier than "its heap has
 * reached the cutoff"?  A buffer j not placed yet will be placed at or
 * above the lowest offset where it fits among the buffers placed so far
 * that overlap it (every later position is free of those too), so
 * max over unplaced j of (that offset + size) bounds the member's final
 * heap from below.  This runs PLANNER whole, replays its plan in ORDER
 * (temporal: XLA's kTemporal keys, length then size descending; size:
 * size then length descending; ties by index), and at every 5 % of the
 * order prints the heap so far and that bound over a sample of about
 * 20,000 unplaced buffers, each found by listing its placed conflicts
 * (alignment 1).  "cut" marks a fraction where either reaches CUTOFF.
 * ORDER must be the one whose plan PLANNER keeps: xla_best_fit keeps the
 * smaller heap of its two orders (on the sweep, temporal at 10^6 and size
 * at 10^5), the size-ordered best fits use size.
 *   cc -Iharness -Iplanners -Ibuild -O2 -o build/cut_probe scripts/dev/cut_probe.c \
 *      build/libarenabench.a -lstdc++ -lbenchmark -lpthread -lm
 *   build/cut_probe PROBLEM PLANNER temporal|size CUTOFF
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arenabench.h"
#include "import/input.h"

#define SAMPLES 20000

struct range {
	uint64_t lo, hi;
};

static const struct ab_problem *prob;
static bool temporal;

static int by_order(const void *x, const void *y)
{
	uint32_t i = *(const uint32_t *)x, j = *(const uint32_t *)y;
	const struct ab_buffer *a = &prob->buf[i], *b = &prob->buf[j];
	int32_t la = a->last - a->first, lb = b->last - b->first;

	if (temporal && la != lb)
		return la > lb ? -1 : 1;
	if (a->size != b->size)
		return a->size > b->size ? -1 : 1;
	if (la != lb)
		return la > lb ? -1 : 1;
	return i < j ? -1 : i > j;
}

static int by_first(const void *x, const void *y)
{
	int32_t a = prob->buf[*(const uint32_t *)x].first;
	int32_t b = prob->buf[*(const uint32_t *)y].first;

	return a < b ? -1 : a > b;
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
		fprintf(stderr, "usage: cut_probe PROBLEM PLANNER temporal|size CUTOFF (%s)\n",
			argc != 5 ? "" : err.msg);
		return 2;
	}
	prob = &in.problem;
	n = prob->n;
	temporal = !strcmp(argv[3], "temporal");
	cutoff = strtoull(argv[4], NULL, 10);
	for (size_t k = 0; k < ab_planner_count(); k++)
		if (!strcmp(ab_planner_at(k)->name, argv[2]))
			planner = ab_planner_at(k);
	order = malloc(n * sizeof(*order));
	pos = malloc(n * sizeof(*pos));
	by_start = malloc(n * sizeof(*by_start));
	hits = malloc(n * sizeof(*hits));
	if (!planner || !order || !pos || !by_start || !hits || ab_plan_alloc(&pl, n) ||
	    planner->plan(prob, &o, &pl)) {
		fprintf(stderr, "cut_probe: %s: no such planner, or it failed\n", argv[2]);
		return 1;
	}
	printf("%s: final peak %llu, cutoff %llu\n", argv[2], (unsigned long long)pl.peak,
	       (unsigned long long)cutoff);
	for (uint32_t i = 0; i < n; i++) {
		order[i] = by_start[i] = i;
		if (prob->buf[i].last - prob->buf[i].first > longest)
			longest = prob->buf[i].last - prob->buf[i].first;
	}
	qsort(order, n, sizeof(*order), by_order);
	qsort(by_start, n, sizeof(*by_start), by_first);
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
