/*
 * A dims file (--dims-file F): the --dim values of each model of a corpus,
 * one line per model or for every model.  Format (docs/onnx.md, "Dims
 * files"):
 *
 *     # comment
 *     MODEL: NAME=VALUE ...     that model's values
 *     NAME=VALUE ...            every model's values
 *
 * MODEL is the path as given to the command, any trailing part of it
 * after a '/' (its file name), or its stem (the file name without
 * .onnx/.tflite); the colon that ends it is followed by white space or
 * the end of the line.  NAME is what --dim takes (a symbolic dimension, a
 * tensor name, INPUT:AXIS or dN).  The .meta a bench writes records the
 * values used as `input_dims=PATH: NAME=VALUE ...` lines: without their
 * key they are lines of this format.
 */
#ifndef AB_DIMS_FILE_H
#define AB_DIMS_FILE_H

#include "core/arenabench.h"
#include "import/tflite.h"

struct ab_dims_entry {
	char *model;               /* NULL: every model */
	struct ab_tflite_dim dim;
	int line;
};

struct ab_dims_file {
	char *path;
	size_t n;
	struct ab_dims_entry *e;
};

/* 0, or a negative errno with err naming the file and line. */
int ab_dims_file_load(const char *path, struct ab_dims_file *df,
		      struct ab_error *err);
int ab_dims_file_parse(const char *text, size_t len, const char *path,
		       struct ab_dims_file *df, struct ab_error *err);
void ab_dims_file_free(struct ab_dims_file *df);

/* Does MODEL (a dims file's key) name the input at path? */
bool ab_dims_model_matches(const char *model, const char *path);

/*
 * The --dim list of one input: this model's lines of the file, then the
 * command line's (base), then the file's lines for every model; a NAME
 * already given keeps its first value.  df may be NULL or empty.  -E2BIG
 * (err naming the input) past AB_TFLITE_MAX_DIMS values.
 */
int ab_dims_for_input(const struct ab_dims_file *df, const char *path,
		      const struct ab_tflite_options *base,
		      struct ab_tflite_options *out, struct ab_error *err);

/* The values of opt that an import applied (bit i of used: opt->dims[i])
 * as "NAME=VALUE NAME=VALUE" in buf; returns how many. */
size_t ab_dims_used_text(const struct ab_tflite_options *opt, uint32_t used,
			 char *buf, size_t len);

#endif
