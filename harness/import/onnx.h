/*
 * ONNX (.onnx protobuf) importer.  The protobuf is read and shapes are
 * inferred by Debian's libonnx through onnx_proto.cc; this module (C)
 * fixes symbolic dimensions (--dim), folds int64 shape computations and
 * feeds them back into inference, then builds a struct ab_graph.
 * Semantics: docs/onnx.md.
 *
 * Contract: ab_onnx_parse/load return 0 or a negative errno and, on
 * failure, fill err with "PATH: WHERE: what was found (what was expected)".
 * Malformed files give -EBADMSG, sizes that overflow -EOVERFLOW, limits
 * -E2BIG, values the importer cannot size (unresolved dimension, unknown
 * shape, string/sequence/map values, Loop/Scan) -EINVAL.  A model whose
 * only problem is symbolic input dimensions that no --dim names gives
 * AB_ONNX_NEEDS_DIMS, with the names in info (missing_dims): it parsed and
 * passed the structural check (unique names, every input defined,
 * topological order, no Loop/Scan), so --dim values would let it plan
 * (the bench skips such a model unless --strict; docs/onnx.md).
 *
 * Only binaries that link the onnx*.o objects (the CLI, the ONNX
 * tests and fuzz target) read ONNX; ab_input_load reaches the importer
 * through ab_input_set_onnx_loader (import/input.h).
 */
#ifndef AB_ONNX_H
#define AB_ONNX_H

#include <errno.h>

#include "core/arenabench.h"
#include "import/tflite.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The return code of a model that needs --dim values (see above). */
#define AB_ONNX_NEEDS_DIMS (-ENODATA)
/* The most missing names listed (as many as --dim takes). */
#define AB_ONNX_MAX_MISSING_DIMS AB_TFLITE_MAX_DIMS

/* --dim NAME=VALUE overrides, shared with the TFLite importer's list:
 * NAME is a symbolic dimension (dim_param) of a graph input, or
 * INPUT:AXIS, any dimension of graph input INPUT (named or not). */
struct ab_onnx_options {
	size_t n_dims;
	const struct ab_tflite_dim *dims;
};

struct ab_onnx_info {
	int64_t ir_version;
	int64_t opset;
	char producer[64];
	size_t n_nodes;          /* nodes of the main graph */
	size_t n_initializers;
	size_t n_const_nodes;    /* Constant nodes (weights) */
	size_t n_folded_nodes;   /* nodes evaluated at import (all inputs constant) */
	size_t n_inference_rounds;
	size_t n_hinted;         /* values sized by the importer's own rules */
	size_t n_external;       /* initializers with external data */
	size_t n_subgraph_nodes; /* nodes inside subgraphs (If, Loop, Scan) */
	size_t n_dim_params;     /* distinct symbolic input dimensions */
	bool used_dim_overrides;
	uint32_t dims_used;      /* bit i: opt->dims[i] was applied */
	uint64_t weights_bytes;  /* stored initializer/Constant bytes (external: by length) */
	/* Symbolic dimensions of graph inputs that no --dim names, in order
	 * of first use (set whatever the return code; the import stops with
	 * AB_ONNX_NEEDS_DIMS when there is one), the first graph input that
	 * needs them and its shape with the names in place ("[N,3,224,224]"). */
	size_t n_missing_dims;
	char missing_dims[AB_ONNX_MAX_MISSING_DIMS][sizeof(((struct ab_tflite_dim *)0)->name)];
	bool missing_nameless;   /* some are nameless: listed as INPUT:AXIS */
	char missing_dims_input[128];
	char missing_dims_shape[256];
};

/* opt and info may be NULL. */
int ab_onnx_parse(const uint8_t *data, size_t len, const char *path,
		  const struct ab_onnx_options *opt, struct ab_graph *out,
		  struct ab_onnx_info *info, struct ab_error *err);
int ab_onnx_load(const char *path, const struct ab_onnx_options *opt,
		 struct ab_graph *out, struct ab_onnx_info *info,
		 struct ab_error *err);

#ifdef __cplusplus
}
#endif
#endif
