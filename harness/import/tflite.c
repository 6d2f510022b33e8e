/*
 * TFLite importer: reads a .tflite FlatBuffer by hand and builds an ab_graph.
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
#include <sys/stat.h>

#include "import/expand.h"
#include "import/flatbuf.h"
#include "import/tflite.h"
#include "core/strmap.h"
#include "core/textio.h"

#define TFL_MAX_TENSORS    (1u << 20) /* per subgraph */
#define TFL_MAX_OPS        (1u << 20)
#define TFL_MAX_RANK       64         /* larger ranks are rejected */
#define TFL_MAX_LIST       (1u << 16) /* inputs/outputs of one op */
#define TFL_MAX_EDGES      (1u << 22) /* all op lists together */
#define TFL_MAX_NAME       512        /* longer names are cut */
#define TFL_MAX_STR_BYTES  (64u << 20) /* all strings we copy, together */

/* Field ids, in declaration order of schema.fbs. */
enum { MODEL_VERSION = 0, MODEL_OPCODES = 1, MODEL_SUBGRAPHS = 2,
       MODEL_DESCRIPTION = 3, MODEL_BUFFERS = 4, MODEL_METADATA = 6 };
enum { SG_TENSORS = 0, SG_INPUTS = 1, SG_OUTPUTS = 2, SG_OPERATORS = 3,
       SG_NAME = 4 };
enum { T_SHAPE = 0, T_TYPE = 1, T_BUFFER = 2, T_NAME = 3, T_IS_VARIABLE = 5,
       T_SHAPE_SIGNATURE = 7 };
enum { OP_OPCODE_INDEX = 0, OP_INPUTS = 1, OP_OUTPUTS = 2,
       OP_OPTIONS_TYPE = 3, OP_OPTIONS = 4,
       OP_MUTATING_VARIABLE_INPUTS = 7, OP_INTERMEDIATES = 8,
       OP_OPTIONS2_TYPE = 11, OP_OPTIONS2 = 12 };

#define TFL_MAX_CALLEES 8 /* subgraphs one operator may name */

/* An operator's callees (control flow), from its options. */
struct tfl_call {
	uint8_t kind; /* enum ab_call */
	int n;
	int32_t sub[TFL_MAX_CALLEES];
};
enum { OC_DEPRECATED_BUILTIN_CODE = 0, OC_CUSTOM_CODE = 1,
       OC_BUILTIN_CODE = 3 };
enum { BUF_DATA = 0, BUF_OFFSET = 1, BUF_SIZE = 2 };
enum { META_NAME = 0, META_BUFFER = 1 };

#define TFL_CUSTOM 32 /* BuiltinOperator CUSTOM */

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

/* -------------------------------------------------------- import state */

enum role {
	R_IN = 1,       /* subgraph input */
	R_OUT = 2,      /* subgraph output */
	R_READ = 4,     /* an op input */
	R_WRITTEN = 8,  /* an op output */
	R_INTERM = 16,  /* in some op's `intermediates` */
	R_CLAIMED = 32, /* scratch already listed by an op */
};

struct sg_state {
	struct ab_fb *r;
	const struct ab_tflite_options *opt;
	struct ab_tflite_info *info;
	int sg;
	uint32_t n_subgraphs;
	struct ab_fb_vec bufs;
	uint8_t *role;      /* per tensor */
	uint8_t *buf_seen;  /* per buffer: weights counted once */
	uint64_t edges;
	uint64_t str_bytes; /* names copied so far */
	int root;               /* the subgraph planned (--subgraph) */
	struct tfl_call *calls; /* per operator of the subgraph parsed last */
};

/* ---------------------------------------------------------- string helpers */

/* Copy of s[0..len) with characters the graph text format forbids in
 * names (white space, control bytes, ',', '=', '#') replaced by '_'. */
static char *copy_name(struct sg_state *st, const char *s, uint32_t len)
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

