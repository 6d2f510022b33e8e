/*
 * TFLite importer, control flow: the operators whose options name subgraphs
 * (IF, WHILE, CALL, CALL_ONCE and the StableHLO callers) and the root
 * subgraph with each callee inlined after its caller between ENTER and
 * RETURN pseudo-operators (docs/semantics.md, "Control flow").
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "import/tflite_import.h"

/*
 * Operators whose options name subgraphs (schema.fbs): IF (IfOptions, union
 * value 92: then, else), WHILE (WhileOptions, 93: cond, body), CALL_ONCE
 * (CallOnceOptions, 103: init), CALL (CallOptions, 16: subgraph); in
 * builtin_options_2, STABLEHLO_WHILE (15: cond, body), STABLEHLO_CASE
 * (23: a vector of branches) and the StableHLO operators that apply a
 * computation (reduce 6, scatter 7, reduce_window 13, sort 14, composite
 * 21), planned as calls of it.  {builtin, union, which options, field ids}.
 */
static const struct {
	int32_t builtin;
	uint8_t options_type;
	bool second; /* builtin_options_2 */
	uint8_t kind;
	int n;
	uint8_t field[2];
	bool vector; /* field[0] is a vector of subgraph indices */
} callers[] = {
	{ 118, 92, false, AB_CALL_IF, 2, { 0, 1 }, false },
	{ 119, 93, false, AB_CALL_WHILE, 2, { 0, 1 }, false },
	{ 129, 103, false, AB_CALL_ONCE, 1, { 0, 0 }, false },
	{ 31, 16, false, AB_CALL_EACH, 1, { 0, 0 }, false },
	{ 200, 15, true, AB_CALL_WHILE, 2, { 0, 1 }, false },
	{ 174, 6, true, AB_CALL_EACH, 1, { 1, 0 }, false },
	{ 190, 7, true, AB_CALL_EACH, 1, { 6, 0 }, false },
	{ 198, 13, true, AB_CALL_EACH, 1, { 5, 0 }, false },
	{ 199, 14, true, AB_CALL_EACH, 1, { 2, 0 }, false },
	{ -1, 21, true, AB_CALL_EACH, 1, { 1, 0 }, false }, /* composite */
	{ -1, 23, true, AB_CALL_IF, 0, { 0, 0 }, true },    /* case */
};

int tfl_read_callees(struct sg_state *s, const struct ab_fb_table *t,
		     int32_t builtin, const char *type, struct tfl_call *c)
{
	struct ab_fb *r = s->r;
	uint8_t ty[2];
	int rc;

	memset(c, 0, sizeof(*c));
	rc = ab_fb_get_u8(r, t, OP_OPTIONS_TYPE, "Operator.builtin_options_type",
			  0, &ty[0]);
	if (!rc)
		rc = ab_fb_get_u8(r, t, OP_OPTIONS2_TYPE,
				  "Operator.builtin_options_2_type", 0, &ty[1]);
	if (rc)
		return rc;
	for (size_t i = 0; i < sizeof(callers) / sizeof(callers[0]); i++) {
		struct ab_fb_table o;
		uint64_t at, pos;
		const char *what = callers[i].second ? "Operator.builtin_options_2"
						     : "Operator.builtin_options";

		if (callers[i].builtin >= 0 && callers[i].builtin != builtin)
			continue;
		if (ty[callers[i].second] != callers[i].options_type) {
			if (callers[i].builtin < 0)
				continue;
			return ab_fb_fail(r, -EBADMSG, "%s has options of union type %u (expected %u, the options that name its subgraphs)",
					  type, ty[callers[i].second],
					  callers[i].options_type);
		}
		rc = ab_fb_field(r, t, callers[i].second ? OP_OPTIONS2 : OP_OPTIONS,
				 4, what, &at);
		if (!rc && !at)
			return ab_fb_fail(r, -EBADMSG, "%s has no %s (expected the options that name its subgraphs)",
					  type, what);
		if (!rc)
			rc = ab_fb_follow(r, at, what, &pos);
		if (!rc)
			rc = ab_fb_table_at(r, pos, 3, what, &o);
		if (rc)
			return rc;
		c->kind = callers[i].kind;
		if (callers[i].vector) {
			struct ab_fb_vec v;

			rc = ab_fb_get_vec(r, &o, callers[i].field[0], 4,
					   "branch_subgraph_indices", &v);
			if (rc)
				return rc;
			if (v.len > TFL_MAX_CALLEES)
				return ab_fb_fail(r, -E2BIG, "%s names %u subgraphs (at most %d)",
						  type, v.len, TFL_MAX_CALLEES);
			for (uint32_t k = 0; k < v.len; k++)
				c->sub[c->n++] = ab_fb_vec_i32(r, &v, k);
		} else {
			for (int k = 0; k < callers[i].n; k++) {
				uint32_t x;

				rc = ab_fb_get_u32(r, &o, callers[i].field[k],
						   "subgraph index", 0, &x);
				if (rc)
					return rc;
				c->sub[c->n++] = (int32_t)x;
			}
		}
		if (c->n == 0)
			c->kind = AB_CALL_NONE;
		return 0;
	}
	return 0;
}
/* ----------------------------------------------------------- control flow */

