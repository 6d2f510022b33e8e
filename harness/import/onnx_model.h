/*
 * An ONNX model as plain C data, and ONNX's own shape inference over it.
 * harness/import/onnx_proto.cc (the only C++ file of the importer) reads
 * the protobuf through Debian's libonnx and fills these structs; the
 * importer proper (onnx*.c, C) folds constants and builds the graph.
 *
 * Contract: abx_onnx_* return 0 or a negative errno and fill err with
 * "PATH: what was found (what was expected)"; they never throw.
 */
#ifndef AB_ONNX_MODEL_H
#define AB_ONNX_MODEL_H

#include "core/arenabench.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Integer constants larger than this are not copied for the folder. */
#define AB_ONNX_MAX_FOLD 65536

enum ab_onnx_category {
	AB_ONNX_UNKNOWN,   /* no type known */
	AB_ONNX_TENSOR,
	AB_ONNX_SEQUENCE,
	AB_ONNX_MAP,
	AB_ONNX_OPTIONAL,
	AB_ONNX_SPARSE,
};

struct ab_onnx_type {
	int category;     /* enum ab_onnx_category */
	int32_t elem;     /* TensorProto.DataType code; 0 = undefined */
	int rank;         /* -1 = unknown rank */
	int64_t *dims;    /* rank entries; -1 = unknown */
	char **params;    /* rank entries; a symbolic name or NULL */
};

/* A named value: graph input/output, inferred value_info, or a constant
 * (initializer, Constant node value) with its integer data if small. */
struct ab_onnx_value {
	char *name;
	struct ab_onnx_type type;
	uint64_t stored_bytes; /* bytes the file stores (raw or typed fields) */
	bool external;         /* data_location EXTERNAL: a reference only */
	bool has_data;         /* data[] holds every element (integer, bool) */
	size_t n_data;
	int64_t *data;
};

enum ab_onnx_attr_type {   /* AttributeProto.AttributeType */
	AB_ONNX_ATTR_FLOAT = 1, AB_ONNX_ATTR_INT = 2, AB_ONNX_ATTR_STRING = 3,
	AB_ONNX_ATTR_TENSOR = 4, AB_ONNX_ATTR_GRAPH = 5, AB_ONNX_ATTR_FLOATS = 6,
	AB_ONNX_ATTR_INTS = 7, AB_ONNX_ATTR_SPARSE_TENSOR = 11,
};

struct ab_onnx_attr {
	char *name;
	int type;              /* enum ab_onnx_attr_type (others kept as is) */
	int64_t i;
	double f;
	size_t n_ints;
	int64_t *ints;         /* INTS (FLOATS are not copied) */
	struct ab_onnx_value *t; /* TENSOR, or NULL */
	int graph;             /* GRAPH: index in model->graphs, else -1 */
};

struct ab_onnx_node {
	char *name;            /* NodeProto.name, or "" */
	char *op;              /* op_type */
	char *domain;          /* "" = ai.onnx */
	size_t n_in, n_out, n_attr;
	char **in;             /* "" = omitted optional input */
	char **out;
	struct ab_onnx_attr *attr;
};

struct ab_onnx_graph {
	char *name;
	int parent_graph, parent_node; /* -1 for the main graph */
	size_t n_nodes, n_inits, n_inputs, n_outputs, n_infos;
	struct ab_onnx_node *nodes;
	struct ab_onnx_value *inits;
	struct ab_onnx_value *inputs;
	struct ab_onnx_value *outputs;
	struct ab_onnx_value *infos; /* value_info after inference */
};

struct ab_onnx_model {
	int64_t ir_version;
	int64_t opset;         /* ai.onnx opset import, 0 if none */
	char *producer;
	size_t n_graphs;       /* graphs[0] is the main graph, then subgraphs */
	struct ab_onnx_graph *graphs;
	size_t n_sparse_inits; /* sparse initializers (refused) */
	size_t n_functions;    /* model-local functions */
};

/* What the importer tells inference beyond the file: a value's type (own
 * shape rules) and, when data is set, its folded value (the producer is
 * replaced by a Constant node, so inference sees the data). */
struct ab_onnx_hint {
	const char *name;
	int graph;             /* graph index the value lives in */
	const struct ab_onnx_type *type;
	const int64_t *data;   /* NULL: type only */
	size_t n_data;
};

struct abx_onnx;           /* the parsed protobuf, opaque to C */

/* Parses the bytes (checker and size limits included) and fills model. */
int abx_onnx_open(const uint8_t *bytes, size_t len, const char *path,
		  struct abx_onnx **h, struct ab_onnx_model *model,
		  struct ab_error *err);
/* Sets symbolic input dimension NAME to value in every graph input. */
int abx_onnx_set_dim(struct abx_onnx *h, const char *name, int64_t value);
/* Sets axis `axis` of graph input `input` to value, named or not (the
 * --dim INPUT:AXIS=VALUE form); 1 when set, 0 when there is no such axis. */
int abx_onnx_set_input_dim(struct abx_onnx *h, const char *input, int axis,
			   int64_t value);
/* Runs shape inference on a copy carrying the hints; replaces each
 * graph's infos[] in model by the inferred value_info.  A failure of
 * inference itself (not an unknown shape) is an error naming the node. */
int abx_onnx_infer(struct abx_onnx *h, const struct ab_onnx_hint *hints,
		   size_t n_hints, struct ab_onnx_model *model,
		   struct ab_error *err);
void abx_onnx_close(struct abx_onnx *h, struct ab_onnx_model *model);

/* Element size in bits of a TensorProto.DataType, 0 if not a plain
 * numeric type (undefined, string, unknown codes). */
unsigned ab_onnx_elem_bits(int32_t elem);
const char *ab_onnx_elem_name(int32_t elem);

#ifdef __cplusplus
}
#endif
#endif
