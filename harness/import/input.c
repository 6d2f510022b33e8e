/* Loading any input by its extension: .graph, .csv (minimalloc), .tflite, .onnx. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "import/input.h"
#include "core/arenabench.h"

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* Distinct times of a CSV problem: its "operators". */
static size_t distinct_times(const struct ab_problem *p)
{
	struct ab_key_index *t = malloc((2 * p->n + 1) * sizeof(*t));
	size_t n = 0;

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

int ab_input_load(const char *path, const struct ab_load_options *o,
		  struct ab_input *in, struct ab_error *err)
{
	int rc;

	memset(in, 0, sizeof(*in));
	in->path = strdup(path);
	if (!in->path)
		return ab_fail(err, -ENOMEM, "%s: out of memory", path);
	if (ends_with(path, ".csv")) {
		rc = ab_problem_load_csv(path, &in->problem, err);
		if (rc)
			goto fail;
		finish_csv(o, in);
		return 0;
	}
	if (ends_with(path, ".graph")) {
		rc = ab_graph_load(path, &in->graph, err);
	} else if (ends_with(path, ".tflite")) {
		in->is_tflite = true;
		rc = ab_tflite_load(path, &o->tflite, &in->graph, &in->tflite,
				    err);
	} else if (ends_with(path, ".onnx")) {
		struct ab_onnx_options oo = { o->tflite.n_dims, o->tflite.dims };

		in->is_onnx = true;
		rc = onnx_loader ? onnx_loader(path, &oo, &in->graph, &in->onnx, err)
				 : ab_fail(err, -ENOTSUP, "%s: this program is built without the ONNX importer (link onnx.o, onnx_proto.o and libonnx)",
					   path);
	} else {
		rc = ab_fail(err, -EINVAL, "%s: unknown input type (expected a .graph, .csv, .tflite or .onnx file)",
			     path);
	}
	if (!rc)
		rc = finish_graph(path, o, in, err);
	if (rc)
		goto fail;
	return 0;
fail:
	ab_input_free(in);
	return rc;
}

int ab_input_parse(const char *path, const uint8_t *data, size_t len,
		   const struct ab_load_options *o, struct ab_input *in,
		   struct ab_error *err)
{
	int rc;

	memset(in, 0, sizeof(*in));
	in->path = strdup(path);
	if (!in->path)
		return ab_fail(err, -ENOMEM, "%s: out of memory", path);
	if (ends_with(path, ".csv")) {
		rc = ab_problem_parse_csv((const char *)data, len, path,
					  &in->problem, err);
		if (rc)
			goto fail;
		finish_csv(o, in);
		return 0;
	}
	if (ends_with(path, ".graph")) {
		rc = ab_graph_parse((const char *)data, len, path, &in->graph,
				    err);
	} else if (ends_with(path, ".tflite")) {
		in->is_tflite = true;
		rc = ab_tflite_parse(data, len, path, &o->tflite, &in->graph,
				     &in->tflite, err);
	} else {
		rc = ab_fail(err, -EINVAL, "%s: unknown input type (expected a .graph, .csv or .tflite file)",
			     path);
	}
	if (!rc)
		rc = finish_graph(path, o, in, err);
	if (rc)
		goto fail;
	return 0;
fail:
	ab_input_free(in);
	return rc;
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

const char *ab_input_buffer_name(const struct ab_input *in, size_t i,
				 char *buf, size_t len)
{
	const struct ab_problem *p = &in->problem;

	if (in->has_graph && p->tensor[i] >= 0 &&
	    (size_t)p->tensor[i] < in->graph.n_tensors)
		snprintf(buf, len, "'%s'", in->graph.tensors[p->tensor[i]].name);
	else if (p->label && p->csv_name && p->csv_name[i] && *p->csv_name[i])
		snprintf(buf, len, "id %s '%s'", p->label[i], p->csv_name[i]);
	else if (p->label)
		snprintf(buf, len, "id %s", p->label[i]);
	else
		snprintf(buf, len, "id %" PRId64, p->id[i]);
	return buf;
}
