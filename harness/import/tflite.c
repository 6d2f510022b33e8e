/*
 * TFLite importer: reads a .tflite FlatBuffer by hand and builds an ab_graph.
 * This file reads the model (header, buffers, metadata and offline plan);
 * tflite_subgraph.c reads one subgraph's tensors and operators and
 * tflite_calls.c inlines the subgraphs that operators call (tflite_import.h).
 *
 * The bytes are read through the bounds-checked FlatBuffers reader
 * (flatbuf.h, which also describes the binary layout).  Field ids are the
 * declaration order in tensorflow/lite/schema/schema.fbs (a union takes two
 * ids: type then value).  No generated code is used.
 *
 * Hardening: every read goes through ab_fb_*(), which checks the file
 * bounds; every vector length is checked against the bytes left in the
 * file before it is used; the schema is walked by fixed code so nesting
 * depth is bounded (AB_FB_MAX_DEPTH is checked anyway), and counts, ranks
 * and string bytes have limits so that a small hostile file cannot ask for
 * huge allocations.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/expand.h"
#include "import/flatbuf.h"
#include "import/tflite_import.h"
#include "core/textio.h"


/* -------------------------------------------------------- builtin table */

/* BuiltinOperator codes and names, facts from schema.fbs. */
static const char *const builtin_names[] = {
	[0] = "ADD", [1] = "AVERAGE_POOL_2D", [2] = "CONCATENATION",
	[3] = "CONV_2D", [4] = "DEPTHWISE_CONV_2D", [5] = "DEPTH_TO_SPACE",
	[6] = "DEQUANTIZE", [7] = "EMBEDDING_LOOKUP", [8] = "FLOOR",
	[9] = "FULLY_CONNECTED", [10] = "HASHTABLE_LOOKUP",
	[11] = "L2_NORMALIZATION", [12] = "L2_POOL_2D",
	[13] = "LOCAL_RESPONSE_NORMALIZATION", [14] = "LOGISTIC",
	[15] = "LSH_PROJECTION", [16] = "LSTM", [17] = "MAX_POOL_2D",
	[18] = "MUL", [19] = "RELU", [20] = "RELU_N1_TO_1", [21] = "RELU6",
	[22] = "RESHAPE", [23] = "RESIZE_BILINEAR", [24] = "RNN",
	[25] = "SOFTMAX", [26] = "SPACE_TO_DEPTH", [27] = "SVDF",
	[28] = "TANH", [29] = "CONCAT_EMBEDDINGS", [30] = "SKIP_GRAM",
	[31] = "CALL", [32] = "CUSTOM", [33] = "EMBEDDING_LOOKUP_SPARSE",
	[34] = "PAD", [35] = "UNIDIRECTIONAL_SEQUENCE_RNN", [36] = "GATHER",
	[37] = "BATCH_TO_SPACE_ND", [38] = "SPACE_TO_BATCH_ND",
	[39] = "TRANSPOSE", [40] = "MEAN", [41] = "SUB", [42] = "DIV",
	[43] = "SQUEEZE", [44] = "UNIDIRECTIONAL_SEQUENCE_LSTM",
	[45] = "STRIDED_SLICE", [46] = "BIDIRECTIONAL_SEQUENCE_RNN",
	[47] = "EXP", [48] = "TOPK_V2", [49] = "SPLIT", [50] = "LOG_SOFTMAX",
	[51] = "DELEGATE", [52] = "BIDIRECTIONAL_SEQUENCE_LSTM", [53] = "CAST",
	[54] = "PRELU", [55] = "MAXIMUM", [56] = "ARG_MAX", [57] = "MINIMUM",
	[58] = "LESS", [59] = "NEG", [60] = "PADV2", [61] = "GREATER",
	[62] = "GREATER_EQUAL", [63] = "LESS_EQUAL", [64] = "SELECT",
	[65] = "SLICE", [66] = "SIN", [67] = "TRANSPOSE_CONV",
	[68] = "SPARSE_TO_DENSE", [69] = "TILE", [70] = "EXPAND_DIMS",
	[71] = "EQUAL", [72] = "NOT_EQUAL", [73] = "LOG", [74] = "SUM",
	[75] = "SQRT", [76] = "RSQRT", [77] = "SHAPE", [78] = "POW",
	[79] = "ARG_MIN", [80] = "FAKE_QUANT", [81] = "REDUCE_PROD",
	[82] = "REDUCE_MAX", [83] = "PACK", [84] = "LOGICAL_OR",
	[85] = "ONE_HOT", [86] = "LOGICAL_AND", [87] = "LOGICAL_NOT",
	[88] = "UNPACK", [89] = "REDUCE_MIN", [90] = "FLOOR_DIV",
	[91] = "REDUCE_ANY", [92] = "SQUARE", [93] = "ZEROS_LIKE",
	[94] = "FILL", [95] = "FLOOR_MOD", [96] = "RANGE",
	[97] = "RESIZE_NEAREST_NEIGHBOR", [98] = "LEAKY_RELU",
	[99] = "SQUARED_DIFFERENCE", [100] = "MIRROR_PAD", [101] = "ABS",
	[102] = "SPLIT_V", [103] = "UNIQUE", [104] = "CEIL",
	[105] = "REVERSE_V2", [106] = "ADD_N", [107] = "GATHER_ND",
	[108] = "COS", [109] = "WHERE", [110] = "RANK", [111] = "ELU",
	[112] = "REVERSE_SEQUENCE", [113] = "MATRIX_DIAG", [114] = "QUANTIZE",
	[115] = "MATRIX_SET_DIAG", [116] = "ROUND", [117] = "HARD_SWISH",
	[118] = "IF", [119] = "WHILE", [120] = "NON_MAX_SUPPRESSION_V4",
	[121] = "NON_MAX_SUPPRESSION_V5", [122] = "SCATTER_ND",
	[123] = "SELECT_V2", [124] = "DENSIFY", [125] = "SEGMENT_SUM",
	[126] = "BATCH_MATMUL", [127] = "PLACEHOLDER_FOR_GREATER_OP_CODES",
	[128] = "CUMSUM", [129] = "CALL_ONCE", [130] = "BROADCAST_TO",
	[131] = "RFFT2D", [132] = "CONV_3D", [133] = "IMAG", [134] = "REAL",
	[135] = "COMPLEX_ABS", [136] = "HASHTABLE", [137] = "HASHTABLE_FIND",
	[138] = "HASHTABLE_IMPORT", [139] = "HASHTABLE_SIZE",
	[140] = "REDUCE_ALL", [141] = "CONV_3D_TRANSPOSE", [142] = "VAR_HANDLE",
	[143] = "READ_VARIABLE", [144] = "ASSIGN_VARIABLE",
	[145] = "BROADCAST_ARGS", [146] = "RANDOM_STANDARD_NORMAL",
	[147] = "BUCKETIZE", [148] = "RANDOM_UNIFORM", [149] = "MULTINOMIAL",
	[150] = "GELU", [151] = "DYNAMIC_UPDATE_SLICE", [152] = "RELU_0_TO_1",
	[153] = "UNSORTED_SEGMENT_PROD", [154] = "UNSORTED_SEGMENT_MAX",
	[155] = "UNSORTED_SEGMENT_SUM", [156] = "ATAN2",
	[157] = "UNSORTED_SEGMENT_MIN", [158] = "SIGN", [159] = "BITCAST",
	[160] = "BITWISE_XOR", [161] = "RIGHT_SHIFT",
	[162] = "STABLEHLO_LOGISTIC", [163] = "STABLEHLO_ADD",
	[164] = "STABLEHLO_DIVIDE", [165] = "STABLEHLO_MULTIPLY",
	[166] = "STABLEHLO_MAXIMUM", [167] = "STABLEHLO_RESHAPE",
	[168] = "STABLEHLO_CLAMP", [169] = "STABLEHLO_CONCATENATE",
	[170] = "STABLEHLO_BROADCAST_IN_DIM", [171] = "STABLEHLO_CONVOLUTION",
	[172] = "STABLEHLO_SLICE", [173] = "STABLEHLO_CUSTOM_CALL",
	[174] = "STABLEHLO_REDUCE", [175] = "STABLEHLO_ABS",
	[176] = "STABLEHLO_AND", [177] = "STABLEHLO_COSINE",
	[178] = "STABLEHLO_EXPONENTIAL", [179] = "STABLEHLO_FLOOR",
	[180] = "STABLEHLO_LOG", [181] = "STABLEHLO_MINIMUM",
	[182] = "STABLEHLO_NEGATE", [183] = "STABLEHLO_OR",
	[184] = "STABLEHLO_POWER", [185] = "STABLEHLO_REMAINDER",
	[186] = "STABLEHLO_RSQRT", [187] = "STABLEHLO_SELECT",
	[188] = "STABLEHLO_SUBTRACT", [189] = "STABLEHLO_TANH",
	[190] = "STABLEHLO_SCATTER", [191] = "STABLEHLO_COMPARE",
	[192] = "STABLEHLO_CONVERT", [193] = "STABLEHLO_DYNAMIC_SLICE",
	[194] = "STABLEHLO_DYNAMIC_UPDATE_SLICE", [195] = "STABLEHLO_PAD",
	[196] = "STABLEHLO_IOTA", [197] = "STABLEHLO_DOT_GENERAL",
	[198] = "STABLEHLO_REDUCE_WINDOW", [199] = "STABLEHLO_SORT",
	[200] = "STABLEHLO_WHILE", [201] = "STABLEHLO_GATHER",
	[202] = "STABLEHLO_TRANSPOSE", [203] = "DILATE",
	[204] = "STABLEHLO_RNG_BIT_GENERATOR", [205] = "REDUCE_WINDOW",
	[225] = "TEMP_STREAMING_CONV_2D",
};

