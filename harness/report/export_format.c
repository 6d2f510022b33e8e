/*
 * The OfflineMemoryAllocation format: ab_export_attach puts int32 plan
 * words into a copy of a .tflite model as TFLite Micro's offline-plan
 * metadata (export.h; docs/export.md).  Only bytes in, bytes out: the plan
 * itself and the command are harness/report/export.c.
 *
 * Why a prepended header and not a re-serialized model: a FlatBuffer is
 * [uoffset to the root table]["TFL3"][...], uoffsets are unsigned and point
 * forward, and only vtable offsets are signed.  So new tables placed in
 * front of the original file can refer forward into it, and the original's
 * own offsets, all relative, stay valid when the whole file moves by S
 * bytes.  S is a multiple of 16, so every original byte keeps its
 * alignment modulo 16 (schema.fbs: Buffer.data has force_align 16).  The
 * original root table and header become unreferenced bytes.
 *
 * The header, front to back (positions from the start of the new file):
 *    0  u32  root uoffset -> the new Model table
 *    4       "TFL3"
 *    8       Model vtable: u16 20, u16 table size, u16 x 8 (field ids 0..7)
 *   28       Model table: i32 soffset 20, then one 4-byte slot per present
 *            field in id order: version (value), operator_codes,
 *            subgraphs, description, buffers (new), metadata_buffer,
 *            metadata (new), signature_defs (uoffsets)
 *    B       buffers: u32 count, uoffsets to the original Buffer tables,
 *            then to the new Buffer
 *    M       metadata: u32 count, uoffsets to the original Metadata tables
 *            except OfflineMemoryAllocation ones, then to the new entry
 *            Metadata vtable u16 8, 12, 4, 8; table: i32 8, name, buffer
 *            Buffer vtable u16 8, 8, 4, 0; table: i32 8, data
 *            name: u32 23, "OfflineMemoryAllocation", NUL
 *            zero padding so that the data starts at a multiple of 16
 *    D-4     data: u32 4 x words, the int32 words
 *            zero padding to S, a multiple of 16; then the original file.
 *
 * The shared bounds-checked FlatBuffers reader (flatbuf.h) finds what the
 * header refers to; this file does not decode the graph (harness/import/tflite.c
 * does, and the export reads its own output back with it before writing).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report/export.h"
#include "import/flatbuf.h"
#include "core/textio.h"

#define OFFLINE_NAME "OfflineMemoryAllocation"
#define OFFLINE_NAME_LEN (sizeof(OFFLINE_NAME) - 1)

/* Field ids, declaration order of tensorflow/lite/schema/schema.fbs. */
enum { MODEL_VERSION = 0, MODEL_OPCODES = 1, MODEL_SUBGRAPHS = 2,
       MODEL_DESCRIPTION = 3, MODEL_BUFFERS = 4, MODEL_METADATA_BUFFER = 5,
       MODEL_METADATA = 6, MODEL_SIGNATURE_DEFS = 7, MODEL_FIELDS = 8 };
enum { SG_TENSORS = 0, SG_OPERATORS = 3 };
enum { OP_LARGE_CUSTOM_OPTIONS_OFFSET = 9 };
enum { BUF_DATA = 0, BUF_OFFSET = 1 };
enum { META_NAME = 0, META_BUFFER = 1 };

/* The header's fixed part (see the layout above). */
#define H_MODEL_VT 8
#define H_MODEL_VT_LEN (4 + 2 * MODEL_FIELDS)
#define H_MODEL 28

/* Field names for messages, by id. */
static const char *const model_field_names[MODEL_FIELDS] = {
	"Model.version", "Model.operator_codes", "Model.subgraphs",
	"Model.description", "Model.buffers", "Model.metadata_buffer",
	"Model.metadata", "Model.signature_defs",
};

/* ------------------------------------------------- the source model */

struct src_model {
	struct ab_fb_table model;
	bool has[MODEL_FIELDS];
	uint32_t version;
	uint64_t target[MODEL_FIELDS]; /* where each offset field points */
	uint32_t n_buffers;
	uint64_t *buffer;              /* Buffer table positions */
	uint32_t n_meta, n_kept;
	uint64_t *meta;                /* Metadata table positions */
	bool *meta_offline;            /* named OfflineMemoryAllocation */
	uint64_t n_tensors;            /* all subgraphs together */
};

