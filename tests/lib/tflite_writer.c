/*
 * FlatBuffers builder and .tflite fixture writer (see tflite_writer.h).
 *
 * Layout rules followed (public FlatBuffers format description):
 *  - little endian; scalars aligned to their size, vectors to 4 (or more),
 *    relative to the end of the buffer, and the finished buffer is padded
 *    so its size is a multiple of the largest alignment used;
 *  - a table is its fields, preceded by an soffset to its vtable; the
 *    vtable (u16 size, u16 table size, u16 offset per field id) is written
 *    just before the table, so soffset = table - vtable > 0.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tflite_writer.h"

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p) {
		fprintf(stderr, "tflite_writer: out of memory\n");
		abort();
	}
	return p;
}

void tfw_init(struct tfw *b)
{
	memset(b, 0, sizeof(*b));
	b->minalign = 1;
}

void tfw_free(struct tfw *b)
{
	free(b->buf);
	memset(b, 0, sizeof(*b));
}

/* Room for n more bytes in front of the current data. */
static void grow(struct tfw *b, size_t n)
{
	size_t ncap;
	uint8_t *nb;

	if (b->cap - b->len >= n)
		return;
	ncap = b->cap ? b->cap : 256;
	while (ncap - b->len < n)
		ncap *= 2;
	nb = xrealloc(NULL, ncap);
	if (b->len)
		memcpy(nb + ncap - b->len, b->buf + b->cap - b->len, b->len);
	free(b->buf);
	b->buf = nb;
	b->cap = ncap;
}

static void push(struct tfw *b, const void *p, size_t n)
{
	if (!n)
		return;
	grow(b, n);
	b->len += n;
	memcpy(b->buf + b->cap - b->len, p, n);
}

static void push_zero(struct tfw *b, size_t n)
{
	if (!n)
		return;
	grow(b, n);
	b->len += n;
	memset(b->buf + b->cap - b->len, 0, n);
}

/* Pads so that after `extra` more bytes the position is align-aligned. */
static void prep(struct tfw *b, size_t align, size_t extra)
{
	if (align > b->minalign)
		b->minalign = align;
	push_zero(b, (align - (b->len + extra) % align) % align);
}

static void push_le(struct tfw *b, uint64_t v, size_t n)
{
	uint8_t t[8];

	for (size_t i = 0; i < n; i++)
		t[i] = (uint8_t)(v >> (8 * i));
	push(b, t, n);
}

tfw_ref tfw_vec_u8(struct tfw *b, const uint8_t *v, size_t n, size_t align)
{
	prep(b, 4, n);
	if (align > 4)
		prep(b, align, n);
	push(b, v, n);
	push_le(b, n, 4);
	return (tfw_ref)b->len;
}

tfw_ref tfw_string(struct tfw *b, const char *s)
{
	size_t n = strlen(s);

	prep(b, 4, n + 1);
	push_zero(b, 1);
	push(b, s, n);
	push_le(b, n, 4);
	return (tfw_ref)b->len;
}

tfw_ref tfw_vec_i32_claim(struct tfw *b, const int32_t *v, size_t n,
			  uint32_t claimed)
{
	prep(b, 4, 4 * n);
	for (size_t i = n; i-- > 0;)
		push_le(b, (uint32_t)v[i], 4);
	push_le(b, claimed, 4);
	return (tfw_ref)b->len;
}

tfw_ref tfw_vec_i32(struct tfw *b, const int32_t *v, size_t n)
{
	return tfw_vec_i32_claim(b, v, n, (uint32_t)n);
}

tfw_ref tfw_vec_refs(struct tfw *b, const tfw_ref *v, size_t n)
{
	prep(b, 4, 4 * n);
	for (size_t i = n; i-- > 0;) {
		/* Element at (len + 4) from the end points to v[i]. */
		push_le(b, (uint32_t)(b->len + 4 - v[i]), 4);
	}
	push_le(b, n, 4);
	return (tfw_ref)b->len;
}

void tfw_start(struct tfw *b)
{
	b->n_fields = 0;
	b->table_start = b->len;
}

static void add_field(struct tfw *b, int id)
{
	if (b->n_fields == TFW_MAX_FIELDS || id < 0 || id >= 64) {
		fprintf(stderr, "tflite_writer: bad field %d\n", id);
		abort();
	}
	b->fields[b->n_fields].id = id;
	b->fields[b->n_fields].at = (tfw_ref)b->len;
	b->n_fields++;
}

