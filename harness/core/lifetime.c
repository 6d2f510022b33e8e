/*
 * The lifetime stage: a graph becomes a problem of buffers with live
 * ranges.  This is the one place where the lifetime rule lives.
 *
 * Step k is the k-th operator.  Under the default rule a tensor produced at
 * step p and last read at step c is live on [p, c] inclusive; graph inputs
 * are live from step 0, graph outputs through the last step (a tensor with
 * both roles on the whole run), a tensor never read is live on [p, p],
 * scratch owned by op k on [k, k], vars for the whole run.  Consts are not
 * planned (weights_bytes).  Every combination of roles: activation_range.
 *   tflite: as default, but graph inputs, and tensors produced and never
 *           read, stay live to the end; variables are not planned (TFLite
 *           keeps them in a persistent arena).
 *   tflm:   step 0 is before the first operator, op k runs at step k + 1;
 *           variables live outside the arena (not planned).
 * Under inplace, an elementwise op's output may take over an input's
 * buffer, which then lives on the union of both ranges (inplace_input).
 */
#include <errno.h>
#include <inttypes.h>
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
	       ab_tensor_roles(&g->tensors[t]) == 0 && first[t] >= 0;
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

/*
 * The live range of a tensor that is not a const, var or scratch, from its
 * roles and the steps where operators write (*first, -1 = never) and last
 * read it (*last, -1 = never).  The table in docs/semantics.md ("Roles and
 * lifetimes") gives every combination and its source:
 * - it starts at step 0 when it is a graph input, or when no operator writes
 *   it (a graph output or a tensor the runtime provides, such as a scratch
 *   area a compiler leaves to it); otherwise at its producer's step;
 * - it ends at the last step when it is a graph output, a graph input under
 *   tflite (inputs are preserved), or, under tflite, produced and never
 *   read (its reference count never drops to zero); otherwise at its last
 *   read, or where it starts when nothing reads it;
 * - a tensor nothing writes or reads and no role names is not planned.
 */
static void activation_range(const struct ab_problem_options *opt,
			     unsigned roles, int32_t last_step, int32_t *first,
			     int32_t *last)
{
	const bool in = roles & AB_ROLE_GRAPH_INPUT;
	const bool out = roles & AB_ROLE_GRAPH_OUTPUT;
	const bool tflite = opt->lifetimes == AB_LIFETIMES_TFLITE;
	const bool written = *first >= 0, read = *last >= 0;
	const int32_t last_read = *last;

	if (!in && !out && !written && !read)
		return; /* first stays -1: nothing to hold */
	if (in || !written)
		*first = 0;
	if (out || (in && tflite) || (tflite && written && !read))
		*last = last_step;
	else if (*last < *first)
		*last = *first;
	/* Test-only mutation (tests/test_checks.c): a pass-through tensor
	 * (graph input and output) ends at its last read, as before roles
	 * were kept; only the execution check can see the stomp. */
	if (opt->mutate == AB_MUTATE_PASSTHROUGH_SHORT && in && out)
		*last = read ? last_read : *first;
}

static int problem_one_timeline(const struct ab_graph *g,
				const struct ab_problem_options *opt,
				struct ab_problem *out, struct ab_error *err);

/* ------------------------------------------- tflite: a plan per subgraph */

/*
 * The view of subgraph j that TFLite's own ArenaPlanner for it sees: its
 * tensors with its declared inputs and outputs as graph inputs and
 * outputs, and its own operators (a control-flow operator included, its
 * callees not).  at[k] is the flat index of view operator k.  A subgraph
 * without operators gets one that reads its inputs and outputs, at its
 * AB_CALL_ENTER.  Tensor names and operator types are borrowed.
 */
static int subgraph_view(const struct ab_graph *g, size_t j,
			 struct ab_graph *v, int32_t *at)
{
	const struct ab_subgraph *sg = &g->subgraphs[j];
	const int32_t base = (int32_t)sg->first_tensor;
	size_t n = 0;

