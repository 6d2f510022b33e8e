/*
 * The ONNX importer's graph: a struct ab_graph of the nodes left after
 * folding (constant values are weights, not tensors of the arena), each
 * value sized from its inferred type, an If as one operator with a
 * scratch buffer for its larger branch.  Semantics: docs/onnx.md
 * ("Values", "Control flow").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/expand.h"
#include "import/onnx_import.h"

/* ----------------------------------------------------- subgraphs (If) */

/* Bytes of the values computed inside graph gi (node outputs), the
 * nested If branches by the same rule; outer-scope names read are
 * marked read in the outer table. */
static int branch_bytes(struct onnx_import *s, int gi, uint64_t *bytes, int depth)
{
	const struct ab_onnx_graph *g = &s->m.graphs[gi];
	struct ab_strmap types;
	int rc = 0;

	*bytes = 0;
	if (depth > 16)
		return onnx_fail(s, -E2BIG, "If branches nested too deeply");
	if (ab_strmap_init(&types, g->n_infos + 1))
		return onnx_fail(s, -ENOMEM, "out of memory");
	for (size_t i = 0; i < g->n_infos; i++)
		ab_strmap_put(&types, g->infos[i].name, (int64_t)i);
	for (size_t i = 0; i < g->n_nodes && !rc; i++) {
		const struct ab_onnx_node *n = &g->nodes[i];
		if (!strcmp(n->op, "Loop") || !strcmp(n->op, "Scan")) {
			rc = onnx_fail(s, -EINVAL, "node '%s' (%s) inside an If branch: Loop and Scan are not planned (docs/onnx.md)",
				  n->name, n->op);
			break;
		}
		for (size_t k = 0; k < n->n_in; k++) {
			struct onnx_val *x = onnx_lookup(s, n->in[k]);
			if (x)
				x->read = true; /* outer scope (or shadowed: harmless) */
		}
		if (!strcmp(n->op, "Constant"))
			continue;
		for (size_t k = 0; k < n->n_attr; k++)
			if (n->attr[k].graph >= 0) {
				uint64_t b;
				rc = branch_bytes(s, n->attr[k].graph, &b, depth + 1);
				if (rc)
					break;
				*bytes += b;
			}
		for (size_t k = 0; k < n->n_out && !rc; k++) {
			int64_t j = n->out[k][0] ? ab_strmap_get(&types, n->out[k]) : -1;
			const struct ab_onnx_type *t = j >= 0 ? &g->infos[j].type : NULL;
			uint64_t b;
			unsigned bits = t ? ab_onnx_elem_bits(t->elem) : 0;
			bool ovf;
			if (!n->out[k][0])
				continue;
			if (!onnx_type_static(t) || !bits) {
				rc = onnx_fail(s, -EINVAL, "If branch '%s': value '%s' (output of node '%s', %s): shape unknown after inference (expected static branch values)",
					  g->name, n->out[k], n->name, n->op);
				break;
			}
			uint64_t c = onnx_type_count(t, &ovf);
			if (ovf || c > UINT64_MAX / bits) {
				rc = onnx_fail(s, -EOVERFLOW, "If branch value '%s': element count overflows 64 bits",
					  n->out[k]);
				break;
			}
			b = (c * bits + 7) / 8;
			if (*bytes > UINT64_MAX - b) {
				rc = onnx_fail(s, -EOVERFLOW, "If branch '%s': bytes overflow 64 bits", g->name);
				break;
			}
			*bytes += b;
		}
	}
	ab_strmap_free(&types);
	return rc;
}

/* ------------------------------------------------------------ the graph */

static bool elementwise(const char *op)
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
static char *clean_name(const char *s, const char *fallback, size_t idx)
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
	const struct ab_onnx_type *ty = x->type;
	char nb[300];
	const char *what = x->producer >= 0 ? onnx_node_name(s, x->producer, nb, sizeof(nb))
					    : x->is_input ? "the graph's inputs" : "the initializers";

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