#define N_BUILTINS (sizeof(builtin_names) / sizeof(builtin_names[0]))

const char *ab_tflite_builtin_name(int32_t code)
{
	if (code < 0 || (size_t)code >= N_BUILTINS)
		return NULL;
	return builtin_names[code];
}
/* ---------------------------------------------------------- string helpers */

/* Copy of s[0..len) with characters the graph text format forbids in
 * names (white space, control bytes, ',', '=', '#') replaced by '_'. */
char *tfl_copy_name(struct sg_state *st, const char *s, uint32_t len)
{
	char *d;

	if (len > TFL_MAX_NAME)
		len = TFL_MAX_NAME;
	if (st->str_bytes + len + 1 > TFL_MAX_STR_BYTES)
		return NULL;
	st->str_bytes += len + 1;
	d = malloc(len + 1);
	if (!d)
		return NULL;
	for (uint32_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		d[i] = (c <= ' ' || c == 0x7f || c == ',' || c == '=' ||
			c == '#') ? '_' : (char)c;
	}
	d[len] = 0;
	/* "-" alone means "absent input" in the text format. */
	if (len == 1 && d[0] == '-')
		d[0] = '_';
	return d;
}

char *tfl_fmt_str(struct sg_state *s, const char *fmt, ...)
{
	char buf[TFL_MAX_NAME + 32];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return NULL;
	return tfl_copy_name(s, buf, (uint32_t)strlen(buf));
}

