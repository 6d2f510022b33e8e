/*
 * What planners work out from the problem alone (the order of every buffer
 * by first use or by size, the index's lifetime ranks and spacing), kept
 * in a memo (ab_plan_options.memo) for the next planner on the same
 * problem: best_of makes one for its members, so that each of these is
 * worked out once.  A memo is tied to one problem: with another problem
 * (a member planning a part of it) it is passed over.
 */
#ifndef AB_MEMO_H
#define AB_MEMO_H

#include "core/arenabench.h"

/* An empty memo for plans of p; NULL when out of memory.  Freed with
 * ab_plan_memo_free, after the plans. */
struct ab_plan_memo *ab_plan_memo_new(const struct ab_problem *p);
void ab_plan_memo_free(struct ab_plan_memo *m);

/* ab_order_first_use and ab_order_size_desc, copied from o->memo when it
 * is p's (made there by the first planner that asks); made here when o
 * has no memo of p's. */
int ab_order_first_use_memo(const struct ab_problem *p,
			    const struct ab_plan_options *o, uint32_t *order);
int ab_order_size_desc_memo(const struct ab_problem *p,
			    const struct ab_plan_options *o, uint32_t *order);

#endif
