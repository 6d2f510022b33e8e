/*
 * The ONNX importer's graph inputs and their open dimensions: a symbolic
 * one (dim_param) takes --dim NAME=VALUE, and any dimension, named or
 * not, takes --dim INPUT:AXIS=VALUE (which wins); the dimensions no --dim
 * gives are listed in struct ab_onnx_info (a nameless one as INPUT:AXIS)
 * and refused together.  Semantics: docs/onnx.md ("Shapes").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/onnx_import.h"

/* The --dim NAME=VALUE for symbolic dimension name, marked used. */
static const struct ab_tflite_dim *find_dim(const struct ab_onnx_options *o,
					    const char *name, uint32_t *used)
{
	for (size_t i = 0; o && i < o->n_dims && i < 32; i++)
		if (!strcmp(o->dims[i].name, name)) {
			*used |= 1u << i;
			return &o->dims[i];
		}
	return NULL;
}

/* The --dim INPUT:AXIS=VALUE for axis k of graph input `input`. */
static const struct ab_tflite_dim *find_axis(const struct ab_onnx_options *o,
					     const char *input, int k, uint32_t *used)
{
	for (size_t i = 0; o && i < o->n_dims && i < 32; i++)
		if (ab_dim_matches_axis(o->dims[i].name, input, strlen(input), NULL, k)) {
			*used |= 1u << i;
			return &o->dims[i];
		}
	return NULL;
}

/* A symbolic dimension that some INPUT:AXIS gives (the first such), so
 * that every input naming it takes that value. */
static const struct ab_tflite_dim *axis_for_param(struct onnx_import *s,
						  const char *param)
{
	const struct ab_onnx_graph *g = &s->m.graphs[0];
	uint32_t ignored = 0;

	for (size_t i = 0; i < g->n_inputs; i++) {
		const struct ab_onnx_value *in = &g->inputs[i];

		if (in->type.category != AB_ONNX_TENSOR)
			continue;
		for (int k = 0; k < in->type.rank; k++) {
			const struct ab_tflite_dim *o;

			if (!in->type.params[k] || strcmp(in->type.params[k], param))
				continue;
			o = find_axis(s->opt, in->name, k, &ignored);
			if (o)
				return o;
		}
	}
	return NULL;
}

/* Appends s to buf (len bytes) while it fits; false when cut. */
static bool append(char *buf, size_t len, const char *s)
{
	size_t n = strlen(buf);

	snprintf(buf + n, len - n, "%s", s);
	return n + strlen(s) < len;
}

/* "[N,3,?,224]": the input's shape with its names in place. */
static void shape_text(const struct ab_onnx_type *t, char *buf, size_t len)
{
	char num[32];
	bool fits = true;

	buf[0] = 0;
	append(buf, len, "[");
	for (int k = 0; k < t->rank && fits; k++) {
		if (k)
			fits = append(buf, len, ",");
		if (t->params[k])
			fits = fits && append(buf, len, t->params[k]);
		else {
			snprintf(num, sizeof(num), t->dims[k] >= 0 ? "%lld" : "?",
				 (long long)t->dims[k]);
			fits = fits && append(buf, len, num);
		}
	}
	if (!fits || !append(buf, len, "]"))
		snprintf(buf + len - 5, 5, "...]");
}

/* Lists name as missing (once), needed first by input in of type t. */
static void note_missing(struct ab_onnx_info *info, const char *name,
			 const char *input, const struct ab_onnx_type *t,
			 bool *too_long, bool *too_many)
{
	size_t max = sizeof(info->missing_dims[0]);

	for (size_t i = 0; i < info->n_missing_dims; i++)
		if (!strcmp(info->missing_dims[i], name))
			return;
	if (strlen(name) >= max) {
		*too_long = true;
		return;
	}
	if (info->n_missing_dims == AB_ONNX_MAX_MISSING_DIMS) {
		*too_many = true;
		return;
	}
	if (!info->n_missing_dims) {
		snprintf(info->missing_dims_input, sizeof(info->missing_dims_input), "%s", input);
		shape_text(t, info->missing_dims_shape, sizeof(info->missing_dims_shape));
	}
	snprintf(info->missing_dims[info->n_missing_dims++], max, "%s", name);
}