/* ------------------------------------------------------------- buffers */

/* Size of the data that buffer idx holds (0 = none); *ext tells whether it
 * is stored outside the flatbuffer (Buffer.offset/size, >2GB models). */
int tfl_buffer_data(struct ab_fb *r, const struct ab_fb_vec *bufs,
		    uint32_t idx, const char *who, uint64_t *size,
		    uint64_t *pos, bool *ext)
{
	struct ab_fb_table t;
	struct ab_fb_vec data;
	uint64_t off, sz;
	int rc;

	*size = 0;
	*pos = 0;
	*ext = false;
	if (idx >= bufs->len)
		return ab_fb_fail(r, -EBADMSG, "%s refers to buffer %u but the model has %u buffers",
				  who, idx, bufs->len);
	rc = ab_fb_vec_table(r, bufs, idx, 1, "Buffer", &t);
	if (!rc)
		rc = ab_fb_get_vec(r, &t, BUF_DATA, 1, "Buffer.data", &data);
	if (!rc)
		rc = ab_fb_get_u64(r, &t, BUF_OFFSET, "Buffer.offset", &off);
	if (!rc)
		rc = ab_fb_get_u64(r, &t, BUF_SIZE, "Buffer.size", &sz);
	if (rc)
		return rc;
	if (data.len) {
		*size = data.len;
		*pos = data.pos;
		return 0;
	}
	/* schema.fbs: the offset is from the start of the file and is only
	 * valid when > 1. */
	if (off > 1 && sz) {
		if (!ab_fb_fits(r, off, sz))
			return ab_fb_fail(r, -EBADMSG, "buffer %u: external data at offset %" PRIu64 " of %" PRIu64 " bytes lies outside the file (%" PRIu64 " bytes; truncated?)",
					  idx, off, sz, r->n);
		*size = sz;
		*pos = off;
		*ext = true;
	}
	return 0;
}


