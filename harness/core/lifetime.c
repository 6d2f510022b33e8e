/*
 * The lifetime stage: a graph becomes a problem of buffers with live
 * ranges.  This is the one place where the lifetime rule lives.
 *
 * Step k is the k-th operator.  Under the default rule a tensor produced at
 * step p and last read at step c is live on [p, c] inclusive; graph inputs
 * are live from step 0, graph outputs through the last step, a tensor never
 * read is live on [p, p], scratch owned by op k on [k, k], vars for the
 * whole run.  Consts are not planned (weights_bytes).
 *   tflite: as default, but graph inputs stay live to the end of the run.
 *   tflm:   step 0 is before the first operator, op k runs at step k + 1;
 *           variables live outside the arena (not planned).
 * Under inplace, an elementwise op's output may take over an input's
 * buffer, which then lives on the union of both ranges (inplace_input).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/arenabench.h"

static const char *const rule_names[AB_LIFETIMES_COUNT] = {
	[AB_LIFETIMES_DEFAULT] = "default",
	[AB_LIFETIMES_TFLITE] = "tflite",
	[AB_LIFETIMES_TFLM] = "tflm",
};

const char *ab_lifetime_rule_name(enum ab_lifetime_rule r)
{
	return (unsigned)r < AB_LIFETIMES_COUNT ? rule_names[r] : "?";
}

int32_t ab_lifetime_step_of_op(enum ab_lifetime_rule r, int32_t op)
{
	return r == AB_LIFETIMES_TFLM ? op + 1 : op;
}

int32_t ab_lifetime_op_at_step(enum ab_lifetime_rule r, int32_t step)
{
	return r == AB_LIFETIMES_TFLM ? step - 1 : step;
}

int ab_lifetime_rule_from_name(const char *s)
{
	for (int i = 0; i < AB_LIFETIMES_COUNT; i++)
		if (strcmp(s, rule_names[i]) == 0)
			return i;
	return -1;
}

/* True when tensor t is an intermediate that gets a buffer. */
static bool planned_intermediate(const struct ab_graph *g, const int32_t *first,
				 int t)
{
	return t >= 0 && g->tensors[t].kind == AB_KIND_INTERMEDIATE &&
	       first[t] >= 0;
}

/*
 * In-place reuse: op k (at `step`) may write its first output into one of
 * its inputs' storage.  The input qualifies when it is an intermediate (not
 * a graph input, output, var or const), this op is its last reader and it
 * has the output's rounded size; the output must be an intermediate too
 * (not a graph output).  The first qualifying input in input order wins.
 * Returns that input's tensor index, or -1.
 */
static int inplace_input(const struct ab_graph *g, const struct ab_op *op,
			 int32_t step, const int32_t *first,
			 const int32_t *last, const uint64_t *size)
{
	int o;

	if (!(op->flags & AB_OP_ELEMENTWISE) || op->n_outputs < 1)
		return -1;
	o = op->outputs[0];
	if (!planned_intermediate(g, first, o))
		return -1;
	for (int j = 0; j < op->n_inputs; j++) {
		int x = op->inputs[j];

		if (x != o && planned_intermediate(g, first, x) &&
		    last[x] == step && size[x] == size[o])
			return x;
	}
	return -1;
}

/* The first tensor of t's buffer (union-find with path halving; a graph
 * that checks gives plain chains, a malformed one cannot loop). */
static int32_t root_of(int32_t *root, int32_t t)
{
	while (root[t] != t) {
		root[t] = root[root[t]];
		t = root[t];
	}
	return t;
}