	memset(v, 0, sizeof(*v));
	v->name = g->name;
	v->n_tensors = sg->n_tensors;
	v->tensors = calloc(sg->n_tensors + 1, sizeof(*v->tensors));
	v->ops = calloc(g->n_ops + 1, sizeof(*v->ops));
	if (!v->tensors || !v->ops)
		return -ENOMEM;
	for (size_t t = 0; t < sg->n_tensors; t++) {
		v->tensors[t] = g->tensors[base + t];
		v->tensors[t].roles = 0;
		if (v->tensors[t].kind == AB_KIND_INPUT ||
		    v->tensors[t].kind == AB_KIND_OUTPUT)
			v->tensors[t].kind = AB_KIND_INTERMEDIATE;
	}
	for (int i = 0; i < sg->n_inputs; i++)
		if (sg->inputs[i] >= base && sg->inputs[i] < base + (int32_t)sg->n_tensors)
			v->tensors[sg->inputs[i] - base].roles |= AB_ROLE_GRAPH_INPUT;
	for (int i = 0; i < sg->n_outputs; i++)
		if (sg->outputs[i] >= base && sg->outputs[i] < base + (int32_t)sg->n_tensors)
			v->tensors[sg->outputs[i] - base].roles |= AB_ROLE_GRAPH_OUTPUT;
	for (size_t k = 0; k < g->n_ops; k++) {
		const struct ab_op *op = &g->ops[k];
		struct ab_op *d = &v->ops[n];
		int *lists[3];

		if (op->subgraph != (int32_t)j || op->call == AB_CALL_ENTER ||
		    op->call == AB_CALL_RETURN)
			continue;
		*d = *op;
		d->inputs = lists[0] = malloc(((size_t)op->n_inputs + 1) * sizeof(int));
		d->outputs = lists[1] = malloc(((size_t)op->n_outputs + 1) * sizeof(int));
		d->scratch = lists[2] = malloc(((size_t)op->n_scratch + 1) * sizeof(int));
		v->n_ops = ++n;
		if (!lists[0] || !lists[1] || !lists[2])
			return -ENOMEM;
		/* an ONNX subgraph reads outer values (implicit inputs of its
		 * node): they are not this subgraph's tensors */
		for (int i = 0; i < op->n_inputs; i++)
			d->inputs[i] = op->inputs[i] < base ||
				       op->inputs[i] >= base + (int32_t)sg->n_tensors
					       ? -1 : op->inputs[i] - base;
		for (int i = 0; i < op->n_outputs; i++)
			d->outputs[i] = op->outputs[i] - base;
		for (int i = 0; i < op->n_scratch; i++)
			d->scratch[i] = op->scratch[i] - base;
		at[n - 1] = (int32_t)k;
	}
	if (n == 0) {
		struct ab_op *d = &v->ops[0];

		for (size_t k = 0; k < g->n_ops; k++)
			if (g->ops[k].call == AB_CALL_ENTER &&
			    g->ops[k].subgraph == (int32_t)j)
				at[0] = (int32_t)k;
		d->name = sg->name;
		d->type = "SUBGRAPH";
		d->n_inputs = sg->n_inputs + sg->n_outputs;
		d->inputs = malloc(((size_t)d->n_inputs + 1) * sizeof(int));
		v->n_ops = 1;
		if (!d->inputs)
			return -ENOMEM;
		for (int i = 0; i < sg->n_inputs + sg->n_outputs; i++) {
			int32_t t = i < sg->n_inputs ? sg->inputs[i]
						     : sg->outputs[i - sg->n_inputs];

			d->inputs[i] = t < base || t >= base + (int32_t)sg->n_tensors
					       ? -1 : t - base;
		}
	}
	return 0;
}

static void view_free(struct ab_graph *v)
{
	for (size_t k = 0; v->ops && k < v->n_ops; k++) {
		free(v->ops[k].inputs);
		free(v->ops[k].outputs);
		free(v->ops[k].scratch);
	}
	free(v->ops);
	free(v->tensors);
	memset(v, 0, sizeof(*v));
}

