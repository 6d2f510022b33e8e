/*
 * Paths through control flow (check/paths.h).  The flat graph lists a
 * calling operator, then per callee an AB_CALL_ENTER pseudo-operator, the
 * callee's operators and an AB_CALL_RETURN.  A path replays what the
 * kernels do at run time (TFLite Micro's kernels/if.cc, while.cc and
 * call_once.cc; TFLite's kernels of the same names; ONNX Runtime's If,
 * Loop and Scan):
 *   IF:    the operator reads its inputs; the chosen branch's inputs are
 *          written from them (ENTER), the branch runs, its outputs are
 *          read and the operator's outputs written (RETURN);
 *   WHILE: the operator's outputs are written from its inputs; the
 *          condition runs on the operator's inputs; then per iteration the
 *          body's inputs are written from the operator's outputs, the body
 *          runs, its outputs are copied into the operator's outputs and the
 *          condition runs again on them (a body without condition: ONNX
 *          Loop and Scan);
 *   ONCE, EACH: every callee once, in order, inputs from the operator's.
 * Complexity: O(paths x path length); a WHILE doubles its body per level
 * of nesting (two iterations), so nested loops grow as 2^depth.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/paths.h"

struct builder {
	const struct ab_graph *g;
	const int *choice;   /* per flat op: its choice (IF, WHILE) */
	struct ab_path *p;
	size_t cap;
	int rc;
};

static int *copy_ints(const int *v, int n)
{
	int *d = malloc(((size_t)n + 1) * sizeof(*d));

	if (d && n)
		memcpy(d, v, (size_t)n * sizeof(*d));
	return d;
}

/* Appends an operator that runs like flat op k with these lists. */
static void push(struct builder *b, int32_t k, const int *in, int n_in,
		 const int *out, int n_out, bool scratch)
{
	const struct ab_op *src = &b->g->ops[k];
	struct ab_op *d;

	if (b->rc)
		return;
	if (b->p->n == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 64;
		struct ab_op *ops = realloc(b->p->ops, cap * sizeof(*ops));
		int32_t *flat = ops ? realloc(b->p->flat, cap * sizeof(*flat)) : NULL;

		if (ops)
			b->p->ops = ops;
		if (!ops || !flat) {
			b->rc = -ENOMEM;
			return;
		}
		b->p->flat = flat;
		b->cap = cap;
	}
	d = &b->p->ops[b->p->n];
	memset(d, 0, sizeof(*d));
	d->name = src->name;
	d->type = src->type;
	d->flags = src->flags;
	d->n_inputs = n_in;
	d->n_outputs = n_out;
	d->n_scratch = scratch ? src->n_scratch : 0;
	d->inputs = copy_ints(in, n_in);
	d->outputs = copy_ints(out, n_out);
	d->scratch = copy_ints(src->scratch, d->n_scratch);
	b->p->flat[b->p->n++] = k;
	if (!d->inputs || !d->outputs || !d->scratch)
		b->rc = -ENOMEM;
}

/* The callees of call op k: ENTER and RETURN indices, at most 8. */
static int callees(const struct ab_graph *g, int32_t k, int32_t hi,
		   int32_t *enter, int32_t *ret)
{
	int n = 0;
	int32_t j = k + 1;

	while (j < hi && g->ops[j].call == AB_CALL_ENTER &&
	       g->ops[j].caller == k && n < 8) {
		int32_t r = j + 1;

		while (r < hi && !(g->ops[r].call == AB_CALL_RETURN &&
				   g->ops[r].caller == k))
			r++;
		if (r >= hi)
			return -EINVAL;
		enter[n] = j;
		ret[n++] = r;
		j = r + 1;
	}
	return n;
}

static void emit(struct builder *b, int32_t lo, int32_t hi);

/* ENTER (inputs from `from`), the callee, RETURN (outputs to `to`). */
static void run_callee(struct builder *b, int32_t enter, int32_t ret,
		       const int *from, int n_from, const int *to, int n_to)
{
	const struct ab_graph *g = b->g;
	const struct ab_op *e = &g->ops[enter];
	const struct ab_subgraph *sg = &g->subgraphs[e->subgraph];

	push(b, enter, from, n_from, e->outputs, e->n_outputs, false);
	emit(b, enter + 1, ret);
	push(b, ret, sg->outputs, sg->n_outputs, to, n_to, false);
}