/* ------------------------------------------------------- offline plan */

/* OfflineMemoryAllocation (TFLite Micro docs/memory_management.md): int32
 * [version, number of subgraphs, n, offset of tensor 0..n-1], offsets of
 * all subgraphs concatenated in subgraph order, -1 = plan at runtime. */
static int read_offline(struct sg_state *s, uint32_t bufidx, uint64_t base,
			size_t n_tensors)
{
	struct ab_fb *r = s->r;
	struct ab_tflite_info *info = s->info;
	uint64_t size, pos;
	uint32_t n;
	bool ext;
	int rc;

	ab_fb_set_ctx(r, "metadata 'OfflineMemoryAllocation'");
	rc = tfl_buffer_data(r, &s->bufs, bufidx, "Metadata.buffer", &size, &pos,
			 &ext);
	if (rc)
		return rc;
	if (size < 12)
		return ab_fb_fail(r, -EBADMSG, "buffer %u holds %" PRIu64 " bytes (expected at least 12: version, subgraphs, count)",
				  bufidx, size);
	n = ab_fb_ld32(r->p + pos + 8);
	if ((uint64_t)n * 4 > size - 12)
		return ab_fb_fail(r, -EBADMSG, "declares %u offsets but its buffer holds only %" PRIu64 " (expected 12 + 4 x count bytes)",
				  n, (size - 12) / 4);
	if (base + n_tensors > n)
		return ab_fb_fail(r, -EBADMSG, "has %u offsets but subgraph %d needs offsets %" PRIu64 "..%" PRIu64 " (tensors of all subgraphs, concatenated)",
				  n, s->sg, base, base + n_tensors - 1);
	if (!info)
		return 0;
	info->offline_offsets = malloc((n_tensors ? n_tensors : 1) *
				       sizeof(*info->offline_offsets));
	if (!info->offline_offsets)
		return ab_fb_fail(r, -ENOMEM, "out of memory");
	for (size_t i = 0; i < n_tensors; i++) {
		int32_t o = (int32_t)ab_fb_ld32(r->p + pos + 12 +
						 4 * (base + i));

		if (o < -1) {
			free(info->offline_offsets);
			info->offline_offsets = NULL;
			return ab_fb_fail(r, -EBADMSG, "offset of tensor %zu is %" PRId32 " (expected a byte offset >= 0 or -1)",
					  i, o);
		}
		info->offline_offsets[i] = o;
	}
	info->n_offline = n_tensors;
	info->has_offline_plan = true;
	return 0;
}

int tfl_read_metadata(struct sg_state *s, const struct ab_fb_table *model,
		      uint64_t base, size_t n_tensors)
{
	struct ab_fb *r = s->r;
	struct ab_fb_vec meta;
	int rc;

	ab_fb_set_ctx(r, "model");
	rc = ab_fb_get_vec(r, model, MODEL_METADATA, 4, "Model.metadata",
			   &meta);
	if (rc)
		return rc;
	if (s->info)
		s->info->n_metadata = meta.len;
	for (uint32_t i = 0; i < meta.len; i++) {
		static const char key[] = "OfflineMemoryAllocation";
		struct ab_fb_table t;
		const char *name;
		uint32_t len, buf;

		ab_fb_set_ctx(r, "metadata %" PRIu32, i);
		rc = ab_fb_vec_table(r, &meta, i, 1, "Metadata", &t);
		if (!rc)
			rc = ab_fb_get_str(r, &t, META_NAME, "Metadata.name",
					   &name, &len);
		if (!rc)
			rc = ab_fb_get_u32(r, &t, META_BUFFER,
					   "Metadata.buffer", 0, &buf);
		if (rc)
			return rc;
		if (s->info && i < AB_TFLITE_MAX_METADATA) {
			uint64_t size, pos;
			bool ext;

			rc = tfl_buffer_data(r, &s->bufs, buf, "Metadata.buffer",
					 &size, &pos, &ext);
			if (rc)
				return rc;
			s->info->metadata[i].buffer = buf;
			s->info->metadata[i].bytes = size;
			if (name)
				tfl_copy_text(s->info->metadata[i].name,
					  sizeof(s->info->metadata[i].name),
					  name, len);
		}
		if (name && len == sizeof(key) - 1 && !memcmp(name, key, len)) {
			if (s->info && s->info->has_offline_plan)
				continue; /* the first one wins */
			rc = read_offline(s, buf, base, n_tensors);
			if (rc)
				return rc;
		}
	}
	return 0;
}

