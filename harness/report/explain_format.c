/*
 * What the explain writers share: names, shapes and numbers of buffers,
 * as explain_format.h declares them.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/explain.h"
#include "report/explain_format.h"

/* The graph tensor of buffer i, or NULL (CSV problems). */
const struct ab_tensor *ab_explain_tensor(const struct ab_explanation *x,
					  size_t i)
{
	const struct ab_problem *p = &x->in.problem;

	if (!x->in.has_graph || p->tensor[i] < 0 ||
	    (size_t)p->tensor[i] >= x->in.graph.n_tensors)
		return NULL;
	return &x->in.graph.tensors[p->tensor[i]];
}

const char *ab_explain_buffer_name(const struct ab_explanation *x, size_t i,
				   char *buf, size_t len)
{
	const struct ab_tensor *t = ab_explain_tensor(x, i);

	if (t)
		return t->name;
	if (x->in.problem.csv_name && x->in.problem.csv_name[i] &&
	    *x->in.problem.csv_name[i])
		return x->in.problem.csv_name[i];
	if (x->in.problem.label && x->in.problem.label[i])
		return x->in.problem.label[i];
	snprintf(buf, len, "%" PRId64, x->in.problem.id[i]);
	return buf;
}

/* "1x96x96x1", "scalar", or "-" when only a byte size is known. */
const char *ab_explain_shape_text(const struct ab_tensor *t, char *buf,
				  size_t len)
{
	size_t k = 0;

	if (!t || t->rank < 0)
		return "-";
	if (t->rank == 0)
		return "scalar";
	buf[0] = 0;
	for (int d = 0; d < t->rank && k < len; d++)
		k += (size_t)snprintf(buf + k, len - k, "%s%" PRId64,
				      d ? "x" : "", t->dims[d]);
	return buf;
}

const char *ab_explain_op_type(const struct ab_explanation *x, int op)
{
	const struct ab_op *o;

	if (op < 0 || !x->in.has_graph)
		return NULL;
	o = &x->in.graph.ops[op];
	return o->type ? o->type : "?";
}

/* Binary units, one decimal. */
const char *ab_explain_human(uint64_t b, char *buf, size_t len)
{
	static const char *const unit[] = { "KiB", "MiB", "GiB", "TiB" };
	double v = (double)b;
	int u = -1;

	if (b < 1024) {
		snprintf(buf, len, "%" PRIu64 " B", b);
		return buf;
	}
	while (v >= 1024 && u < 3) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, "%.1f %s", v, unit[u]);
	return buf;
}

/* 1234567 -> "1,234,567". */
const char *ab_explain_grouped(uint64_t v, char *buf, size_t len)
{
	char raw[32];
	size_t n, k = 0;

	snprintf(raw, sizeof(raw), "%" PRIu64, v);
	n = strlen(raw);
	for (size_t i = 0; i < n && k + 2 < len; i++) {
		if (i && (n - i) % 3 == 0)
			buf[k++] = ',';
		buf[k++] = raw[i];
	}
	buf[k] = 0;
	return buf;
}

double ab_explain_ratio(uint64_t peak, uint64_t lb)
{
	return lb ? (double)peak / (double)lb : NAN;
}

double ab_explain_reuse(uint64_t peak, uint64_t sum)
{
	return sum ? 1.0 - (double)peak / (double)sum : NAN;
}

const char *ab_explain_format_name(const struct ab_explanation *x)
{
	return x->in.is_tflite ? "tflite" : x->in.is_onnx ? "onnx"
	       : x->in.has_graph ? "graph" : "csv";
}