void tfw_add_u8(struct tfw *b, int id, uint8_t v)
{
	push(b, &v, 1);
	add_field(b, id);
}

void tfw_add_u32(struct tfw *b, int id, uint32_t v)
{
	prep(b, 4, 4);
	push_le(b, v, 4);
	add_field(b, id);
}

void tfw_add_u64(struct tfw *b, int id, uint64_t v)
{
	prep(b, 8, 8);
	push_le(b, v, 8);
	add_field(b, id);
}

void tfw_add_ref(struct tfw *b, int id, tfw_ref r)
{
	prep(b, 4, 4);
	push_le(b, (uint32_t)(b->len + 4 - r), 4);
	add_field(b, id);
}

tfw_ref tfw_end(struct tfw *b)
{
	uint16_t slot[64] = { 0 };
	int max_id = -1;
	tfw_ref table, vt;

	prep(b, 4, 4);
	push_le(b, 0, 4); /* soffset, patched below */
	table = (tfw_ref)b->len;
	for (int i = 0; i < b->n_fields; i++) {
		int id = b->fields[i].id;

		slot[id] = (uint16_t)(table - b->fields[i].at);
		if (id > max_id)
			max_id = id;
	}
	for (int id = max_id; id >= 0; id--)
		push_le(b, slot[id], 2);
	push_le(b, table - b->table_start, 2);
	push_le(b, 4 + 2 * (max_id + 1), 2);
	vt = (tfw_ref)b->len;
	tfw_patch_u32(b, table, vt - table);
	b->n_fields = 0;
	return table;
}