/* ---------------------------------------------------------------- model */

static char *graph_name(struct sg_state *s, const char *path, int sg)
{
	const char *b = strrchr(path, '/');
	const char *dot;
	size_t len;

	b = b ? b + 1 : path;
	dot = strrchr(b, '.');
	len = dot && dot != b ? (size_t)(dot - b) : strlen(b);
	if (len > 200)
		len = 200;
	if (sg)
		return tfl_fmt_str(s, "%.*s_sg%d", (int)len, b, sg);
	return len ? tfl_fmt_str(s, "%.*s", (int)len, b) : tfl_fmt_str(s, "tflite");
}

void tfl_copy_text(char *dst, size_t cap, const char *s, uint32_t len)
{
	size_t n = len < cap - 1 ? len : cap - 1;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		dst[i] = c < ' ' || c == 0x7f ? ' ' : (char)c;
	}
	dst[n] = 0;
}

int ab_tflite_parse(const uint8_t *data, size_t len, const char *path,
		    const struct ab_tflite_options *opt, struct ab_graph *out,
		    struct ab_tflite_info *info, struct ab_error *err)
{
	struct ab_fb r = { .p = data, .n = len, .err = err };
	struct sg_state s = { .r = &r, .opt = opt, .info = info };
	struct ab_fb_table model, sgt;
	struct ab_fb_vec codes, subgraphs;
	const char *desc;
	uint32_t dlen, version;
	uint64_t root, base = 0;
	int sg = opt ? opt->subgraph : 0;
	int rc;

	r.path = path ? path : "<tflite>";
	memset(out, 0, sizeof(*out));
	if (info)
		memset(info, 0, sizeof(*info));
	if (!data && len)
		return ab_fb_fail(&r, -EINVAL, "no data");
	if (len < 8)
		return ab_fb_fail(&r, -EBADMSG, "file is too small (%zu bytes; truncated?): a TFLite model starts with a root offset and the identifier 'TFL3'",
				  len);
	if (memcmp(data + 4, "TFL3", 4)) {
		char id[20];
		size_t o = 0;

		for (int i = 4; i < 8; i++) {
			unsigned char c = data[i];

			o += (size_t)snprintf(id + o, sizeof(id) - o,
					      c >= 0x20 && c < 0x7f ? "%c" :
					      "\\x%02x", c);
		}
		return ab_fb_fail(&r, -EBADMSG, "wrong file identifier '%s' at bytes 4..8 (expected 'TFL3': not a TFLite model)",
				  id);
	}
	ab_fb_set_ctx(&r, "model");
	rc = ab_fb_follow(&r, 0, "root offset", &root);
	if (!rc)
		rc = ab_fb_table_at(&r, root, 0, "Model", &model);
	if (!rc)
		rc = ab_fb_get_u32(&r, &model, MODEL_VERSION, "Model.version",
				   0, &version);
	if (!rc)
		rc = ab_fb_get_vec(&r, &model, MODEL_OPCODES, 4,
				   "Model.operator_codes", &codes);
	if (!rc)
		rc = ab_fb_get_vec(&r, &model, MODEL_SUBGRAPHS, 4,
				   "Model.subgraphs", &subgraphs);
	if (!rc)
		rc = ab_fb_get_vec(&r, &model, MODEL_BUFFERS, 4,
				   "Model.buffers", &s.bufs);
	if (!rc)
		rc = ab_fb_get_str(&r, &model, MODEL_DESCRIPTION,
				   "Model.description", &desc, &dlen);
	if (rc)
		return rc;
	if (info) {
		info->version = version;
		info->n_subgraphs = subgraphs.len;
		if (desc)
			tfl_copy_text(info->description, sizeof(info->description),
				  desc, dlen);
	}
	if (!subgraphs.len)
		return ab_fb_fail(&r, -EBADMSG, "the model has no subgraphs (expected at least one)");
	s.n_subgraphs = subgraphs.len;
	if (sg < 0 || (uint32_t)sg >= subgraphs.len)
		return ab_fb_fail(&r, -EINVAL, "subgraph %d does not exist (the model has %u: 0..%u)",
				  sg, subgraphs.len, subgraphs.len - 1);
	s.sg = sg;

