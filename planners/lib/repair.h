/*
 * Repairs of a valid plan whose peak is above a proven bound (repair.c),
 * exact's steps 7 and 8: hole closing (at the busiest step of a buffer
 * reaching the peak, the buffers above a hole move down by its size, the
 * ones they now overlap go back at their lowest offsets), band repair
 * (the K highest-ending buffers put back one by one at their lowest
 * offsets, in five orders) and window repair (large-neighbourhood search:
 * a time window around a buffer reaching the peak, its K highest-ending
 * buffers freed, the others pinned, the decision search of fit_search.h
 * asked whether the free ones fit below peak - granule).  One keep-move
 * loop runs each kind in rounds; a move is kept only if the peak does not
 * rise, so the plan stays valid and never gets worse.
 *
 * Contract: out holds a valid single-arena plan of p on entry and on
 * return (its offsets, then ab_plan_finish_single); 0 or -ENOMEM.
 * Deterministic for o->seed (the windows' places); nothing prints (the
 * progress goes to run->line).
 * Complexity: a window repair costs its set-up, O(w log w + overlaps) for
 * w buffers live in the window, plus its nodes; a band move O(K w log w),
 * w = buffers live during a freed buffer's lifetime; a hole try O(h w log
 * w) for the h buffers it moves and frees.  Nodes: one per window, one
 * per buffer put back, plus the window's search nodes, plus w / 256 for
 * every step that scans, sorts or copies w buffers (so a node is about
 * the same work at any n); the count stops at run->budget.
 * Source: large-neighbourhood search (Shaw, CP 1998) with the decision
 * search as the repair step; hole closing and band repair are
 * arenabench's.
 * Weak spots: a window's fixed buffers often leave its free ones no room
 * below the peak (known-optimum tilings); hole closing and band repair
 * are greedy (lowest offset, one order at a time), so a hole that closes
 * only by moving a chain of short buffers up stays (docs/planners.md).
 */
#ifndef AB_REPAIR_H
#define AB_REPAIR_H

#include "core/arenabench.h"
#include "lib/progress_line.h"

struct ab_repair_run {
	uint64_t granule;   /* every canonical peak is a multiple */
	uint64_t bound;     /* proven: the repairs stop there */
	uint64_t budget;    /* nodes */
	double deadline;    /* wall-clock safety stop, 0 = none */
	uint64_t nodes_before; /* spent before (progress lines count from
				* the plan's start) */
	struct ab_progress_line *line; /* not NULL */
	/* out */
	uint64_t nodes;     /* spent here */
	bool timed_out;
};

/* Improves out by hole closing, band repair, then window repair, until
 * its peak reaches run->bound or the nodes run out. */
int ab_repair_plan(const struct ab_problem *p,
		   const struct ab_plan_options *o, struct ab_plan *out,
		   struct ab_repair_run *run);

#endif
