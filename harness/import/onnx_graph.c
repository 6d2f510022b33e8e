/*
 * The ONNX importer's graph: a struct ab_graph of the nodes left after
 * folding (constant values are weights, not tensors of the arena), each
 * value sized from its inferred type, the subgraphs of If, Loop and Scan
 * inlined after their nodes (ONNX Runtime's rule).  Semantics: docs/onnx.md
 * ("Values", "Control flow").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/expand.h"
#include "import/onnx_import.h"

/* ------------------------------------------------- subgraphs: reads */

/* Outer-scope values that graph gi (and the graphs nested in it) reads are
 * marked read, so that a constant read only there is kept. */
static int mark_outer_reads(struct onnx_import *s, int gi, int depth)
{
	const struct ab_onnx_graph *g = &s->m.graphs[gi];

	if (depth > 16)
		return onnx_fail(s, -E2BIG, "subgraphs nested more than 16 deep");
	for (size_t i = 0; i < g->n_nodes; i++) {
		const struct ab_onnx_node *n = &g->nodes[i];

		for (size_t k = 0; k < n->n_in; k++) {
			struct onnx_val *x = onnx_lookup(s, n->in[k]);
			if (x)
				x->read = true; /* outer scope (or shadowed: harmless) */
		}
		for (size_t k = 0; k < n->n_attr; k++)
			if (n->attr[k].graph >= 0) {
				int rc = mark_outer_reads(s, n->attr[k].graph, depth + 1);
				if (rc)
					return rc;
			}
	}
	for (size_t i = 0; i < g->n_outputs; i++) {
		struct onnx_val *x = onnx_lookup(s, g->outputs[i].name);
		if (x)
			x->read = true;
	}
	return 0;
}