/*
 * The tflite rule on a model with control flow: TFLite's interpreter gives
 * every subgraph its own Subgraph, ArenaPlanner and arena (core/subgraph.cc),
 * and a control-flow kernel allocates its callees' tensors there.  Each
 * subgraph the root reaches is planned by the tflite rule as a graph of its
 * own (subgraph_view) and becomes one part of the problem; its steps are the
 * flat indices of its operators, so explain finds the operator of a step.
 */
static int problem_per_subgraph(const struct ab_graph *g,
				const struct ab_problem_options *opt,
				struct ab_problem *out, struct ab_error *err)
{
	struct ab_problem sub[AB_MAX_PARTS];
	int32_t *at = malloc((g->n_ops + 1) * sizeof(*at));
	size_t total = 0, n = 0;
	int parts = 0, rc = 0;

	memset(out, 0, sizeof(*out));
	if (!at)
		return ab_fail(err, -ENOMEM, "graph '%s': out of memory", g->name);
	for (size_t j = 0; j < g->n_subgraphs && !rc; j++) {
		struct ab_graph v;

		if (!g->subgraphs[j].called)
			continue;
		if (parts == AB_MAX_PARTS) {
			rc = ab_fail(err, -E2BIG, "graph '%s': more than %d subgraphs are called (the tflite rule gives each its own arena, at most %d)",
				     g->name, AB_MAX_PARTS, AB_MAX_PARTS);
			break;
		}
		rc = subgraph_view(g, j, &v, at);
		if (rc)
			rc = ab_fail(err, rc, "graph '%s': out of memory", g->name);
		else
			rc = ab_problem_from_graph(&v, opt, &sub[parts], err);
		view_free(&v);
		if (rc)
			break;
		for (size_t i = 0; i < sub[parts].n; i++) {
			sub[parts].buf[i].first = at[sub[parts].buf[i].first];
			sub[parts].buf[i].last = at[sub[parts].buf[i].last];
			sub[parts].tensor[i] += (int32_t)g->subgraphs[j].first_tensor;
			sub[parts].id[i] += (int64_t)g->subgraphs[j].first_tensor;
		}
		out->part_subgraph[parts] = (int32_t)j;
		total += sub[parts].n;
		parts++;
	}
	free(at);
	if (!rc) {
		rc = ab_problem_alloc(out, total);
		if (!rc) {
			out->part = calloc(total + 1, sizeof(*out->part));
			out->tensor_buffer = malloc((g->n_tensors + 1) *
						    sizeof(*out->tensor_buffer));
			out->name = strdup(g->name ? g->name : "graph");
			if (!out->part || !out->tensor_buffer || !out->name)
				rc = -ENOMEM;
		}
		if (rc)
			rc = ab_fail(err, rc, "graph '%s': out of memory", g->name);
	}
	if (!rc) {
		for (size_t t = 0; t < g->n_tensors; t++)
			out->tensor_buffer[t] = -1;
		for (int j = 0; j < parts; j++) {
			const size_t base = g->subgraphs[out->part_subgraph[j]].first_tensor;

			for (size_t i = 0; i < sub[j].n; i++, n++) {
				out->buf[n] = sub[j].buf[i];
				out->id[n] = sub[j].id[i];
				out->tensor[n] = sub[j].tensor[i];
				out->part[n] = (uint16_t)j;
			}
			for (size_t t = 0; t < sub[j].n_tensors; t++)
				if (sub[j].tensor_buffer[t] >= 0)
					out->tensor_buffer[base + t] =
						(int32_t)(n - sub[j].n) + sub[j].tensor_buffer[t];
			out->weights_bytes += sub[j].weights_bytes;
			out->n_aliased += sub[j].n_aliased;
		}
		out->n_tensors = g->n_tensors;
		out->n_parts = parts;
		out->steps = (int32_t)g->n_ops;
		out->lifetimes = opt->lifetimes;
	}
	for (int j = 0; j < parts; j++)
		ab_problem_free(&sub[j]);
	if (rc)
		ab_problem_free(out);
	return rc;
}

