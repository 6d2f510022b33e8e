/*
 * The paths a runtime can take through a graph with control flow
 * (docs/semantics.md, "Control flow"), for the execution check: each path
 * is a plain sequence of operators, the kernels' copies included, that
 * the check runs on the plan like a graph without control flow.
 * May include: core.
 */
#ifndef AB_PATHS_H
#define AB_PATHS_H

#include "core/arenabench.h"

/* Paths are enumerated while their number stays at most this. */
#define AB_MAX_PATHS 64

struct ab_path {
	size_t n;
	struct ab_op *ops;  /* names and types borrowed from the graph */
	int32_t *flat;      /* flat index of the graph operator each runs */
	char *about;        /* e.g. "op3 IF: branch 1; op7 WHILE: 2 iterations" */
};

/*
 * Every combination of the choices (an IF's branch; a WHILE's 0, 1 or 2
 * iterations) while there are at most AB_MAX_PATHS; beyond, every choice
 * point takes its first, second and third choice together (3 paths).
 * *out is malloc'd (free with ab_paths_free).  0 or -ENOMEM, -EINVAL on a
 * graph whose pseudo-operators do not nest.
 */
int ab_control_paths(const struct ab_graph *g, struct ab_path **out,
		     size_t *n_out);
void ab_paths_free(struct ab_path *paths, size_t n);

#endif
