/*
 * TFLite importer, one subgraph: its tensors (type, shape with the --dim
 * overrides of dynamic axes, byte size, kind from who reads and writes it)
 * and its operators (type, tensor lists, callees, flags, scratch), read
 * through the bounds-checked FlatBuffers reader with the limits of
 * tflite_import.h.  Rules: docs/tflite.md.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/tflite_import.h"
#include "core/strmap.h"


/*
 * Ops whose output may share a same-size input's storage (AB_OP_ELEMENTWISE):
 * element-by-element arithmetic and activations, (de)quantize and cast
 * (same size only when the element size is kept; the planner checks sizes),
 * and the reshape family, which only reinterprets the shape.
 */
static const int elementwise_ops[] = {
	0 /* ADD */, 41 /* SUB */, 18 /* MUL */, 42 /* DIV */,
	55 /* MAXIMUM */, 57 /* MINIMUM */, 99 /* SQUARED_DIFFERENCE */,
	78 /* POW */, 90 /* FLOOR_DIV */, 95 /* FLOOR_MOD */,
	19 /* RELU */, 20 /* RELU_N1_TO_1 */, 21 /* RELU6 */,
	152 /* RELU_0_TO_1 */, 98 /* LEAKY_RELU */, 54 /* PRELU */,
	14 /* LOGISTIC */, 28 /* TANH */, 117 /* HARD_SWISH */, 111 /* ELU */,
	150 /* GELU */, 47 /* EXP */, 73 /* LOG */, 75 /* SQRT */,
	76 /* RSQRT */, 92 /* SQUARE */, 101 /* ABS */, 59 /* NEG */,
	66 /* SIN */, 108 /* COS */, 8 /* FLOOR */, 104 /* CEIL */,
	116 /* ROUND */, 158 /* SIGN */, 87 /* LOGICAL_NOT */,
	114 /* QUANTIZE */, 6 /* DEQUANTIZE */, 53 /* CAST */,
	22 /* RESHAPE */, 43 /* SQUEEZE */, 70 /* EXPAND_DIMS */,
};

/* Ops that touch state (AB_OP_SIDE_EFFECT): resource variables, run-once
 * initialisation, hash tables and random number generators.  Ops that read
 * a `var` tensor or declare mutating_variable_inputs are added at run time. */
static const int side_effect_ops[] = {
	142 /* VAR_HANDLE */, 143 /* READ_VARIABLE */,
	144 /* ASSIGN_VARIABLE */, 129 /* CALL_ONCE */,
	136 /* HASHTABLE */, 137 /* HASHTABLE_FIND */,
	138 /* HASHTABLE_IMPORT */, 139 /* HASHTABLE_SIZE */,
	146 /* RANDOM_STANDARD_NORMAL */, 148 /* RANDOM_UNIFORM */,
	149 /* MULTINOMIAL */,
};

static bool in_list(const int *list, size_t n, int32_t code)
{
	for (size_t i = 0; i < n; i++)
		if (list[i] == code)
			return true;
	return false;
}

/* ------------------------------------------------------ TensorType table */

/* TensorType code -> dtype and element size in bits (0 = no storage).
 * Types arenabench has no name for are imported as `bytes`. */
struct ttype {
	const char *name;
	int dtype;     /* enum ab_dtype */
	unsigned bits; /* per element */
};

static const struct ttype tensor_types[] = {
	[0] = { "FLOAT32", AB_DTYPE_F32, 32 },
	[1] = { "FLOAT16", AB_DTYPE_F16, 16 },
	[2] = { "INT32", AB_DTYPE_I32, 32 },
	[3] = { "UINT8", AB_DTYPE_U8, 8 },
	[4] = { "INT64", AB_DTYPE_I64, 64 },
	[5] = { "STRING", AB_DTYPE_STRING, 0 },
	[6] = { "BOOL", AB_DTYPE_BOOL, 8 },
	[7] = { "INT16", AB_DTYPE_I16, 16 },
	[8] = { "COMPLEX64", AB_DTYPE_BYTES, 64 },
	[9] = { "INT8", AB_DTYPE_I8, 8 },
	[10] = { "FLOAT64", AB_DTYPE_F64, 64 },
	[11] = { "COMPLEX128", AB_DTYPE_BYTES, 128 },
	[12] = { "UINT64", AB_DTYPE_BYTES, 64 },
	[13] = { "RESOURCE", AB_DTYPE_BYTES, 32 }, /* holds a resource id */
	[14] = { "VARIANT", AB_DTYPE_BYTES, 0 },   /* owned outside arena */
	[15] = { "UINT32", AB_DTYPE_BYTES, 32 },
	[16] = { "UINT16", AB_DTYPE_BYTES, 16 },
	[17] = { "INT4", AB_DTYPE_BYTES, 4 },      /* packed two per byte */
	[18] = { "BFLOAT16", AB_DTYPE_BF16, 16 },  /* newer schema.fbs */
};

