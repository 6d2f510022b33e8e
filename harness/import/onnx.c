/*
 * ONNX importer (C side): the values of the main graph, the structural
 * check, and the loop that feeds folded shape computations and the
 * importer's own shape rules back into ONNX's shape inference until
 * nothing new; then the graph (onnx_graph.c).  Graph inputs and --dim are
 * in onnx_dims.c, the folder in onnx_fold.c, the protobuf and inference in
 * onnx_proto.cc.  Semantics: docs/onnx.md.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/textio.h"
#include "import/onnx_import.h"

#define MAX_ROUNDS 16

int onnx_fail(struct onnx_import *s, int code, const char *fmt, ...)
{
	char buf[900];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return ab_fail(s->err, code, "%s: %s", s->path, buf);
}

const char *onnx_node_name(struct onnx_import *s, int i, char *buf, size_t len)
{
	const struct ab_onnx_node *n = onnx_node(s, i);

	snprintf(buf, len, "node %d '%s' (%s)", i, n->name[0] ? n->name : "", n->op);
	return buf;
}

/* ------------------------------------------------------------- values */

uint64_t onnx_type_count(const struct ab_onnx_type *t, bool *ovf)
{
	uint64_t c = 1;

	*ovf = false;
	for (int i = 0; i < t->rank; i++) {
		uint64_t d = (uint64_t)t->dims[i];
		if (d && c > UINT64_MAX / d)
			*ovf = true;
		c *= d;
	}
	return c;
}

void onnx_own_free(struct onnx_val *x)
{
	if (x->has_own) {
		free(x->own.dims);
		x->own.dims = NULL;
	}
	x->has_own = false;
}

int onnx_set_own(struct onnx_val *x, int32_t elem, int rank, const int64_t *dims)
{
	int64_t *d = malloc((size_t)(rank > 0 ? rank : 1) * sizeof(*d));

	if (!d)
		return -ENOMEM;
	onnx_own_free(x);
	for (int i = 0; i < rank; i++)
		d[i] = dims[i];
	x->own = (struct ab_onnx_type){ .category = AB_ONNX_TENSOR, .elem = elem,
					.rank = rank, .dims = d };
	x->has_own = true;
	x->type = &x->own;
	return 0;
}

int onnx_add_val(struct onnx_import *s, const char *name, int producer,
		   const struct ab_onnx_type *t, struct onnx_val **out)
{
	int64_t j = ab_strmap_get(&s->map, name);

	if (j >= 0) {
		*out = &s->v[j];
		return -EEXIST;
	}
	struct onnx_val *x = &s->v[s->n_vals];
	*x = (struct onnx_val){ .name = name, .producer = producer, .type = t, .tensor = -1 };
	if (ab_strmap_put(&s->map, name, (int64_t)s->n_vals))
		return -ENOMEM;
	s->n_vals++;
	*out = x;
	return 0;
}