/* Subgraph j's tensor count, name and declared inputs and outputs. */
static int sg_header(struct sg_state *s, const struct ab_fb_vec *subgraphs,
		     uint32_t j, uint32_t *n_tensors, struct ab_subgraph *d)
{
	struct ab_fb *r = s->r;
	struct ab_fb_table t;
	struct ab_fb_vec tv, io[2];
	const char *name;
	uint32_t len;
	int rc;

	ab_fb_set_ctx(r, "subgraph %" PRIu32, j);
	rc = ab_fb_vec_table(r, subgraphs, j, 1, "SubGraph", &t);
	if (!rc)
		rc = ab_fb_get_vec(r, &t, SG_TENSORS, 4, "SubGraph.tensors", &tv);
	if (!rc)
		rc = ab_fb_get_vec(r, &t, SG_INPUTS, 4, "SubGraph.inputs", &io[0]);
	if (!rc)
		rc = ab_fb_get_vec(r, &t, SG_OUTPUTS, 4, "SubGraph.outputs", &io[1]);
	if (!rc)
		rc = ab_fb_get_str(r, &t, SG_NAME, "SubGraph.name", &name, &len);
	if (rc)
		return rc;
	if (tv.len > TFL_MAX_TENSORS || io[0].len > TFL_MAX_LIST ||
	    io[1].len > TFL_MAX_LIST)
		return ab_fb_fail(r, -E2BIG, "%u tensors, %u inputs and %u outputs (limits %u, %u)",
				  tv.len, io[0].len, io[1].len, TFL_MAX_TENSORS, TFL_MAX_LIST);
	*n_tensors = tv.len;
	d->name = name && len ? tfl_copy_name(s, name, len) : tfl_fmt_str(s, "sg%" PRIu32, j);
	d->inputs = malloc(((size_t)io[0].len + 1) * sizeof(int));
	d->outputs = malloc(((size_t)io[1].len + 1) * sizeof(int));
	if (!d->name || !d->inputs || !d->outputs)
		return ab_fb_fail(r, -ENOMEM, "out of memory");
	for (int k = 0; k < 2; k++)
		for (uint32_t i = 0; i < io[k].len; i++) {
			int32_t x = ab_fb_vec_i32(r, &io[k], i);

			if (x < 0 || (uint32_t)x >= tv.len)
				return ab_fb_fail(r, -EBADMSG, "SubGraph.%s entry %u is tensor %" PRId32 " (expected 0..%d)",
						  k ? "outputs" : "inputs", i, x, (int)tv.len - 1);
			(k ? d->outputs : d->inputs)[i] = x;
		}
	d->n_inputs = (int)io[0].len;
	d->n_outputs = (int)io[1].len;
	return 0;
}

struct flat {
	struct sg_state *s;
	struct ab_graph *gs;      /* per subgraph, parsed when reached */
	struct tfl_call **calls;  /* per subgraph, per operator */
	struct ab_graph *out;
	size_t cap_ops;
	uint32_t n_sg;
};

/* Appends op (moved) to the flat graph, its tensors rebased by `base`. */
static struct ab_op *flat_push(struct flat *f, struct ab_op *op)
{
	struct ab_graph *g = f->out;

	if (g->n_ops == f->cap_ops) {
		size_t cap = f->cap_ops ? 2 * f->cap_ops : 64;
		struct ab_op *ops = realloc(g->ops, cap * sizeof(*ops));

		if (!ops)
			return NULL;
		g->ops = ops;
		f->cap_ops = cap;
	}
	g->ops[g->n_ops] = *op;
	memset(op, 0, sizeof(*op));
	return &g->ops[g->n_ops++];
}

static int flat_emit(struct flat *f, uint32_t j, int depth);

