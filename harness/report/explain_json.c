/*
 * `explain --json`: the analysis as one JSON object.  See explain.h and
 * docs/explain.md for the fields.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "report/explain.h"
#include "report/explain_format.h"
#include "core/tiers.h"

/* Length of a valid UTF-8 sequence at s (1..4), or 0. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n;
	uint32_t c;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0)
		n = 2, c = s[0] & 0x1f;
	else if ((s[0] & 0xf0) == 0xe0)
		n = 3, c = s[0] & 0x0f;
	else if ((s[0] & 0xf8) == 0xf0)
		n = 4, c = s[0] & 0x07;
	else
		return 0;
	for (size_t k = 1; k < n; k++) {
		if ((s[k] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[k] & 0x3f);
	}
	if ((n == 2 && c < 0x80) || (n == 3 && c < 0x800) ||
	    (n == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff))
		return 0;
	return n;
}

/* A JSON string: quotes, backslashes and control characters escaped;
 * bytes that are not UTF-8 become \u00XX (read as Latin-1). */
static void json_str(FILE *f, const char *s)
{
	const unsigned char *u = (const unsigned char *)(s ? s : "");

	if (!s) {
		fputs("null", f);
		return;
	}
	fputc('"', f);
	while (*u) {
		size_t n = utf8_len(u);

		if (*u == '"' || *u == '\\')
			fprintf(f, "\\%c", *u);
		else if (*u < 0x20 || *u == 0x7f || n == 0)
			fprintf(f, "\\u%04x", *u);
		else
			fwrite(u, 1, n, f);
		u += n ? n : 1;
	}
	fputc('"', f);
}

static void json_num(FILE *f, double v)
{
	if (isnan(v) || isinf(v))
		fputs("null", f);
	else
		fprintf(f, "%.6g", v);
}

static void json_tensor(FILE *f, const struct ab_explanation *x, size_t i)
{
	const struct ab_problem *p = &x->in.problem;
	const struct ab_tensor *t = ab_explain_tensor(x, i);
	char nb[32];

	fputs("{\"name\": ", f);
	json_str(f, ab_explain_buffer_name(x, i, nb, sizeof(nb)));
	fprintf(f, ", \"buffer\": %zu, \"tensor\": %" PRId32 ", \"kind\": ", i,
		p->tensor ? p->tensor[i] : -1);
	json_str(f, t ? ab_kind_name(t->kind) : NULL);
	fputs(", \"dtype\": ", f);
	json_str(f, t ? ab_dtype_name(t->dtype) : NULL);
	fputs(", \"shape\": ", f);
	if (t && t->rank >= 0) {
		fputc('[', f);
		for (int d = 0; d < t->rank; d++)
			fprintf(f, "%s%" PRId64, d ? ", " : "", t->dims[d]);
		fputc(']', f);
	} else {
		fputs("null", f);
	}
	fprintf(f, ", \"bytes\": %" PRIu64 ", \"first_step\": %" PRId32
		   ", \"last_step\": %" PRId32 ", \"symbol\": \"%c\"}",
		p->buf[i].size, p->buf[i].first, p->buf[i].last, x->symbol[i]);
}

static void json_result(FILE *f, const struct ab_explanation *x,
			const struct ab_explain_result *r)
{
	fputs("{\"planner\": ", f);
	json_str(f, r->planner->name);
	fprintf(f, ", \"align_bytes\": %u, \"valid\": %s, \"error\": ", r->align,
		r->row.check.valid ? "true" : "false");
	json_str(f, r->row.check.message);
	fprintf(f, ", \"peak_bytes\": %" PRIu64 ", \"ratio_to_lower_bound\": ",
		r->row.check.peak_bytes);
	json_num(f, r->row.check.valid ? ab_explain_ratio(r->row.check.peak_bytes, x->lower_bound_bytes) : NAN);
	fputs(", \"reuse_efficiency\": ", f);
	json_num(f, r->row.check.valid ? ab_explain_reuse(r->row.check.peak_bytes, x->sum_bytes) : NAN);
	fprintf(f, ", \"arenas\": %d, \"execution_check\": ", r->row.check.arenas);
	json_str(f, ab_exec_mode_name(r->row.check.exec_mode));
	fprintf(f, ", \"execution_check_reused\": %s", r->exec_reused ? "true" : "false");
	fputc('}', f);
}