static int setup(struct onnx_import *s, struct ab_onnx_info *info)
{
	const struct ab_onnx_graph *g = &s->m.graphs[0];
	size_t cap = g->n_inits + g->n_inputs + 1;
	struct onnx_val *x;
	char nb[300];
	int rc;

	for (size_t i = 0; i < g->n_nodes; i++)
		cap += g->nodes[i].n_out;
	s->v = calloc(cap, sizeof(*s->v));
	s->node_const = calloc(g->n_nodes + 1, sizeof(*s->node_const));
	if (!s->v || !s->node_const || ab_strmap_init(&s->map, cap))
		return onnx_fail(s, -ENOMEM, "out of memory");
	if (s->m.n_sparse_inits)
		return onnx_fail(s, -EINVAL, "%zu sparse initializers (sparse tensors are not supported)",
			    s->m.n_sparse_inits);
	for (size_t i = 0; i < g->n_inits; i++) {
		const struct ab_onnx_value *t = &g->inits[i];
		rc = onnx_add_val(s, t->name, -1, &t->type, &x);
		if (rc == -EEXIST)
			return onnx_fail(s, -EBADMSG, "initializer '%s' appears twice (expected unique names)",
				    t->name);
		if (rc)
			return onnx_fail(s, -ENOMEM, "out of memory");
		for (int k = 0; k < t->type.rank; k++)
			if (t->type.dims[k] < 0)
				return onnx_fail(s, -EBADMSG, "initializer '%s': dimension %d is negative (expected >= 0)",
					    t->name, k);
		x->is_init = x->is_const = true;
		if (t->has_data && t->type.rank <= AB_MAX_RANK) {
			x->data = t->data; /* borrowed: not freed */
			x->n_data = t->n_data;
			x->has_data = true;
		}
		info->weights_bytes += t->stored_bytes;
		info->n_external += t->external;
	}
	/* Graph inputs: symbolic dimensions take --dim (onnx_dims.c). */
	rc = onnx_setup_inputs(s, info);
	if (rc)
		return rc;
	for (size_t i = 0; i < g->n_nodes; i++) {
		const struct ab_onnx_node *n = &g->nodes[i];
		for (size_t k = 0; k < n->n_out; k++) {
			if (!n->out[k][0])
				continue;
			rc = onnx_add_val(s, n->out[k], (int)i, NULL, &x);
			if (rc == -EEXIST)
				return onnx_fail(s, -EBADMSG, "%s: output '%s' is already %s",
					    onnx_node_name(s, (int)i, nb, sizeof(nb)), n->out[k],
					    x->producer >= 0 ? "written by an earlier node (one producer per value)"
					    : x->is_init ? "an initializer, a constant (operators never write constants)"
							 : "a graph input (operators never write graph inputs)");
			if (rc)
				return onnx_fail(s, -ENOMEM, "out of memory");
		}
		info->n_const_nodes += !strcmp(n->op, "Constant");
		if (!strcmp(n->op, "Constant")) {
			const struct ab_onnx_attr *v = onnx_attr(n, "value");
			if (v && v->t)
				info->weights_bytes += v->t->stored_bytes;
		}
	}
	for (size_t i = 0; i < g->n_outputs; i++) {
		x = onnx_lookup(s, g->outputs[i].name);
		if (!x)
			return onnx_fail(s, -EBADMSG, "graph output '%s' is produced by no node, input or initializer",
				    g->outputs[i].name);
		x->is_output = true;
	}
	return 0;
}

/* What does not depend on any dimension, checked before a model with
 * unresolved symbolic dimensions is refused as needing --dim (so such a
 * model is otherwise sound): every input name defined, nodes in
 * topological order (ONNX requires it). */
static int check_structure(struct onnx_import *s)
{
	const struct ab_onnx_graph *g = &s->m.graphs[0];
	char nb[300];

	for (size_t i = 0; i < g->n_nodes; i++) {
		const struct ab_onnx_node *n = &g->nodes[i];

		for (size_t k = 0; k < n->n_in; k++) {
			struct onnx_val *x = onnx_lookup(s, n->in[k]);

			if (n->in[k][0] && !x)
				return onnx_fail(s, -EBADMSG, "%s: input '%s' is not defined (no node, input or initializer has that name)",
						 onnx_node_name(s, (int)i, nb, sizeof(nb)), n->in[k]);
			if (x && x->producer >= (int)i)
				return onnx_fail(s, -EBADMSG, "%s: input '%s' is read before node %d writes it (ONNX requires nodes in topological order)",
						 onnx_node_name(s, (int)i, nb, sizeof(nb)), n->in[k], x->producer);
		}
	}
	return 0;
}

/* ------------------------------------------------------------- the loop */

static void refresh_types(struct onnx_import *s)
{
	const struct ab_onnx_graph *g = &s->m.graphs[0];

	for (size_t i = 0; i < g->n_infos; i++) {
		struct onnx_val *x = onnx_lookup(s, g->infos[i].name);
		if (!x || x->has_own || x->is_input || x->is_init)
			continue;
		if (!onnx_type_static(x->type) || onnx_type_static(&g->infos[i].type))
			x->type = &g->infos[i].type;
	}
}

bool onnx_random_op(const char *op)
{
	return !strncmp(op, "Random", 6) || !strcmp(op, "Multinomial") ||
	       !strcmp(op, "Bernoulli");
}

/* One pass in node order: constness, folding, own rules.  Returns the
 * number of new facts for inference, or <0. */
static int pass(struct onnx_import *s)
{
	const struct ab_onnx_graph *g = &s->m.graphs[0];
	int news = 0, rc;

	for (size_t i = 0; i < g->n_nodes; i++) {
		const struct ab_onnx_node *n = &g->nodes[i];
		bool all = true, any = false;
		for (size_t k = 0; k < n->n_in; k++) {
			struct onnx_val *x = onnx_lookup(s, n->in[k]);
			if (!n->in[k][0])
				continue;
			any = true;
			all &= x && x->is_const;
		}
		rc = onnx_fold(s, (int)i);
		if (rc < 0)
			return rc;
		bool c = !strcmp(n->op, "Constant") ||
			 (rc > 0 && (!strcmp(n->op, "Shape") || !strcmp(n->op, "Size"))) ||
			 (any && all && !n->domain[0] && !onnx_random_op(n->op) &&
			  strcmp(n->op, "If") && strcmp(n->op, "Loop") && strcmp(n->op, "Scan"));
		if (c && !s->node_const[i]) {
			s->node_const[i] = true;
			for (size_t k = 0; k < n->n_out; k++) {
				struct onnx_val *y = onnx_lookup(s, n->out[k]);
				if (y)
					y->is_const = true;
			}
		}
		rc = onnx_own_rule(s, (int)i);
		if (rc < 0)
			return rc;
	}
	for (size_t i = 0; i < s->n_vals; i++) {
		struct onnx_val *x = &s->v[i];
		if (x->has_data && !x->hinted_data && x->producer >= 0)
			news++;
		else if (x->has_own && !x->has_data && !x->hinted_type)
			news++;
	}
	return news;
}

