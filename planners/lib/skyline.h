/*
 * Skyline search (skyline.c): does every buffer fit below a capacity C,
 * each placed on the top of the buffers below it with its lifetime fixed?
 * A depth-first search with restarts, for problems whose optimum wastes
 * no byte (the known-optimum tilings of graphs/gen/tiling.c), where first
 * and best fit over size or lifetime orders stay well above it
 * (docs/planners.md).
 */
#ifndef AB_SKYLINE_H
#define AB_SKYLINE_H

#include <stdbool.h>

#include "core/arenabench.h"

struct ab_skyline_run {
	uint64_t budget;  /* nodes (one per buffer placed or run raised) */
	uint64_t seed;    /* the restarts' random orders */
	double deadline;  /* wall-clock safety stop, 0 = none */
	/* out */
	uint64_t nodes;   /* spent, added to what was there */
	bool timed_out;
};

/*
 * Searches for a plan of p with peak <= cap within run->budget nodes.
 * Returns 1 and writes the plan to off[] (problem order) if one is found,
 * 0 if not (off[] untouched; nothing is proved), or -ENOMEM.
 * Deterministic for a given run->seed.
 */
int ab_skyline_fit(const struct ab_problem *p,
		   const struct ab_plan_options *o, uint64_t cap,
		   uint64_t *off, struct ab_skyline_run *run);

#endif
