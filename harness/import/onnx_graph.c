/*
 * The ONNX importer's graph: a struct ab_graph of the nodes left after
 * folding (constant values are weights, not tensors of the arena), each
 * value sized from its inferred type, the subgraphs of If, Loop and Scan
 * inlined after their nodes by onnx_flow.c (ONNX Runtime's rule).
 * Semantics: docs/onnx.md ("Values", "Control flow").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/expand.h"
#include "import/onnx_import.h"

/* ------------------------------------------------------------ the graph */

bool onnx_elementwise(const char *op)
{
	static const char *const ops[] = {
		"Add", "Sub", "Mul", "Div", "Max", "Min", "Pow", "Mod", "PRelu", "Relu",
		"LeakyRelu", "Sigmoid", "HardSigmoid", "HardSwish", "Tanh", "Elu", "Selu",
		"Celu", "Gelu", "Exp", "Log", "Sqrt", "Reciprocal", "Abs", "Neg", "Sin",
		"Cos", "Floor", "Ceil", "Round", "Sign", "Not", "Clip", "Erf", "Softplus",
		"Softsign", "Identity", "Reshape", "Squeeze", "Unsqueeze", "Flatten",
		"Cast", "Dropout", "QuantizeLinear", "DequantizeLinear", "ImageScaler",
		"Affine", "Mish", "ThresholdedRelu", NULL };

	for (size_t i = 0; ops[i]; i++)
		if (!strcmp(op, ops[i]))
			return true;
	return false;
}

/* Text-format-safe copy of an ONNX name (as the TFLite importer does). */
char *onnx_clean_name(const char *s, const char *fallback, size_t idx)
{
	char *r = s && s[0] ? ab_strdupf("%.512s", s) : ab_strdupf("%s%zu", fallback, idx);

	if (!r)
		return NULL;
	for (char *p = r; *p; p++)
		if ((unsigned char)*p <= ' ' || *p == ',' || *p == '=' || *p == '#' ||
		    (unsigned char)*p == 0x7f)
			*p = '_';
	if (!strcmp(r, "-"))
		r[0] = '_';
	return r;
}

static int size_tensor(struct onnx_import *s, const struct onnx_val *x, struct ab_tensor *t)
{
	char nb[300];
	const char *what = x->producer >= 0 ? onnx_node_name(s, x->producer, nb, sizeof(nb))
					    : x->is_input ? "the graph's inputs" : "the initializers";

	return onnx_size_type(s, x, what, t);
}

int onnx_size_type(struct onnx_import *s, const struct onnx_val *x,
		     const char *what, struct ab_tensor *t)
{
	const struct ab_onnx_type *ty = x->type;

	if (!ty || ty->category == AB_ONNX_UNKNOWN || (ty->category == AB_ONNX_TENSOR && ty->rank < 0) ||
	    (ty->category == AB_ONNX_TENSOR && !onnx_type_static(ty))) {
		char dims[200] = "";
		for (int k = 0; ty && k < ty->rank && strlen(dims) < 180; k++)
			snprintf(dims + strlen(dims), sizeof(dims) - strlen(dims), "%s%s", k ? "x" : "",
				 ty->dims[k] >= 0 ? "" : "?");
		for (int k = 0; ty && k < ty->rank; k++)
			if (ty->dims[k] == -2)
				return onnx_fail(s, -EBADMSG, "value '%s' (from %s): dimension %d is negative",
					    x->name, what, k);
		return onnx_fail(s, -EINVAL, "value '%s' (from %s): shape %s after ONNX shape inference and constant folding (expected static dimensions; see docs/onnx.md)",
			    x->name, what,
			    !ty || ty->category == AB_ONNX_UNKNOWN ? "unknown"
			    : ty->rank < 0 ? "of unknown rank" : "not fully known");
	}
	if (ty->category != AB_ONNX_TENSOR)
		return onnx_fail(s, -EINVAL, "value '%s' (from %s) is a %s (expected a tensor; sequence, map, optional and sparse values cannot be planned statically)",
			    x->name, what,
			    ty->category == AB_ONNX_SEQUENCE ? "sequence" : ty->category == AB_ONNX_MAP ? "map"
			    : ty->category == AB_ONNX_OPTIONAL ? "optional value" : "sparse tensor");
	static const int map[17] = { -1, AB_DTYPE_F32, AB_DTYPE_U8, AB_DTYPE_I8, -2, AB_DTYPE_I16,
		AB_DTYPE_I32, AB_DTYPE_I64, -3, AB_DTYPE_BOOL, AB_DTYPE_F16, AB_DTYPE_F64, -2, -2,
		-2, -2, AB_DTYPE_BF16 };
	int d = ty->elem > 0 && ty->elem < 17 ? map[ty->elem] : -1;
	if (d == -3)
		return onnx_fail(s, -EINVAL, "value '%s' (from %s) is a string tensor (variable length: cannot be planned statically)",
			    x->name, what);
	if (d == -1)
		return onnx_fail(s, -EINVAL, "value '%s' (from %s): element type %d (%s) is not supported (expected float, float16, bfloat16, double, int8..64, uint8..64 or bool)",
			    x->name, what, ty->elem, ab_onnx_elem_name(ty->elem));
	bool ovf;
	uint64_t c = onnx_type_count(ty, &ovf), bits = ab_onnx_elem_bits(ty->elem);
	if (ovf || c > UINT64_MAX / bits)
		return onnx_fail(s, -EOVERFLOW, "value '%s' (from %s): element count overflows 64 bits (expected a size that fits in memory)",
			    x->name, what);
	t->bytes = (c * bits + 7) / 8;
	if (d == -2 || ty->rank > AB_MAX_RANK) {
		t->dtype = AB_DTYPE_BYTES;
		t->rank = -1;
	} else {
		t->dtype = (enum ab_dtype)d;
		t->rank = ty->rank;
		for (int k = 0; k < ty->rank; k++)
			t->dims[k] = ty->dims[k];
		if (ab_tensor_shape_bytes(t->dtype, t->rank, t->dims, &t->bytes))
			return onnx_fail(s, -EOVERFLOW, "value '%s': element count overflows 64 bits",
				    x->name);
	}
	return 0;
}