/* The best plan, every buffer by first use with its offset (null when no
 * plan is valid). */
static void json_plan(FILE *f, const struct ab_explanation *x)
{
	const struct ab_problem *p = &x->in.problem;
	const struct ab_plan *plan = &x->best_plan;
	char nb[32];

	if (x->best < 0) {
		fputs("null", f);
		return;
	}
	fputs("{\"planner\": ", f);
	json_str(f, ab_explain_at(x, (size_t)x->best, 0)->planner->name);
	fprintf(f, ", \"align_bytes\": %u, \"arena_bytes\": %" PRIu64 ", \"arenas\": %u, \"buffers\": [",
		x->align, plan->peak, (unsigned)plan->n_arenas);
	for (size_t k = 0; k < p->n; k++) {
		size_t i = x->by_first_use[k];

		fputs(k ? ",\n    " : "\n    ", f);
		fprintf(f, "{\"buffer\": %zu, \"name\": ", i);
		json_str(f, ab_explain_buffer_name(x, i, nb, sizeof(nb)));
		fprintf(f, ", \"symbol\": \"%c\", \"bytes\": %" PRIu64 ", \"offset\": %" PRIu64
			   ", \"arena\": %u, \"first_step\": %" PRId32 ", \"last_step\": %" PRId32 "}",
			x->symbol[i], p->buf[i].size, plan->offset[i],
			plan->n_arenas > 1 ? (unsigned)plan->arena[i] : 0u,
			p->buf[i].first, p->buf[i].last);
	}
	fputs("\n  ]}", f);
}

