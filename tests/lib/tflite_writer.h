/*
 * A small FlatBuffers builder and .tflite fixture writer for the tests and
 * the fuzz seeds.  Written from the public FlatBuffers format description;
 * it builds back to front like the reference builder: children first, so
 * that every uoffset points forward.
 *
 * Two levels:
 *  - tfw_*: raw builder (tables, vectors, strings) plus helpers that write
 *    hostile values on purpose (wrong lengths, raw offsets, patches);
 *  - tfw_build_model(): a whole TFLite model from plain C structs.
 * Allocation failure aborts: this is test code.
 */
#ifndef TFLITE_WRITER_H
#define TFLITE_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A position counted from the end of the buffer: stable while building. */
typedef uint32_t tfw_ref;

#define TFW_MAX_FIELDS 32

struct tfw {
	uint8_t *buf;        /* bytes live at buf[cap - len .. cap) */
	size_t cap, len;
	size_t minalign;
	size_t table_start;  /* len when the open table started */
	int n_fields;
	struct { int id; tfw_ref at; } fields[TFW_MAX_FIELDS];
};

void tfw_init(struct tfw *b);
void tfw_free(struct tfw *b);

tfw_ref tfw_string(struct tfw *b, const char *s);
tfw_ref tfw_vec_i32(struct tfw *b, const int32_t *v, size_t n);
tfw_ref tfw_vec_u8(struct tfw *b, const uint8_t *v, size_t n, size_t align);
tfw_ref tfw_vec_refs(struct tfw *b, const tfw_ref *v, size_t n);
/* Hostile: an int32 vector whose length field says `claimed`. */
tfw_ref tfw_vec_i32_claim(struct tfw *b, const int32_t *v, size_t n,
			  uint32_t claimed);

void tfw_start(struct tfw *b);
void tfw_add_u8(struct tfw *b, int id, uint8_t v);
void tfw_add_u32(struct tfw *b, int id, uint32_t v); /* also raw offsets */
void tfw_add_u64(struct tfw *b, int id, uint64_t v);
void tfw_add_ref(struct tfw *b, int id, tfw_ref r);
tfw_ref tfw_end(struct tfw *b);

/* Overwrites 4 bytes at a built position (e.g. a table's soffset). */
void tfw_patch_u32(struct tfw *b, tfw_ref at, uint32_t v);

/* Root offset + identifier; returns a malloc'd copy of the bytes. */
uint8_t *tfw_finish(struct tfw *b, tfw_ref root, const char *ident,
		    size_t *len);

/* ------------------------------------------------------------ models */

/* TensorType codes (schema.fbs) used by the fixtures. */
enum { TFW_FLOAT32 = 0, TFW_INT32 = 2, TFW_UINT8 = 3, TFW_STRING = 5,
       TFW_INT16 = 7, TFW_INT8 = 9 };

struct tfw_tensor {
	const char *name;          /* NULL: no name field */
	int type;                  /* TensorType */
	int rank;                  /* -1: no shape field */
	int32_t shape[8];
	int sig_rank;              /* 0: no shape_signature */
	int32_t signature[8];
	uint32_t buffer;
	bool is_variable;
};

struct tfw_op {
	uint32_t opcode;
	int n_in, n_out, n_interm;
	int32_t in[8], out[8], interm[8];
	int n_mutating;            /* mutating_variable_inputs entries */
	uint8_t mutating[8];
	/* builtin_options naming subgraphs: the union type (IfOptions 92,
	 * WhileOptions 93, CallOnceOptions 103, CallOptions 16; 0 = none)
	 * and its int fields 0..n_sub-1 in order */
	uint8_t options_type;
	int n_sub;
	int32_t sub[4];
};

struct tfw_opcode {
	int32_t builtin;           /* builtin_code; -1: field absent */
	int8_t deprecated;         /* deprecated_builtin_code */
	const char *custom;        /* custom_code or NULL */
};

struct tfw_buffer {
	const uint8_t *data;       /* inside the flatbuffer */
	size_t size;
	bool external;             /* store data after it, by offset/size */
};

struct tfw_metadata {
	const char *name;
	uint32_t buffer;
};

struct tfw_subgraph {
	const char *name;
	int n_tensors, n_ops, n_inputs, n_outputs;
	const struct tfw_tensor *tensors;
	const struct tfw_op *ops;
	const int32_t *inputs, *outputs;
};

struct tfw_model {
	uint32_t version;
	const char *description;
	int n_opcodes, n_subgraphs, n_buffers, n_metadata;
	const struct tfw_opcode *opcodes;
	const struct tfw_subgraph *subgraphs;
	const struct tfw_buffer *buffers; /* buffer 0 should be empty */
	const struct tfw_metadata *metadata;
};

/* The model as .tflite bytes (malloc'd); external buffers are appended
 * after the flatbuffer, 16-byte aligned, as large-model files do. */
uint8_t *tfw_build_model(const struct tfw_model *m, size_t *len);

/* --------------------------------------------------------- fixtures */

/* The models the tests pin by hand (tests/test_tflite.c) and the fuzz
 * seeds start from (tests/fuzz/gen_seeds.c). */
enum tfw_fixture {
	TFW_FIX_THREE_OPS,      /* CONV_2D -> RELU -> MAX_POOL_2D, f32 */
	TFW_FIX_OPTIONAL_INPUT, /* FULLY_CONNECTED without bias (-1) */
	TFW_FIX_OFFLINE_PLAN,   /* metadata + OfflineMemoryAllocation */
	TFW_FIX_EXTERNAL,       /* weights stored by Buffer.offset/size */
	TFW_FIX_DYNAMIC,        /* shape_signature [-1,10] */
	TFW_FIX_STRING,         /* a string input to a custom op */
	TFW_FIX_STATEFUL,       /* 2 subgraphs, var, custom, intermediates,
				   names to sanitize, offline plan */
	TFW_FIX_CONTROL_FLOW,   /* IF calling two branches, then a WHILE
				   (docs/semantics.md, "Control flow") */
	TFW_FIX_COUNT
};

const char *tfw_fixture_name(int which);
/* The fixture as a model description (static storage). */
const struct tfw_model *tfw_fixture_model(int which);
uint8_t *tfw_fixture(int which, size_t *len);

#endif