int onnx_setup_inputs(struct onnx_import *s, struct ab_onnx_info *info)
{
	const struct ab_onnx_graph *g = &s->m.graphs[0];
	struct onnx_val *x;
	bool too_long = false, too_many = false;
	int rc;

	for (size_t i = 0; i < g->n_inputs; i++) {
		const struct ab_onnx_value *in = &g->inputs[i];
		bool complete = true;

		if (onnx_lookup(s, in->name))
			continue; /* an initializer: a weight */
		rc = onnx_add_val(s, in->name, -1, &in->type, &x);
		if (rc == -EEXIST)
			return onnx_fail(s, -EBADMSG, "graph input '%s' listed twice", in->name);
		if (rc)
			return onnx_fail(s, -ENOMEM, "out of memory");
		x->is_input = true;
		if (in->type.category != AB_ONNX_TENSOR)
			continue; /* refused when sizes are checked */
		if (in->type.rank < 0)
			return onnx_fail(s, -EINVAL, "graph input '%s' has no shape (expected a tensor of known rank)",
					 in->name);
		int64_t d[AB_MAX_RANK > 64 ? AB_MAX_RANK : 64];
		for (int k = 0; k < in->type.rank; k++) {
			d[k] = in->type.dims[k];
			if (d[k] == -2)
				return onnx_fail(s, -EBADMSG, "graph input '%s': dimension %d is negative (expected >= 0 or a name)",
						 in->name, k);
			const struct ab_tflite_dim *ax = find_axis(s->opt, in->name, k, &info->dims_used);

			if (in->type.params[k])
				info->n_dim_params++;
			if (ax && d[k] >= 0 && !in->type.params[k]) {
				if (ax->value != d[k])
					return onnx_fail(s, -EINVAL, "graph input '%s': --dim %s=%lld: dimension %d is %lld in the model (expected --dim only for a dimension the model leaves open)",
							 in->name, ax->name, (long long)ax->value, k,
							 (long long)d[k]);
			} else if (ax) {
				/* any dimension, named or not: this axis */
				d[k] = ax->value;
				if (in->type.params[k])
					abx_onnx_set_dim(s->h, in->type.params[k], ax->value);
				abx_onnx_set_input_dim(s->h, in->name, k, ax->value);
				info->used_dim_overrides = true;
			} else if (in->type.params[k]) {
				const struct ab_tflite_dim *o = find_dim(s->opt, in->type.params[k], &info->dims_used);

				if (!o)
					o = axis_for_param(s, in->type.params[k]);
				if (o) {
					d[k] = o->value;
					abx_onnx_set_dim(s->h, in->type.params[k], o->value);
					info->used_dim_overrides = true;
				} else {
					complete = false;
					note_missing(info, in->type.params[k], in->name, &in->type,
						     &too_long, &too_many);
				}
			} else if (d[k] < 0) {
				/* neither a size nor a name: only INPUT:AXIS can give it */
				char axis_name[sizeof(info->missing_dims[0]) + 16];

				snprintf(axis_name, sizeof(axis_name), "%s:%d", in->name, k);
				complete = false;
				info->missing_nameless = true;
				note_missing(info, axis_name, in->name, &in->type,
					     &too_long, &too_many);
			}
		}
		if (too_long)
			return onnx_fail(s, -EINVAL, "graph input '%s': a symbolic dimension name (or the input's name with :AXIS) is %zu bytes or longer, which --dim cannot name",
					 in->name, sizeof(info->missing_dims[0]));
		if (too_many)
			return onnx_fail(s, -EINVAL, "more than %d unresolved symbolic dimensions (--dim takes at most %d)",
					 AB_ONNX_MAX_MISSING_DIMS, AB_ONNX_MAX_MISSING_DIMS);
		if (complete && (rc = onnx_set_own(x, in->type.elem, in->type.rank, d)))
			return onnx_fail(s, -ENOMEM, "out of memory");
	}
	return 0;
}

int onnx_refuse_missing_dims(struct onnx_import *s, const struct ab_onnx_info *info)
{
	char names[AB_ONNX_MAX_MISSING_DIMS * (sizeof(info->missing_dims[0]) + 4)] = "";

	if (!info->n_missing_dims)
		return 0;
	for (size_t i = 0; i < info->n_missing_dims; i++)
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s'%s'",
			 i ? ", " : "", info->missing_dims[i]);
	return onnx_fail(s, AB_ONNX_NEEDS_DIMS, "unresolved %sdimension%s %s (first needed by graph input '%s', shape %s); give each with --dim NAME=VALUE (INPUT:AXIS=VALUE gives any dimension of a graph input, named or not)",
			 info->missing_nameless ? "" : "symbolic ",
			 info->n_missing_dims > 1 ? "s" : "", names, info->missing_dims_input,
			 info->missing_dims_shape);
}
