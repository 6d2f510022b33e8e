/* Loading any input by its extension: .graph, .csv (minimalloc), .tflite, .onnx. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "import/input.h"
#include "core/arenabench.h"
#include "import/expand.h"
#include "import/graph_text.h"
#include "import/problem_csv.h"

/* Distinct times of a CSV problem (first and last uses): its
 * "operators".  A bitmap over the steps when they number at most 64 per
 * buffer (the parser's times are 0 .. steps-1), else a sort of the 2n
 * times. */
static size_t distinct_times(const struct ab_problem *p)
{
	size_t n = 0;

	if (p->steps >= 0 && (uint64_t)p->steps / 64 <= p->n) {
		uint64_t *seen = calloc((size_t)p->steps / 64 + 1, sizeof(*seen));

		if (!seen)
			return 0;
		for (size_t i = 0; i < p->n; i++) {
			uint32_t a = (uint32_t)p->buf[i].first, b = (uint32_t)p->buf[i].last;

			if (a >= (uint32_t)p->steps || b >= (uint32_t)p->steps) {
				free(seen); /* outside the steps: count by sorting */
				goto sort;
			}
			seen[a / 64] |= 1ull << (a % 64);
			seen[b / 64] |= 1ull << (b % 64);
		}
		for (size_t w = 0; w <= (size_t)p->steps / 64; w++)
			n += (size_t)__builtin_popcountll(seen[w]);
		free(seen);
		return n;
	}
sort:;
	struct ab_key_index *t = malloc((2 * p->n + 1) * sizeof(*t));

	if (!t)
		return 0;
	for (size_t i = 0; i < p->n; i++) {
		t[2 * i] = (struct ab_key_index){ (uint64_t)p->buf[i].first, 0 };
		t[2 * i + 1] = (struct ab_key_index){ (uint64_t)p->buf[i].last, 0 };
	}
	if (!ab_sort_key_index(t, 2 * p->n))
		for (size_t j = 0; j < 2 * p->n; j++)
			n += j == 0 || t[j].key != t[j - 1].key;
	free(t);
	return n;
}

/* The model's offline-plan offset of tensor t, or -1. */
static int64_t model_offset(const struct ab_input *in, int64_t t)
{
	if (t < 0 || (size_t)t >= in->tflite.n_offline)
		return -1;
	return in->tflite.offline_offsets[t];
}

/*
 * A .tflite model's offline plan as the problem's fixed offsets: buffer i
 * is fixed at its tensor's offset, or -1.  Under --inplace a buffer holds
 * a chain of tensors: every tensor of the chain that the model places
 * must be at the same offset (those marked -1 follow the chain).
 * Otherwise the plan gives the chain no single place: the problem gets no
 * fixed offsets and in->fixed_split_tensor names two tensors it separates.
 */
static int fix_model_offsets(struct ab_input *in)
{
	struct ab_problem *p = &in->problem;
	int64_t *fixed, *witness = NULL;

	fixed = malloc((p->n ? p->n : 1) * sizeof(*fixed));
	if (!fixed)
		return -ENOMEM;
	for (size_t i = 0; i < p->n; i++)
		fixed[i] = model_offset(in, p->tensor ? p->tensor[i] : -1);
	if (p->tensor_buffer && p->n_aliased) {
		witness = malloc((p->n ? p->n : 1) * sizeof(*witness));
		if (!witness) {
			free(fixed);
			return -ENOMEM;
		}
		for (size_t i = 0; i < p->n; i++)
			witness[i] = fixed[i] >= 0 ? p->tensor[i] : -1;
		for (size_t t = 0; t < p->n_tensors; t++) {
			int32_t i = p->tensor_buffer[t];
			int64_t off = model_offset(in, (int64_t)t);

			if (i < 0 || off < 0)
				continue;
			if (fixed[i] < 0) {
				fixed[i] = off;
				witness[i] = (int64_t)t;
			} else if (fixed[i] != off) {
				in->fixed_split = true;
				in->fixed_split_tensor[0] = witness[i];
				in->fixed_split_tensor[1] = (int64_t)t;
				in->fixed_split_offset[0] = fixed[i];
				in->fixed_split_offset[1] = off;
				free(witness);
				free(fixed);
				return 0;
			}
		}
		free(witness);
	}
	p->fixed_offset = fixed;
	return 0;
}

/* Everything after reading a graph: the structural check, the optional
 * reordering, the lifetimes.  The same for a file and
 * for bytes in memory. */