int ab_explain_write_json(FILE *f, const struct ab_explanation *x)
{
	const struct ab_input *in = &x->in;
	const struct ab_op *op = x->lb_op >= 0 ? &in->graph.ops[x->lb_op] : NULL;
	struct ab_live_profile lp;
	int b0 = ab_explain_best_at(x, 0);

	fprintf(f, "{\n  \"schema_version\": %d,\n  \"input\": ", AB_EXPLAIN_JSON_SCHEMA);
	json_str(f, in->path);
	fputs(",\n  \"graph\": ", f);
	json_str(f, in->problem.name);
	fputs(",\n  \"format\": ", f);
	json_str(f, ab_explain_format_name(x));
	fputs(",\n  \"family\": ", f);
	json_str(f, in->family);
	fprintf(f, ",\n  \"operators\": %zu,\n  \"buffers\": %zu,\n  \"steps\": %" PRId32,
		in->has_graph ? in->ops : 0, in->problem.n, in->problem.steps);
	if (in->is_tflite) {
		fprintf(f, ",\n  \"tflite\": {\"subgraphs\": %zu, \"subgraph_name\": ",
			in->tflite.n_subgraphs);
		json_str(f, in->tflite.subgraph_name);
		fputs(", \"description\": ", f);
		json_str(f, in->tflite.description);
		fputc('}', f);
	}
	fputs(",\n  \"conventions\": {\"runtime\": ", f);
	json_str(f, x->runtime);
	if (x->runtime_reason) {
		fputs(", \"runtime_reason\": ", f);
		json_str(f, x->runtime_reason);
	}
	fprintf(f, ", \"align_bytes\": %u, \"lifetimes\": ", x->align);
	json_str(f, ab_lifetime_rule_name(x->lifetimes));
	fprintf(f, ", \"round_bytes\": %u, \"round_applied\": %s, \"overridden\": [",
		x->round_to, in->has_graph && x->round_to > 1 ? "true" : "false");
	{
		const char *sep = "";

		if (x->align_given) {
			fputs("\"align\"", f);
			sep = ", ";
		}
		if (x->lifetimes_given) {
			fprintf(f, "%s\"lifetimes\"", sep);
			sep = ", ";
		}
		if (x->round_given)
			fprintf(f, "%s\"round\"", sep);
	}
	fprintf(f, "], \"inplace\": %s, \"aliased_tensors\": %zu, \"reorder\": ",
		x->load_inplace ? "true" : "false", in->problem.n_aliased);
	json_str(f, ab_reorder_method_name(x->reorder_method));
	fprintf(f, ", \"lower_bound_before_reorder_bytes\": %" PRIu64 ", \"tiers\": [",
		in->reordered ? in->reorder.lower_bound_before
			      : x->lower_bound_bytes);
	for (int i = 0; x->tiers && i < x->tiers->n; i++) {
		fputs(i ? ", {\"name\": " : "{\"name\": ", f);
		json_str(f, x->tiers->tier[i].name);
		fprintf(f, ", \"capacity_bytes\": %" PRIu64 "}", x->tiers->tier[i].capacity);
	}
	fputs("]}", f);
	fprintf(f, ",\n  \"sum_bytes\": %" PRIu64 ",\n  \"lower_bound_bytes\": %" PRIu64
		   ",\n  \"weights_bytes\": %" PRIu64 ",\n  \"weights_stored_bytes\": %" PRIu64
		   ",\n  \"persistent_bytes\": %" PRIu64 ",\n  \"persistent_in_arena\": %s",
		x->sum_bytes, x->lower_bound_bytes, x->weights_bytes,
		x->weights_stored_bytes, x->persistent_bytes,
		x->persistent_in_arena ? "true" : "false");
	if (in->problem.capacity)
		fprintf(f, ",\n  \"capacity_bytes\": %" PRIu64, in->problem.capacity);
	/* the tflite rule on a model with control flow: an arena per subgraph */
	fputs(",\n  \"subgraph_arenas\": [", f);
	for (int j = 0; in->problem.part && j < in->problem.n_parts; j++) {
		const int32_t sg = in->problem.part_subgraph[j];
		size_t n;
		uint64_t lb = ab_explain_part_bound(x, j, &n);

		fprintf(f, "%s{\"subgraph\": %" PRId32 ", \"name\": ", j ? ", " : "", sg);
		json_str(f, sg >= 0 && (size_t)sg < in->graph.n_subgraphs ? in->graph.subgraphs[sg].name : NULL);
		fprintf(f, ", \"buffers\": %zu, \"lower_bound_bytes\": %" PRIu64 ", \"best_arena_bytes\": ", n, lb);
		if (x->best >= 0 && j < x->best_plan.n_arenas)
			fprintf(f, "%" PRIu64 "}", x->best_plan.arena_size[j]);
		else
			fputs("null}", f);
	}
	fputc(']', f);
	fputs(",\n  \"string_tensors\": [", f);
	for (size_t s = 0; s < x->n_strings; s++) {
		fputs(s ? ", " : "", f);
		json_str(f, in->graph.tensors[x->strings[s]].name);
	}
	fprintf(f, "],\n  \"dynamic_tensors\": %zu,\n  \"shape_source\": ", x->n_dynamic);
	json_str(f, !in->is_tflite ? "file" : x->used_dims ? "--dim" : "stored shape");

	fprintf(f, ",\n  \"all_plans_valid\": %s,\n  \"invalid_plans\": %zu,\n  \"planners\": [",
		x->invalid ? "false" : "true", x->invalid);
	for (size_t k = 0; k < x->n_planners; k++) {
		fputs(k ? ",\n    " : "\n    ", f);
		json_result(f, x, ab_explain_at(x, k, 0));
	}
	fputs("\n  ],\n  \"best_planner\": ", f);
	json_str(f, x->best >= 0 ? ab_explain_at(x, (size_t)x->best, 0)->planner->name : NULL);
	fputs(",\n  \"plan\": ", f);
	json_plan(f, x);
	fputs(",\n  \"runtime_extra\": ", f);
	json_str(f, !strcmp(x->runtime, "tflm")
		    ? "TFLite Micro: the persistent tail (tensor and node structures, quantisation data, kernel persistent buffers, variables) and the kernels' scratch buffers not listed in the input come on top of the planned arena"
		    : NULL);
	fputs(",\n  \"offline\": ", f);
	if (x->has_offline)
		fprintf(f, "{\"fixed_buffers\": %zu, \"runtime_buffers\": %zu, \"misaligned_fixed\": %zu}",
			x->offline.fixed, x->offline.runtime, x->offline.misaligned_fixed);
	else
		fputs("null", f);

	fprintf(f, ",\n  \"lower_bound_step\": {\"step\": %" PRId32 ", \"operator\": ", x->lb_step);
	if (op) {
		fprintf(f, "{\"index\": %d, \"name\": ", x->lb_op);
		json_str(f, op->name);
		fputs(", \"type\": ", f);
		json_str(f, op->type);
		fputc('}', f);
	} else {
		fputs("null", f);
	}
	fprintf(f, ", \"live_bytes\": %" PRIu64 ", \"tensors\": [", x->lb_live_bytes);
	for (size_t k = 0; k < x->n_lb_live; k++) {
		fputs(k ? ",\n    " : "\n    ", f);
		json_tensor(f, x, x->lb_live[k]);
	}
	fputs("\n  ]},\n  \"largest_tensors\": [", f);
	for (size_t k = 0; k < x->n_largest; k++) {
		fputs(k ? ",\n    " : "\n    ", f);
		json_tensor(f, x, x->largest[k]);
	}
	fputs("\n  ],\n  \"alignments\": [", f);
	for (size_t j = 0; j < x->n_aligns; j++) {
		int b = ab_explain_best_at(x, j);

		fprintf(f, "%s{\"align_bytes\": %u, \"in_use\": %s, \"best_planner\": ",
			j ? ",\n    " : "\n    ", x->aligns[j], j ? "false" : "true");
		json_str(f, b >= 0 ? ab_explain_at(x, (size_t)b, j)->planner->name : NULL);
		if (b >= 0 && b0 >= 0)
			fprintf(f, ", \"peak_bytes\": %" PRIu64 ", \"saving_bytes\": %" PRId64 "}",
				ab_explain_at(x, (size_t)b, j)->row.check.peak_bytes,
				(int64_t)ab_explain_at(x, (size_t)b0, 0)->row.check.peak_bytes -
					(int64_t)ab_explain_at(x, (size_t)b, j)->row.check.peak_bytes);
		else
			fputs(", \"peak_bytes\": null, \"saving_bytes\": null}", f);
	}
	fputs("\n  ],\n  \"all_results\": [", f);
	for (size_t k = 0; k < x->n_planners * x->n_aligns; k++) {
		fputs(k ? ",\n    " : "\n    ", f);
		json_result(f, x, &x->results[k]);
	}
	fputs("\n  ]", f);
	for (int c = 0; c < 2; c++) {
		const double *v = c ? x->cpu_ms : x->wall_ms;

		fprintf(f, ",\n  \"%s\": {\"import\": %.3f, \"plan\": %.3f, \"plan_other_aligns\": %.3f, \"checks\": %.3f, \"total\": %.3f}",
			c ? "cpu_ms" : "time_ms", v[AB_EXPLAIN_T_IMPORT],
			v[AB_EXPLAIN_T_PLAN], v[AB_EXPLAIN_T_PLAN_OTHER],
			v[AB_EXPLAIN_T_CHECKS], v[AB_EXPLAIN_T_TOTAL]);
	}
	fputs(",\n  \"live_profile\": [", f);
	if (!ab_live_profile(&in->problem, &lp)) {
		for (size_t k = 0; k < lp.n; k++)
			fprintf(f, "%s[%" PRId64 ", %" PRIu64 "]", k ? ", " : "",
				lp.time[k], lp.bytes[k]);
		ab_live_profile_free(&lp);
	}
	fputs("]\n}\n", f);
	return ferror(f) ? -EIO : 0;
}

