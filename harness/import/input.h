/* Loading any input by its extension: .graph, .csv (minimalloc), .tflite, .onnx. */
#ifndef AB_INPUT_H
#define AB_INPUT_H

#include "core/arenabench.h"
#include "transform/reorder.h"
#include "import/tflite.h"
#include "import/onnx.h"

struct ab_load_options {
	struct ab_problem_options problem;
	struct ab_tflite_options tflite;
	/* Operator reordering before the lifetimes (graphs only; a CSV problem
	 * has no operators and is planned as given). */
	struct ab_reorder_options reorder;
	/* The family recorded for every input (bench --family); NULL: the
	 * file's own (a .graph's `family` line, a model's folder,
	 * "minimalloc" for a CSV problem).  Borrowed. */
	const char *family;
};

struct ab_input {
	char *path;
	bool has_graph;            /* false for a CSV problem */
	struct ab_graph graph;
	struct ab_problem problem;
	struct ab_tflite_info tflite; /* filled for .tflite inputs */
	bool is_tflite;
	struct ab_onnx_info onnx;  /* filled for .onnx inputs */
	bool is_onnx;
	const char *family;        /* borrowed: load option, graph, or "minimalloc" */
	const char *source;
	size_t ops;                /* operators, or distinct steps of a CSV */
	/* With --reorder on a graph (reordered): what the reordering did,
	 * lower_bound_before being the bound of the file's order.  Without a
	 * reordering the report is zero and the problem's bound is the file
	 * order's. */
	bool reordered;
	struct ab_reorder_report reorder;
	double reorder_ns;         /* wall time of the reordering, 0 without */
	/* A .tflite model's offline plan is the problem's fixed offsets
	 * (problem.fixed_offset), unless --inplace shares one buffer between
	 * two tensors the plan places apart: then fixed_split is set with
	 * those tensors and their offsets, and the problem has no fixed
	 * offsets. */
	bool fixed_split;
	int64_t fixed_split_tensor[2];
	int64_t fixed_split_offset[2];
};

/* 0, or a negative errno with err naming the file; on failure in holds
 * nothing, except that a model whose only problem is symbolic dimensions
 * no --dim names (AB_ONNX_NEEDS_DIMS) keeps their names in in->onnx
 * (n_missing_dims, missing_dims, missing_dims_input, missing_dims_shape):
 * the bench skips such an input, naming the --dim flags it needs. */
int ab_input_load(const char *path, const struct ab_load_options *o,
		  struct ab_input *in, struct ab_error *err);
/* The same from bytes in memory; path names the kind (by its extension)
 * and is used in messages.  What the fuzz targets call. */
int ab_input_parse(const char *path, const uint8_t *data, size_t len,
		   const struct ab_load_options *o, struct ab_input *in,
		   struct ab_error *err);
void ab_input_free(struct ab_input *in);

/* .onnx inputs go through libonnx, which only binaries that read ONNX
 * link (the CLI, the ONNX tests): they hand ab_onnx_load to the loader
 * here; elsewhere a .onnx input is refused with a message. */
typedef int (*ab_onnx_loader_fn)(const char *path,
				 const struct ab_onnx_options *opt,
				 struct ab_graph *out, struct ab_onnx_info *info,
				 struct ab_error *err);
void ab_input_set_onnx_loader(ab_onnx_loader_fn fn);

/* The input's graph, or NULL for a CSV problem (what the checks take). */
static inline const struct ab_graph *ab_input_graph(const struct ab_input *in)
{
	return in->has_graph ? &in->graph : NULL;
}

#endif