static bool control_flow(const char *op)
{
	return !strcmp(op, "If") || !strcmp(op, "Loop") || !strcmp(op, "Scan");
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

static int size_type(struct onnx_import *s, const struct onnx_val *x,
		     const char *what, struct ab_tensor *t);

static int size_tensor(struct onnx_import *s, const struct onnx_val *x, struct ab_tensor *t)
{
	char nb[300];
	const char *what = x->producer >= 0 ? onnx_node_name(s, x->producer, nb, sizeof(nb))
					    : x->is_input ? "the graph's inputs" : "the initializers";

	return size_type(s, x, what, t);
}

static int size_type(struct onnx_import *s, const struct onnx_val *x,
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

/* ------------------------------------------------- control flow */

/*
 * ONNX Runtime's rule for If, Loop and Scan (docs/onnx.md, "Control
 * flow"): a subgraph has its own plan, executed inside its node, and the
 * outer values it reads are implicit inputs of the node, live through it.
 * Here a subgraph is inlined after its node as arenabench does for TFLite
 * (docs/semantics.md, "Control flow"): SUBGRAPH_ENTER writes its inputs
 * (a Loop body's iteration number, condition and carried values, a Scan
 * body's state and slices), its nodes follow, SUBGRAPH_RETURN reads its
 * outputs and, after the node's last subgraph, the node's inputs (the
 * implicit ones included) and outputs.
 */
struct flow {
	struct onnx_import *s;
	struct ab_graph *out;
	size_t cap_t, cap_o, cap_sg;
};

struct scope {
	struct ab_strmap map;     /* name -> tensor, or -1 (a constant) */
	const struct scope *up;
};

/* The tensor a name denotes from scope sc outwards, -1 when it is no
 * arena tensor (a constant) or unknown. */
static int scope_tensor(struct onnx_import *s, const struct scope *sc, const char *name)
{
	struct onnx_val *x;

	if (!name || !name[0])
		return -1;
	for (; sc; sc = sc->up) {
		int64_t t = ab_strmap_get(&sc->map, name);
		if (t != -1)
			return t >= 0 ? (int)t - 1 : -1;
	}
	x = onnx_lookup(s, name);
	return x ? x->tensor : -1;
}

/* Whether a name is defined from scope sc outwards (a constant too). */
static bool scope_known(struct onnx_import *s, const struct scope *sc, const char *name)
{
	for (; sc; sc = sc->up)
		if (ab_strmap_get(&sc->map, name) != -1)
			return true;
	return onnx_lookup(s, name) != NULL;
}

static int scope_put(struct scope *sc, const char *name, int tensor)
{
	int rc = ab_strmap_put(&sc->map, name, (int64_t)tensor + 1);

	return rc == -EEXIST ? 0 : rc;
}

static struct ab_tensor *new_tensor(struct flow *f)
{
	struct ab_graph *g = f->out;

	if (g->n_tensors == f->cap_t) {
		size_t cap = 2 * f->cap_t + 16;
		struct ab_tensor *t = realloc(g->tensors, cap * sizeof(*t));
		if (!t)
			return NULL;
		g->tensors = t;
		f->cap_t = cap;
	}
	memset(&g->tensors[g->n_tensors], 0, sizeof(g->tensors[0]));
	return &g->tensors[g->n_tensors++];
}

static struct ab_op *new_op(struct flow *f)
{
	struct ab_graph *g = f->out;

	if (g->n_ops == f->cap_o) {
		size_t cap = 2 * f->cap_o + 16;
		struct ab_op *o = realloc(g->ops, cap * sizeof(*o));
		if (!o)
			return NULL;
		g->ops = o;
		f->cap_o = cap;
	}
	memset(&g->ops[g->n_ops], 0, sizeof(g->ops[0]));
	return &g->ops[g->n_ops++];
}

static struct ab_subgraph *new_subgraph(struct flow *f)
{
	struct ab_graph *g = f->out;

	if (g->n_subgraphs == f->cap_sg) {
		size_t cap = 2 * f->cap_sg + 4;
		struct ab_subgraph *d = realloc(g->subgraphs, cap * sizeof(*d));
		if (!d)
			return NULL;
		g->subgraphs = d;
		f->cap_sg = cap;
	}
	memset(&g->subgraphs[g->n_subgraphs], 0, sizeof(g->subgraphs[0]));
	return &g->subgraphs[g->n_subgraphs++];
}

static const struct ab_onnx_type *info_type(const struct ab_onnx_graph *g, const char *name)
{
	for (size_t i = 0; i < g->n_infos; i++)
		if (!strcmp(g->infos[i].name, name))
			return &g->infos[i].type;
	for (size_t i = 0; i < g->n_outputs; i++)
		if (!strcmp(g->outputs[i].name, name))
			return &g->outputs[i].type;
	return NULL;
}

/* Bytes of an outer value's tensor, 0 when none.  `drop` leading axes
 * (a scan axis, the iteration axis of a scan output) are divided out. */
static uint64_t outer_bytes(struct flow *f, const struct scope *sc, const char *name, int drop)
{
	int t = scope_tensor(f->s, sc, name);
	const struct ab_tensor *tt;
	uint64_t b;

	if (t < 0)
		return 0;
	tt = &f->out->tensors[t];
	b = tt->bytes;
	for (int k = 0; k < drop && tt->rank > k; k++)
		b = tt->dims[k] ? b / (uint64_t)tt->dims[k] : 0;
	return b;
}

/* What a Loop or Scan body's input or output i corresponds to outside,
 * for its size when inference leaves it open: Loop inputs (iteration,
 * condition, carried k = node input 2 + k), Loop outputs (condition,
 * carried k = node output k, scan output j = node output K + j less its
 * iteration axis); Scan (opset 9+) inputs (state k = node input k, scan
 * input j less its scan axis), outputs (state k = node output k, scan
 * output j less its iteration axis). */
static uint64_t body_fallback(struct flow *f, const struct scope *sc,
			      const struct ab_onnx_node *n, bool output, size_t i)
{
	const struct ab_onnx_graph *body = NULL;

	for (size_t k = 0; k < n->n_attr; k++)
		if (n->attr[k].graph >= 0)
			body = &f->s->m.graphs[n->attr[k].graph];
	if (!body)
		return 0;
	if (!strcmp(n->op, "Loop")) {
		size_t carried = n->n_in > 2 ? n->n_in - 2 : 0;

		if (!output && i >= 2 && i < n->n_in)
			return outer_bytes(f, sc, n->in[i], 0);
		if (output && i >= 1 && i - 1 < carried && i - 1 < n->n_out)
			return outer_bytes(f, sc, n->out[i - 1], 0);
		if (output && i >= 1 + carried && i - 1 < n->n_out)
			return outer_bytes(f, sc, n->out[i - 1], 1);
		return 0;
	}
	if (!strcmp(n->op, "Scan")) {
		int64_t n_scan = onnx_attr_i(n, "num_scan_inputs", 0);
		size_t n_state = n->n_in > (size_t)n_scan ? n->n_in - (size_t)n_scan : 0;

		if (!output && i < n->n_in)
			return outer_bytes(f, sc, n->in[i], i >= n_state ? 1 : 0);
		if (output && i < n->n_out)
			return outer_bytes(f, sc, n->out[i], i >= n_state ? 1 : 0);
	}
	return 0;
}

/* A tensor for value `name` of subgraph g (an input when is_input): its
 * inferred type, else what body_fallback says; refused naming the value
 * when neither gives a size. */
static int sub_tensor(struct flow *f, const struct scope *sc, const struct ab_onnx_node *n,
		      const struct ab_onnx_graph *g, const char *name, const struct ab_onnx_type *ty,
		      uint64_t fallback, const char *what, int *tensor)
{
	struct onnx_import *s = f->s;
	struct ab_tensor *t = new_tensor(f);
	struct onnx_val x = { .name = name, .producer = -1, .type = ty, .tensor = -1 };
	int rc;

	if (!t)
		return onnx_fail(s, -ENOMEM, "out of memory");
	*tensor = (int)f->out->n_tensors - 1;
	t->align = 1;
	t->kind = AB_KIND_INTERMEDIATE;
	t->name = clean_name(name, "v", f->out->n_tensors);
	if (!t->name)
		return onnx_fail(s, -ENOMEM, "out of memory");
	if (!onnx_type_static(ty) && fallback) {
		t->dtype = AB_DTYPE_BYTES;
		t->rank = -1;
		t->bytes = fallback;
		return 0;
	}
	if (!onnx_type_static(ty))
		return onnx_fail(s, -EINVAL, "value '%s' (%s, in subgraph '%s' of %s node '%s'): shape unknown after inference and --dim (expected a static shape; --dim NAME=VALUE sets the symbolic dimensions of graph inputs it depends on, when it depends on some)",
				 name, what, g->name, n->op, n->name);
	rc = size_type(s, &x, what, t);
	return rc;
}

static int flatten_node(struct flow *f, const struct scope *sc, const struct ab_onnx_node *n,
			int32_t k, int depth);

/* Names graph gi (and the graphs nested in it) reads, resolved from
 * scope sc outwards: appended to op k's inputs once each. */
static int scoped_reads(struct flow *f, const struct scope *sc, int gi, int32_t k, int depth)
{
	const struct ab_onnx_graph *g = &f->s->m.graphs[gi];

	if (depth > 16)
		return onnx_fail(f->s, -E2BIG, "subgraphs nested more than 16 deep");
	for (size_t i = 0; i <= g->n_nodes; i++) {
		const struct ab_onnx_node *n = i < g->n_nodes ? &g->nodes[i] : NULL;
		size_t m = n ? n->n_in : g->n_outputs;

		for (size_t q = 0; q < m; q++) {
			int t = scope_tensor(f->s, sc, n ? n->in[q] : g->outputs[q].name);
			struct ab_op *o = &f->out->ops[k];
			bool seen = t < 0;
			int *ni;

			for (int r = 0; !seen && r < o->n_inputs; r++)
				seen = o->inputs[r] == t;
			if (seen)
				continue;
			ni = realloc(o->inputs, ((size_t)o->n_inputs + 2) * sizeof(int));
			if (!ni)
				return onnx_fail(f->s, -ENOMEM, "out of memory");
			o->inputs = ni;
			o->inputs[o->n_inputs++] = t;
		}
		for (size_t a = 0; n && a < n->n_attr; a++)
			if (n->attr[a].graph >= 0) {
				int rc = scoped_reads(f, sc, n->attr[a].graph, k, depth + 1);
				if (rc)
					return rc;
			}
	}
	return 0;
}

/* A control-flow node inside a subgraph: the values of the enclosing
 * scopes its subgraphs read are its implicit inputs (ONNX Runtime keeps
 * them through the node), as add_implicit_inputs does in the main graph. */
static int add_scoped_implicit_inputs(struct flow *f, const struct scope *sc,
				      const struct ab_onnx_node *n, int32_t k)
{
	for (size_t a = 0; a < n->n_attr; a++)
		if (n->attr[a].graph >= 0) {
			int rc = scoped_reads(f, sc, n->attr[a].graph, k, 0);
			if (rc)
				return rc;
		}
	return 0;
}

/* The nodes of graph g, called by node pn, as operators of subgraph j,
 * in scope sc. */
static int emit_nodes(struct flow *f, struct scope *sc, const struct ab_onnx_graph *g,
		      const struct ab_onnx_node *pn, int32_t j, int depth)
{
	struct onnx_import *s = f->s;

	for (size_t i = 0; i < g->n_inits; i++)
		if (scope_put(sc, g->inits[i].name, -1))
			return onnx_fail(s, -ENOMEM, "out of memory");
	for (size_t i = 0; i < g->n_nodes; i++) {
		const struct ab_onnx_node *n = &g->nodes[i];
		struct ab_op *o;
		int32_t k;
		int rc;

		if (!strcmp(n->op, "Constant")) {
			for (size_t m = 0; m < n->n_out; m++)
				if (n->out[m][0] && scope_put(sc, n->out[m], -1))
					return onnx_fail(s, -ENOMEM, "out of memory");
			continue;
		}
		k = (int32_t)f->out->n_ops;
		o = new_op(f);
		if (!o)
			return onnx_fail(s, -ENOMEM, "out of memory");
		o->subgraph = j;
		o->name = clean_name(n->name, "node", i);
		o->type = n->domain[0] ? ab_strdupf("%s:%s", n->domain, n->op) : ab_strdupf("%s", n->op);
		o->inputs = calloc(n->n_in + 1, sizeof(int));
		o->outputs = calloc(n->n_out + 1, sizeof(int));
		if (!o->name || !o->type || !o->inputs || !o->outputs)
			return onnx_fail(s, -ENOMEM, "out of memory");
		for (size_t m = 0; m < n->n_in; m++) {
			if (n->in[m][0] && !scope_known(s, sc, n->in[m]))
				return onnx_fail(s, -EBADMSG, "node '%s' (%s) in subgraph '%s' of %s node '%s': input '%s' is not defined before it is read (no earlier node, input or initializer of the subgraph or an enclosing graph has that name)",
						 n->name, n->op, g->name, pn->op, pn->name, n->in[m]);
			o->inputs[o->n_inputs++] = scope_tensor(s, sc, n->in[m]);
		}
		if (elementwise(n->op))
			o->flags |= AB_OP_ELEMENTWISE;
		if (onnx_random_op(n->op))
			o->flags |= AB_OP_SIDE_EFFECT;
		for (size_t m = 0; m < n->n_out; m++) {
			char what[400];
			uint64_t fb = 0;
			int t;

			if (!n->out[m][0])
				continue;
			snprintf(what, sizeof(what), "output of node '%s' (%s)", n->name, n->op);
			/* a body output: the calling node's outer value may size it */
			for (size_t q = 0; q < g->n_outputs; q++)
				if (!strcmp(g->outputs[q].name, n->out[m]))
					fb = body_fallback(f, sc->up, pn, true, q);
			rc = sub_tensor(f, sc, pn, g, n->out[m], info_type(g, n->out[m]), fb, what, &t);
			if (rc)
				return rc;
			o = &f->out->ops[k]; /* new_tensor does not move ops */
			o->outputs[o->n_outputs++] = t;
			if (scope_put(sc, n->out[m], t))
				return onnx_fail(s, -ENOMEM, "out of memory");
		}
		if (control_flow(n->op)) {
			rc = add_scoped_implicit_inputs(f, sc, n, k);
			if (!rc)
				rc = flatten_node(f, sc, n, k, depth + 1);
			if (rc)
				return rc;
		}
	}
	return 0;
}

/* A pseudo-operator of subgraph j called by op k. */
static int pseudo(struct flow *f, int32_t j, int32_t k, bool enter, bool last)
{
	struct onnx_import *s = f->s;
	const struct ab_subgraph *sg = &f->out->subgraphs[j];
	struct ab_op *o = new_op(f);
	const struct ab_op *caller;
	int n = 0;

	if (!o)
		return onnx_fail(s, -ENOMEM, "out of memory");
	caller = &f->out->ops[k];
	o->call = enter ? AB_CALL_ENTER : AB_CALL_RETURN;
	o->caller = k;
	o->subgraph = j;
	o->flags = AB_OP_SIDE_EFFECT;
	o->name = ab_strdupf("%s/%s", sg->name, enter ? "enter" : "return");
	o->type = ab_strdupf("%s", enter ? "SUBGRAPH_ENTER" : "SUBGRAPH_RETURN");
	if (enter) {
		o->outputs = malloc(((size_t)sg->n_inputs + 1) * sizeof(int));
		if (o->outputs)
			for (int i = 0; i < sg->n_inputs; i++)
				o->outputs[n++] = sg->inputs[i];
		o->n_outputs = n;
	} else {
		size_t m = (size_t)sg->n_outputs + (last ? (size_t)caller->n_inputs + caller->n_outputs : 0);

		o->inputs = malloc((m + 1) * sizeof(int));
		if (o->inputs) {
			for (int i = 0; i < sg->n_outputs; i++)
				if (sg->outputs[i] >= 0)
					o->inputs[n++] = sg->outputs[i];
			for (int i = 0; last && i < caller->n_inputs; i++)
				o->inputs[n++] = caller->inputs[i];
			for (int i = 0; last && i < caller->n_outputs; i++)
				o->inputs[n++] = caller->outputs[i];
		}
		o->n_inputs = n;
	}
	if (!o->name || !o->type || (enter ? !o->outputs : !o->inputs))
		return onnx_fail(s, -ENOMEM, "out of memory");
	return 0;
}

/* The subgraphs node n (operator k) calls, inlined after it. */
static int flatten_node(struct flow *f, const struct scope *sc, const struct ab_onnx_node *n,
			int32_t k, int depth)
{
	struct onnx_import *s = f->s;
	int callee[2], nc = 0;
	struct onnx_val *cond = NULL;

	if (depth > 16)
		return onnx_fail(s, -E2BIG, "subgraphs nested more than 16 deep");
	if (!strcmp(n->op, "If")) {
		const struct ab_onnx_attr *a = onnx_attr(n, "then_branch"), *b = onnx_attr(n, "else_branch");

		cond = !sc && n->n_in ? onnx_lookup(s, n->in[0]) : NULL;
		/* a constant condition: only the taken branch runs */
		if (cond && !(cond->has_data && cond->n_data == 1))
			cond = NULL;
		if (a && a->graph >= 0 && (!cond || cond->data[0] != 0))
			callee[nc++] = a->graph;
		if (b && b->graph >= 0 && (!cond || cond->data[0] == 0))
			callee[nc++] = b->graph;
		f->out->ops[k].call = AB_CALL_IF;
	} else {
		const struct ab_onnx_attr *a = onnx_attr(n, "body");

		if (a && a->graph >= 0)
			callee[nc++] = a->graph;
		f->out->ops[k].call = AB_CALL_WHILE;
	}
	if (!nc)
		return onnx_fail(s, -EBADMSG, "%s node '%s' has no subgraph attribute (expected %s)",
				 n->op, n->name, !strcmp(n->op, "If") ? "then_branch and else_branch" : "body");
	for (int x = 0; x < nc; x++) {
		const struct ab_onnx_graph *g = &s->m.graphs[callee[x]];
		struct scope inner = { .up = sc };
		struct ab_subgraph *sg = new_subgraph(f);
		int32_t j = (int32_t)f->out->n_subgraphs - 1;
		int rc;

		if (!sg)
			return onnx_fail(s, -ENOMEM, "out of memory");
		sg->name = ab_strdupf("%s/%s", f->out->ops[k].name, g->name && g->name[0] ? g->name : "body");
		sg->first_tensor = f->out->n_tensors;
		sg->called = true;
		sg->inputs = malloc((g->n_inputs + 1) * sizeof(int));
		sg->outputs = malloc((g->n_outputs + 1) * sizeof(int));
		if (!sg->name || !sg->inputs || !sg->outputs ||
		    ab_strmap_init(&inner.map, g->n_inputs + g->n_nodes * 2 + g->n_inits + 4))
			return onnx_fail(s, -ENOMEM, "out of memory");
		for (size_t i = 0; i < g->n_inputs; i++) {
			int t;

			rc = sub_tensor(f, sc, n, g, g->inputs[i].name, &g->inputs[i].type,
					body_fallback(f, sc, n, false, i), "a subgraph input", &t);
			if (!rc && scope_put(&inner, g->inputs[i].name, t))
				rc = onnx_fail(s, -ENOMEM, "out of memory");
			if (rc) {
				ab_strmap_free(&inner.map);
				return rc;
			}
			sg = &f->out->subgraphs[j];
			sg->inputs[sg->n_inputs++] = t;
		}
		rc = pseudo(f, j, k, true, false);
		if (!rc)
			rc = emit_nodes(f, &inner, g, n, j, depth);
		if (!rc) {
			sg = &f->out->subgraphs[j];
			for (size_t i = 0; i < g->n_outputs; i++)
				sg->outputs[sg->n_outputs++] = scope_tensor(s, &inner, g->outputs[i].name);
			sg->n_tensors = f->out->n_tensors - sg->first_tensor;
			rc = pseudo(f, j, k, false, x == nc - 1);
		}
		ab_strmap_free(&inner.map);
		if (rc)
			return rc;
	}
	return 0;
}

/* Outer-scope values a subgraph reads, to be inputs of its node. */
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

/* The implicit inputs of control-flow node i (operator o). */
static int add_implicit_inputs(struct onnx_import *s, size_t i, struct ab_op *o)
{
	const struct ab_onnx_node *n = onnx_node(s, (int)i);
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
			return onnx_fail(s, -EBADMSG, "%s node '%s': a subgraph reads '%s' before it is written",
					 n->op, n->name, list[j]->name);
		o->inputs[o->n_inputs++] = list[j]->tensor;
	}
	return 0;
}

/* An If output whose shape inference leaves open (its branches' shapes
 * differ): the larger of the branches' static shapes is reserved. */
static uint64_t if_output_bytes(struct onnx_import *s, const struct ab_onnx_node *n, size_t k)
{
	uint64_t best = 0;

	for (size_t a = 0; a < n->n_attr; a++) {
		const struct ab_onnx_graph *g;
		const struct ab_onnx_type *t;
		struct onnx_val *x;

		if (n->attr[a].graph < 0)
			continue;
		g = &s->m.graphs[n->attr[a].graph];
		if (k >= g->n_outputs)
			continue;
		t = info_type(g, g->outputs[k].name);
		x = onnx_lookup(s, g->outputs[k].name);
		if (!onnx_type_static(t) && x)
			t = x->type;
		if (onnx_type_static(t) && ab_onnx_elem_bits(t->elem)) {
			bool ovf;
			uint64_t c = onnx_type_count(t, &ovf), bits = ab_onnx_elem_bits(t->elem);

			if (!ovf && c <= UINT64_MAX / 8 / bits && (c * bits + 7) / 8 > best)
				best = (c * bits + 7) / 8;
		}
	}
	return best;
}

/* A loop-carried output whose shape inference leaves open: the carried
 * value keeps the shape of its initial value (Loop: node input 2 + k,
 * Scan from opset 9: node input k), as ONNX requires of loop-carried
 * dependencies.  0 when that is not static either. */
static uint64_t carried_bytes(struct onnx_import *s, const struct ab_onnx_node *n, size_t k)
{
	size_t carried = n->n_in > 2 ? n->n_in - 2 : 0, at = k + 2;
	const struct ab_onnx_type *t;
	struct onnx_val *x;
	bool ovf;

	if (!strcmp(n->op, "Scan")) {
		int64_t n_scan = onnx_attr_i(n, "num_scan_inputs", 0);

		carried = n->n_in > (size_t)n_scan ? n->n_in - (size_t)n_scan : 0;
		at = k;
		if (s->m.opset && s->m.opset < 9)
			return 0;
	}
	if (k >= carried || at >= n->n_in || !(x = onnx_lookup(s, n->in[at])))
		return 0;
	t = x->type;
	if (!onnx_type_static(t) || !ab_onnx_elem_bits(t->elem))
		return 0;
	uint64_t c = onnx_type_count(t, &ovf), bits = ab_onnx_elem_bits(t->elem);
	return ovf || c > UINT64_MAX / 8 / bits ? 0 : (c * bits + 7) / 8;
}

/* ------------------------------------------------------------ the graph */

static int build(struct onnx_import *s, struct ab_graph *out, struct ab_onnx_info *info)
{
	const struct ab_onnx_graph *g = &s->m.graphs[0];
	struct flow f = { .s = s, .out = out };
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
		if (control_flow(n->op)) {
			n_cf++;
			for (size_t k = 0; k < n->n_attr; k++)
				if (n->attr[k].graph >= 0 && (rc = mark_outer_reads(s, n->attr[k].graph, 0)))
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
		const struct ab_onnx_node *pn = x->producer >= 0 ? onnx_node(s, x->producer) : NULL;
		uint64_t ifb = 0;

		if (op_out && !strcmp(pn->op, "If") && !onnx_type_static(x->type))
			for (size_t k = 0; k < pn->n_out; k++)
				if (!strcmp(pn->out[k], x->name))
					ifb = if_output_bytes(s, pn, k);
		if (op_out && !onnx_type_static(x->type) &&
		    (!strcmp(pn->op, "Loop") || !strcmp(pn->op, "Scan")))
			for (size_t k = 0; k < pn->n_out; k++)
				if (!strcmp(pn->out[k], x->name))
					ifb = carried_bytes(s, pn, k);
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
		t->name = clean_name(x->name, "v", i);
		if (!t->name)
			return onnx_fail(s, -ENOMEM, "out of memory");
		t->align = 1;
		t->kind = x->is_const ? AB_KIND_CONST : x->is_input ? AB_KIND_INPUT
			: x->is_output ? AB_KIND_OUTPUT : AB_KIND_INTERMEDIATE;
		x->tensor = (int)out->n_tensors++;
	}
	if (n_cf) {
		struct ab_subgraph *sg = new_subgraph(&f);
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
	}
	/* Ops, in the file's order, each control-flow node's subgraphs after it. */
	for (size_t i = 0; i < g->n_nodes; i++) {
		const struct ab_onnx_node *n = &g->nodes[i];
		if (s->node_const[i])
			continue;
		int32_t k = (int32_t)out->n_ops;
		struct ab_op *o = new_op(&f);
		if (!o)
			return onnx_fail(s, -ENOMEM, "out of memory");
		o->name = clean_name(n->name, "node", i);
		o->type = n->domain[0] ? ab_strdupf("%s:%s", n->domain, n->op) : ab_strdupf("%s", n->op);
		o->inputs = calloc(n->n_in + 1, sizeof(int));
		o->outputs = calloc(n->n_out + 1, sizeof(int));
		if (!o->name || !o->type || !o->inputs || !o->outputs)
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
		if (elementwise(n->op))
			o->flags |= AB_OP_ELEMENTWISE;
		if (onnx_random_op(n->op))
			o->flags |= AB_OP_SIDE_EFFECT;
		if (control_flow(n->op)) {
			rc = add_implicit_inputs(s, i, o);
			if (!rc)
				rc = flatten_node(&f, NULL, n, k, 0);
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
