/*
 * The ONNX importer's shared state, private to its files (no other module
 * includes this header):
 *   onnx.c        the values of the main graph, the structural check, the
 *                 inference loop, ab_onnx_parse/ab_onnx_load;
 *   onnx_dims.c   the graph inputs and their symbolic dimensions (--dim);
 *   onnx_fold.c   the folder over int64 shape computations and the
 *                 importer's own shape rules;
 *   onnx_graph.c  the struct ab_graph (tensors, operators, If/Loop/Scan subgraphs).
 * The protobuf and ONNX's inference are in onnx_proto.cc (onnx_model.h).
 * Semantics: docs/onnx.md.
 */
#ifndef AB_ONNX_IMPORT_H
#define AB_ONNX_IMPORT_H

#include <string.h>

#include "core/strmap.h"
#include "import/onnx.h"
#include "import/onnx_model.h"

/* TensorProto.DataType codes. */
enum { E_FLOAT = 1, E_UINT8, E_INT8, E_UINT16, E_INT16, E_INT32, E_INT64,
       E_STRING, E_BOOL, E_FLOAT16, E_DOUBLE, E_UINT32, E_UINT64,
       E_COMPLEX64, E_COMPLEX128, E_BFLOAT16 };

/* One value of the main graph. */
struct onnx_val {
	const char *name;
	int producer;            /* node index, -1: input or initializer */
	bool is_input, is_init, is_const, is_output, read;
	const struct ab_onnx_type *type; /* best known (borrowed) */
	struct ab_onnx_type own; /* a type computed here (Shape, hints) */
	bool has_own;
	bool has_data;
	int64_t *data;           /* folded or stored integer value */
	size_t n_data;
	bool hinted_data;        /* already sent to inference */
	bool hinted_type;
	int tensor;              /* graph tensor index, -1 */
};

struct onnx_import {
	const char *path;
	struct ab_error *err;
	const struct ab_onnx_options *opt;
	struct ab_onnx_model m;
	struct abx_onnx *h;
	struct ab_strmap map;
	size_t n_vals;
	struct onnx_val *v;
	bool *node_const;
	size_t n_rounds, n_hinted;
};

/* ------------------------------------------------------------ onnx.c */

/* Fills s->err with "PATH: message" and returns code. */
int onnx_fail(struct onnx_import *s, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* "node I 'NAME' (OP)" for messages. */
const char *onnx_node_name(struct onnx_import *s, int i, char *buf, size_t len);
/* Adds a value; -EEXIST (and *out the existing one) when the name is taken. */
int onnx_add_val(struct onnx_import *s, const char *name, int producer,
		 const struct ab_onnx_type *t, struct onnx_val **out);
/* Element count of a static type; *ovf when it passes 64 bits. */
uint64_t onnx_type_count(const struct ab_onnx_type *t, bool *ovf);
/* Sets x's own type (dims copied); x->type then points to it. */
int onnx_set_own(struct onnx_val *x, int32_t elem, int rank, const int64_t *dims);
void onnx_own_free(struct onnx_val *x);
/* Random*, Multinomial, Bernoulli: never folded, side effects. */
bool onnx_random_op(const char *op);

/* memcpy that allows n == 0 with a NULL source (empty dims, ints). */
static inline void onnx_copy(void *dst, const void *src, size_t n)
{
	if (n)
		memcpy(dst, src, n);
}

static inline const struct ab_onnx_node *onnx_node(struct onnx_import *s, int i)
{
	return &s->m.graphs[0].nodes[i];
}

static inline const struct ab_onnx_attr *onnx_attr(const struct ab_onnx_node *n,
						   const char *name)
{
	for (size_t i = 0; i < n->n_attr; i++)
		if (!strcmp(n->attr[i].name, name))
			return &n->attr[i];
	return NULL;
}

static inline int64_t onnx_attr_i(const struct ab_onnx_node *n, const char *name,
				  int64_t def)
{
	const struct ab_onnx_attr *a = onnx_attr(n, name);

	return a ? a->i : def;
}

static inline struct onnx_val *onnx_lookup(struct onnx_import *s, const char *name)
{
	int64_t i = name && name[0] ? ab_strmap_get(&s->map, name) : -1;

	return i < 0 ? NULL : &s->v[i];
}

static inline bool onnx_type_static(const struct ab_onnx_type *t)
{
	if (!t || t->category != AB_ONNX_TENSOR || t->rank < 0)
		return false;
	for (int i = 0; i < t->rank; i++)
		if (t->dims[i] < 0)
			return false;
	return true;
}

static inline const struct ab_onnx_type *onnx_vtype(const struct onnx_val *x)
{
	return x ? x->type : NULL;
}

/* ------------------------------------------------------- onnx_dims.c */

/* Adds the graph inputs that are not initializers, each symbolic
 * dimension set from --dim.  Dimensions no --dim names are listed in
 * info (missing_dims, missing_dims_input, missing_dims_shape) and left
 * open; onnx_refuse_missing_dims then gives the refusal. */
int onnx_setup_inputs(struct onnx_import *s, struct ab_onnx_info *info);
/* 0 when no dimension is missing, else AB_ONNX_NEEDS_DIMS (or -EINVAL
 * when --dim cannot name them all) with the message. */
int onnx_refuse_missing_dims(struct onnx_import *s, const struct ab_onnx_info *info);

/* ------------------------------------------------------- onnx_fold.c */

/* Evaluates node i over int64 data: 1 folded, 0 not, <0 error. */
int onnx_fold(struct onnx_import *s, int i);
/* The importer's own output types for ops inference leaves open: 1 when
 * one was set, 0 not, <0 error. */
int onnx_own_rule(struct onnx_import *s, int i);

/* ------------------------------------------------------ onnx_graph.c */

/* The struct ab_graph of the non-constant nodes, the subgraphs of If, Loop
 * and Scan inlined after their nodes (named, family and source from path). */
int onnx_build(struct onnx_import *s, struct ab_graph *out, struct ab_onnx_info *info);

#endif