static void src_free(struct src_model *s)
{
	free(s->buffer);
	free(s->meta);
	free(s->meta_offline);
}

/* Subgraph tensor counts, and no operator with data addressed from the
 * start of the file. */
static int scan_subgraphs(const struct ab_fb *r, struct src_model *s)
{
	struct ab_fb_vec subgraphs;
	int rc = ab_fb_get_vec(r, &s->model, MODEL_SUBGRAPHS, 4,
			       "Model.subgraphs", &subgraphs);

	for (uint32_t g = 0; !rc && g < subgraphs.len; g++) {
		struct ab_fb_table sg;
		struct ab_fb_vec tensors = { 0 }, ops = { 0 };

		rc = ab_fb_vec_table(r, &subgraphs, g, 1, "SubGraph", &sg);
		if (!rc)
			rc = ab_fb_get_vec(r, &sg, SG_TENSORS, 4,
					   "SubGraph.tensors", &tensors);
		if (!rc)
			rc = ab_fb_get_vec(r, &sg, SG_OPERATORS, 4,
					   "SubGraph.operators", &ops);
		s->n_tensors += tensors.len;
		for (uint32_t k = 0; !rc && k < ops.len; k++) {
			struct ab_fb_table op;
			uint64_t off;

			rc = ab_fb_vec_table(r, &ops, k, 2, "Operator", &op);
			if (!rc)
				rc = ab_fb_get_u64(r, &op,
						   OP_LARGE_CUSTOM_OPTIONS_OFFSET,
						   "Operator.large_custom_options_offset",
						   &off);
			if (!rc && off > 1)
				rc = ab_fb_fail(r, -ENOTSUP, "subgraph %" PRIu32 " operator %" PRIu32 " keeps its custom options outside the flatbuffer (large_custom_options_offset %" PRIu64 ", the layout of models over 2 GB): putting a header in front would move the bytes that offset addresses; export supports models whose data is inside the flatbuffer",
						g, k, off);
		}
	}
	return rc;
}

static int scan_metadata(const struct ab_fb *r, struct src_model *s)
{
	struct ab_fb_vec meta;
	int rc = ab_fb_get_vec(r, &s->model, MODEL_METADATA, 4,
			       "Model.metadata", &meta);

	if (rc)
		return rc;
	s->n_meta = meta.len;
	s->meta = malloc(((size_t)s->n_meta + 1) * sizeof(*s->meta));
	s->meta_offline = calloc((size_t)s->n_meta + 1,
				 sizeof(*s->meta_offline));
	if (!s->meta || !s->meta_offline)
		return ab_fb_fail(r, -ENOMEM, "out of memory");
	for (uint32_t i = 0; i < s->n_meta; i++) {
		struct ab_fb_table t;
		const char *name;
		uint32_t len;

		rc = ab_fb_vec_table(r, &meta, i, 1, "Metadata", &t);
		if (!rc)
			rc = ab_fb_get_str(r, &t, META_NAME, "Metadata.name",
					   &name, &len);
		if (rc)
			return rc;
		s->meta[i] = t.pos;
		/* The name test TFLite Micro applies: same length, same bytes. */
		s->meta_offline[i] = name && len == OFFLINE_NAME_LEN &&
				     !memcmp(name, OFFLINE_NAME, len);
		s->n_kept += !s->meta_offline[i];
	}
	return 0;
}

static int scan_buffers(const struct ab_fb *r, struct src_model *s)
{
	struct ab_fb_vec buffers;
	int rc = ab_fb_get_vec(r, &s->model, MODEL_BUFFERS, 4, "Model.buffers",
			       &buffers);

	if (rc)
		return rc;
	s->n_buffers = buffers.len;
	if (!s->n_buffers)
		return ab_fb_fail(r, -EBADMSG, "Model.buffers is empty (expected at least buffer 0, the empty sentinel)");
	s->buffer = malloc((size_t)s->n_buffers * sizeof(*s->buffer));
	if (!s->buffer)
		return ab_fb_fail(r, -ENOMEM, "out of memory");
	for (uint32_t i = 0; i < s->n_buffers; i++) {
		struct ab_fb_table t;
		uint64_t off;

		rc = ab_fb_vec_table(r, &buffers, i, 1, "Buffer", &t);
		if (!rc)
			rc = ab_fb_get_u64(r, &t, BUF_OFFSET, "Buffer.offset",
					   &off);
		if (rc)
			return rc;
		if (off > 1)
			return ab_fb_fail(r, -ENOTSUP, "buffer %" PRIu32 " keeps its data outside the flatbuffer (Buffer.offset %" PRIu64 ", the layout of models over 2 GB): TFLite Micro reads constant data only from Buffer.data, and putting a header in front would move the bytes that offset addresses",
					  i, off);
		s->buffer[i] = t.pos;
	}
	return 0;
}