/* A pseudo-operator of callee c of flat operator k. */
static int flat_pseudo(struct flat *f, uint32_t c, int32_t k, bool enter,
		       bool last)
{
	struct ab_graph *g = f->out;
	const struct ab_subgraph *sg = &g->subgraphs[c];
	const struct ab_graph *cg = &f->gs[c];
	struct ab_op op = { 0 };
	int n = 0;

	op.call = enter ? AB_CALL_ENTER : AB_CALL_RETURN;
	op.caller = k;
	op.subgraph = (int32_t)c;
	op.flags = AB_OP_SIDE_EFFECT;
	op.name = tfl_fmt_str(f->s, "sg%" PRIu32 "/%s", c, enter ? "enter" : "return");
	op.type = tfl_fmt_str(f->s, "%s", enter ? "SUBGRAPH_ENTER" : "SUBGRAPH_RETURN");
	if (!op.name || !op.type) {
		free(op.name);
		free(op.type);
		return -ENOMEM;
	}
	if (enter) {
		/* the callee's inputs, and its outputs no operator of it
		 * writes (TFLite Micro creates both at the callee's first
		 * scope), once each; never a const or var */
		uint8_t *mark = calloc(sg->n_tensors + 1, 1);

		op.outputs = malloc(((size_t)sg->n_inputs + sg->n_outputs + 1) * sizeof(int));
		if (!mark || !op.outputs) {
			free(mark);
			goto nomem;
		}
		for (size_t i = 0; i < cg->n_ops; i++)
			for (int o = 0; o < cg->ops[i].n_outputs; o++)
				mark[cg->ops[i].outputs[o]] = 1;
		for (int pass = 0; pass < 2; pass++) {
			const int *v = pass ? sg->outputs : sg->inputs;
			int m = pass ? sg->n_outputs : sg->n_inputs;

			for (int i = 0; i < m; i++) {
				size_t t = (size_t)v[i];
				enum ab_tensor_kind kd = g->tensors[t].kind;

				if (mark[t - sg->first_tensor] ||
				    kd == AB_KIND_CONST || kd == AB_KIND_VAR)
					continue;
				mark[t - sg->first_tensor] = 1;
				op.outputs[n++] = (int)t;
			}
		}
		free(mark);
		op.n_outputs = n;
	} else {
		const struct ab_op *caller = &g->ops[k];
		int m = sg->n_outputs + (last ? caller->n_inputs + caller->n_outputs : 0);

		op.inputs = malloc(((size_t)m + 1) * sizeof(int));
		if (!op.inputs)
			goto nomem;
		for (int i = 0; i < sg->n_outputs; i++)
			op.inputs[n++] = sg->outputs[i];
		for (int i = 0; last && i < caller->n_inputs; i++)
			op.inputs[n++] = caller->inputs[i];
		for (int i = 0; last && i < caller->n_outputs; i++)
			op.inputs[n++] = caller->outputs[i];
		op.n_inputs = n;
	}
	if (flat_push(f, &op))
		return 0;
nomem:
	free(op.name);
	free(op.type);
	free(op.inputs);
	free(op.outputs);
	return -ENOMEM;
}

/* Subgraph j's operators into the flat list, each call followed by its
 * callees (ENTER, operators, RETURN), recursively. */
