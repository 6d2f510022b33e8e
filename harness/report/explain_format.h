/*
 * Inside report/explain*.c only: the pieces the analysis (explain.c) and
 * the writers (explain_text.c, explain_json.c, explain_plot.c) share.
 */
#ifndef AB_EXPLAIN_FORMAT_H
#define AB_EXPLAIN_FORMAT_H

#include "report/explain.h"

/* Best valid planner at alignment index j (-1 if none): the smallest
 * arena; on a tie the runtime's own planner, then best_of, then the order
 * the planners ran (registry order, or --planners'). */
int ab_explain_best_at(const struct ab_explanation *x, size_t j);

/* The planner modelled on the runtime's own arena (tflite_arena, or
 * tflm_greedy under --runtime tflm), and its index if it was run, or -1. */
const char *ab_explain_runtime_planner_name(const struct ab_explanation *x);
int ab_explain_runtime_planner(const struct ab_explanation *x);

/* The graph tensor of buffer i, or NULL (CSV problems). */
const struct ab_tensor *ab_explain_tensor(const struct ab_explanation *x,
					  size_t i);
/* The tensor's name, the CSV's name or label, else the buffer id in buf. */
const char *ab_explain_buffer_name(const struct ab_explanation *x, size_t i,
				   char *buf, size_t len);
/* "1x96x96x1", "scalar", or "-" when only a byte size is known. */
const char *ab_explain_shape_text(const struct ab_tensor *t, char *buf,
				  size_t len);
/* The type of operator op, or NULL (no graph, op < 0). */
const char *ab_explain_op_type(const struct ab_explanation *x, int op);
/* Binary units, one decimal: "1.5 MiB", "12 B". */
const char *ab_explain_human(uint64_t b, char *buf, size_t len);
/* 1234567 -> "1,234,567". */
const char *ab_explain_grouped(uint64_t v, char *buf, size_t len);
/* peak / lower bound and 1 - peak / sum; NaN on a zero divisor. */
double ab_explain_ratio(uint64_t peak, uint64_t lb);
double ab_explain_reuse(uint64_t peak, uint64_t sum);
/* "tflite", "onnx", "graph" or "csv". */
const char *ab_explain_format_name(const struct ab_explanation *x);

#endif