#define N_TTYPES (sizeof(tensor_types) / sizeof(tensor_types[0]))

/* ------------------------------------------------------------- tensors */

bool ab_dim_name_axis(const char *name, size_t *input_len, int *axis)
{
	const char *colon = strrchr(name, ':');
	long v = 0;

	if (!colon || colon == name || !colon[1] || strlen(colon + 1) > 6 ||
	    strspn(colon + 1, "0123456789") != strlen(colon + 1))
		return false;
	for (const char *c = colon + 1; *c; c++)
		v = v * 10 + (*c - '0');
	*input_len = (size_t)(colon - name);
	*axis = (int)v;
	return true;
}

bool ab_dim_matches_axis(const char *name, const char *raw, size_t raw_len,
			 const char *sanitized, int axis)
{
	size_t n;
	int a;

	if (!ab_dim_name_axis(name, &n, &a) || a != axis)
		return false;
	return (raw && n == raw_len && !memcmp(name, raw, n)) ||
	       (sanitized && strlen(sanitized) == n && !memcmp(name, sanitized, n));
}

/* Value of dynamic axis `axis` of tensor `name`: an override (its index
 * in *used), or -1.  NAME:AXIS first, then the tensor's name (all its
 * dynamic axes), then dN. */
static int64_t dim_override(const struct ab_tflite_options *opt,
			    const char *raw, uint32_t raw_len,
			    const char *name, int axis, uint32_t *used)
{
	char dn[16];
	size_t n;

	if (!opt)
		return -1;
	n = opt->n_dims < AB_TFLITE_MAX_DIMS ? opt->n_dims : AB_TFLITE_MAX_DIMS;
	snprintf(dn, sizeof(dn), "d%d", axis);
	for (size_t i = 0; i < n; i++)
		if (ab_dim_matches_axis(opt->dims[i].name, raw, raw_len, name, axis)) {
			*used |= 1u << i;
			return opt->dims[i].value;
		}
	for (size_t i = 0; i < n; i++) {
		const char *k = opt->dims[i].name;

		if (!strcmp(k, name) ||
		    (raw && strlen(k) == raw_len && !memcmp(k, raw, raw_len))) {
			*used |= 1u << i;
			return opt->dims[i].value;
		}
	}
	for (size_t i = 0; i < n; i++)
		if (!strcmp(opt->dims[i].name, dn)) {
			*used |= 1u << i;
			return opt->dims[i].value;
		}
	return -1;
}

/* Shape: the stored shape; dynamic axes (-1 in shape_signature) take a
 * --dim override when one matches (raw: the stored name, name: the
 * tensor's name in the graph). */