static int flat_emit(struct flat *f, uint32_t j, int depth)
{
	struct ab_fb *r = f->s->r;
	struct ab_graph *g = f->out, *sg = &f->gs[j];
	const size_t base = g->subgraphs[j].first_tensor;
	int rc;

	if (depth > 64)
		return ab_fb_fail(r, -E2BIG, "control flow nests more than 64 subgraphs deep");
	for (size_t i = 0; i < sg->n_ops; i++) {
		struct ab_op op = sg->ops[i];
		const struct tfl_call *c = &f->calls[j][i];
		struct ab_op *d;
		int32_t k;

		memset(&sg->ops[i], 0, sizeof(sg->ops[i]));
		for (int x = 0; x < op.n_inputs; x++)
			if (op.inputs[x] >= 0)
				op.inputs[x] += (int)base;
		for (int x = 0; x < op.n_outputs; x++)
			op.outputs[x] += (int)base;
		for (int x = 0; x < op.n_scratch; x++)
			op.scratch[x] += (int)base;
		if ((int)j != f->s->root) {
			char *nm = tfl_fmt_str(f->s, "sg%" PRIu32 "/%s", j, op.name);

			if (!nm) {
				free(op.name);
				return ab_fb_fail(r, -ENOMEM, "out of memory");
			}
			free(op.name);
			op.name = nm;
		}
		op.subgraph = (int32_t)j;
		op.call = c->kind;
		k = (int32_t)g->n_ops;
		d = flat_push(f, &op);
		if (!d)
			return ab_fb_fail(r, -ENOMEM, "out of memory");
		if (c->kind == AB_CALL_NONE)
			continue;
		ab_fb_set_ctx(r, "subgraph %" PRIu32 " operator %zu", j, i);
		if (d->n_scratch)
			return ab_fb_fail(r, -ENOTSUP, "%s lists intermediates (expected none on an operator that calls subgraphs: they would live through its callees)",
					  d->type);
		for (int x = 0; x < c->n; x++) {
			int32_t callee = c->sub[x];

			if (callee < 0 || (uint32_t)callee >= f->n_sg)
				return ab_fb_fail(r, -EBADMSG, "%s names subgraph %" PRId32 " (expected 0..%u)",
						  g->ops[k].type, callee, f->n_sg - 1);
			if (g->subgraphs[callee].called)
				return ab_fb_fail(r, -ENOTSUP, "%s calls subgraph %" PRId32 " '%s', which is already called elsewhere or is the root (expected each subgraph called from one place: recursion and shared subgraphs are not planned)",
						  g->ops[k].type, callee, g->subgraphs[callee].name);
			g->subgraphs[callee].called = true;
			rc = flat_pseudo(f, (uint32_t)callee, k, true, false);
			if (!rc)
				rc = flat_emit(f, (uint32_t)callee, depth + 1);
			if (!rc)
				rc = flat_pseudo(f, (uint32_t)callee, k, false,
						 x == c->n - 1);
			if (rc == -ENOMEM)
				return ab_fb_fail(r, rc, "out of memory");
			if (rc)
				return rc;
		}
	}
	return 0;
}

/* Subgraph j, parsed into f->gs[j] (its callees recorded), and its callees,
 * recursively; marks what the root reaches. */
static int flat_parse(struct flat *f, const struct ab_fb_table *model,
		      const struct ab_fb_vec *codes,
		      const struct ab_fb_vec *subgraphs, uint32_t j,
		      uint8_t *parsed, int depth)
{
	struct ab_fb_table t;
	int rc;

	if (parsed[j])
		return 0;
	if (depth > 64)
		return ab_fb_fail(f->s->r, -E2BIG, "control flow nests more than 64 subgraphs deep");
	parsed[j] = 1;
	f->s->sg = (int)j;
	ab_fb_set_ctx(f->s->r, "subgraph %" PRIu32, j);
	rc = ab_fb_vec_table(f->s->r, subgraphs, j, 1, "SubGraph", &t);
	if (!rc)
		rc = tfl_parse_subgraph(f->s, model, codes, &t, 0, &f->gs[j]);
	if (rc)
		return rc;
	f->calls[j] = f->s->calls;
	f->s->calls = NULL;
	for (size_t i = 0; i < f->gs[j].n_ops; i++)
		for (int x = 0; x < f->calls[j][i].n; x++) {
			int32_t c = f->calls[j][i].sub[x];

			if (c >= 0 && (uint32_t)c < f->n_sg) {
				rc = flat_parse(f, model, codes, subgraphs,
						(uint32_t)c, parsed, depth + 1);
				if (rc)
					return rc;
			}
		}
	return 0;
}

/*
 * A root subgraph with control flow: every subgraph's tensors in one list,
 * in subgraph order (tensor base_j + i, the order of TFLite Micro's
 * AllocationInfo and of the OfflineMemoryAllocation offsets), and the
 * operators of the root with each callee inlined after its caller
 * (docs/semantics.md, "Control flow").  Subgraphs the root does not reach
 * keep their tensors, unplanned (neither read nor written).  Names outside
 * the root get "sgJ/".  `out` holds the parsed root and is rebuilt.
 */
