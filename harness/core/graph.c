/*
 * The graph: name tables, copy and free, and the structural check every
 * input goes through (the `.graph` text format is import/graph_text.c).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arenabench.h"

/* ------------------------------------------------------------ name tables */

static const struct {
	const char *name;
	size_t bytes;
} dtypes[AB_DTYPE_COUNT] = {
	[AB_DTYPE_F32] = { "f32", 4 },   [AB_DTYPE_F16] = { "f16", 2 },
	[AB_DTYPE_BF16] = { "bf16", 2 }, [AB_DTYPE_I8] = { "i8", 1 },
	[AB_DTYPE_U8] = { "u8", 1 },     [AB_DTYPE_I16] = { "i16", 2 },
	[AB_DTYPE_I32] = { "i32", 4 },   [AB_DTYPE_I64] = { "i64", 8 },
	[AB_DTYPE_BOOL] = { "bool", 1 }, [AB_DTYPE_F64] = { "f64", 8 },
	[AB_DTYPE_STRING] = { "string", 0 }, [AB_DTYPE_BYTES] = { "bytes", 0 },
};

static const char *const kinds[AB_KIND_COUNT] = {
	[AB_KIND_INPUT] = "input",   [AB_KIND_OUTPUT] = "output",
	[AB_KIND_CONST] = "const",   [AB_KIND_VAR] = "var",
	[AB_KIND_SCRATCH] = "scratch", [AB_KIND_INTERMEDIATE] = "intermediate",
};

const char *ab_dtype_name(enum ab_dtype d)
{
	return (unsigned)d < AB_DTYPE_COUNT ? dtypes[d].name : "?";
}

int ab_dtype_from_name(const char *s)
{
	for (int i = 0; i < AB_DTYPE_COUNT; i++)
		if (strcmp(s, dtypes[i].name) == 0)
			return i;
	return -1;
}

size_t ab_dtype_bytes(enum ab_dtype d)
{
	return (unsigned)d < AB_DTYPE_COUNT ? dtypes[d].bytes : 0;
}

const char *ab_kind_name(enum ab_tensor_kind k)
{
	return (unsigned)k < AB_KIND_COUNT ? kinds[k] : "?";
}

int ab_kind_from_name(const char *s)
{
	for (int i = 0; i < AB_KIND_COUNT; i++)
		if (strcmp(s, kinds[i]) == 0)
			return i;
	return -1;
}

int ab_tensor_shape_bytes(enum ab_dtype d, int rank, const int64_t *dims,
			  uint64_t *bytes)
{
	uint64_t n = ab_dtype_bytes(d);

	for (int i = 0; i < rank; i++) {
		if (dims[i] < 0)
			return -EINVAL;
		if (dims[i] && n > UINT64_MAX / (uint64_t)dims[i])
			return -EOVERFLOW;
		n *= (uint64_t)dims[i];
	}
	*bytes = n;
	return 0;
}

void ab_graph_free(struct ab_graph *g)
{
	if (!g)
		return;
	for (size_t i = 0; i < g->n_tensors; i++)
		free(g->tensors[i].name);
	for (size_t i = 0; i < g->n_ops; i++) {
		free(g->ops[i].name);
		free(g->ops[i].type);
		free(g->ops[i].inputs);
		free(g->ops[i].outputs);
		free(g->ops[i].scratch);
	}
	for (size_t j = 0; j < g->n_subgraphs; j++) {
		free(g->subgraphs[j].name);
		free(g->subgraphs[j].inputs);
		free(g->subgraphs[j].outputs);
	}
	free(g->subgraphs);
	free(g->tensors);
	free(g->ops);
	free(g->name);
	free(g->family);
	free(g->source);
	memset(g, 0, sizeof(*g));
}

static int copy_list(int **dst, const int *src, int n)
{
	*dst = NULL;
	if (n <= 0)
		return 0;
	*dst = malloc((size_t)n * sizeof(**dst));
	if (!*dst)
		return -ENOMEM;
	memcpy(*dst, src, (size_t)n * sizeof(**dst));
	return 0;
}

static int copy_str(char **dst, const char *src)
{
	*dst = src ? strdup(src) : NULL;
	return src && !*dst ? -ENOMEM : 0;
}

int ab_graph_copy(const struct ab_graph *src, struct ab_graph *dst,
		  struct ab_error *err)
{
	int rc = 0;