static int build(struct onnx_import *s, struct ab_graph *out, struct ab_onnx_info *info)
{
	const struct ab_onnx_graph *g = &s->m.graphs[0];
	size_t n_ops = 0, n_t = 0, n_if = 0;
	int rc;

	for (size_t i = 0; i < g->n_nodes; i++) {
		const struct ab_onnx_node *n = &g->nodes[i];
		if (s->node_const[i]) {
			info->n_folded_nodes += strcmp(n->op, "Constant") != 0;
			continue;
		}
		n_ops++;
		n_if += !strcmp(n->op, "If");
		/* (names defined and in order: check_structure in onnx.c) */
		for (size_t k = 0; k < n->n_in; k++) {
			struct onnx_val *x = onnx_lookup(s, n->in[k]);
			if (x)
				x->read = true;
		}
	}
	if (!n_ops)
		return onnx_fail(s, -EINVAL, "no operator left to plan (every node is constant)");
	out->tensors = calloc(s->n_vals + n_if + 1, sizeof(*out->tensors));
	out->ops = calloc(n_ops, sizeof(*out->ops));
	if (!out->tensors || !out->ops)
		return onnx_fail(s, -ENOMEM, "out of memory");
	/* Subgraph outer reads mark values read before tensors are chosen. */
	uint64_t *if_bytes = calloc(g->n_nodes + 1, sizeof(*if_bytes));
	if (!if_bytes)
		return onnx_fail(s, -ENOMEM, "out of memory");
	for (size_t i = 0; i < g->n_nodes && n_if; i++) {
		const struct ab_onnx_node *n = &g->nodes[i];
		struct onnx_val *cond = n->n_in ? onnx_lookup(s, n->in[0]) : NULL;
		if (s->node_const[i] || strcmp(n->op, "If"))
			continue;
		for (size_t k = 0; k < n->n_attr; k++) {
			uint64_t b;
			bool then_b = !strcmp(n->attr[k].name, "then_branch");
			if (n->attr[k].graph < 0)
				continue;
			/* a constant condition: only the taken branch runs */
			if (cond && cond->has_data && cond->n_data == 1 &&
			    (cond->data[0] != 0) != then_b)
				continue;
			rc = branch_bytes(s, n->attr[k].graph, &b, 0);
			if (rc) {
				free(if_bytes);
				return rc;
			}
			if (b > if_bytes[i])
				if_bytes[i] = b;
		}
	}
	/* Tensors: inputs, consts read by an op, node outputs of ops. */
	for (size_t i = 0; i < s->n_vals; i++) {
		struct onnx_val *x = &s->v[i];
		bool op_out = x->producer >= 0 && !s->node_const[x->producer];
		if (!(x->is_input || op_out || (x->is_const && x->read) ||
		      (x->is_const && x->is_output)))
			continue;
		struct ab_tensor *t = &out->tensors[n_t];
		rc = size_tensor(s, x, t);
		if (rc) {
			free(if_bytes);
			return rc;
		}
		t->name = clean_name(x->name, "v", i);
		if (!t->name) {
			free(if_bytes);
			return onnx_fail(s, -ENOMEM, "out of memory");
		}
		t->align = 1;
		t->kind = x->is_const ? AB_KIND_CONST : x->is_input ? AB_KIND_INPUT
			: x->is_output ? AB_KIND_OUTPUT : AB_KIND_INTERMEDIATE;
		x->tensor = (int)n_t++;
		out->n_tensors = n_t;
	}
	/* Ops, in the file's order. */
	for (size_t i = 0; i < g->n_nodes; i++) {
		const struct ab_onnx_node *n = &g->nodes[i];
		if (s->node_const[i])
			continue;
		struct ab_op *o = &out->ops[out->n_ops++];
		o->name = clean_name(n->name, "node", i);
		o->type = n->domain[0] ? ab_strdupf("%s:%s", n->domain, n->op) : ab_strdupf("%s", n->op);
		o->inputs = calloc(n->n_in + 1, sizeof(int));
		o->outputs = calloc(n->n_out + 1, sizeof(int));
		o->scratch = calloc(1, sizeof(int));
		if (!o->name || !o->type || !o->inputs || !o->outputs || !o->scratch) {
			free(if_bytes);
			return onnx_fail(s, -ENOMEM, "out of memory");
		}
		for (size_t k = 0; k < n->n_in; k++) {
			struct onnx_val *x = onnx_lookup(s, n->in[k]);
			o->inputs[o->n_inputs++] = x ? x->tensor : -1;
		}
		for (size_t k = 0; k < n->n_out; k++) {
			struct onnx_val *x = onnx_lookup(s, n->out[k]);
			if (x && x->tensor >= 0)
				o->outputs[o->n_outputs++] = x->tensor;
		}
		if (elementwise(n->op))
			o->flags |= AB_OP_ELEMENTWISE;
		if (onnx_random_op(n->op))
			o->flags |= AB_OP_SIDE_EFFECT;
		if (!strcmp(n->op, "If") && if_bytes[i]) {
			struct ab_tensor *t = &out->tensors[out->n_tensors];
			t->name = ab_strdupf("%s:branch", o->name);
			if (!t->name) {
				free(if_bytes);
				return onnx_fail(s, -ENOMEM, "out of memory");
			}
			t->kind = AB_KIND_SCRATCH;
			t->dtype = AB_DTYPE_BYTES;
			t->rank = -1;
			t->bytes = if_bytes[i];
			t->align = 1;
			o->scratch[o->n_scratch++] = (int)out->n_tensors++;
		}
	}
	free(if_bytes);
	return 0;
}