/* ------------------------------------------------------------ the graph */

/* The tensor of value i (x): its size (an If output or a loop-carried
 * value left open by inference takes the bytes its branches or initial
 * value fix), name and kind. */
static int value_tensor(struct onnx_import *s, struct onnx_val *x, size_t i,
			bool op_out, struct ab_tensor *t)
{
	const struct ab_onnx_node *pn = x->producer >= 0 ? onnx_node(s, x->producer) : NULL;
	uint64_t ifb = 0;
	int rc;

	if (op_out && !strcmp(pn->op, "If") && !onnx_type_static(x->type))
		for (size_t k = 0; k < pn->n_out; k++)
			if (!strcmp(pn->out[k], x->name))
				ifb = onnx_if_output_bytes(s, pn, k);
	if (op_out && !onnx_type_static(x->type) &&
	    (!strcmp(pn->op, "Loop") || !strcmp(pn->op, "Scan")))
		for (size_t k = 0; k < pn->n_out; k++)
			if (!strcmp(pn->out[k], x->name))
				ifb = onnx_carried_bytes(s, pn, k);
	if (ifb) {
		memset(t, 0, sizeof(*t));
		t->dtype = AB_DTYPE_BYTES;
		t->rank = -1;
		t->bytes = ifb;
	} else if (op_out && !strcmp(pn->op, "If") && !onnx_type_static(x->type)) {
		return onnx_fail(s, -EINVAL, "value '%s' (output %s of If node '%s'): shape unknown in every branch after inference and --dim (expected a static shape in at least one branch; --dim NAME=VALUE sets the symbolic dimensions of graph inputs it depends on)",
				 x->name, x->name, pn->name);
	} else if ((rc = size_tensor(s, x, t))) {
		return rc;
	}
	t->name = onnx_clean_name(x->name, "v", i);
	if (!t->name)
		return onnx_fail(s, -ENOMEM, "out of memory");
	t->align = 1;
	t->kind = x->is_const ? AB_KIND_CONST : x->is_input ? AB_KIND_INPUT
		: x->is_output ? AB_KIND_OUTPUT : AB_KIND_INTERMEDIATE;
	return 0;
}

/* With control flow: the main graph as subgraph 0, its inputs and outputs
 * the tensors with those roles. */
static int main_subgraph(struct onnx_flow *f, const struct ab_onnx_graph *g)
{
	struct onnx_import *s = f->s;
	struct ab_graph *out = f->out;
	struct ab_subgraph *sg = onnx_new_subgraph(f);
	size_t ni = 0, no = 0;

	if (!sg)
		return onnx_fail(s, -ENOMEM, "out of memory");
	sg->name = ab_strdupf("%s", g->name && g->name[0] ? g->name : "main");
	sg->n_tensors = out->n_tensors;
	sg->called = true;
	sg->inputs = malloc((out->n_tensors + 1) * sizeof(int));
	sg->outputs = malloc((out->n_tensors + 1) * sizeof(int));
	if (!sg->name || !sg->inputs || !sg->outputs)
		return onnx_fail(s, -ENOMEM, "out of memory");
	for (size_t t = 0; t < out->n_tensors; t++) {
		unsigned r = ab_tensor_roles(&out->tensors[t]);
		if (r & AB_ROLE_GRAPH_INPUT)
			sg->inputs[ni++] = (int)t;
		if (r & AB_ROLE_GRAPH_OUTPUT)
			sg->outputs[no++] = (int)t;
	}
	sg->n_inputs = (int)ni;
	sg->n_outputs = (int)no;
	return 0;
}