static int scan_model(const struct ab_fb *r, struct src_model *s)
{
	uint64_t root;
	int rc;

	memset(s, 0, sizeof(*s));
	if (r->n < 8 || memcmp(r->p + 4, "TFL3", 4))
		return ab_fb_fail(r, -EBADMSG, "not a TFLite model (expected a root offset and the identifier 'TFL3' in bytes 0..8)");
	rc = ab_fb_follow(r, 0, "root offset", &root);
	if (!rc)
		rc = ab_fb_table_at(r, root, 0, "Model", &s->model);
	if (rc)
		return rc;
	/* Fields after signature_defs would be copied blind: refuse. */
	for (unsigned id = MODEL_FIELDS; 4 + 2 * id + 2 <= s->model.vt_len; id++)
		if (ab_fb_ld16(r->p + s->model.vt + 4 + 2 * id))
			return ab_fb_fail(r, -ENOTSUP, "the Model table has field id %u, which the schema this exporter knows does not have (ids 0..%d: version .. signature_defs); a newer schema?",
					  id, MODEL_FIELDS - 1);
	for (unsigned id = 0; id < MODEL_FIELDS; id++) {
		uint64_t at;

		rc = ab_fb_field(r, &s->model, id, 4, model_field_names[id],
				 &at);
		if (rc)
			return rc;
		s->has[id] = at != 0;
		if (!at)
			continue;
		if (id == MODEL_VERSION)
			s->version = ab_fb_ld32(r->p + at);
		else
			rc = ab_fb_follow(r, at, model_field_names[id],
					  &s->target[id]);
		if (rc)
			return rc;
	}
	rc = scan_buffers(r, s);
	if (!rc)
		rc = scan_metadata(r, s);
	if (!rc)
		rc = scan_subgraphs(r, s);
	return rc;
}

/* ------------------------------------------------------- the writer */

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* A uoffset at `at` to `target` (both positions in the new file). */
static void put_ref(uint8_t *out, size_t at, size_t target)
{
	put32(out + at, (uint32_t)(target - at));
}

int ab_export_attach(const uint8_t *model, size_t len, const char *path,
		     const int32_t *words, size_t n_words, uint8_t **out,
		     size_t *out_len, size_t *header_bytes, bool *replaced,
		     struct ab_error *err)
{
	struct ab_fb r = { .p = model, .n = len,
			   .path = path ? path : "<tflite>", .err = err };
	struct src_model s;
	size_t k = 0, at, buf_vec, meta_vec, md_vt, md, b_vt, b, name, data;
	size_t hdr, total;
	uint8_t *o;
	int rc;

	*out = NULL;
	*out_len = 0;
	if (!model || !words || n_words < 3)
		return ab_fb_fail(&r, -EINVAL, "no model or fewer than 3 plan words (version, subgraph, count)");
	if ((uint64_t)(uint32_t)words[2] + 3 != n_words || words[2] < 0)
		return ab_fb_fail(&r, -EINVAL, "plan word 2 says %" PRId32 " offsets but %zu follow",
				  words[2], n_words - 3);
	rc = scan_model(&r, &s);
	if (rc)
		goto out;
	if ((uint64_t)words[2] != s.n_tensors) {
		rc = ab_fb_fail(&r, -EINVAL, "the plan has %" PRId32 " offsets but the model has %" PRIu64 " tensors in all subgraphs (TFLite Micro requires the two to be equal)",
				words[2], s.n_tensors);
		goto out;
	}