	memset(dst, 0, sizeof(*dst));
	dst->tensors = calloc(src->n_tensors + 1, sizeof(*dst->tensors));
	dst->ops = calloc(src->n_ops + 1, sizeof(*dst->ops));
	if (!dst->tensors || !dst->ops) {
		rc = -ENOMEM;
		goto out;
	}
	rc = copy_str(&dst->name, src->name);
	rc = rc ? rc : copy_str(&dst->family, src->family);
	rc = rc ? rc : copy_str(&dst->source, src->source);
	for (size_t i = 0; !rc && i < src->n_tensors; i++) {
		dst->tensors[i] = src->tensors[i];
		dst->tensors[i].name = NULL;
		dst->n_tensors = i + 1;
		rc = copy_str(&dst->tensors[i].name, src->tensors[i].name);
	}
	for (size_t k = 0; !rc && k < src->n_ops; k++) {
		const struct ab_op *s = &src->ops[k];
		struct ab_op *d = &dst->ops[k];

		*d = *s;
		d->name = d->type = NULL;
		d->inputs = d->outputs = d->scratch = NULL;
		dst->n_ops = k + 1;
		rc = copy_str(&d->name, s->name);
		rc = rc ? rc : copy_str(&d->type, s->type);
		rc = rc ? rc : copy_list(&d->inputs, s->inputs, s->n_inputs);
		rc = rc ? rc : copy_list(&d->outputs, s->outputs, s->n_outputs);
		rc = rc ? rc : copy_list(&d->scratch, s->scratch, s->n_scratch);
	}
	if (!rc && src->n_subgraphs) {
		dst->subgraphs = calloc(src->n_subgraphs, sizeof(*dst->subgraphs));
		rc = dst->subgraphs ? 0 : -ENOMEM;
	}
	for (size_t j = 0; !rc && j < src->n_subgraphs; j++) {
		const struct ab_subgraph *s = &src->subgraphs[j];
		struct ab_subgraph *d = &dst->subgraphs[j];

		*d = *s;
		d->name = NULL;
		d->inputs = d->outputs = NULL;
		dst->n_subgraphs = j + 1;
		rc = copy_str(&d->name, s->name);
		rc = rc ? rc : copy_list(&d->inputs, s->inputs, s->n_inputs);
		rc = rc ? rc : copy_list(&d->outputs, s->outputs, s->n_outputs);
	}
out:
	if (rc) {
		ab_graph_free(dst);
		return ab_fail(err, rc, "graph '%s': out of memory while copying",
			       src->name ? src->name : "?");
	}
	return 0;
}

/* ------------------------------------------------------------------ check */

/* "path:LINE: " when the op or tensor came from a file, else "path: ". */
static const char *where(char *buf, size_t sz, const char *path, int line)
{
	if (line > 0)
		snprintf(buf, sz, "%s:%d", path, line);
	else
		snprintf(buf, sz, "%s", path);
	return buf;
}

/* May an operator write tensor tt?  Only an intermediate or an output that
 * is not also a graph input (a graph input holds what the caller passed). */
static bool writable(const struct ab_tensor *tt)
{
	return (tt->kind == AB_KIND_INTERMEDIATE || tt->kind == AB_KIND_OUTPUT) &&
	       !(ab_tensor_roles(tt) & AB_ROLE_GRAPH_INPUT);
}

/*
 * The structural check every input goes through before planning: tensor
 * indices in range; at most one writer per tensor, and only of a writable
 * tensor (never a graph input, const or var); no tensor read at or before
 * the step that writes it (use before definition; in one operator order a
 * cycle is always one); scratch listed by exactly one op; alignments.  A
 * tensor read and never written is allowed: the runtime provides it, and
 * it lives from the start (docs/semantics.md).
 */
int ab_graph_check(const struct ab_graph *g, const char *path,
		   struct ab_error *err)
{
	int *producer = NULL, *owner = NULL;
	char at[512];
	int rc = 0;