static int build(struct onnx_import *s, struct ab_graph *out, struct ab_onnx_info *info)
{
	const struct ab_onnx_graph *g = &s->m.graphs[0];
	struct onnx_flow f = { .s = s, .out = out };
	size_t n_ops = 0, n_cf = 0;
	int rc;

	for (size_t i = 0; i < g->n_nodes; i++) {
		const struct ab_onnx_node *n = &g->nodes[i];
		if (s->node_const[i]) {
			info->n_folded_nodes += strcmp(n->op, "Constant") != 0;
			continue;
		}
		n_ops++;
		/* (names defined and in order: check_structure in onnx.c) */
		for (size_t k = 0; k < n->n_in; k++) {
			struct onnx_val *x = onnx_lookup(s, n->in[k]);
			if (x)
				x->read = true;
		}
		if (onnx_control_flow(n->op)) {
			n_cf++;
			for (size_t k = 0; k < n->n_attr; k++)
				if (n->attr[k].graph >= 0 && (rc = onnx_mark_outer_reads(s, n->attr[k].graph, 0)))
					return rc;
		}
	}
	if (!n_ops)
		return onnx_fail(s, -EINVAL, "no operator left to plan (every node is constant)");
	f.cap_t = s->n_vals + 16;
	f.cap_o = n_ops + 16;
	out->tensors = calloc(f.cap_t, sizeof(*out->tensors));
	out->ops = calloc(f.cap_o, sizeof(*out->ops));
	if (!out->tensors || !out->ops)
		return onnx_fail(s, -ENOMEM, "out of memory");
	/* Tensors: inputs, consts read by an op, node outputs of ops. */
	for (size_t i = 0; i < s->n_vals; i++) {
		struct onnx_val *x = &s->v[i];
		bool op_out = x->producer >= 0 && !s->node_const[x->producer];
		if (!(x->is_input || op_out || (x->is_const && x->read) ||
		      (x->is_const && x->is_output)))
			continue;
		struct ab_tensor *t = &out->tensors[out->n_tensors];
		if ((rc = value_tensor(s, x, i, op_out, t)))
			return rc;
		x->tensor = (int)out->n_tensors++;
	}
	if (n_cf && (rc = main_subgraph(&f, g)))
		return rc;
	/* Ops, in the file's order, each control-flow node's subgraphs after it. */
	for (size_t i = 0; i < g->n_nodes; i++) {
		const struct ab_onnx_node *n = &g->nodes[i];
		if (s->node_const[i])
			continue;
		int32_t k = (int32_t)out->n_ops;
		struct ab_op *o = onnx_node_op(&f, n, i);
		if (!o)
			return onnx_fail(s, -ENOMEM, "out of memory");
		for (size_t k2 = 0; k2 < n->n_in; k2++) {
			struct onnx_val *x = onnx_lookup(s, n->in[k2]);
			o->inputs[o->n_inputs++] = x ? x->tensor : -1;
		}
		for (size_t k2 = 0; k2 < n->n_out; k2++) {
			struct onnx_val *x = onnx_lookup(s, n->out[k2]);
			if (x && x->tensor >= 0)
				o->outputs[o->n_outputs++] = x->tensor;
		}
		if (onnx_elementwise(n->op))
			o->flags |= AB_OP_ELEMENTWISE;
		if (onnx_random_op(n->op))
			o->flags |= AB_OP_SIDE_EFFECT;
		if (onnx_control_flow(n->op)) {
			rc = onnx_add_implicit_inputs(s, i, o);
			if (!rc)
				rc = onnx_flatten_node(&f, NULL, n, k, 0);
			if (rc)
				return rc;
		}
	}
	return 0;
}

static char *stem(const char *path)
{
	const char *b = strrchr(path, '/');
	size_t n;

	b = b ? b + 1 : path;
	n = strlen(b);
	if (n > 5 && !strcmp(b + n - 5, ".onnx"))
		n -= 5;
	return ab_strdupf("%.*s", (int)n, b);
}

int onnx_build(struct onnx_import *s, struct ab_graph *out, struct ab_onnx_info *info)
{
	int rc = build(s, out, info);

	if (rc)
		return rc;
	out->name = stem(s->path);
	out->family = ab_family_from_path(s->path, "onnx");
	out->source = ab_strdupf("%s", s->path);
	if (!out->name || !out->family || !out->source)
		return onnx_fail(s, -ENOMEM, "out of memory");
	return 0;
}