	/* Layout of the header (see the top of this file). */
	s.has[MODEL_BUFFERS] = s.has[MODEL_METADATA] = true;
	for (unsigned id = 0; id < MODEL_FIELDS; id++)
		k += s.has[id];
	buf_vec = H_MODEL + 4 + 4 * k;
	meta_vec = buf_vec + 4 + 4 * ((size_t)s.n_buffers + 1);
	md_vt = meta_vec + 4 + 4 * ((size_t)s.n_kept + 1);
	md = md_vt + 8;
	b_vt = md + 12;
	b = b_vt + 8;
	name = b + 8;
	data = ab_align_up(name + 4 + OFFLINE_NAME_LEN + 1 + 4, 16);
	hdr = ab_align_up(data + 4 * n_words, 16);
	if (len > UINT32_MAX - hdr) {
		rc = ab_fb_fail(&r, -EOVERFLOW, "model of %zu bytes plus a %zu-byte header exceeds the 4 GiB that 32-bit FlatBuffers offsets address",
				len, hdr);
		goto out;
	}
	total = hdr + len;
	o = calloc(total, 1);
	if (!o) {
		rc = ab_fb_fail(&r, -ENOMEM, "out of memory");
		goto out;
	}
	memcpy(o + hdr, model, len);

	put_ref(o, 0, H_MODEL);
	memcpy(o + 4, "TFL3", 4);
	put16(o + H_MODEL_VT, H_MODEL_VT_LEN);
	put16(o + H_MODEL_VT + 2, (uint16_t)(4 + 4 * k));
	put32(o + H_MODEL, H_MODEL - H_MODEL_VT);
	at = H_MODEL + 4;
	for (unsigned id = 0; id < MODEL_FIELDS; id++) {
		if (!s.has[id])
			continue;
		put16(o + H_MODEL_VT + 4 + 2 * id, (uint16_t)(at - H_MODEL));
		if (id == MODEL_VERSION)
			put32(o + at, s.version);
		else if (id == MODEL_BUFFERS)
			put_ref(o, at, buf_vec);
		else if (id == MODEL_METADATA)
			put_ref(o, at, meta_vec);
		else
			put_ref(o, at, hdr + s.target[id]);
		at += 4;
	}

	/* buffers: the originals by index, then the plan's */
	put32(o + buf_vec, s.n_buffers + 1);
	for (uint32_t i = 0; i < s.n_buffers; i++)
		put_ref(o, buf_vec + 4 + 4 * (size_t)i, hdr + s.buffer[i]);
	put_ref(o, buf_vec + 4 + 4 * (size_t)s.n_buffers, b);

	/* metadata: the others in their order, then the plan's */
	put32(o + meta_vec, s.n_kept + 1);
	at = meta_vec + 4;
	for (uint32_t i = 0; i < s.n_meta; i++) {
		if (s.meta_offline[i])
			continue;
		put_ref(o, at, hdr + s.meta[i]);
		at += 4;
	}
	put_ref(o, at, md);

	put16(o + md_vt, 8);
	put16(o + md_vt + 2, 12);
	put16(o + md_vt + 4, 4);     /* name at table + 4 */
	put16(o + md_vt + 6, 8);     /* buffer at table + 8 */
	put32(o + md, (uint32_t)(md - md_vt));
	put_ref(o, md + 4, name);
	put32(o + md + 8, s.n_buffers);

	put16(o + b_vt, 8);
	put16(o + b_vt + 2, 8);
	put16(o + b_vt + 4, 4);      /* data at table + 4 */
	put16(o + b_vt + 6, 0);      /* offset: absent */
	put32(o + b, (uint32_t)(b - b_vt));
	put_ref(o, b + 4, data - 4);

	put32(o + name, (uint32_t)OFFLINE_NAME_LEN);
	memcpy(o + name + 4, OFFLINE_NAME, OFFLINE_NAME_LEN);

	put32(o + data - 4, (uint32_t)(4 * n_words));
	for (size_t i = 0; i < n_words; i++)
		put32(o + data + 4 * i, (uint32_t)words[i]);

	*out = o;
	*out_len = total;
	if (header_bytes)
		*header_bytes = hdr;
	if (replaced)
		*replaced = s.n_kept != s.n_meta;
out:
	src_free(&s);
	return rc;
}