static int finish_graph(const char *path, const struct ab_load_options *o,
			struct ab_input *in, struct ab_error *err)
{
	int rc;

	in->has_graph = true;
	/* The same structural check on every path, before anything else
	 * (the .graph parser runs it too). */
	rc = ab_graph_check(&in->graph, path, err);
	if (rc)
		return rc;
	if (o->reorder.method != AB_REORDER_NONE && in->graph.n_subgraphs)
		return ab_fail(err, -ENOTSUP, "%s: --reorder on a model with control flow is not supported (expected a graph without subgraphs: the callees are inlined after their calling operators, and a reordering would move them out of the call; docs/semantics.md, \"Control flow\")",
			       path);
	if (o->reorder.method != AB_REORDER_NONE) {
		struct ab_graph reordered;
		struct timespec t0, t1;

		clock_gettime(CLOCK_MONOTONIC, &t0);
		rc = ab_graph_reorder(&in->graph, &o->problem, &o->reorder,
				      &reordered, &in->reorder, err);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if (rc)
			return rc;
		in->reorder_ns = (double)(t1.tv_sec - t0.tv_sec) * 1e9 +
				 (double)(t1.tv_nsec - t0.tv_nsec);
		ab_graph_free(&in->graph);
		in->graph = reordered;
		in->reordered = true;
	}
	/* borrowed from the graph (the reordered copy, if any) */
	in->family = o->family		? o->family
		     : in->graph.family ? in->graph.family
		     : in->is_tflite	? "tflite"
		     : in->is_onnx	? "onnx"
					: "graph";
	in->source = in->graph.source ? in->graph.source : in->path;
	in->ops = in->graph.n_ops;
	rc = ab_problem_from_graph(&in->graph, &o->problem, &in->problem, err);
	if (rc) {
		if (err) { /* name the file */
			struct ab_error e = *err;

			ab_fail(err, rc, "%s: %s", path, e.msg);
		}
		return rc;
	}
	/* the offline plan is TFLite Micro's one arena: it does not apply to
	 * the tflite rule's arena per subgraph (problem parts) */
	if (in->is_tflite && in->tflite.has_offline_plan &&
	    in->tflite.offline_offsets && in->problem.n_parts <= 1 &&
	    fix_model_offsets(in))
		return ab_fail(err, -ENOMEM, "%s: out of memory", path);
	return 0;
}

static void finish_csv(const struct ab_load_options *o, struct ab_input *in)
{
	in->family = o->family ? o->family : "minimalloc";
	in->source = in->path;
	in->ops = distinct_times(&in->problem);
}

static ab_onnx_loader_fn onnx_loader;

void ab_input_set_onnx_loader(ab_onnx_loader_fn fn)
{
	onnx_loader = fn;
}

/* ------------------------------------------------------ the input kinds */

static int csv_file(const char *path, const struct ab_load_options *o,
		    struct ab_input *in, struct ab_error *err)
{
	return ab_problem_load_csv(path, &in->problem, err);
}

static int csv_bytes(const char *path, const uint8_t *data, size_t len,
		     const struct ab_load_options *o, struct ab_input *in,
		     struct ab_error *err)
{
	return ab_problem_parse_csv((const char *)data, len, path, &in->problem,
				    err);
}

static int graph_file(const char *path, const struct ab_load_options *o,
		      struct ab_input *in, struct ab_error *err)
{
	return ab_graph_load(path, &in->graph, err);
}

static int graph_bytes(const char *path, const uint8_t *data, size_t len,
		       const struct ab_load_options *o, struct ab_input *in,
		       struct ab_error *err)
{
	return ab_graph_parse((const char *)data, len, path, &in->graph, err);
}

static int tflite_file(const char *path, const struct ab_load_options *o,
		       struct ab_input *in, struct ab_error *err)
{
	in->is_tflite = true;
	return ab_tflite_load(path, &o->tflite, &in->graph, &in->tflite, err);
}

static int tflite_bytes(const char *path, const uint8_t *data, size_t len,
			const struct ab_load_options *o, struct ab_input *in,
			struct ab_error *err)
{
	in->is_tflite = true;
	return ab_tflite_parse(data, len, path, &o->tflite, &in->graph,
			       &in->tflite, err);
}

static int onnx_file(const char *path, const struct ab_load_options *o,
		     struct ab_input *in, struct ab_error *err)
{
	struct ab_onnx_options oo = { o->tflite.n_dims, o->tflite.dims };

