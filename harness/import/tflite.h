/*
 * TFLite (.tflite FlatBuffers) importer, written by hand from the public
 * schema (tensorflow/lite/schema/schema.fbs).  Every offset, length and
 * vector is checked against the buffer; nesting and sizes are limited.
 * What is read and how it maps to struct ab_graph: docs/tflite.md.
 *
 * Contract: ab_tflite_parse/load return 0 or a negative errno and, on
 * failure, fill err with "PATH: WHERE: what was found, what was expected".
 * Malformed files give -EBADMSG, sizes that overflow -EOVERFLOW, limits
 * -E2BIG, bad options (subgraph, unresolved dynamic dim) -EINVAL.
 */
#ifndef AB_TFLITE_H
#define AB_TFLITE_H

#include "core/arenabench.h"

#ifdef __cplusplus
extern "C" {
#endif

#define AB_TFLITE_MAX_DIMS 16
#define AB_TFLITE_MAX_METADATA 16

struct ab_tflite_dim {
	char name[64];  /* "NAME" of --dim NAME=VALUE; matched to the tensor
			   name, "NAME:AXIS" (that axis of that tensor or
			   graph input) or "dN" (axis N of any dynamic shape) */
	int64_t value;
};

/* A --dim NAME of the form INPUT:AXIS (AXIS decimal, after the last
 * ':'): true, with the length of INPUT and the axis. */
bool ab_dim_name_axis(const char *name, size_t *input_len, int *axis);
/* Does --dim NAME address axis `axis` of the tensor named input (raw,
 * raw_len bytes, or sanitized: either may be NULL) by INPUT:AXIS? */
bool ab_dim_matches_axis(const char *name, const char *raw, size_t raw_len,
			 const char *sanitized, int axis);

struct ab_tflite_options {
	int subgraph;   /* index to plan; default 0 (the primary subgraph) */
	size_t n_dims;  /* --dim overrides for dynamic (-1) dimensions */
	struct ab_tflite_dim dims[AB_TFLITE_MAX_DIMS];
};

/* What the importer learned beyond the graph itself. */
struct ab_tflite_info {
	uint32_t version;
	size_t n_subgraphs;
	size_t n_string_tensors;   /* string tensors met (reported, 0 bytes) */
	size_t n_dynamic_tensors;  /* tensors with -1 in shape_signature */
	bool used_dim_overrides;   /* true if a --dim value was applied */
	uint32_t dims_used;        /* bit i: opt->dims[i] was applied */
	size_t n_metadata;         /* entries in Model.metadata */
	struct {                   /* the first AB_TFLITE_MAX_METADATA */
		char name[64];     /* sanitized, cut at 63 bytes */
		uint32_t buffer;
		uint64_t bytes;    /* size of the buffer's data */
	} metadata[AB_TFLITE_MAX_METADATA];
	char description[256];
	char subgraph_name[128];   /* SubGraph.name of the imported subgraph */
	/* Bytes of constant data held by the buffers that the subgraph's
	 * const tensors use, each buffer counted once (what the file stores,
	 * which differs from the shape size for sparse or packed weights). */
	uint64_t weights_bytes;
	size_t n_external_buffers; /* of those, stored by Buffer.offset/size */
	/* Offline plan (OfflineMemoryAllocation metadata), if present:
	 * offline_offsets[tensor index] or -1 = planned at runtime. */
	bool has_offline_plan;
	size_t n_offline;
	int32_t *offline_offsets;
};

void ab_tflite_info_free(struct ab_tflite_info *info);

/* opt and info may be NULL (defaults: subgraph 0, no overrides). */
int ab_tflite_parse(const uint8_t *data, size_t len, const char *path,
		    const struct ab_tflite_options *opt, struct ab_graph *out,
		    struct ab_tflite_info *info, struct ab_error *err);
int ab_tflite_load(const char *path, const struct ab_tflite_options *opt,
		   struct ab_graph *out, struct ab_tflite_info *info,
		   struct ab_error *err);
/* Builtin operator name by BuiltinOperator code, or NULL if unknown. */
const char *ab_tflite_builtin_name(int32_t code);

#ifdef __cplusplus
}
#endif
#endif
