/* Loading any input by its extension: .graph, .csv (minimalloc), .tflite. */
#ifndef AB_INPUT_H
#define AB_INPUT_H

#include "core/arenabench.h"
#include "transform/reorder.h"
#include "import/tflite.h"

struct ab_load_options {
	struct ab_problem_options problem;
	struct ab_tflite_options tflite;
	/* Operator reordering before the lifetimes (graphs only; a CSV problem
	 * has no operators and is planned as given). */
	struct ab_reorder_options reorder;
};

struct ab_input {
	char *path;
	bool has_graph;            /* false for a CSV problem */
	struct ab_graph graph;
	struct ab_problem problem;
	struct ab_tflite_info tflite; /* filled for .tflite inputs */
	bool is_tflite;
	const char *family;        /* borrowed from graph, or "minimalloc" */
	const char *source;
	size_t ops;                /* operators, or distinct steps of a CSV */
	/* With --reorder on a graph (reordered): what the reordering did,
	 * lower_bound_before being the bound of the file's order.  Without a
	 * reordering the report is zero and the problem's bound is the file
	 * order's. */
	bool reordered;
	struct ab_reorder_report reorder;
	double reorder_ns;         /* wall time of the reordering, 0 without */
};

int ab_input_load(const char *path, const struct ab_load_options *o,
		  struct ab_input *in, struct ab_error *err);
void ab_input_free(struct ab_input *in);
/* The name of buffer i for messages: tensor name, or "id N". */
const char *ab_input_buffer_name(const struct ab_input *in, size_t i,
				 char *buf, size_t len);

#endif