	if (g->n_ops == 0)
		return ab_fail(err, -EINVAL, "%s: graph '%s' has no operators",
			       path, g->name ? g->name : "?");
	if (g->n_ops > INT32_MAX / 2 || g->n_tensors > INT32_MAX / 2)
		return ab_fail(err, -E2BIG, "%s: graph is too large", path);
	producer = malloc(g->n_tensors * sizeof(*producer) + 1);
	owner = malloc(g->n_tensors * sizeof(*owner) + 1);
	if (!producer || !owner) {
		rc = ab_fail(err, -ENOMEM, "%s: out of memory", path);
		goto out;
	}
	for (size_t t = 0; t < g->n_tensors; t++)
		producer[t] = owner[t] = -1;
	/* Writers first, so that a read can be compared with a later write. */
	for (size_t k = 0; k < g->n_ops; k++) {
		const struct ab_op *op = &g->ops[k];

		where(at, sizeof(at), path, op->line);
		for (int i = 0; i < op->n_outputs; i++) {
			int t = op->outputs[i];
			const struct ab_tensor *tt;

			if (t < 0 || (size_t)t >= g->n_tensors) {
				rc = ab_fail(err, -EINVAL, "%s: op '%s': output #%d is tensor index %d, outside 0..%zu",
					     at, op->name, i, t, g->n_tensors - 1);
				goto out;
			}
			tt = &g->tensors[t];
			if (!writable(tt)) {
				rc = ab_fail(err, -EINVAL, "%s: op '%s': output '%s' is a %s tensor (expected intermediate or output: operators never write graph inputs, consts or vars)",
					     at, op->name, tt->name,
					     ab_tensor_roles(tt) & AB_ROLE_GRAPH_INPUT
						     ? "graph input"
						     : ab_kind_name(tt->kind));
				goto out;
			}
			if (producer[t] >= 0) {
				rc = ab_fail(err, -EINVAL, "%s: op '%s': output '%s' is already written by op '%s' (one producer per tensor)",
					     at, op->name, tt->name,
					     g->ops[producer[t]].name);
				goto out;
			}
			producer[t] = (int)k;
		}
	}
	for (size_t k = 0; k < g->n_ops; k++) {
		const struct ab_op *op = &g->ops[k];

		where(at, sizeof(at), path, op->line);
		for (int i = 0; i < op->n_inputs; i++) {
			int t = op->inputs[i];
			const struct ab_tensor *tt;

			if (t == -1)
				continue;
			if (t < 0 || (size_t)t >= g->n_tensors) {
				rc = ab_fail(err, -EINVAL, "%s: op '%s': input #%d is tensor index %d, outside 0..%zu",
					     at, op->name, i, t, g->n_tensors - 1);
				goto out;
			}
			tt = &g->tensors[t];
			if (tt->kind == AB_KIND_SCRATCH) {
				rc = ab_fail(err, -EINVAL, "%s: op '%s': scratch tensor '%s' cannot be an input (list it in scratch=)",
					     at, op->name, tt->name);
				goto out;
			}
			if (producer[t] >= (int)k) {
				rc = ab_fail(err, -EINVAL, "%s: op '%s': input '%s' is read before any op writes it (op '%s' writes it %s)",
					     at, op->name, tt->name,
					     g->ops[producer[t]].name,
					     producer[t] == (int)k ? "itself: a cycle"
								   : "later: a forward reference or a cycle");
				goto out;
			}
		}
		for (int i = 0; i < op->n_scratch; i++) {
			int t = op->scratch[i];
			const struct ab_tensor *tt;

			if (t < 0 || (size_t)t >= g->n_tensors) {
				rc = ab_fail(err, -EINVAL, "%s: op '%s': scratch #%d is tensor index %d, outside 0..%zu",
					     at, op->name, i, t, g->n_tensors - 1);
				goto out;
			}
			tt = &g->tensors[t];
			if (tt->kind != AB_KIND_SCRATCH) {
				rc = ab_fail(err, -EINVAL, "%s: op '%s': '%s' in scratch= is a %s tensor (expected scratch)",
					     at, op->name, tt->name,
					     ab_kind_name(tt->kind));
				goto out;
			}
			if (owner[t] >= 0) {
				rc = ab_fail(err, -EINVAL, "%s: op '%s': scratch '%s' is already owned by op '%s'",
					     at, op->name, tt->name,
					     g->ops[owner[t]].name);
				goto out;
			}
			owner[t] = (int)k;
		}
	}
	for (size_t t = 0; t < g->n_tensors; t++) {
		const struct ab_tensor *tt = &g->tensors[t];

		where(at, sizeof(at), path, tt->line);
		if (tt->kind == AB_KIND_SCRATCH && owner[t] < 0) {
			rc = ab_fail(err, -EINVAL, "%s: scratch tensor '%s' is not in any op's scratch= list",
				     at, tt->name);
			goto out;
		}
		if (tt->align == 0 || (tt->align & (tt->align - 1))) {
			rc = ab_fail(err, -EINVAL, "%s: tensor '%s': alignment %u is not a power of two",
				     at, tt->name, tt->align);
			goto out;
		}
	}
out:
	free(producer);
	free(owner);
	return rc;
}