static int read_shape(struct sg_state *s, const struct ab_fb_vec *shape,
		      const struct ab_fb_vec *sig, const char *raw,
		      uint32_t raw_len, const char *name,
		      int64_t dims[TFL_MAX_RANK], int *rank)
{
	struct ab_fb *r = s->r;
	bool dynamic = false;

	*rank = (int)(shape->len ? shape->len : sig->len);
	if (shape->len > TFL_MAX_RANK || sig->len > TFL_MAX_RANK)
		return ab_fb_fail(r, -E2BIG, "rank %u exceeds the limit of %d dimensions",
				  shape->len > sig->len ? shape->len : sig->len,
				  TFL_MAX_RANK);
	if (shape->len && sig->len && sig->len != shape->len)
		return ab_fb_fail(r, -EBADMSG, "shape_signature has %u dimensions but shape has %u (expected the same rank)",
				  sig->len, shape->len);
	for (int i = 0; i < *rank; i++) {
		int64_t d = shape->len ? ab_fb_vec_i32(r, shape, (uint32_t)i)
				      : -1;
		int64_t sd = sig->len ? ab_fb_vec_i32(r, sig, (uint32_t)i) : d;

		if (sd == -1) {
			uint32_t used = 0;
			int64_t o = dim_override(s->opt, raw, raw_len,
						 name, i, &used);

			dynamic = true;
			if (o >= 0) {
				d = o;
				if (s->info) {
					s->info->used_dim_overrides = true;
					s->info->dims_used |= used;
				}
			}
			if (d < 0)
				return ab_fb_fail(r, -EINVAL, "dimension %d is dynamic (-1) and has no stored size: pass --dim %s:%d=VALUE, --dim %s=VALUE or --dim d%d=VALUE",
						  i, name, i, name, i);
		} else if (d < 0) {
			return ab_fb_fail(r, -EBADMSG, "dimension %d is %" PRId64 " (expected a size >= 0)",
					  i, d);
		}
		dims[i] = d;
	}
	if (dynamic && s->info)
		s->info->n_dynamic_tensors++;
	return 0;
}

/* Byte size of `rank` dims of type tt, with overflow checks: elements x
 * bits, rounded up to bytes. */
static int tensor_bytes(struct ab_fb *r, const int64_t *dims, int rank,
			const struct ttype *tt, uint64_t *bytes)
{
	uint64_t elems = 1, bits;

	for (int i = 0; i < rank; i++) {
		uint64_t d = (uint64_t)dims[i];

		if (d && elems > UINT64_MAX / d) {
			char shp[96];
			size_t o = 0;

			for (int k = 0; k < rank && o + 24 < sizeof(shp); k++)
				o += (size_t)snprintf(shp + o, sizeof(shp) - o,
						      "%s%" PRId64, k ? "x" : "",
						      dims[k]);
			return ab_fb_fail(r, -EOVERFLOW, "shape %s%s of %s: element count overflows 64 bits (expected a size that fits in memory)",
					  shp,
					  o + 24 >= sizeof(shp) ? "x..." : "",
					  tt->name);
		}
		elems *= d;
	}
	/* Bytes = ceil(elems x bits / 8), computed without losing range:
	 * whole groups of 8 elements take exactly `bits` bytes. */
	bits = tt->bits;
	if (bits && elems / 8 > UINT64_MAX / bits - 16)
		return ab_fb_fail(r, -EOVERFLOW, "%" PRIu64 " elements of %s: byte size overflows 64 bits (expected a size that fits in memory)",
				  elems, tt->name);
	*bytes = elems / 8 * bits + (elems % 8 * bits + 7) / 8;
	return 0;
}

static int read_tensor(struct sg_state *s, struct ab_fb_table *t, uint32_t idx,
		       struct ab_tensor *out)
{
	struct ab_fb *r = s->r;
	struct ab_fb_vec shape, sig;
	const char *raw;
	uint32_t raw_len, bufidx;
	uint8_t type, is_var;
	int64_t dims[TFL_MAX_RANK];
	uint64_t bytes = 0, dsize, dpos;
	const struct ttype *tt;
	bool ext;
	int rc, rank;

	rc = ab_fb_get_vec(r, t, T_SHAPE, 4, "Tensor.shape", &shape);
	if (!rc)
		rc = ab_fb_get_vec(r, t, T_SHAPE_SIGNATURE, 4,
				   "Tensor.shape_signature", &sig);
	if (!rc)
		rc = ab_fb_get_u8(r, t, T_TYPE, "Tensor.type", 0, &type);
	if (!rc)
		rc = ab_fb_get_u32(r, t, T_BUFFER, "Tensor.buffer", 0, &bufidx);
	if (!rc)
		rc = ab_fb_get_str(r, t, T_NAME, "Tensor.name", &raw, &raw_len);
	if (!rc)
		rc = ab_fb_get_u8(r, t, T_IS_VARIABLE, "Tensor.is_variable", 0,
				  &is_var);
	if (rc)
		return rc;

	out->name = raw_len ? tfl_copy_name(s, raw, raw_len)
			    : tfl_fmt_str(s, "t%" PRIu32, idx);
	if (!out->name)
		return ab_fb_fail(r, -ENOMEM, "out of memory (or more than %u bytes of names)",
				  TFL_MAX_STR_BYTES);
	ab_fb_set_ctx(r, "subgraph %d tensor %" PRIu32 " '%s'", s->sg, idx,
		      out->name);