static int32_t emit_call(struct builder *b, int32_t k, int32_t hi)
{
	const struct ab_op *op = &b->g->ops[k];
	int32_t enter[8], ret[8];
	int n = callees(b->g, k, hi, enter, ret);
	int c = b->choice[k];

	if (n < 0) {
		b->rc = -EINVAL;
		return hi;
	}
	push(b, k, op->inputs, op->n_inputs, NULL, 0, true);
	if (n == 0)
		return k + 1;
	switch (op->call) {
	case AB_CALL_IF:
		c = c < n ? c : n - 1;
		/* the first input chooses; the others are the branch's */
		run_callee(b, enter[c], ret[c], op->inputs + (op->n_inputs > 0),
			   op->n_inputs - (op->n_inputs > 0), op->outputs,
			   op->n_outputs);
		break;
	case AB_CALL_WHILE: {
		const bool cond = n >= 2;
		const int body = n - 1;

		/* TFLite Micro's WhileEval (tflite-micro 90b983c2b): the
		 * inputs are copied to the outputs before the condition runs */
		push(b, k, op->inputs, op->n_inputs, op->outputs, op->n_outputs,
		     false);
		if (cond)
			run_callee(b, enter[0], ret[0], op->inputs, op->n_inputs,
				   NULL, 0);
		for (int it = 0; it < c; it++) {
			run_callee(b, enter[body], ret[body], op->outputs,
				   op->n_outputs, op->outputs, op->n_outputs);
			if (cond)
				run_callee(b, enter[0], ret[0], op->outputs,
					   op->n_outputs, NULL, 0);
		}
		break;
	}
	default: /* ONCE, EACH */
		for (int i = 0; i < n; i++)
			run_callee(b, enter[i], ret[i], op->inputs, op->n_inputs,
				   op->outputs, op->n_outputs);
		break;
	}
	return ret[n - 1] + 1;
}

static void emit(struct builder *b, int32_t lo, int32_t hi)
{
	for (int32_t k = lo; k < hi && !b->rc;) {
		const struct ab_op *op = &b->g->ops[k];

		if (op->call == AB_CALL_NONE) {
			push(b, k, op->inputs, op->n_inputs, op->outputs,
			     op->n_outputs, true);
			k++;
		} else if (op->call == AB_CALL_ENTER || op->call == AB_CALL_RETURN) {
			b->rc = -EINVAL; /* not nested under its caller */
		} else {
			k = emit_call(b, k, hi);
		}
	}
}

static int radix(const struct ab_op *op)
{
	return op->call == AB_CALL_IF ? 2 : op->call == AB_CALL_WHILE ? 3 : 1;
}

void ab_paths_free(struct ab_path *paths, size_t n)
{
	for (size_t i = 0; paths && i < n; i++) {
		for (size_t k = 0; k < paths[i].n; k++) {
			free(paths[i].ops[k].inputs);
			free(paths[i].ops[k].outputs);
			free(paths[i].ops[k].scratch);
		}
		free(paths[i].ops);
		free(paths[i].flat);
		free(paths[i].about);
	}
	free(paths);
}

/* "op3 IF: branch 1, op7 WHILE: 2 iterations" for the choices made. */
static char *describe(const struct ab_graph *g, const int *choice)
{
	size_t cap = 256, len = 0;
	char *s = malloc(cap);

	if (!s)
		return NULL;
	s[0] = 0;
	for (size_t k = 0; k < g->n_ops; k++) {
		const struct ab_op *op = &g->ops[k];
		char part[160];
		int m;

		if (radix(op) < 2)
			continue;
		m = snprintf(part, sizeof(part), "%s%s %s: %s %d", len ? ", " : "",
			     op->name, op->type,
			     op->call == AB_CALL_IF ? "branch" : "iterations",
			     choice[k]);
		if (m < 0)
			continue;
		if (len + (size_t)m + 1 > cap) {
			char *t = realloc(s, cap = 2 * (len + (size_t)m + 1));

			if (!t) {
				free(s);
				return NULL;
			}
			s = t;
		}
		memcpy(s + len, part, (size_t)m + 1);
		len += (size_t)m;
	}
	return s;
}

int ab_control_paths(const struct ab_graph *g, struct ab_path **out,
		     size_t *n_out)
{
	int *choice = calloc(g->n_ops + 1, sizeof(*choice));
	size_t combos = 1, n = 0, points = 0;
	bool all = true;
	struct ab_path *paths;
	int rc = 0;

	*out = NULL;
	*n_out = 0;
	if (!choice)
		return -ENOMEM;
	for (size_t k = 0; k < g->n_ops; k++)
		if (radix(&g->ops[k]) > 1) {
			points++;
			if (combos > AB_MAX_PATHS)
				continue;
			combos *= (size_t)radix(&g->ops[k]);
		}
	if (combos > AB_MAX_PATHS) {
		all = false;
		combos = 3;
	}
	paths = calloc(combos, sizeof(*paths));
	if (!paths) {
		free(choice);
		return -ENOMEM;
	}
	for (size_t c = 0; c < combos && !rc; c++) {
		struct builder b = { .g = g, .choice = choice, .p = &paths[n] };
		size_t rest = c;

		/* mixed radix over the choice points, in flat order */
		for (size_t k = 0; k < g->n_ops; k++) {
			int r = radix(&g->ops[k]);

			if (r < 2)
				continue;
			if (all) {
				choice[k] = (int)(rest % (size_t)r);
				rest /= (size_t)r;
			} else {
				choice[k] = (int)c < r ? (int)c : r - 1;
			}
		}
		emit(&b, 0, (int32_t)g->n_ops);
		n++;
		rc = b.rc;
		if (!rc) {
			paths[n - 1].about = describe(g, choice);
			if (!paths[n - 1].about)
				rc = -ENOMEM;
		}
	}
	free(choice);
	(void)points;
	if (rc) {
		ab_paths_free(paths, n);
		return rc;
	}
	*out = paths;
	*n_out = n;
	return 0;
}