int ab_problem_from_graph(const struct ab_graph *g,
			  const struct ab_problem_options *opt,
			  struct ab_problem *out, struct ab_error *err)
{
	const bool tflm = opt->lifetimes == AB_LIFETIMES_TFLM;
	/* step of op k is k + shift */
	const int32_t shift = ab_lifetime_step_of_op(opt->lifetimes, 0);
	const int32_t last_step = (int32_t)g->n_ops - 1 + shift;
	int32_t *first = NULL, *last = NULL, *root = NULL;
	uint64_t *size = NULL;
	size_t n = 0, phases = 0;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (g->n_ops == 0 || g->n_ops > INT32_MAX / 2)
		return ab_fail(err, -EINVAL, "graph '%s': expected 1 to %d operators, got %zu",
			       g->name, INT32_MAX / 2, g->n_ops);
	if (g->n_tensors > INT32_MAX)
		return ab_fail(err, -EINVAL, "graph '%s': expected at most %d tensors, got %zu",
			       g->name, INT32_MAX, g->n_tensors);
	first = malloc((g->n_tensors + 1) * sizeof(*first));
	last = malloc((g->n_tensors + 1) * sizeof(*last));
	root = malloc((g->n_tensors + 1) * sizeof(*root));
	size = malloc((g->n_tensors + 1) * sizeof(*size));
	if (!first || !last || !root || !size) {
		rc = ab_fail(err, -ENOMEM, "graph '%s': out of memory", g->name);
		goto out;
	}
	for (size_t t = 0; t < g->n_tensors; t++)
		first[t] = last[t] = -1;
	for (size_t k = 0; k < g->n_ops; k++) {
		const struct ab_op *op = &g->ops[k];
		int32_t step = (int32_t)k + shift;

		for (int i = 0; i < op->n_outputs; i++)
			first[op->outputs[i]] = step;
		for (int i = 0; i < op->n_scratch; i++)
			first[op->scratch[i]] = last[op->scratch[i]] = step;
		for (int i = 0; i < op->n_inputs; i++)
			if (op->inputs[i] >= 0)
				last[op->inputs[i]] = step;
		phases += op->phase_start;
	}
	for (size_t t = 0; t < g->n_tensors; t++) {
		const struct ab_tensor *tt = &g->tensors[t];

		root[t] = (int32_t)t;
		size[t] = tt->bytes;
		switch (tt->kind) {
		case AB_KIND_CONST:
			out->weights_bytes += tt->bytes;
			first[t] = -1;
			continue;
		case AB_KIND_VAR:
			if (tflm) {
				first[t] = -1;
				continue;
			}
			first[t] = 0;
			last[t] = last_step;
			break;
		case AB_KIND_INPUT:
			first[t] = 0;
			if (last[t] < 0 || opt->lifetimes == AB_LIFETIMES_TFLITE)
				last[t] = opt->lifetimes == AB_LIFETIMES_TFLITE ? last_step : 0;
			break;
		case AB_KIND_OUTPUT:
			last[t] = last_step;
			break;
		case AB_KIND_INTERMEDIATE:
			if (last[t] < first[t])
				last[t] = first[t]; /* never read: [p, p] */
			break;
		case AB_KIND_SCRATCH:
			if (opt->exclude_scratch)
				first[t] = -1; /* --no-scratch: not planned */
			break;
		default:
			break;
		}
		if (tt->dtype == AB_DTYPE_STRING || tt->bytes == 0)
			first[t] = -1; /* nothing to place */
		if (first[t] >= 0 && opt->round_to > 1) {
			if (size[t] > UINT64_MAX - opt->round_to) {
				rc = ab_fail(err, -EOVERFLOW, "graph '%s': tensor '%s': size overflows when rounded",
					     g->name, tt->name);
				goto out;
			}
			size[t] = ab_align_up(size[t], opt->round_to);
		}
	}
	/* In place, in schedule order so that chains collapse: the input is
	 * always the newest tensor of its chain (an older one was last read
	 * where the chain grew), and the buffer lives on the union of the
	 * members' ranges, which is one interval. */
	for (size_t k = 0; opt->inplace && k < g->n_ops; k++) {
		const struct ab_op *op = &g->ops[k];
		int x = inplace_input(g, op, (int32_t)k + shift, first, last, size);
		int32_t ro, rx;

		if (x < 0)
			continue;
		ro = root_of(root, op->outputs[0]);
		rx = root_of(root, x);
		if (ro != rx) {
			root[ro] = rx;
			out->n_aliased++;
		}
	}
	for (size_t t = 0; t < g->n_tensors; t++)
		if (first[t] >= 0 && root_of(root, (int32_t)t) == (int32_t)t)
			n++;
	rc = ab_problem_alloc(out, n);
	if (!rc) {
		out->tensor_buffer = malloc((g->n_tensors + 1) *
					    sizeof(*out->tensor_buffer));
		if (!out->tensor_buffer)
			rc = -ENOMEM;
	}
	if (rc) {
		rc = ab_fail(err, rc, "graph '%s': out of memory", g->name);
		goto out;
	}
	out->n_tensors = g->n_tensors;
	n = 0;
	for (size_t t = 0; t < g->n_tensors; t++) {
		const struct ab_tensor *tt = &g->tensors[t];

		out->tensor_buffer[t] = -1;
		if (first[t] < 0 || root_of(root, (int32_t)t) != (int32_t)t)
			continue;
		out->buf[n].size = size[t];
		out->buf[n].align = tt->align ? tt->align : 1;
		out->buf[n].first = first[t];
		out->buf[n].last = last[t];
		out->id[n] = (int64_t)t;
		out->tensor[n] = (int32_t)t;
		out->tensor_buffer[t] = (int32_t)n;
		n++;
	}
	/* Aliased tensors join their root's buffer (roots are numbered). */
	for (size_t t = 0; t < g->n_tensors; t++) {
		struct ab_buffer *b;
		uint32_t align = g->tensors[t].align ? g->tensors[t].align : 1;

		if (first[t] < 0 || root_of(root, (int32_t)t) == (int32_t)t)
			continue;
		out->tensor_buffer[t] = out->tensor_buffer[root_of(root, (int32_t)t)];
		b = &out->buf[out->tensor_buffer[t]];
		if (first[t] < b->first)
			b->first = first[t];
		if (last[t] > b->last)
			b->last = last[t];
		if (align > b->align)
			b->align = align;
	}
	out->steps = last_step + 1;
	out->lifetimes = opt->lifetimes;
	out->name = strdup(g->name ? g->name : "graph");
	if (phases) {
		out->phase_starts = malloc(phases * sizeof(*out->phase_starts));
		if (!out->phase_starts) {
			rc = -ENOMEM;
			goto out;
		}
		for (size_t k = 0; k < g->n_ops; k++)
			if (g->ops[k].phase_start && k > 0)
				out->phase_starts[out->n_phase_starts++] =
					(int32_t)k + shift;
	}
	if (!out->name)
		rc = -ENOMEM;
out:
	free(first);
	free(last);
	free(root);
	free(size);
	if (rc)
		ab_problem_free(out);
	return rc;
}

