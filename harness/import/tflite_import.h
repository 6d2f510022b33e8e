/*
 * The TFLite importer's shared state, private to its files (no other module
 * includes this header):
 *   tflite.c           the model: header, buffers, metadata and the offline
 *                      plan, names, ab_tflite_parse/ab_tflite_load;
 *   tflite_subgraph.c  one subgraph: its tensors (types, shapes, --dim,
 *                      kinds) and operators (types, lists, flags);
 *   tflite_calls.c     control flow: the operators that call subgraphs and
 *                      the root with its callees inlined (docs/semantics.md).
 * Format and rules: docs/tflite.md.
 */
#ifndef AB_TFLITE_IMPORT_H
#define AB_TFLITE_IMPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "import/flatbuf.h"
#include "import/tflite.h"

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

/* ------------------------------------------------------------ import state */


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


/* Names: copies with the characters the graph format forbids replaced, cut
 * at TFL_MAX_NAME; NULL when out of memory or over TFL_MAX_STR_BYTES. */
char *tfl_copy_name(struct sg_state *st, const char *s, uint32_t len);
char *tfl_fmt_str(struct sg_state *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Text for ab_tflite_info (control bytes as spaces), cut to cap - 1. */
void tfl_copy_text(char *dst, size_t cap, const char *s, uint32_t len);

int tfl_buffer_data(struct ab_fb *r, const struct ab_fb_vec *bufs,
		    uint32_t idx, const char *who, uint64_t *size,
		    uint64_t *pos, bool *ext);
int tfl_read_metadata(struct sg_state *s, const struct ab_fb_table *model,
		      uint64_t base, size_t n_tensors);

/* Subgraph s->sg into g; its operators' callees into s->calls. */
int tfl_parse_subgraph(struct sg_state *s, const struct ab_fb_table *model,
		       const struct ab_fb_vec *codes,
		       const struct ab_fb_table *sgt, uint64_t base,
		       struct ab_graph *g);
int tfl_read_callees(struct sg_state *s, const struct ab_fb_table *t,
		     int32_t builtin, const char *type, struct tfl_call *c);
int tfl_flatten(struct sg_state *s, const struct ab_fb_table *model,
		const struct ab_fb_vec *codes,
		const struct ab_fb_vec *subgraphs, struct ab_graph *out);

#endif