	if (type >= N_TTYPES || !tensor_types[type].name)
		return ab_fb_fail(r, -EBADMSG, "unknown tensor type %u (expected a TensorType code 0..%zu)",
				  type, N_TTYPES - 1);
	tt = &tensor_types[type];

	rc = read_shape(s, &shape, &sig, raw, raw_len, out->name, dims, &rank);
	if (!rc)
		rc = tensor_bytes(r, dims, rank, tt, &bytes);
	if (rc)
		return rc;

	out->dtype = (enum ab_dtype)tt->dtype;
	out->align = 1;
	out->bytes = bytes;
	if (tt->dtype == AB_DTYPE_BYTES || rank > AB_MAX_RANK) {
		/* No arenabench element type (or too many axes for the
		 * graph): keep only the byte size. */
		out->dtype = AB_DTYPE_BYTES;
		out->rank = -1;
	} else {
		out->rank = rank;
		for (int i = 0; i < rank; i++)
			out->dims[i] = dims[i];
	}
	if (tt->dtype == AB_DTYPE_STRING) {
		/* Variable length: cannot be planned statically. */
		out->bytes = 0;
		if (s->info)
			s->info->n_string_tensors++;
	}

	/* Kind: see docs/tflite.md for the order of the rules. */
	rc = tfl_buffer_data(r, &s->bufs, bufidx, "Tensor.buffer", &dsize, &dpos,
			 &ext);
	if (rc)
		return rc;
	/* A tensor whose buffer holds data is a constant even when an
	 * operator lists it as an output: the structural check then refuses
	 * that write by operator and tensor, as for a .graph file (TFLite maps
	 * such a tensor read-only and never plans it in the arena). */
	if (is_var)
		out->kind = AB_KIND_VAR;
	else if (dsize)
		out->kind = AB_KIND_CONST;
	else if (s->role[idx] & R_IN)
		out->kind = AB_KIND_INPUT;
	else if (s->role[idx] & R_OUT)
		out->kind = AB_KIND_OUTPUT;
	else if ((s->role[idx] & (R_INTERM | R_READ | R_WRITTEN)) == R_INTERM)
		out->kind = AB_KIND_SCRATCH;
	else
		out->kind = AB_KIND_INTERMEDIATE;
	/* Both roles are kept whatever the kind (docs/semantics.md). */
	out->roles = (uint8_t)((s->role[idx] & R_IN ? AB_ROLE_GRAPH_INPUT : 0) |
			       (s->role[idx] & R_OUT ? AB_ROLE_GRAPH_OUTPUT : 0));
	if (out->kind == AB_KIND_CONST && !s->buf_seen[bufidx]) {
		s->buf_seen[bufidx] = 1;
		if (s->info) {
			s->info->weights_bytes += dsize;
			s->info->n_external_buffers += ext;
		}
	}
	return 0;
}

/* ----------------------------------------------------------- operators */