/* ---------------------------------------------------------------- accesses (for tiers ranked by accesses) */

static void add_sat(uint32_t *x, uint32_t d)
{
	*x = *x > UINT32_MAX - d ? UINT32_MAX : *x + d;
}

int ab_buffer_accesses(const struct ab_graph *g, const struct ab_problem *p,
		       uint32_t **out, struct ab_error *err)
{
	uint32_t *per_tensor, *acc;
	bool *written;

	*out = NULL;
	for (size_t i = 0; i < p->n; i++)
		if (!p->tensor || p->tensor[i] < 0 ||
		    (size_t)p->tensor[i] >= g->n_tensors)
			return ab_fail(err, -EINVAL,
				       "problem '%s': buffer %zu has no tensor of graph '%s'; accesses need a graph-derived problem",
				       p->name ? p->name : "?", i, g->name ? g->name : "?");
	per_tensor = calloc(g->n_tensors + 1, sizeof(*per_tensor));
	written = calloc(g->n_tensors + 1, sizeof(*written));
	acc = malloc((p->n + 1) * sizeof(*acc));
	if (!per_tensor || !written || !acc) {
		free(per_tensor);
		free(written);
		free(acc);
		return ab_fail(err, -ENOMEM, "graph '%s': out of memory", g->name);
	}
	for (size_t k = 0; k < g->n_ops; k++) {
		const struct ab_op *op = &g->ops[k];

		for (int j = 0; j < op->n_inputs; j++)
			if (op->inputs[j] >= 0)
				add_sat(&per_tensor[op->inputs[j]], 1);
		for (int j = 0; j < op->n_outputs; j++) {
			add_sat(&per_tensor[op->outputs[j]], 1);
			written[op->outputs[j]] = true;
		}
		for (int j = 0; j < op->n_scratch; j++) {
			add_sat(&per_tensor[op->scratch[j]], 2);
			written[op->scratch[j]] = true;
		}
	}
	for (size_t i = 0; i < p->n; i++) {
		int32_t t = p->tensor[i];

		acc[i] = per_tensor[t];
		if (!written[t])
			add_sat(&acc[i], 1); /* the caller writes it */
	}
	free(per_tensor);
	free(written);
	*out = acc;
	return 0;
}