void tfw_patch_u32(struct tfw *b, tfw_ref at, uint32_t v)
{
	uint8_t *p = b->buf + b->cap - at;

	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

uint8_t *tfw_finish(struct tfw *b, tfw_ref root, const char *ident,
		    size_t *len)
{
	uint8_t *out;

	prep(b, b->minalign > 4 ? b->minalign : 4, 8);
	push(b, ident, 4);
	push_le(b, (uint32_t)(b->len + 4 - root), 4);
	out = xrealloc(NULL, b->len);
	memcpy(out, b->buf + b->cap - b->len, b->len);
	*len = b->len;
	return out;
}

/* ------------------------------------------------------------ models */

/* Field ids from schema.fbs (declaration order; unions take two). */
enum { M_VERSION = 0, M_OPCODES = 1, M_SUBGRAPHS = 2, M_DESCRIPTION = 3,
       M_BUFFERS = 4, M_METADATA = 6 };
enum { SG_TENSORS = 0, SG_INPUTS = 1, SG_OUTPUTS = 2, SG_OPERATORS = 3,
       SG_NAME = 4 };
enum { T_SHAPE = 0, T_TYPE = 1, T_BUFFER = 2, T_NAME = 3, T_IS_VARIABLE = 5,
       T_SHAPE_SIGNATURE = 7 };
enum { OP_OPCODE_INDEX = 0, OP_INPUTS = 1, OP_OUTPUTS = 2,
       OP_MUTATING = 7, OP_INTERMEDIATES = 8 };
enum { OC_DEPRECATED = 0, OC_CUSTOM = 1, OC_VERSION = 2, OC_BUILTIN = 3 };
enum { B_DATA = 0, B_OFFSET = 1, B_SIZE = 2 };
enum { MD_NAME = 0, MD_BUFFER = 1 };

static tfw_ref build_tensor(struct tfw *b, const struct tfw_tensor *t)
{
	tfw_ref shape = 0, sig = 0, name = 0;

	if (t->rank >= 0)
		shape = tfw_vec_i32(b, t->shape, (size_t)t->rank);
	if (t->sig_rank > 0)
		sig = tfw_vec_i32(b, t->signature, (size_t)t->sig_rank);
	if (t->name)
		name = tfw_string(b, t->name);
	tfw_start(b);
	if (shape)
		tfw_add_ref(b, T_SHAPE, shape);
	if (sig)
		tfw_add_ref(b, T_SHAPE_SIGNATURE, sig);
	if (name)
		tfw_add_ref(b, T_NAME, name);
	tfw_add_u32(b, T_BUFFER, t->buffer);
	tfw_add_u8(b, T_TYPE, (uint8_t)t->type);
	if (t->is_variable)
		tfw_add_u8(b, T_IS_VARIABLE, 1);
	return tfw_end(b);
}

static tfw_ref build_op(struct tfw *b, const struct tfw_op *o)
{
	tfw_ref in = tfw_vec_i32(b, o->in, (size_t)o->n_in);
	tfw_ref out = tfw_vec_i32(b, o->out, (size_t)o->n_out);
	tfw_ref interm = 0, mut = 0, opts = 0;

	if (o->options_type) {
		tfw_start(b);
		for (int i = 0; i < o->n_sub; i++)
			tfw_add_u32(b, i, (uint32_t)o->sub[i]);
		opts = tfw_end(b);
	}
	if (o->n_interm)
		interm = tfw_vec_i32(b, o->interm, (size_t)o->n_interm);
	if (o->n_mutating)
		mut = tfw_vec_u8(b, o->mutating, (size_t)o->n_mutating, 1);
	tfw_start(b);
	tfw_add_ref(b, OP_INPUTS, in);
	tfw_add_ref(b, OP_OUTPUTS, out);
	if (interm)
		tfw_add_ref(b, OP_INTERMEDIATES, interm);
	if (mut)
		tfw_add_ref(b, OP_MUTATING, mut);
	if (opts) {
		tfw_add_ref(b, 4 /* builtin_options */, opts);
		tfw_add_u8(b, 3 /* builtin_options_type */, o->options_type);
	}
	tfw_add_u32(b, OP_OPCODE_INDEX, o->opcode);
	return tfw_end(b);
}

static tfw_ref build_subgraph(struct tfw *b, const struct tfw_subgraph *s)
{
	tfw_ref *refs = xrealloc(NULL, sizeof(*refs) *
				 (size_t)(s->n_tensors + s->n_ops + 1));
	tfw_ref tensors, ops, ins, outs, name = 0;

	for (int i = 0; i < s->n_tensors; i++)
		refs[i] = build_tensor(b, &s->tensors[i]);
	tensors = tfw_vec_refs(b, refs, (size_t)s->n_tensors);
	for (int i = 0; i < s->n_ops; i++)
		refs[i] = build_op(b, &s->ops[i]);
	ops = tfw_vec_refs(b, refs, (size_t)s->n_ops);
	free(refs);
	ins = tfw_vec_i32(b, s->inputs, (size_t)s->n_inputs);
	outs = tfw_vec_i32(b, s->outputs, (size_t)s->n_outputs);
	if (s->name)
		name = tfw_string(b, s->name);
	tfw_start(b);
	tfw_add_ref(b, SG_TENSORS, tensors);
	tfw_add_ref(b, SG_INPUTS, ins);
	tfw_add_ref(b, SG_OUTPUTS, outs);
	tfw_add_ref(b, SG_OPERATORS, ops);
	if (name)
		tfw_add_ref(b, SG_NAME, name);
	return tfw_end(b);
}

/* One flatbuffer; ext_at[i] is where external buffer i will be. */
static uint8_t *build_once(const struct tfw_model *m, const uint64_t *ext_at,
			   size_t *len)
{
	int n = m->n_opcodes + m->n_subgraphs + m->n_buffers + m->n_metadata;
	tfw_ref *refs = xrealloc(NULL, sizeof(*refs) * (size_t)(n + 1));
	tfw_ref opcodes, subgraphs, buffers, metadata = 0, desc = 0, model;
	struct tfw b;
	uint8_t *out;

	tfw_init(&b);
	for (int i = 0; i < m->n_opcodes; i++) {
		const struct tfw_opcode *c = &m->opcodes[i];
		tfw_ref cs = c->custom ? tfw_string(&b, c->custom) : 0;

		tfw_start(&b);
		if (cs)
			tfw_add_ref(&b, OC_CUSTOM, cs);
		if (c->builtin >= 0)
			tfw_add_u32(&b, OC_BUILTIN, (uint32_t)c->builtin);
		tfw_add_u32(&b, OC_VERSION, 1);
		tfw_add_u8(&b, OC_DEPRECATED, (uint8_t)c->deprecated);
		refs[i] = tfw_end(&b);
	}
	opcodes = tfw_vec_refs(&b, refs, (size_t)m->n_opcodes);
	for (int i = 0; i < m->n_subgraphs; i++)
		refs[i] = build_subgraph(&b, &m->subgraphs[i]);
	subgraphs = tfw_vec_refs(&b, refs, (size_t)m->n_subgraphs);
	for (int i = 0; i < m->n_buffers; i++) {
		const struct tfw_buffer *bf = &m->buffers[i];
		tfw_ref data = 0;

		if (bf->size && !bf->external)
			data = tfw_vec_u8(&b, bf->data, bf->size, 16);
		tfw_start(&b);
		if (bf->external) {
			tfw_add_u64(&b, B_OFFSET, ext_at[i]);
			tfw_add_u64(&b, B_SIZE, bf->size);
		}
		if (data)
			tfw_add_ref(&b, B_DATA, data);
		refs[i] = tfw_end(&b);
	}
	buffers = tfw_vec_refs(&b, refs, (size_t)m->n_buffers);
	if (m->n_metadata) {
		for (int i = 0; i < m->n_metadata; i++) {
			tfw_ref name = tfw_string(&b, m->metadata[i].name);

			tfw_start(&b);
			tfw_add_ref(&b, MD_NAME, name);
			tfw_add_u32(&b, MD_BUFFER, m->metadata[i].buffer);
			refs[i] = tfw_end(&b);
		}
		metadata = tfw_vec_refs(&b, refs, (size_t)m->n_metadata);
	}
	if (m->description)
		desc = tfw_string(&b, m->description);
	tfw_start(&b);
	tfw_add_u32(&b, M_VERSION, m->version);
	tfw_add_ref(&b, M_OPCODES, opcodes);
	tfw_add_ref(&b, M_SUBGRAPHS, subgraphs);
	tfw_add_ref(&b, M_BUFFERS, buffers);
	if (metadata)
		tfw_add_ref(&b, M_METADATA, metadata);
	if (desc)
		tfw_add_ref(&b, M_DESCRIPTION, desc);
	model = tfw_end(&b);
	out = tfw_finish(&b, model, "TFL3", len);
	tfw_free(&b);
	free(refs);
	return out;
}

uint8_t *tfw_build_model(const struct tfw_model *m, size_t *len)
{
	uint64_t *ext_at = calloc((size_t)m->n_buffers + 1, sizeof(*ext_at));
	uint8_t *fb;
	size_t fb_len, total;
	bool any = false;

	if (!ext_at)
		abort();
	/* First pass for the flatbuffer's size (offsets do not change it:
	 * the fields are always written), then place the data after it. */
	fb = build_once(m, ext_at, &fb_len);
	total = (fb_len + 15) & ~(size_t)15;
	for (int i = 0; i < m->n_buffers; i++) {
		if (!m->buffers[i].external)
			continue;
		any = true;
		ext_at[i] = total;
		total = (total + m->buffers[i].size + 15) & ~(size_t)15;
	}
	if (!any) {
		free(ext_at);
		*len = fb_len;
		return fb;
	}
	free(fb);
	fb = build_once(m, ext_at, &fb_len);
	fb = xrealloc(fb, total);
	memset(fb + fb_len, 0, total - fb_len);
	for (int i = 0; i < m->n_buffers; i++)
		if (m->buffers[i].external)
			memcpy(fb + ext_at[i], m->buffers[i].data,
			       m->buffers[i].size);
	free(ext_at);
	*len = total;
	return fb;
}

/* --------------------------------------------------------- fixtures */

/* TFW_FIX_THREE_OPS: 1x8x8x3 f32 -> CONV_2D (4 3x3 filters + bias) ->
 * RELU -> MAX_POOL_2D 2x2 -> 1x4x4x4.  The first opcode sets only the
 * legacy int8 field, as old converters did. */
static const uint8_t conv_w[4 * 3 * 3 * 3 * 4];
static const uint8_t conv_b[4 * 4];
static const struct tfw_opcode three_codes[] = {
	{ .builtin = -1, .deprecated = 3 },   /* CONV_2D */
	{ .builtin = 19, .deprecated = 19 },  /* RELU */
	{ .builtin = 17, .deprecated = 17 },  /* MAX_POOL_2D */
};
static const struct tfw_tensor three_tensors[] = {
	{ "input", TFW_FLOAT32, 4, { 1, 8, 8, 3 }, 0, { 0 }, 0, false },
	{ "conv/weights", TFW_FLOAT32, 4, { 4, 3, 3, 3 }, 0, { 0 }, 1, false },
	{ "conv/bias", TFW_INT32, 1, { 4 }, 0, { 0 }, 2, false },
	{ "conv/out", TFW_FLOAT32, 4, { 1, 8, 8, 4 }, 0, { 0 }, 0, false },
	{ "relu/out", TFW_FLOAT32, 4, { 1, 8, 8, 4 }, 0, { 0 }, 0, false },
	{ "pool/out", TFW_FLOAT32, 4, { 1, 4, 4, 4 }, 0, { 0 }, 0, false },
};
static const struct tfw_op three_ops[] = {
	{ .opcode = 0, .n_in = 3, .in = { 0, 1, 2 }, .n_out = 1, .out = { 3 } },
	{ .opcode = 1, .n_in = 1, .in = { 3 }, .n_out = 1, .out = { 4 } },
	{ .opcode = 2, .n_in = 1, .in = { 4 }, .n_out = 1, .out = { 5 } },
};
static const int32_t in0[] = { 0 };
static const int32_t three_out[] = { 5 };
static const struct tfw_subgraph three_sg = {
	.name = "main", .n_tensors = 6, .n_ops = 3, .n_inputs = 1,
	.n_outputs = 1, .tensors = three_tensors, .ops = three_ops,
	.inputs = in0, .outputs = three_out,
};
static const struct tfw_buffer three_bufs[] = {
	{ 0 },
	{ conv_w, sizeof(conv_w), false },
	{ conv_b, sizeof(conv_b), false },
};
static const struct tfw_model three_model = {
	.version = 3, .description = "arenabench fixture: three ops",
	.n_opcodes = 3, .n_subgraphs = 1, .n_buffers = 3,
	.opcodes = three_codes, .subgraphs = &three_sg, .buffers = three_bufs,
};

/* TFW_FIX_OPTIONAL_INPUT and TFW_FIX_EXTERNAL: FULLY_CONNECTED 1x16 int8
 * by 4x16 weights; the bias is absent (-1) or present and the weights are
 * stored outside the flatbuffer. */
static const uint8_t fc_w[4 * 16] = { 1, 2, 3, 4, 5, 6, 7, 8 };
static const uint8_t fc_b[4 * 4] = { 9, 9, 9, 9 };
static const struct tfw_opcode fc_codes[] = {
	{ .builtin = 9, .deprecated = 9 },    /* FULLY_CONNECTED */
};
static const struct tfw_tensor fc_tensors[] = {
	{ "x", TFW_INT8, 2, { 1, 16 }, 0, { 0 }, 0, false },
	{ "w", TFW_INT8, 2, { 4, 16 }, 0, { 0 }, 1, false },
	{ "y", TFW_INT8, 2, { 1, 4 }, 0, { 0 }, 0, false },
	{ "b", TFW_INT32, 1, { 4 }, 0, { 0 }, 2, false },
};
static const struct tfw_op fc_op_opt[] = {
	{ .opcode = 0, .n_in = 3, .in = { 0, 1, -1 }, .n_out = 1, .out = { 2 } },
};
static const struct tfw_op fc_op_bias[] = {
	{ .opcode = 0, .n_in = 3, .in = { 0, 1, 3 }, .n_out = 1, .out = { 2 } },
};
static const int32_t fc_out[] = { 2 };
static const struct tfw_subgraph fc_sg_opt = {
	.n_tensors = 3, .n_ops = 1, .n_inputs = 1, .n_outputs = 1,
	.tensors = fc_tensors, .ops = fc_op_opt, .inputs = in0,
	.outputs = fc_out,
};
static const struct tfw_subgraph fc_sg_bias = {
	.n_tensors = 4, .n_ops = 1, .n_inputs = 1, .n_outputs = 1,
	.tensors = fc_tensors, .ops = fc_op_bias, .inputs = in0,
	.outputs = fc_out,
};
static const struct tfw_buffer fc_bufs[] = {
	{ 0 }, { fc_w, sizeof(fc_w), false },
};
static const struct tfw_buffer ext_bufs[] = {
	{ 0 }, { fc_w, sizeof(fc_w), true }, { fc_b, sizeof(fc_b), false },
};
static const struct tfw_model fc_model = {
	.version = 3, .n_opcodes = 1, .n_subgraphs = 1, .n_buffers = 2,
	.opcodes = fc_codes, .subgraphs = &fc_sg_opt, .buffers = fc_bufs,
};
static const struct tfw_model ext_model = {
	.version = 3, .n_opcodes = 1, .n_subgraphs = 1, .n_buffers = 3,
	.opcodes = fc_codes, .subgraphs = &fc_sg_bias, .buffers = ext_bufs,
};

/* TFW_FIX_OFFLINE_PLAN: two MULs on 1x4 f32 and the offline plan
 * [version 1, 1 subgraph, 3 offsets: 0, 16, -1]. */
#define I32LE(v) (uint8_t)((uint32_t)(v)), (uint8_t)((uint32_t)(v) >> 8), \
		 (uint8_t)((uint32_t)(v) >> 16), (uint8_t)((uint32_t)(v) >> 24)
static const uint8_t offline_plan[] = {
	I32LE(1), I32LE(1), I32LE(3), I32LE(0), I32LE(16), I32LE(-1),
};
static const uint8_t runtime_version[] = { '1', '.', '5', '.', '0', 0 };
static const struct tfw_opcode mul_codes[] = {
	{ .builtin = 18, .deprecated = 18 },  /* MUL */
};
static const struct tfw_tensor mul_tensors[] = {
	{ "a", TFW_FLOAT32, 2, { 1, 4 }, 0, { 0 }, 0, false },
	{ "b", TFW_FLOAT32, 2, { 1, 4 }, 0, { 0 }, 0, false },
	{ "c", TFW_FLOAT32, 2, { 1, 4 }, 0, { 0 }, 0, false },
};
static const struct tfw_op mul_ops[] = {
	{ .opcode = 0, .n_in = 2, .in = { 0, 0 }, .n_out = 1, .out = { 1 } },
	{ .opcode = 0, .n_in = 2, .in = { 1, 1 }, .n_out = 1, .out = { 2 } },
};
static const int32_t mul_out[] = { 2 };
static const struct tfw_subgraph mul_sg = {
	.n_tensors = 3, .n_ops = 2, .n_inputs = 1, .n_outputs = 1,
	.tensors = mul_tensors, .ops = mul_ops, .inputs = in0,
	.outputs = mul_out,
};
static const struct tfw_buffer offline_bufs[] = {
	{ 0 },
	{ runtime_version, sizeof(runtime_version), false },
	{ offline_plan, sizeof(offline_plan), false },
};
static const struct tfw_metadata offline_meta[] = {
	{ "min_runtime_version", 1 },
	{ "OfflineMemoryAllocation", 2 },
};
static const struct tfw_model offline_model = {
	.version = 3, .n_opcodes = 1, .n_subgraphs = 1, .n_buffers = 3,
	.n_metadata = 2, .opcodes = mul_codes, .subgraphs = &mul_sg,
	.buffers = offline_bufs, .metadata = offline_meta,
};

/* TFW_FIX_DYNAMIC: RELU on f32 [1,10] with signature [-1,10]. */
static const struct tfw_tensor dyn_tensors[] = {
	{ "x", TFW_FLOAT32, 2, { 1, 10 }, 2, { -1, 10 }, 0, false },
	{ "y", TFW_FLOAT32, 2, { 1, 10 }, 2, { -1, 10 }, 0, false },
};
static const struct tfw_op relu_op[] = {
	{ .opcode = 0, .n_in = 1, .in = { 0 }, .n_out = 1, .out = { 1 } },
};
static const int32_t out1[] = { 1 };
static const struct tfw_subgraph dyn_sg = {
	.n_tensors = 2, .n_ops = 1, .n_inputs = 1, .n_outputs = 1,
	.tensors = dyn_tensors, .ops = relu_op, .inputs = in0, .outputs = out1,
};
static const struct tfw_opcode relu_codes[] = {
	{ .builtin = 19, .deprecated = 19 },
};
static const struct tfw_buffer empty_bufs[] = { { 0 } };
static const struct tfw_model dyn_model = {
	.version = 3, .n_opcodes = 1, .n_subgraphs = 1, .n_buffers = 1,
	.opcodes = relu_codes, .subgraphs = &dyn_sg, .buffers = empty_bufs,
};

/* TFW_FIX_STRING: string [2] -> CUSTOM "HashString" -> int32 [2]. */
static const struct tfw_opcode str_codes[] = {
	{ .builtin = 32, .deprecated = 32, .custom = "HashString" },
};
static const struct tfw_tensor str_tensors[] = {
	{ "text", TFW_STRING, 1, { 2 }, 0, { 0 }, 0, false },
	{ "hash", TFW_INT32, 1, { 2 }, 0, { 0 }, 0, false },
};
static const struct tfw_subgraph str_sg = {
	.n_tensors = 2, .n_ops = 1, .n_inputs = 1, .n_outputs = 1,
	.tensors = str_tensors, .ops = relu_op, .inputs = in0, .outputs = out1,
};
static const struct tfw_model str_model = {
	.version = 3, .n_opcodes = 1, .n_subgraphs = 1, .n_buffers = 1,
	.opcodes = str_codes, .subgraphs = &str_sg, .buffers = empty_bufs,
};

/* TFW_FIX_STATEFUL: subgraph 0 "main":
 *   op0 GELU (code 150 > 127: legacy field holds 127)  in0 -> t2
 *   op1 CUSTOM "My Op" in t2, var t1 -> t3, intermediates [t4],
 *       mutating_variable_inputs [0, 1]
 * names to sanitize ("in put", "x,y=z"), a missing name (t1), a
 * duplicate ("out" twice); subgraph 1 "init": ASSIGN_VARIABLE, TANH.
 * Offline plan over both subgraphs: 5 + 2 offsets. */
static const uint8_t stateful_plan[] = {
	I32LE(1), I32LE(2), I32LE(7),
	I32LE(0), I32LE(-1), I32LE(64), I32LE(128), I32LE(-1),
	I32LE(256), I32LE(-1),
};
static const struct tfw_opcode st_codes[] = {
	{ .builtin = 150, .deprecated = 127 },               /* GELU */
	{ .builtin = 32, .deprecated = 32, .custom = "My Op" },
	{ .builtin = 144, .deprecated = 127 },               /* ASSIGN_VARIABLE */
	{ .builtin = 28, .deprecated = 28 },                 /* TANH */
};
static const struct tfw_tensor st0_tensors[] = {
	{ "in put", TFW_FLOAT32, 2, { 1, 4 }, 0, { 0 }, 0, false },
	{ NULL, TFW_FLOAT32, 2, { 1, 4 }, 0, { 0 }, 0, true },
	{ "x,y=z", TFW_FLOAT32, 2, { 1, 4 }, 0, { 0 }, 0, false },
	{ "out", TFW_FLOAT32, 2, { 1, 4 }, 0, { 0 }, 0, false },
	{ "out", TFW_INT16, 1, { 8 }, 0, { 0 }, 0, false },
};
static const struct tfw_op st0_ops[] = {
	{ .opcode = 0, .n_in = 1, .in = { 0 }, .n_out = 1, .out = { 2 } },
	{ .opcode = 1, .n_in = 2, .in = { 2, 1 }, .n_out = 1, .out = { 3 },
	  .n_interm = 1, .interm = { 4 }, .n_mutating = 2,
	  .mutating = { 0, 1 } },
};
static const int32_t st0_out[] = { 3 };
static const struct tfw_tensor st1_tensors[] = {
	{ "a", TFW_FLOAT32, 1, { 2 }, 0, { 0 }, 0, false },
	{ "b", TFW_FLOAT32, 1, { 2 }, 0, { 0 }, 0, false },
};
static const struct tfw_op st1_ops[] = {
	{ .opcode = 2, .n_in = 1, .in = { 0 }, .n_out = 0 },
	{ .opcode = 3, .n_in = 1, .in = { 0 }, .n_out = 1, .out = { 1 } },
};
static const struct tfw_subgraph st_sgs[] = {
	{ .name = "main", .n_tensors = 5, .n_ops = 2, .n_inputs = 1,
	  .n_outputs = 1, .tensors = st0_tensors, .ops = st0_ops,
	  .inputs = in0, .outputs = st0_out },
	{ .name = "init", .n_tensors = 2, .n_ops = 2, .n_inputs = 1,
	  .n_outputs = 1, .tensors = st1_tensors, .ops = st1_ops,
	  .inputs = in0, .outputs = out1 },
};
static const struct tfw_buffer st_bufs[] = {
	{ 0 }, { stateful_plan, sizeof(stateful_plan), false },
};
static const struct tfw_metadata st_meta[] = {
	{ "OfflineMemoryAllocation", 1 },
};
static const struct tfw_model st_model = {
	.version = 3, .description = "stateful\nfixture",
	.n_opcodes = 4, .n_subgraphs = 2, .n_buffers = 2, .n_metadata = 1,
	.opcodes = st_codes, .subgraphs = st_sgs, .buffers = st_bufs,
	.metadata = st_meta,
};

/* TFW_FIX_CONTROL_FLOW: subgraph 0 "main": op0 IF(cond, x) -> y calling
 * 1 "then" (RELU) and 2 "else" (TANH); op1 WHILE(y) -> z calling 3
 * "cond" (LESS to a bool) and 4 "body" (RELU).  A seed for the fuzzers'
 * control-flow paths; tests/test_control_flow.c pins its own models. */
static const struct tfw_opcode cf_codes[] = {
	{ .builtin = 118, .deprecated = 118 }, /* IF */
	{ .builtin = 119, .deprecated = 119 }, /* WHILE */
	{ .builtin = 19, .deprecated = 19 },   /* RELU */
	{ .builtin = 28, .deprecated = 28 },   /* TANH */
	{ .builtin = 58, .deprecated = 58 },   /* LESS */
};
static const struct tfw_tensor cf0_tensors[] = {
	{ "cond", 6, 1, { 1 }, 0, { 0 }, 0, false },
	{ "x", TFW_FLOAT32, 1, { 4 }, 0, { 0 }, 0, false },
	{ "y", TFW_FLOAT32, 1, { 4 }, 0, { 0 }, 0, false },
	{ "z", TFW_FLOAT32, 1, { 4 }, 0, { 0 }, 0, false },
};
static const struct tfw_op cf0_ops[] = {
	{ .opcode = 0, .n_in = 2, .in = { 0, 1 }, .n_out = 1, .out = { 2 },
	  .options_type = 92, .n_sub = 2, .sub = { 1, 2 } },
	{ .opcode = 1, .n_in = 1, .in = { 2 }, .n_out = 1, .out = { 3 },
	  .options_type = 93, .n_sub = 2, .sub = { 3, 4 } },
};
static const int32_t cf0_in[] = { 0, 1 }, cf0_out[] = { 3 };
static const struct tfw_tensor cf_pair[] = {
	{ "a", TFW_FLOAT32, 1, { 4 }, 0, { 0 }, 0, false },
	{ "b", TFW_FLOAT32, 1, { 4 }, 0, { 0 }, 0, false },
};
static const struct tfw_tensor cf_cond_tensors[] = {
	{ "a", TFW_FLOAT32, 1, { 4 }, 0, { 0 }, 0, false },
	{ "p", 6, 1, { 1 }, 0, { 0 }, 0, false },
};
static const struct tfw_op cf_relu[] = {
	{ .opcode = 2, .n_in = 1, .in = { 0 }, .n_out = 1, .out = { 1 } },
};
static const struct tfw_op cf_tanh[] = {
	{ .opcode = 3, .n_in = 1, .in = { 0 }, .n_out = 1, .out = { 1 } },
};
static const struct tfw_op cf_less[] = {
	{ .opcode = 4, .n_in = 1, .in = { 0 }, .n_out = 1, .out = { 1 } },
};
static const int32_t cf_in[] = { 0 }, cf_out[] = { 1 };
static const struct tfw_subgraph cf_sgs[] = {
	{ "main", 4, 2, 2, 1, cf0_tensors, cf0_ops, cf0_in, cf0_out },
	{ "then", 2, 1, 1, 1, cf_pair, cf_relu, cf_in, cf_out },
	{ "else", 2, 1, 1, 1, cf_pair, cf_tanh, cf_in, cf_out },
	{ "cond", 2, 1, 1, 1, cf_cond_tensors, cf_less, cf_in, cf_out },
	{ "body", 2, 1, 1, 1, cf_pair, cf_relu, cf_in, cf_out },
};
static const struct tfw_model cf_model = {
	.version = 3, .description = "control flow",
	.n_opcodes = 5, .n_subgraphs = 5, .n_buffers = 1,
	.opcodes = cf_codes, .subgraphs = cf_sgs, .buffers = empty_bufs,
};

static const struct {
	const char *name;
	const struct tfw_model *model;
} fixtures[TFW_FIX_COUNT] = {
	[TFW_FIX_THREE_OPS] = { "three_ops", &three_model },
	[TFW_FIX_OPTIONAL_INPUT] = { "optional_input", &fc_model },
	[TFW_FIX_OFFLINE_PLAN] = { "offline_plan", &offline_model },
	[TFW_FIX_EXTERNAL] = { "external_buffer", &ext_model },
	[TFW_FIX_DYNAMIC] = { "dynamic_dim", &dyn_model },
	[TFW_FIX_STRING] = { "string_tensor", &str_model },
	[TFW_FIX_STATEFUL] = { "stateful", &st_model },
	[TFW_FIX_CONTROL_FLOW] = { "control_flow", &cf_model },
};

const char *tfw_fixture_name(int which)
{
	return which >= 0 && which < TFW_FIX_COUNT ? fixtures[which].name
						   : NULL;
}

const struct tfw_model *tfw_fixture_model(int which)
{
	return which >= 0 && which < TFW_FIX_COUNT ? fixtures[which].model
						   : NULL;
}

uint8_t *tfw_fixture(int which, size_t *len)
{
	const struct tfw_model *m = tfw_fixture_model(which);

	return m ? tfw_build_model(m, len) : NULL;
}