/* Operator type string: builtin name, CUSTOM:<name> or BUILTIN_<code>. */
static int op_type(struct sg_state *s, const struct ab_fb_vec *codes,
		   uint32_t ci, char **type, int32_t *builtin)
{
	struct ab_fb *r = s->r;
	struct ab_fb_table t;
	uint8_t dep;
	uint32_t code;
	const char *cname;
	uint32_t clen;
	int32_t b;
	int rc;

	if (ci >= codes->len)
		return ab_fb_fail(r, -EBADMSG, "opcode_index %u is out of range (the model has %u operator codes)",
				  ci, codes->len);
	rc = ab_fb_vec_table(r, codes, ci, 1, "OperatorCode", &t);
	if (!rc)
		rc = ab_fb_get_u8(r, &t, OC_DEPRECATED_BUILTIN_CODE,
				  "OperatorCode.deprecated_builtin_code", 0,
				  &dep);
	if (!rc)
		rc = ab_fb_get_u32(r, &t, OC_BUILTIN_CODE,
				   "OperatorCode.builtin_code", 0, &code);
	if (!rc)
		rc = ab_fb_get_str(r, &t, OC_CUSTOM_CODE,
				   "OperatorCode.custom_code", &cname, &clen);
	if (rc)
		return rc;
	/* As TFLite does: the larger of the int8 legacy field and the
	 * int32 field (old files only set the first, new ones both). */
	b = (int32_t)code > (int8_t)dep ? (int32_t)code : (int8_t)dep;
	*builtin = b;
	if (b == TFL_CUSTOM) {
		char buf[TFL_MAX_NAME + 8];
		uint32_t n = clen > TFL_MAX_NAME ? TFL_MAX_NAME : clen;

		snprintf(buf, sizeof(buf), "CUSTOM:%.*s", (int)n,
			 cname ? cname : "");
		if (!clen)
			snprintf(buf, sizeof(buf), "CUSTOM:unnamed");
		*type = tfl_copy_name(s, buf, (uint32_t)strlen(buf));
	} else if (ab_tflite_builtin_name(b)) {
		*type = tfl_copy_name(s, ab_tflite_builtin_name(b),
				  (uint32_t)strlen(ab_tflite_builtin_name(b)));
	} else {
		*type = tfl_fmt_str(s, "BUILTIN_%" PRId32, b);
	}
	if (!*type)
		return ab_fb_fail(r, -ENOMEM, "out of memory");
	return 0;
}

/* Copies an index vector, checking every entry against n_tensors. */
static int read_list(struct sg_state *s, const struct ab_fb_table *t,
		     unsigned id, const char *name, size_t n_tensors,
		     bool allow_absent, uint8_t mark, int **list, int *n)
{
	struct ab_fb *r = s->r;
	struct ab_fb_vec v;
	int rc = ab_fb_get_vec(r, t, id, 4, name, &v);
	int k = 0;

	*list = NULL;
	*n = 0;
	if (rc)
		return rc;
	if (v.len > TFL_MAX_LIST)
		return ab_fb_fail(r, -E2BIG, "'%s' lists %u tensors (limit %u)", name,
				  v.len, TFL_MAX_LIST);
	s->edges += v.len;
	if (s->edges > TFL_MAX_EDGES)
		return ab_fb_fail(r, -E2BIG, "operators list more than %u tensors in total",
				  TFL_MAX_EDGES);
	*list = malloc((v.len ? v.len : 1) * sizeof(**list));
	if (!*list)
		return ab_fb_fail(r, -ENOMEM, "out of memory");
	for (uint32_t i = 0; i < v.len; i++) {
		int32_t x = ab_fb_vec_i32(r, &v, i);

		if (x == -1 && allow_absent) {
			(*list)[k++] = -1;
			continue;
		}
		if (x == -1 && id == OP_OUTPUTS)
			continue; /* an absent optional output: not listed */
		if (x < 0 || (size_t)x >= n_tensors)
			return ab_fb_fail(r, -EBADMSG, "'%s' entry %u is tensor %" PRId32 " (expected 0..%zu%s)",
					  name, i, x,
					  n_tensors ? n_tensors - 1 : 0,
					  allow_absent ? " or -1" : "");
		s->role[x] |= mark;
		(*list)[k++] = x;
	}
	*n = k;
	return 0;
}


static int read_op(struct sg_state *s, const struct ab_fb_vec *codes,
		   const struct ab_fb_table *t, uint32_t idx, size_t n_tensors,
		   struct ab_op *op, int32_t *builtin, bool *mutates)
{
	struct ab_fb *r = s->r;
	struct ab_fb_vec mut;
	uint32_t ci;
	int rc;

	ab_fb_set_ctx(r, "subgraph %d operator %" PRIu32, s->sg, idx);
	op->name = tfl_fmt_str(s, "op%" PRIu32, idx);
	if (!op->name)
		return ab_fb_fail(r, -ENOMEM, "out of memory");
	rc = ab_fb_get_u32(r, t, OP_OPCODE_INDEX, "Operator.opcode_index", 0,
			   &ci);
	if (!rc)
		rc = op_type(s, codes, ci, &op->type, builtin);
	if (!rc)
		rc = read_list(s, t, OP_INPUTS, "Operator.inputs", n_tensors,
			       true, R_READ, &op->inputs, &op->n_inputs);
	if (!rc)
		rc = read_list(s, t, OP_OUTPUTS, "Operator.outputs", n_tensors,
			       false, R_WRITTEN, &op->outputs, &op->n_outputs);
	if (!rc)
		rc = read_list(s, t, OP_INTERMEDIATES, "Operator.intermediates",
			       n_tensors, false, R_INTERM, &op->scratch,
			       &op->n_scratch);
	if (!rc)
		rc = ab_fb_get_vec(r, t, OP_MUTATING_VARIABLE_INPUTS, 1,
				   "Operator.mutating_variable_inputs", &mut);
	if (rc)
		return rc;
	*mutates = false;
	for (uint32_t i = 0; i < mut.len; i++)
		if (ab_fb_vec_u8(r, &mut, i))
			*mutates = true;
	return tfl_read_callees(s, t, *builtin, op->type, &s->calls[idx]);
}