int tfl_flatten(struct sg_state *s, const struct ab_fb_table *model,
		const struct ab_fb_vec *codes,
		const struct ab_fb_vec *subgraphs, struct ab_graph *out)
{
	struct flat f = { .s = s, .n_sg = subgraphs->len };
	struct ab_graph g = { 0 };
	uint8_t *parsed = calloc(subgraphs->len + 1, 1);
	char root_name[sizeof(((struct ab_tflite_info *)0)->subgraph_name)];
	const int root = s->root;
	size_t total = 0;
	int rc = 0;

	root_name[0] = 0;
	if (s->info)
		memcpy(root_name, s->info->subgraph_name, sizeof(root_name));
	f.gs = calloc(subgraphs->len + 1, sizeof(*f.gs));
	f.calls = calloc(subgraphs->len + 1, sizeof(*f.calls));
	g.subgraphs = calloc(subgraphs->len + 1, sizeof(*g.subgraphs));
	if (!parsed || !f.gs || !f.calls || !g.subgraphs) {
		rc = ab_fb_fail(s->r, -ENOMEM, "out of memory");
		goto out;
	}
	g.n_subgraphs = subgraphs->len;
	f.gs[root] = *out;
	memset(out, 0, sizeof(*out));
	f.calls[root] = s->calls;
	s->calls = NULL;
	parsed[root] = 1;
	for (size_t i = 0; !rc && i < f.gs[root].n_ops; i++)
		for (int x = 0; !rc && x < f.calls[root][i].n; x++) {
			int32_t c = f.calls[root][i].sub[x];

			if (c >= 0 && (uint32_t)c < f.n_sg)
				rc = flat_parse(&f, model, codes, subgraphs,
						(uint32_t)c, parsed, 1);
		}
	for (uint32_t j = 0; !rc && j < subgraphs->len; j++) {
		uint32_t n = 0;

		rc = sg_header(s, subgraphs, j, &n, &g.subgraphs[j]);
		g.subgraphs[j].first_tensor = total;
		g.subgraphs[j].n_tensors = n;
		for (int i = 0; !rc && i < g.subgraphs[j].n_inputs; i++)
			g.subgraphs[j].inputs[i] += (int)total;
		for (int i = 0; !rc && i < g.subgraphs[j].n_outputs; i++)
			g.subgraphs[j].outputs[i] += (int)total;
		total += n;
	}
	if (!rc && total > TFL_MAX_TENSORS * 4ull)
		rc = ab_fb_fail(s->r, -E2BIG, "%zu tensors in all subgraphs (limit %u)",
				total, TFL_MAX_TENSORS * 4);
	if (!rc) {
		g.tensors = calloc(total + 1, sizeof(*g.tensors));
		if (!g.tensors)
			rc = ab_fb_fail(s->r, -ENOMEM, "out of memory");
	}
	for (uint32_t j = 0; !rc && j < subgraphs->len; j++) {
		const struct ab_subgraph *sd = &g.subgraphs[j];

		for (size_t i = 0; !rc && i < sd->n_tensors; i++) {
			struct ab_tensor *d = &g.tensors[sd->first_tensor + i];

			if (parsed[j]) {
				*d = f.gs[j].tensors[i];
				f.gs[j].tensors[i].name = NULL;
			} else {
				/* not reached: kept for the tensor order only */
				d->kind = AB_KIND_INTERMEDIATE;
				d->dtype = AB_DTYPE_BYTES;
				d->rank = -1;
				d->align = 1;
				d->name = tfl_fmt_str(s, "t%zu", i);
			}
			if ((int)j != root) {
				char *nm = d->name ? tfl_fmt_str(s, "sg%" PRIu32 "/%s", j, d->name) : NULL;

				free(d->name);
				d->name = nm;
				/* a callee's inputs and outputs are not the
				 * model's: its ENTER writes them */
				if (d->kind == AB_KIND_INPUT || d->kind == AB_KIND_OUTPUT)
					d->kind = AB_KIND_INTERMEDIATE;
				d->roles = 0;
			}
			g.n_tensors = sd->first_tensor + i + 1;
			if (!d->name)
				rc = ab_fb_fail(s->r, -ENOMEM, "out of memory");
		}
	}
	if (!rc) {
		struct flat *fp = &f;

		fp->out = &g;
		g.subgraphs[root].called = true;
		rc = flat_emit(fp, (uint32_t)root, 0);
	}
	if (!rc && s->info) {
		/* the offline plan covers the tensors of every subgraph */
		ab_tflite_info_free(s->info);
		s->info->has_offline_plan = false;
		rc = tfl_read_metadata(s, model, 0, total);
		memcpy(s->info->subgraph_name, root_name, sizeof(root_name));
	}
out:
	for (uint32_t j = 0; f.gs && j < subgraphs->len; j++) {
		ab_graph_free(&f.gs[j]);
		free(f.calls[j]);
	}
	free(f.gs);
	free(f.calls);
	free(parsed);
	if (rc) {
		ab_graph_free(&g);
		return rc;
	}
	*out = g;
	return 0;
}