static char *fmt_str(struct sg_state *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static char *fmt_str(struct sg_state *s, const char *fmt, ...)
{
	char buf[TFL_MAX_NAME + 32];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return NULL;
	return copy_name(s, buf, (uint32_t)strlen(buf));
}

/* ------------------------------------------------------------- buffers */

/* Size of the data that buffer idx holds (0 = none); *ext tells whether it
 * is stored outside the flatbuffer (Buffer.offset/size, >2GB models). */
static int buffer_data(struct ab_fb *r, const struct ab_fb_vec *bufs,
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

static int read_tensor(struct sg_state *s, struct ab_fb_table *t, uint32_t idx,
		       struct ab_tensor *out)
{
	struct ab_fb *r = s->r;
	struct ab_fb_vec shape, sig;
	const char *raw;
	uint32_t raw_len, bufidx;
	uint8_t type, is_var;
	int64_t dims[TFL_MAX_RANK];
	uint64_t elems = 1, bits, bytes, dsize, dpos;
	const struct ttype *tt;
	bool dynamic = false, ext;
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

	out->name = raw_len ? copy_name(s, raw, raw_len)
			    : fmt_str(s, "t%" PRIu32, idx);
	if (!out->name)
		return ab_fb_fail(r, -ENOMEM, "out of memory (or more than %u bytes of names)",
				  TFL_MAX_STR_BYTES);
	ab_fb_set_ctx(r, "subgraph %d tensor %" PRIu32 " '%s'", s->sg, idx,
		      out->name);

	if (type >= N_TTYPES || !tensor_types[type].name)
		return ab_fb_fail(r, -EBADMSG, "unknown tensor type %u (expected a TensorType code 0..%zu)",
				  type, N_TTYPES - 1);
	tt = &tensor_types[type];

	/* Shape: the stored shape; dynamic axes (-1 in shape_signature)
	 * take a --dim override when one matches. */
	rank = (int)(shape.len ? shape.len : sig.len);
	if (shape.len > TFL_MAX_RANK || sig.len > TFL_MAX_RANK)
		return ab_fb_fail(r, -E2BIG, "rank %u exceeds the limit of %d dimensions",
				  shape.len > sig.len ? shape.len : sig.len,
				  TFL_MAX_RANK);
	if (shape.len && sig.len && sig.len != shape.len)
		return ab_fb_fail(r, -EBADMSG, "shape_signature has %u dimensions but shape has %u (expected the same rank)",
				  sig.len, shape.len);
	for (int i = 0; i < rank; i++) {
		int64_t d = shape.len ? ab_fb_vec_i32(r, &shape, (uint32_t)i)
				      : -1;
		int64_t sd = sig.len ? ab_fb_vec_i32(r, &sig, (uint32_t)i) : d;

		if (sd == -1) {
			uint32_t used = 0;
			int64_t o = dim_override(s->opt, raw, raw_len,
						 out->name, i, &used);

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
						  i, out->name, i, out->name, i);
		} else if (d < 0) {
			return ab_fb_fail(r, -EBADMSG, "dimension %d is %" PRId64 " (expected a size >= 0)",
					  i, d);
		}
		dims[i] = d;
	}
	if (dynamic && s->info)
		s->info->n_dynamic_tensors++;

	/* Size with overflow checks: elements x bits, rounded up to bytes. */
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
	bytes = elems / 8 * bits + (elems % 8 * bits + 7) / 8;

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
	rc = buffer_data(r, &s->bufs, bufidx, "Tensor.buffer", &dsize, &dpos,
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
		*type = copy_name(s, buf, (uint32_t)strlen(buf));
	} else if (ab_tflite_builtin_name(b)) {
		*type = copy_name(s, ab_tflite_builtin_name(b),
				  (uint32_t)strlen(ab_tflite_builtin_name(b)));
	} else {
		*type = fmt_str(s, "BUILTIN_%" PRId32, b);
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

static int read_callees(struct sg_state *s, const struct ab_fb_table *t,
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

static int read_op(struct sg_state *s, const struct ab_fb_vec *codes,
		   const struct ab_fb_table *t, uint32_t idx, size_t n_tensors,
		   struct ab_op *op, int32_t *builtin, bool *mutates)
{
	struct ab_fb *r = s->r;
	struct ab_fb_vec mut;
	uint32_t ci;
	int rc;

	ab_fb_set_ctx(r, "subgraph %d operator %" PRIu32, s->sg, idx);
	op->name = fmt_str(s, "op%" PRIu32, idx);
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
	return read_callees(s, t, *builtin, op->type, &s->calls[idx]);
}

static void copy_text(char *dst, size_t cap, const char *s, uint32_t len);

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
	rc = buffer_data(r, &s->bufs, bufidx, "Metadata.buffer", &size, &pos,
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

static int read_metadata(struct sg_state *s, const struct ab_fb_table *model,
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

			rc = buffer_data(r, &s->bufs, buf, "Metadata.buffer",
					 &size, &pos, &ext);
			if (rc)
				return rc;
			s->info->metadata[i].buffer = buf;
			s->info->metadata[i].bytes = size;
			if (name)
				copy_text(s->info->metadata[i].name,
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
		return fmt_str(s, "%.*s_sg%d", (int)len, b, sg);
	return len ? fmt_str(s, "%.*s", (int)len, b) : fmt_str(s, "tflite");
}

static void copy_text(char *dst, size_t cap, const char *s, uint32_t len)
{
	size_t n = len < cap - 1 ? len : cap - 1;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		dst[i] = c < ' ' || c == 0x7f ? ' ' : (char)c;
	}
	dst[n] = 0;
}

static int parse_subgraph(struct sg_state *s, const struct ab_fb_table *model,
			  const struct ab_fb_vec *codes,
			  const struct ab_fb_table *sgt, uint64_t base,
			  struct ab_graph *g)
{
	struct ab_fb *r = s->r;
	struct ab_fb_vec tensors, ins, outs, ops;
	struct ab_strmap names = { 0 }; /* to make tensor names unique */
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
		copy_text(s->info->subgraph_name,
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
	rc = ab_strmap_init(&names, tensors.len);
	if (rc) {
		rc = ab_fb_fail(r, rc, "out of memory");
		goto out;
	}
	for (uint32_t i = 0; i < tensors.len; i++) {
		struct ab_tensor *at = &g->tensors[i];
		struct ab_fb_table t;

		ab_fb_set_ctx(r, "subgraph %d tensor %" PRIu32, s->sg, i);
		rc = ab_fb_vec_table(r, &tensors, i, 2, "Tensor", &t);
		if (!rc)
			rc = read_tensor(s, &t, i, at);
		if (rc)
			goto out;
		/* Duplicate names (legal in TFLite) get the index appended. */
		for (int tries = 0;
		     (rc = ab_strmap_put(&names, at->name, i)) == -EEXIST;
		     tries++) {
			char *u;

			if (tries == 4) {
				rc = ab_fb_fail(r, -EBADMSG, "cannot make the name '%s' unique",
						at->name);
				goto out;
			}
			u = fmt_str(s, "%s_t%" PRIu32, at->name, i);
			if (!u) {
				rc = ab_fb_fail(r, -ENOMEM, "out of memory");
				goto out;
			}
			free(at->name);
			at->name = u;
		}
		if (rc) {
			rc = ab_fb_fail(r, rc, "out of memory");
			goto out;
		}
	}

	/* Op flags and scratch lists, now that kinds are known. */
	for (uint32_t i = 0; i < ops.len; i++) {
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

	if (ops.len == 0 && s->sg == s->root) { /* after the tensors */
		ab_fb_set_ctx(r, "subgraph %d", s->sg);
		rc = ab_fb_fail(r, -EINVAL, "no operators (expected at least one operator to plan; the subgraph is named '%.*s')",
				sname ? (int)(slen > 64 ? 64 : slen) : 1, sname ? sname : "?");
		goto out;
	}
	if (s->sg == s->root)
		rc = read_metadata(s, model, base, tensors.len);
out:
	ab_strmap_free(&names);
	free(builtin);
	free(mutates);
	return rc;
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
	d->name = name && len ? copy_name(s, name, len) : fmt_str(s, "sg%" PRIu32, j);
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
	op.name = fmt_str(f->s, "sg%" PRIu32 "/%s", c, enter ? "enter" : "return");
	op.type = fmt_str(f->s, "%s", enter ? "SUBGRAPH_ENTER" : "SUBGRAPH_RETURN");
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
			char *nm = fmt_str(f->s, "sg%" PRIu32 "/%s", j, op.name);

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
		rc = parse_subgraph(f->s, model, codes, &t, 0, &f->gs[j]);
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
static int flatten(struct sg_state *s, const struct ab_fb_table *model,
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
				d->name = fmt_str(s, "t%zu", i);
			}
			if ((int)j != root) {
				char *nm = d->name ? fmt_str(s, "sg%" PRIu32 "/%s", j, d->name) : NULL;

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
		rc = read_metadata(s, model, 0, total);
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
			copy_text(info->description, sizeof(info->description),
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
		rc = parse_subgraph(&s, &model, &codes, &sgt, base, out);
	for (size_t i = 0; !rc && i < out->n_ops; i++)
		if (s.calls[i].n) {
			rc = flatten(&s, &model, &codes, &subgraphs, out);
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