/* Outer-scope values that If branches read become inputs of the If op
 * (they must stay live until it runs). */
static void collect_free(struct onnx_import *s, int gi, struct onnx_val **list, size_t *n, size_t cap)
{
	const struct ab_onnx_graph *g = &s->m.graphs[gi];

	for (size_t i = 0; i < g->n_nodes; i++) {
		const struct ab_onnx_node *nd = &g->nodes[i];
		for (size_t k = 0; k < nd->n_in; k++) {
			struct onnx_val *x = onnx_lookup(s, nd->in[k]);
			bool seen = false;
			if (!x)
				continue;
			for (size_t j = 0; j < *n; j++)
				seen |= list[j] == x;
			if (!seen && *n < cap)
				list[(*n)++] = x;
		}
		for (size_t k = 0; k < nd->n_attr; k++)
			if (nd->attr[k].graph >= 0)
				collect_free(s, nd->attr[k].graph, list, n, cap);
	}
	for (size_t i = 0; i < g->n_outputs; i++) {
		struct onnx_val *x = onnx_lookup(s, g->outputs[i].name);
		bool seen = false;
		for (size_t j = 0; x && j < *n; j++)
			seen |= list[j] == x;
		if (x && !seen && *n < cap)
			list[(*n)++] = x;
	}
}

static int add_if_inputs(struct onnx_import *s, struct ab_graph *out)
{
	const struct ab_onnx_graph *g = &s->m.graphs[0];
	size_t op = 0;

	for (size_t i = 0; i < g->n_nodes; i++) {
		const struct ab_onnx_node *n = &g->nodes[i];
		if (s->node_const[i])
			continue;
		struct ab_op *o = &out->ops[op++];
		if (strcmp(n->op, "If"))
			continue;
		struct onnx_val *list[256];
		size_t nl = 0;
		for (size_t k = 0; k < n->n_attr; k++)
			if (n->attr[k].graph >= 0)
				collect_free(s, n->attr[k].graph, list, &nl, 256);
		int *ni = realloc(o->inputs, ((size_t)o->n_inputs + nl + 1) * sizeof(int));
		if (!ni)
			return onnx_fail(s, -ENOMEM, "out of memory");
		o->inputs = ni;
		for (size_t j = 0; j < nl; j++) {
			if (list[j]->tensor < 0)
				continue;
			if (list[j]->producer >= (int)i)
				return onnx_fail(s, -EBADMSG, "If node '%s': a branch reads '%s' before it is written",
					    n->name, list[j]->name);
			o->inputs[o->n_inputs++] = list[j]->tensor;
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

	if (!rc)
		rc = add_if_inputs(s, out);
	if (rc)
		return rc;
	out->name = stem(s->path);
	out->family = ab_family_from_path(s->path, "onnx");
	out->source = ab_strdupf("%s", s->path);
	if (!out->name || !out->family || !out->source)
		return onnx_fail(s, -ENOMEM, "out of memory");
	return 0;
}