/* The subgraph's tensors into g->tensors, their names made unique. */
static int read_tensors(struct sg_state *s, const struct ab_fb_vec *tensors,
			struct ab_graph *g)
{
	struct ab_fb *r = s->r;
	struct ab_strmap names = { 0 };
	int rc;

	rc = ab_strmap_init(&names, tensors->len);
	if (rc)
		return ab_fb_fail(r, rc, "out of memory");
	for (uint32_t i = 0; i < tensors->len; i++) {
		struct ab_tensor *at = &g->tensors[i];
		struct ab_fb_table t;

		ab_fb_set_ctx(r, "subgraph %d tensor %" PRIu32, s->sg, i);
		rc = ab_fb_vec_table(r, tensors, i, 2, "Tensor", &t);
		if (!rc)
			rc = read_tensor(s, &t, i, at);
		if (rc)
			goto done;
		/* Duplicate names (legal in TFLite) get the index appended. */
		for (int tries = 0;
		     (rc = ab_strmap_put(&names, at->name, i)) == -EEXIST;
		     tries++) {
			char *u;

			if (tries == 4) {
				rc = ab_fb_fail(r, -EBADMSG, "cannot make the name '%s' unique",
						at->name);
				goto done;
			}
			u = tfl_fmt_str(s, "%s_t%" PRIu32, at->name, i);
			if (!u) {
				rc = ab_fb_fail(r, -ENOMEM, "out of memory");
				goto done;
			}
			free(at->name);
			at->name = u;
		}
		if (rc) {
			rc = ab_fb_fail(r, rc, "out of memory");
			goto done;
		}
	}
done:
	ab_strmap_free(&names);
	return rc;
}

/* Op flags and scratch lists, once the tensors' kinds are known. */
static void op_flags(struct sg_state *s, struct ab_graph *g,
		     const int32_t *builtin, const bool *mutates)
{
	for (uint32_t i = 0; i < g->n_ops; i++) {
		struct ab_op *op = &g->ops[i];
		int k = 0;

		if (in_list(elementwise_ops, sizeof(elementwise_ops) /
			    sizeof(elementwise_ops[0]), builtin[i]))
			op->flags |= AB_OP_ELEMENTWISE;
		if (mutates[i] ||
		    in_list(side_effect_ops, sizeof(side_effect_ops) /
			    sizeof(side_effect_ops[0]), builtin[i]))
			op->flags |= AB_OP_SIDE_EFFECT;
		for (int j = 0; j < op->n_inputs; j++)
			if (op->inputs[j] >= 0 &&
			    g->tensors[op->inputs[j]].kind == AB_KIND_VAR)
				op->flags |= AB_OP_SIDE_EFFECT;
		/* An op's internal tensors become its scratch when nothing
		 * else uses them; the first op listing one owns it. */
		for (int j = 0; j < op->n_scratch; j++) {
			int x = op->scratch[j];

			if (g->tensors[x].kind != AB_KIND_SCRATCH ||
			    (s->role[x] & R_CLAIMED))
				continue;
			s->role[x] |= R_CLAIMED;
			op->scratch[k++] = x;
		}
		op->n_scratch = k;
	}
}

int tfl_parse_subgraph(struct sg_state *s, const struct ab_fb_table *model,
		       const struct ab_fb_vec *codes,
		       const struct ab_fb_table *sgt, uint64_t base,
		       struct ab_graph *g)
{
	struct ab_fb *r = s->r;
	struct ab_fb_vec tensors, ins, outs, ops;
	int32_t *builtin = NULL;
	bool *mutates = NULL;
	const char *sname;
	uint32_t slen;
	int rc;