	/* Tensors of the earlier subgraphs: where this one's offline
	 * offsets start. */
	for (int i = 0; i < sg; i++) {
		struct ab_fb_vec tv;

		ab_fb_set_ctx(&r, "subgraph %d", i);
		rc = ab_fb_vec_table(&r, &subgraphs, (uint32_t)i, 1, "SubGraph",
				     &sgt);
		if (!rc)
			rc = ab_fb_get_vec(&r, &sgt, SG_TENSORS, 4,
					   "SubGraph.tensors", &tv);
		if (rc)
			return rc;
		base += tv.len;
	}
	ab_fb_set_ctx(&r, "subgraph %d", sg);
	rc = ab_fb_vec_table(&r, &subgraphs, (uint32_t)sg, 1, "SubGraph", &sgt);
	s.root = sg;
	if (!rc)
		rc = tfl_parse_subgraph(&s, &model, &codes, &sgt, base, out);
	for (size_t i = 0; !rc && i < out->n_ops; i++)
		if (s.calls[i].n) {
			rc = tfl_flatten(&s, &model, &codes, &subgraphs, out);
			break;
		}
	if (!rc) {
		r.ctx[0] = 0;
		out->name = graph_name(&s, r.path, sg);
		out->family = ab_family_from_path(r.path, "tflite");
		out->source = strdup(r.path);
		if (!out->name || !out->family || !out->source)
			rc = ab_fb_fail(&r, -ENOMEM, "out of memory");
	}
	free(s.role);
	free(s.buf_seen);
	free(s.calls);
	if (rc) {
		ab_graph_free(out);
		if (info) {
			ab_tflite_info_free(info);
			info->has_offline_plan = false;
		}
	}
	return rc;
}

void ab_tflite_info_free(struct ab_tflite_info *info)
{
	if (!info)
		return;
	free(info->offline_offsets);
	info->offline_offsets = NULL;
	info->n_offline = 0;
}

int ab_tflite_load(const char *path, const struct ab_tflite_options *opt,
		   struct ab_graph *out, struct ab_tflite_info *info,
		   struct ab_error *err)
{
	FILE *f;
	uint8_t *buf = NULL, head[8];
	uint64_t size;
	size_t len;
	int rc;

	memset(out, 0, sizeof(*out));
	if (info)
		memset(info, 0, sizeof(*info));
	/* A FlatBuffer addresses at most 2 GiB. */
	rc = ab_open_input(path, (uint64_t)INT32_MAX, &f, &size, err);
	if (rc)
		return rc;
	/* The identifier first, so that a large file of another kind is
	 * refused before it is read. */
	len = fread(head, 1, sizeof(head), f);
	if (len == sizeof(head) && memcmp(head + 4, "TFL3", 4)) {
		rc = ab_tflite_parse(head, len, path, opt, out, info, err);
		goto out;
	}
	buf = malloc((size_t)size + 1);
	if (!buf) {
		rc = ab_fail(err, -ENOMEM, "%s: out of memory reading the file", path);
		goto out;
	}
	memcpy(buf, head, len);
	if (len == sizeof(head))
		len += fread(buf + len, 1, (size_t)size - len, f);
	if (ferror(f)) {
		rc = ab_fail(err, -EIO, "%s: read error", path);
		goto out;
	}
	rc = ab_tflite_parse(buf, len, path, opt, out, info, err);
out:
	free(buf);
	fclose(f);
	return rc;
}
