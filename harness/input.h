/* Loading any input by its extension: .graph, .csv (minimalloc), .tflite. */
#ifndef AB_INPUT_H
#define AB_INPUT_H

#include "arenabench.h"
#include "tflite.h"

struct ab_load_options {
	struct ab_problem_options problem;
	struct ab_tflite_options tflite;
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
};

int ab_input_load(const char *path, const struct ab_load_options *o,
		  struct ab_input *in, struct ab_error *err);
void ab_input_free(struct ab_input *in);
/* The name of buffer i for messages: tensor name, or "id N". */
const char *ab_input_buffer_name(const struct ab_input *in, size_t i,
				 char *buf, size_t len);

#endif