	ab_fb_set_ctx(r, "subgraph %d", s->sg);
	rc = ab_fb_get_vec(r, sgt, SG_TENSORS, 4, "SubGraph.tensors", &tensors);
	if (!rc)
		rc = ab_fb_get_vec(r, sgt, SG_INPUTS, 4, "SubGraph.inputs",
				   &ins);
	if (!rc)
		rc = ab_fb_get_vec(r, sgt, SG_OUTPUTS, 4, "SubGraph.outputs",
				   &outs);
	if (!rc)
		rc = ab_fb_get_vec(r, sgt, SG_OPERATORS, 4,
				   "SubGraph.operators", &ops);
	if (!rc)
		rc = ab_fb_get_str(r, sgt, SG_NAME, "SubGraph.name", &sname,
				   &slen);
	if (rc)
		return rc;
	if (s->info && sname)
		tfl_copy_text(s->info->subgraph_name,
			  sizeof(s->info->subgraph_name), sname, slen);
	if (tensors.len > TFL_MAX_TENSORS || ops.len > TFL_MAX_OPS)
		return ab_fb_fail(r, -E2BIG, "%u tensors and %u operators (limits %u and %u)",
				  tensors.len, ops.len, TFL_MAX_TENSORS,
				  TFL_MAX_OPS);

	free(s->role);
	free(s->calls);
	s->role = calloc(tensors.len + 1, 1);
	s->calls = calloc(ops.len + 1, sizeof(*s->calls));
	if (!s->buf_seen) /* weights: each buffer counted once per model */
		s->buf_seen = calloc(s->bufs.len + 1, 1);
	g->tensors = calloc(tensors.len + 1, sizeof(*g->tensors));
	g->ops = calloc(ops.len + 1, sizeof(*g->ops));
	builtin = calloc(ops.len + 1, sizeof(*builtin));
	mutates = calloc(ops.len + 1, sizeof(*mutates));
	if (!s->role || !s->calls || !s->buf_seen || !g->tensors || !g->ops ||
	    !builtin || !mutates) {
		rc = ab_fb_fail(r, -ENOMEM, "out of memory");
		goto out;
	}

	/* Subgraph inputs and outputs. */
	for (int pass = 0; pass < 2; pass++) {
		const struct ab_fb_vec *v = pass ? &outs : &ins;

		for (uint32_t i = 0; i < v->len; i++) {
			int32_t x = ab_fb_vec_i32(r, v, i);

			if (x < 0 || (uint32_t)x >= tensors.len) {
				rc = ab_fb_fail(r, -EBADMSG, "SubGraph.%s entry %u is tensor %" PRId32 " (expected 0..%d)",
						pass ? "outputs" : "inputs", i,
						x, (int)tensors.len - 1);
				goto out;
			}
			s->role[x] |= pass ? R_OUT : R_IN;
		}
	}

	/* Operators first: tensor kinds depend on who reads and writes. */
	g->n_ops = ops.len;
	for (uint32_t i = 0; i < ops.len; i++) {
		struct ab_fb_table t;

		ab_fb_set_ctx(r, "subgraph %d operator %" PRIu32, s->sg, i);
		rc = ab_fb_vec_table(r, &ops, i, 2, "Operator", &t);
		if (!rc)
			rc = read_op(s, codes, &t, i, tensors.len, &g->ops[i],
				     &builtin[i], &mutates[i]);
		if (rc)
			goto out;
	}

	g->n_tensors = tensors.len;
	rc = read_tensors(s, &tensors, g);
	if (rc)
		goto out;
	op_flags(s, g, builtin, mutates);

	if (ops.len == 0 && s->sg == s->root) { /* after the tensors */
		ab_fb_set_ctx(r, "subgraph %d", s->sg);
		rc = ab_fb_fail(r, -EINVAL, "no operators (expected at least one operator to plan; the subgraph is named '%.*s')",
				sname ? (int)(slen > 64 ? 64 : slen) : 1, sname ? sname : "?");
		goto out;
	}
	if (s->sg == s->root)
		rc = tfl_read_metadata(s, model, base, tensors.len);
out:
	free(builtin);
	free(mutates);
	return rc;
}