static int infer(struct onnx_import *s)
{
	struct ab_onnx_hint *h = malloc((s->n_vals + 1) * sizeof(*h));
	size_t n = 0;
	int rc;

	if (!h)
		return -ENOMEM;
	for (size_t i = 0; i < s->n_vals; i++) {
		struct onnx_val *x = &s->v[i];
		if (x->producer < 0 || !x->has_own)
			continue;
		h[n++] = (struct ab_onnx_hint){ x->name, 0, &x->own,
						x->has_data ? x->data : NULL, x->n_data };
		x->hinted_data |= x->has_data;
		x->hinted_type = true;
	}
	/* Types borrowed from the previous round's value_info are replaced. */
	for (size_t i = 0; i < s->n_vals; i++)
		if (!s->v[i].has_own && !s->v[i].is_input && !s->v[i].is_init)
			s->v[i].type = NULL;
	s->n_hinted = 0;
	for (size_t i = 0; i < n; i++)
		s->n_hinted += !h[i].data;
	rc = abx_onnx_infer(s->h, h, n, &s->m, s->err);
	free(h);
	s->n_rounds++;
	if (!rc)
		refresh_types(s);
	return rc;
}

int ab_onnx_parse(const uint8_t *data, size_t len, const char *path,
		  const struct ab_onnx_options *opt, struct ab_graph *out,
		  struct ab_onnx_info *info, struct ab_error *err)
{
	struct onnx_import s = { .path = path, .err = err, .opt = opt };
	struct ab_onnx_info local;
	int rc, news = 1;

	memset(out, 0, sizeof(*out));
	if (!info)
		info = &local;
	memset(info, 0, sizeof(*info));
	rc = abx_onnx_open(data, len, path, &s.h, &s.m, err);
	if (rc)
		return rc;
	info->ir_version = s.m.ir_version;
	info->opset = s.m.opset;
	snprintf(info->producer, sizeof(info->producer), "%s", s.m.producer ? s.m.producer : "");
	info->n_nodes = s.m.graphs[0].n_nodes;
	info->n_initializers = s.m.graphs[0].n_inits;
	for (size_t i = 1; i < s.m.n_graphs; i++)
		info->n_subgraph_nodes += s.m.graphs[i].n_nodes;
	rc = setup(&s, info);
	if (!rc)
		rc = check_structure(&s);
	if (!rc)
		rc = onnx_refuse_missing_dims(&s, info);
	/* Inference, then fold and apply own rules, until nothing new. */
	while (!rc && news > 0 && s.n_rounds < MAX_ROUNDS) {
		rc = infer(&s);
		if (!rc)
			news = pass(&s);
		if (news < 0)
			rc = onnx_fail(&s, news, "out of memory");
	}
	info->n_inference_rounds = s.n_rounds;
	info->n_hinted = s.n_hinted;
	if (!rc)
		rc = onnx_build(&s, out, info);
	if (!rc)
		rc = ab_graph_check(out, path, err);
	for (size_t i = 0; i < s.n_vals; i++) {
		if (!s.v[i].is_init)
			free(s.v[i].data);
		onnx_own_free(&s.v[i]);
	}
	free(s.v);
	free(s.node_const);
	ab_strmap_free(&s.map);
	abx_onnx_close(s.h, &s.m);
	if (rc)
		ab_graph_free(out);
	return rc;
}

int ab_onnx_load(const char *path, const struct ab_onnx_options *opt,
		 struct ab_graph *out, struct ab_onnx_info *info,
		 struct ab_error *err)
{
	char *text = NULL;
	size_t len = 0;
	int rc = ab_read_file(path, &text, &len, err);

	if (rc)
		return rc;
	rc = ab_onnx_parse((const uint8_t *)text, len, path, opt, out, info, err);
	free(text);
	return rc;
}
