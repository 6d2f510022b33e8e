/*
 * Operator reordering: a transform on the graph, before planning.  It picks
 * another topological order of the operators that lowers the lower bound
 * (the most bytes live at one step, under the same lifetime rule and
 * rounding as planning), then the caller plans the reordered graph.
 * Algorithms, sources and the soundness argument: docs/reorder.md.
 *
 * Every order this module produces keeps:
 *   - every data dependence (an op runs after the producers of its inputs);
 *   - the relative order of the AB_OP_SIDE_EFFECT operators;
 *   - every op that reads a `var` on the same side of each side-effect op
 *     that also lists that var (the var's writers): no read moves across
 *     a write of the state it reads;
 *   - the phases: an op stays in its phase, so each phase is still one
 *     contiguous block and the `phase` markers stay at the same steps.
 */
#ifndef AB_REORDER_H
#define AB_REORDER_H

#include "core/arenabench.h"

enum ab_reorder_method {
	AB_REORDER_NONE,   /* keep the order of the file */
	AB_REORDER_GREEDY, /* memory-aware list scheduling, two priority rules */
	AB_REORDER_BEAM,   /* the greedy, then a beam search over downsets */
	AB_REORDER_INDUCTOR, /* PyTorch inductor's reorder_for_peak_memory:
			      * best of the file's order, LPMF, BFS, DFS */
	AB_REORDER_COUNT
};

const char *ab_reorder_method_name(enum ab_reorder_method m);
int ab_reorder_method_from_name(const char *s); /* -1 if unknown */

#define AB_REORDER_BEAM_WIDTH_DEFAULT 64
#define AB_REORDER_BEAM_WIDTH_MAX 65536

struct ab_reorder_options {
	enum ab_reorder_method method;
	int beam_width; /* states kept per step; 0 = the default */
};

struct ab_reorder_report {
	uint64_t lower_bound_before; /* of the file's order */
	uint64_t lower_bound_after;  /* of the returned order (<= before) */
	bool kept_original;          /* nothing better found: the file's order */
	/* The beam never cut a step (every downset was kept), so no order that
	 * keeps the constraints above has a lower bound below
	 * lower_bound_after.  Also set when the order reaches a bound that no
	 * order can beat (an op's own inputs, outputs and scratch). */
	bool optimal;
	uint64_t states;             /* search effort: candidate steps scored */
};

/*
 * out = a deep copy of g with its operators permuted (tensors keep their
 * indices).  The lower bounds are those of ab_problem_from_graph under
 * *popt.  If the search finds nothing strictly better, the original order
 * is kept (rep->kept_original), so the lower bound is never above the
 * original.  Deterministic: ties go to the lower original op index.
 */
int ab_graph_reorder(const struct ab_graph *g,
		     const struct ab_problem_options *popt,
		     const struct ab_reorder_options *o, struct ab_graph *out,
		     struct ab_reorder_report *rep, struct ab_error *err);

/* out = a deep copy of g whose k-th op is g's op order[k].  Phase markers
 * stay at their steps (op k of out starts a phase iff op k of g did).  No
 * check of the order: see ab_reorder_check_order. */
int ab_graph_permute_ops(const struct ab_graph *g, const int32_t *order,
			 struct ab_graph *out, struct ab_error *err);

/* 0 if order (g->n_ops entries) is a permutation that keeps every
 * constraint listed at the top of this file; else -EINVAL with a message
 * naming the two operators. */
int ab_reorder_check_order(const struct ab_graph *g, const int32_t *order,
			   struct ab_error *err);

/* The peak of live bytes that the reordering's incremental model computes
 * for running g's ops in `order` (NULL = the file's order).  Equal to
 * ab_lower_bound(ab_problem_from_graph(permuted graph, popt)); exported so
 * the tests can check that claim on random orders. */
int ab_reorder_model_peak(const struct ab_graph *g,
			  const struct ab_problem_options *popt,
			  const int32_t *order, uint64_t *peak,
			  struct ab_error *err);

#endif