int ab_problem_from_graph(const struct ab_graph *g,
			  const struct ab_problem_options *opt,
			  struct ab_problem *out, struct ab_error *err)
{
	if (g->n_subgraphs && opt->lifetimes == AB_LIFETIMES_TFLITE)
		return problem_per_subgraph(g, opt, out, err);
	return problem_one_timeline(g, opt, out, err);
}

/*
 * Control flow: a tensor no operator writes (the runtime provides it) that
 * an operator inside a loop reads is read again on every iteration, so it
 * lives to the end of the outermost loop around that read (the last
 * RETURN of the WHILE), not only to its last read in the flat order.
 * Tensors written inside a loop are written again before each read, and a
 * loop's carried state is its operator's outputs, which live through it
 * anyway.  first[t] < 0 marks a tensor nothing writes (before its roles).
 */
static int loop_reads(const struct ab_graph *g, int32_t shift,
		      const int32_t *first, int32_t *last)
{
	int32_t *end = malloc((g->n_ops + 1) * sizeof(*end));

	if (!end)
		return -ENOMEM;
	for (size_t k = 0; k < g->n_ops; k++)
		end[k] = -1;
	for (size_t k = 0; k < g->n_ops; k++) {
		int32_t e = -1;

		if (g->ops[k].call != AB_CALL_WHILE)
			continue;
		for (size_t j = k + 1; j < g->n_ops; j++)
			if (g->ops[j].call == AB_CALL_RETURN &&
			    g->ops[j].caller == (int32_t)k)
				e = (int32_t)j;
		for (size_t j = k + 1; e >= 0 && j <= (size_t)e; j++)
			if (end[j] < e)
				end[j] = e;
	}
	for (size_t k = 0; k < g->n_ops; k++) {
		const struct ab_op *op = &g->ops[k];

		if (end[k] < 0)
			continue;
		for (int i = 0; i < op->n_inputs; i++) {
			int t = op->inputs[i];

			if (t >= 0 && first[t] < 0 && last[t] < end[k] + shift)
				last[t] = end[k] + shift;
		}
	}
	free(end);
	return 0;
}

static int problem_one_timeline(const struct ab_graph *g,
				const struct ab_problem_options *opt,
				struct ab_problem *out, struct ab_error *err)
{
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
	if (g->n_subgraphs) {
		rc = loop_reads(g, shift, first, last);
		if (rc) {
			rc = ab_fail(err, rc, "graph '%s': out of memory", g->name);
			goto out;
		}
	}
	for (size_t t = 0; t < g->n_tensors; t++) {
		const struct ab_tensor *tt = &g->tensors[t];
		unsigned roles = ab_tensor_roles(tt);

		root[t] = (int32_t)t;
		size[t] = tt->bytes;
		switch (tt->kind) {
		case AB_KIND_CONST:
			out->weights_bytes += tt->bytes;
			first[t] = -1;
			continue;
		case AB_KIND_VAR:
			/* TFLite keeps variables in its persistent arena
			 * (kTfLiteArenaRwPersistent), TFLite Micro outside the
			 * planned arena: neither plans them with the rest. */
			if (opt->lifetimes != AB_LIFETIMES_DEFAULT) {
				first[t] = -1;
				continue;
			}
			first[t] = 0;
			last[t] = last_step;
			break;
		case AB_KIND_SCRATCH:
			if (opt->exclude_scratch)
				first[t] = -1; /* --no-scratch: not planned */
			break;
		default:
			activation_range(opt, roles, last_step, &first[t],
					 &last[t]);
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
	if (ab_problem_oversize(out) >= 0) {
		int64_t i = ab_problem_oversize(out);

		rc = ab_fail(err, -EOVERFLOW, "graph '%s': tensor '%s' (%" PRIu64 " bytes) brings the sum of sizes past 2^62 bytes (expected a problem whose aligned sizes sum to at most 2^62, so that no byte count overflows 64 bits)",
			     g->name, g->tensors[out->tensor[i]].name,
			     out->buf[i].size);
		goto out;
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