	in->is_onnx = true;
	return onnx_loader ? onnx_loader(path, &oo, &in->graph, &in->onnx, err)
			   : ab_fail(err, -ENOTSUP, "%s: this program is built without the ONNX importer (link the onnx*.o objects and libonnx)",
				     path);
}

/* Each kind of expand.h's suffix list, read from a file and from bytes in
 * memory (NULL: only from a file; the ONNX hook reads a path). */
static const struct input_kind {
	int kind;
	int (*read_file)(const char *path, const struct ab_load_options *o,
			 struct ab_input *in, struct ab_error *err);
	int (*read_bytes)(const char *path, const uint8_t *data, size_t len,
			  const struct ab_load_options *o,
			  struct ab_input *in, struct ab_error *err);
} input_kinds[] = {
	{ AB_INPUT_GRAPH, graph_file, graph_bytes },
	{ AB_INPUT_CSV, csv_file, csv_bytes },
	{ AB_INPUT_TFLITE, tflite_file, tflite_bytes },
	{ AB_INPUT_ONNX, onnx_file, NULL },
};

#define N_KINDS (sizeof(input_kinds) / sizeof(input_kinds[0]))

/* The table's entry for a kind that can be read this way, or NULL. */
static const struct input_kind *find_kind(int kind, bool from_bytes)
{
	for (size_t k = 0; k < N_KINDS; k++)
		if (input_kinds[k].kind == kind &&
		    (!from_bytes || input_kinds[k].read_bytes))
			return &input_kinds[k];
	return NULL;
}

/* "unknown input type (expected a .graph, .csv or .tflite file)", naming
 * the suffixes that can be read this way, in the suffix list's order. */
static int unknown_kind(const char *path, bool from_bytes,
			struct ab_error *err)
{
	char list[128] = "";
	const char *last = NULL;
	size_t used = 0;

	for (const struct ab_input_suffix *s = ab_input_suffixes; s->suffix; s++) {
		if (!find_kind(s->kind, from_bytes))
			continue;
		if (last)
			used += (size_t)snprintf(list + used, sizeof(list) - used,
						 "%s%s", used ? ", " : "", last);
		last = s->suffix;
	}
	return ab_fail(err, -EINVAL, "%s: unknown input type (expected a %s%s%s file)",
		       path, list, used ? " or " : "", last ? last : "");
}

/* Reads path (from data[0..len) when from_bytes) by its kind, then what
 * every graph or every CSV problem goes through. */
static int load(const char *path, bool from_bytes, const uint8_t *data,
		size_t len, const struct ab_load_options *o,
		struct ab_input *in, struct ab_error *err)
{
	const struct input_kind *k;
	int rc;

	memset(in, 0, sizeof(*in));
	in->path = strdup(path);
	if (!in->path)
		return ab_fail(err, -ENOMEM, "%s: out of memory", path);
	k = find_kind(ab_input_kind(path), from_bytes);
	if (!k)
		rc = unknown_kind(path, from_bytes, err);
	else if (from_bytes)
		rc = k->read_bytes(path, data, len, o, in, err);
	else
		rc = k->read_file(path, o, in, err);
	if (!rc && k->kind == AB_INPUT_CSV)
		finish_csv(o, in);
	else if (!rc)
		rc = finish_graph(path, o, in, err);
	if (rc) {
		/* A model that only needs --dim values keeps their names (plain
		 * data) for the caller; nothing else is held. */
		struct ab_onnx_info needs = in->onnx;

		ab_input_free(in);
		if (rc == AB_ONNX_NEEDS_DIMS)
			in->onnx = needs;
	}
	return rc;
}

int ab_input_load(const char *path, const struct ab_load_options *o,
		  struct ab_input *in, struct ab_error *err)
{
	return load(path, false, NULL, 0, o, in, err);
}

int ab_input_parse(const char *path, const uint8_t *data, size_t len,
		   const struct ab_load_options *o, struct ab_input *in,
		   struct ab_error *err)
{
	return load(path, true, data, len, o, in, err);
}

void ab_input_free(struct ab_input *in)
{
	free(in->path);
	ab_graph_free(&in->graph);
	ab_problem_free(&in->problem);
	if (in->is_tflite)
		ab_tflite_info_free(&in->tflite);
	memset(in, 0, sizeof(*in));
}
