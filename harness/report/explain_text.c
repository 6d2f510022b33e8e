/*
 * `explain` as text: the header, the planners, the lower-bound step, the
 * timeline of the best plan and the alternatives.  See explain.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/explain.h"
#include "report/explain_format.h"
#include "core/tiers.h"

#define DEFAULT_ROWS 48
#define DEFAULT_WIDTH 64
#define N_SYMBOL_CHARS 62 /* the timeline's characters: 0-9, a-z, A-Z */

static const char *lifetime_words(enum ab_lifetime_rule r)
{
	switch (r) {
	case AB_LIFETIMES_TFLITE:
		return "graph inputs and unread outputs live to the end of the run; variables in the persistent arena";
	case AB_LIFETIMES_TFLM:
		return "step 0 before the first operator; variables outside the arena";
	default:
		return "graph inputs live until their last read";
	}
}

/* ------------------------------------------------------------ timeline */

struct timeline {
	size_t n_all;        /* rows before sampling */
	size_t n;            /* rows shown */
	int64_t *time;       /* step (graph) or time (CSV) of each row */
	uint64_t *live;      /* live bytes at that time */
	bool sampled;
};

static uint64_t live_at(const struct ab_live_profile *lp, int64_t t)
{
	size_t lo = 0, hi = lp->n;

	while (lo < hi) { /* first k with time[k] > t */
		size_t mid = (lo + hi) / 2;

		if (lp->time[mid] <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? lp->bytes[lo - 1] : 0;
}

static void timeline_free(struct timeline *tl)
{
	free(tl->time);
	free(tl->live);
	memset(tl, 0, sizeof(*tl));
}

/* Rows: every step of a graph, every time a CSV problem changes; sampled
 * evenly down to max_rows, keeping the lower-bound step. */
static int timeline_make(const struct ab_explanation *x, size_t max_rows,
			 struct timeline *tl)
{
	const struct ab_problem *p = &x->in.problem;
	struct ab_live_profile lp;
	int64_t *all;
	size_t n = 0, lb_row = 0;
	int rc;

	memset(tl, 0, sizeof(*tl));
	if (max_rows < 2)
		max_rows = 2;
	rc = ab_live_profile(p, &lp);
	if (rc)
		return rc;
	all = malloc(((size_t)p->steps + lp.n + 1) * sizeof(*all));
	if (!all) {
		ab_live_profile_free(&lp);
		return -ENOMEM;
	}
	if (x->in.has_graph) {
		for (int32_t s = 0; s < p->steps; s++)
			all[n++] = s;
	} else {
		for (size_t k = 0; k < lp.n; k++)
			if (lp.time[k] < p->steps)
				all[n++] = lp.time[k];
	}
	for (size_t r = 0; r < n; r++)
		if (all[r] <= x->lb_step)
			lb_row = r;
	tl->n_all = n;
	tl->sampled = n > max_rows;
	tl->n = tl->sampled ? max_rows : n;
	tl->time = malloc((tl->n + 1) * sizeof(*tl->time));
	tl->live = malloc((tl->n + 1) * sizeof(*tl->live));
	if (!tl->time || !tl->live) {
		rc = -ENOMEM;
		goto out;
	}
	if (!tl->sampled) {
		memcpy(tl->time, all, n * sizeof(*all));
	} else {
		size_t near = 0, near_d = SIZE_MAX;

		for (size_t j = 0; j < tl->n; j++) {
			size_t r = (size_t)((double)j * (double)(n - 1) /
					    (double)(tl->n - 1) + 0.5);
			size_t d = r > lb_row ? r - lb_row : lb_row - r;

			tl->time[j] = all[r];
			if (d < near_d) {
				near_d = d;
				near = j;
			}
		}
		tl->time[near] = all[lb_row]; /* stays in order: nearest */
	}
	for (size_t j = 0; j < tl->n; j++)
		tl->live[j] = live_at(&lp, tl->time[j]);
out:
	free(all);
	ab_live_profile_free(&lp);
	if (rc)
		timeline_free(tl);
	return rc;
}


/* One row of the picture: the live buffers across the arena's width. */
static void draw_row(const struct ab_explanation *x, int64_t t, int width,
		     char *line)
{
	const struct ab_problem *p = &x->in.problem;
	const struct ab_plan *plan = &x->best_plan;
	double scale = plan->peak ? (double)width / (double)plan->peak : 0;

	memset(line, '.', (size_t)width);
	line[width] = 0;
	for (size_t i = 0; i < p->n; i++) {
		int c0, c1;

		if (p->buf[i].first > t || p->buf[i].last < t)
			continue;
		c0 = (int)((double)plan->offset[i] * scale);
		c1 = (int)ceil((double)(plan->offset[i] + p->buf[i].size) * scale);
		if (c0 >= width)
			c0 = width - 1;
		if (c1 <= c0)
			c1 = c0 + 1;
		if (c1 > width)
			c1 = width;
		memset(line + c0, x->symbol[i], (size_t)(c1 - c0));
	}
}

/* ---------------------------------------------------------------- text */

/* Long names keep their tail, which names the layer: "...conv1/Relu6". */
static const char *tail(const char *s, size_t width, char *buf, size_t len)
{
	size_t n = strlen(s);

	if (n <= width || width < 4 || width + 1 > len)
		return s;
	snprintf(buf, len, "...%s", s + n - (width - 3));
	return buf;
}

static void text_tensor_row(FILE *f, const struct ab_explanation *x,
			    size_t i, bool with_symbol)
{
	const struct ab_problem *p = &x->in.problem;
	const struct ab_tensor *t = ab_explain_tensor(x, i);
	char nb[32], sb[96], bb[32], tb[64];

	if (with_symbol)
		fprintf(f, "  %c ", x->symbol[i]);
	else
		fputs("  ", f);
	fprintf(f, "%-36.36s %-18.18s %-6s %12s  [%" PRId32 ", %" PRId32 "]  %s\n",
		tail(ab_explain_buffer_name(x, i, nb, sizeof(nb)), 36, tb, sizeof(tb)),
		ab_explain_shape_text(t, sb, sizeof(sb)),
		t ? ab_dtype_name(t->dtype) : "-",
		ab_explain_grouped(p->buf[i].size, bb, sizeof(bb)), p->buf[i].first,
		p->buf[i].last, t ? ab_kind_name(t->kind) : "");
}

static void text_header(FILE *f, const struct ab_explanation *x)
{
	const struct ab_input *in = &x->in;
	char a[32], b[32], h[32];

	fprintf(f, "explain: %s\n", in->path);
	if (in->has_graph)
		fprintf(f, "  format %s, %zu operators, %zu buffers in %" PRId32 " steps",
			ab_explain_format_name(x), in->ops, in->problem.n, in->problem.steps);
	else
		fprintf(f, "  format csv (minimalloc), %zu buffers over times [0, %" PRId32 "), %zu distinct",
			in->problem.n, in->problem.steps, in->ops);
	if (in->is_tflite)
		fprintf(f, ", subgraph %s (%zu in the file)",
			in->tflite.subgraph_name[0] ? in->tflite.subgraph_name : "0",
			in->tflite.n_subgraphs);
	fputs("\n", f);
	fprintf(f, "conventions: %s -- %u-byte alignment%s; ",
		!strcmp(x->runtime, "tflm")	     ? "TFLite Micro"
		: !strcmp(x->runtime, "onnxruntime") ? "ONNX Runtime"
						     : "TFLite",
		x->align, x->align_given ? " (--align)" : "");
	if (in->has_graph)
		fprintf(f, "lifetimes %s%s (%s); ",
			ab_lifetime_rule_name(x->lifetimes),
			x->lifetimes_given ? " (--lifetimes)" : "",
			lifetime_words(x->lifetimes));
	else
		fputs("lifetimes as the file gives them; ", f);
	if (x->round_to > 1)
		fprintf(f, "sizes rounded up to %u%s%s\n", x->round_to,
			x->round_given ? " (--round)" : "",
			in->has_graph ? "" : " (not applied: CSV problems are planned as given)");
	else
		fprintf(f, "sizes as stored%s\n", x->round_given ? " (--round)" : "");
	if (x->runtime_reason)
		fprintf(f, "  %s conventions because %s\n",
			!strcmp(x->runtime, "tflm") ? "TFLite Micro's" : "these", x->runtime_reason);

	if (x->load_inplace)
		fprintf(f, "in place (--inplace): %zu tensors write into a last-read same-size input's buffer\n",
			in->problem.n_aliased);
	if (in->reordered)
		fprintf(f, "reordered (--reorder %s): lower bound %s -> %s bytes%s\n",
			ab_reorder_method_name(x->reorder_method),
			ab_explain_grouped(in->reorder.lower_bound_before, a, sizeof(a)),
			ab_explain_grouped(in->reorder.lower_bound_after, b, sizeof(b)),
			in->reorder.kept_original ? " (the file's order kept)" : "");
	if (x->tiers) {
		fputs("tiers (--tier):", f);
		for (int i = 0; i < x->tiers->n; i++) {
			fprintf(f, "%s %s ", i ? "," : "", x->tiers->tier[i].name);
			if (x->tiers->tier[i].capacity)
				fprintf(f, "%s bytes", ab_explain_grouped(x->tiers->tier[i].capacity, a, sizeof(a)));
			else
				fputs("unbounded", f);
		}
		fprintf(f, "; filled by %s; arena_bytes below is the sum of the tiers' peaks (`plan` gives each)\n",
			ab_tier_benefit_name(x->tiers->opt.benefit));
	}

	fputs("\nactivations\n", f);
	fprintf(f, "  sum of sizes     %14s bytes (%s)\n",
		ab_explain_grouped(x->sum_bytes, a, sizeof(a)), ab_explain_human(x->sum_bytes, h, sizeof(h)));
	fprintf(f, "  lower bound      %14s bytes (%s), the most bytes live at one step\n",
		ab_explain_grouped(x->lower_bound_bytes, b, sizeof(b)),
		ab_explain_human(x->lower_bound_bytes, h, sizeof(h)));
	if (in->has_graph) {
		fprintf(f, "  weights          %14s bytes (const tensors by shape",
			ab_explain_grouped(x->weights_bytes, a, sizeof(a)));
		if (in->is_tflite)
			fprintf(f, "; the file stores %s", ab_explain_grouped(x->weights_stored_bytes, b, sizeof(b)));
		fputs("; not in the arena)\n", f);
		fprintf(f, "  persistent       %14s bytes (variables; %s)\n",
			ab_explain_grouped(x->persistent_bytes, a, sizeof(a)),
			x->persistent_in_arena ? "planned in the arena, live for the whole run"
					       : x->lifetimes == AB_LIFETIMES_TFLM
						 ? "outside the arena under tflm"
						 : "in TFLite's persistent arena, not planned");
	} else if (in->problem.capacity) {
		fprintf(f, "  capacity         %14s bytes (from the file name)\n",
			ab_explain_grouped(in->problem.capacity, a, sizeof(a)));
	}
	if (x->n_strings) {
		fprintf(f, "  string tensors   %zu (variable length: not planned, counted as 0 bytes):",
			x->n_strings);
		for (size_t s = 0; s < x->n_strings && s < 8; s++)
			fprintf(f, " %s", in->graph.tensors[x->strings[s]].name);
		fputs(x->n_strings > 8 ? " ...\n" : "\n", f);
	}
	if (in->is_tflite && x->n_dynamic)
		fprintf(f, "  dynamic shapes   %zu tensors have -1 in shape_signature; sizes use %s\n",
			x->n_dynamic,
			x->used_dims ? "the --dim values given" : "the stored shape (set --dim NAME=VALUE to override)");
	else if (in->is_tflite)
		fputs("  dynamic shapes   none (sizes from the stored shapes)\n", f);
}

static void text_planners(FILE *f, const struct ab_explanation *x)
{
	char a[32], b[33];
	int best = x->best;
	uint64_t best_peak = best >= 0 ? ab_explain_at(x, (size_t)best, 0)->row.check.peak_bytes : 0;

	fprintf(f, "\nplanners at %u-byte alignment (every plan is checked: geometric sweep and execution)\n",
		x->align);
	fprintf(f, "  %-20s %14s %9s %8s %14s  %s\n", "planner", "arena_bytes",
		"x_bound", "reuse", "vs_best", "checks");
	for (size_t k = 0; k < x->n_planners; k++) {
		const struct ab_explain_result *r = ab_explain_at(x, k, 0);

		if (!r->row.check.valid) {
			fprintf(f, "  %-20s %14s %9s %8s %14s  INVALID: %s\n",
				r->planner->name, r->row.check.peak_bytes ? ab_explain_grouped(r->row.check.peak_bytes, a, sizeof(a)) : "-",
				"-", "-", "-", r->row.check.message ? r->row.check.message : "?");
			continue;
		}
		b[0] = '+';
		ab_explain_grouped(r->row.check.peak_bytes - best_peak, b + 1, sizeof(b) - 1);
		fprintf(f, "  %-20s %14s %9.4f %7.1f%% %14s  valid (execution %s)\n",
			r->planner->name, ab_explain_grouped(r->row.check.peak_bytes, a, sizeof(a)),
			ab_explain_ratio(r->row.check.peak_bytes, x->lower_bound_bytes),
			100.0 * ab_explain_reuse(r->row.check.peak_bytes, x->sum_bytes),
			(int)k == best ? "best" : b,
			ab_exec_mode_name(r->row.check.exec_mode));
	}
	fputs("  (x_bound = arena / lower bound; reuse = 1 - arena / sum of sizes)\n", f);
	if (!strcmp(x->runtime, "tflm"))
		fputs("  TFLite Micro: arena_bytes is the planned part of the arena only; the persistent tail\n"
		      "  (tensor and node structures, quantisation data, kernel persistent buffers, variables)\n"
		      "  and the kernels' scratch buffers not listed in the input come on top of it\n", f);
	if (x->has_offline)
		fprintf(f, "  offline: the model's own plan places %zu buffers; %zu marked -1 were placed by first fit%s\n",
			x->offline.fixed, x->offline.runtime,
			x->offline.misaligned_fixed ? "" : "; every fixed offset meets the alignment");
	if (x->has_offline && x->offline.misaligned_fixed)
		fprintf(f, "  offline: %zu fixed offsets are not multiples of %u (used as given; checked at alignment 1)\n",
			x->offline.misaligned_fixed, x->align);
	if (!x->invalid)
		fprintf(f, "  all %zu plans valid (%zu planners x %zu alignments)\n",
			x->n_planners * x->n_aligns, x->n_planners, x->n_aligns);
	else
		fprintf(f, "  %zu of %zu plans INVALID\n", x->invalid,
			x->n_planners * x->n_aligns);
}

/* Under the tflite rule a model with control flow has an arena per
 * subgraph (docs/semantics.md, "Control flow"): each one's bound and the
 * best plan's arena, then the total the interpreter allocates. */
static void text_subgraphs(FILE *f, const struct ab_explanation *x)
{
	const struct ab_problem *p = &x->in.problem;

	if (p->n_parts <= 1 || !p->part)
		return;
	fputs("\narenas per subgraph (TFLite: each subgraph has its own ArenaPlanner and arena)\n", f);
	fprintf(f, "  %-28s %8s %14s %14s\n", "subgraph", "buffers", "lower_bound",
		x->best >= 0 ? "best_arena" : "");
	for (int j = 0; j < p->n_parts; j++) {
		const int32_t sg = p->part_subgraph[j];
		size_t n;
		uint64_t lb = ab_explain_part_bound(x, j, &n);

		fprintf(f, "  %2" PRId32 " %-25.25s %8zu %14" PRIu64, sg,
			sg >= 0 && (size_t)sg < x->in.graph.n_subgraphs
				? x->in.graph.subgraphs[sg].name : "?",
			n, lb);
		if (x->best >= 0 && j < x->best_plan.n_arenas)
			fprintf(f, " %14" PRIu64, x->best_plan.arena_size[j]);
		fputc('\n', f);
	}
	if (x->best >= 0)
		fprintf(f, "  total the interpreter allocates (best plan, arenas laid one after another): %" PRIu64 " bytes\n",
			x->best_plan.peak);
}

static void text_where(FILE *f, const struct ab_explanation *x)
{
	const struct ab_op *op = x->lb_op >= 0 ? &x->in.graph.ops[x->lb_op] : NULL;
	char a[32];

	fputs("\nwhere the memory goes: the lower-bound step\n", f);
	if (x->lb_step < 0) {
		fputs("  (nothing is live at any step)\n", f);
		return;
	}
	fprintf(f, "  step %" PRId32, x->lb_step);
	if (op)
		fprintf(f, ", operator %d %s '%s'", x->lb_op, op->type ? op->type : "?",
			op->name ? op->name : "");
	else if (x->in.has_graph)
		fputs(", before the first operator (graph inputs)", f);
	fprintf(f, ": %zu buffers live, %s bytes", x->n_lb_live,
		ab_explain_grouped(x->lb_live_bytes, a, sizeof(a)));
	if (x->lb_part >= 0) {
		int32_t sg = x->in.problem.part_subgraph[x->lb_part];

		fprintf(f, " in subgraph %" PRId32 " '%s', the largest of the arenas",
			sg, sg >= 0 && (size_t)sg < x->in.graph.n_subgraphs
				    ? x->in.graph.subgraphs[sg].name : "?");
	}
	fputc('\n', f);
	fprintf(f, "  %c %-36s %-18s %-6s %12s  %s\n", '#', "tensor", "shape",
		"dtype", "bytes", "lifetime [first, last]");
	for (size_t k = 0; k < x->n_lb_live; k++)
		text_tensor_row(f, x, x->lb_live[k], true);

	fprintf(f, "\nthe %zu largest tensors\n", x->n_largest);
	for (size_t k = 0; k < x->n_largest; k++)
		text_tensor_row(f, x, x->largest[k], false);
}

static void text_timeline(FILE *f, const struct ab_explanation *x,
			  const struct ab_explain_args *a)
{
	int width = a->timeline_width > 0 ? a->timeline_width : DEFAULT_WIDTH;
	size_t rows = a->timeline_rows ? a->timeline_rows : DEFAULT_ROWS;
	const struct ab_explain_result *r;
	struct timeline tl;
	char *line;
	char g[32], h[32];

	if (x->best < 0 || !x->best_plan.peak) {
		fputs("\ntimeline: no valid plan to draw\n", f);
		return;
	}
	if (width > 1000)
		width = 1000;
	r = ab_explain_at(x, (size_t)x->best, 0);
	line = malloc((size_t)width + 1);
	if (!line || timeline_make(x, rows, &tl)) {
		free(line);
		fputs("\ntimeline: out of memory\n", f);
		return;
	}
	fprintf(f, "\ntimeline of the best plan (%s, %s bytes): one row per %s, the arena across,\n"
		   "one column = %s bytes; a character per buffer (the # column), '.' free\n",
		r->planner->name, ab_explain_grouped(x->best_plan.peak, g, sizeof(g)),
		x->in.has_graph ? "step" : "time",
		ab_explain_grouped((x->best_plan.peak + (uint64_t)width - 1) / (uint64_t)width, h, sizeof(h)));
	if (x->in.problem.n > N_SYMBOL_CHARS && !x->symbol_clashes)
		fprintf(f, "(%s buffers, %d characters: a character is reused once its buffer has ended,\n"
			   "so buffers live at the same step always differ; the buffer list gives each one's)\n",
			ab_explain_grouped(x->in.problem.n, g, sizeof(g)), N_SYMBOL_CHARS);
	else if (x->in.problem.n > N_SYMBOL_CHARS)
		fprintf(f, "(%s buffers, %d characters: a character is reused once its buffer has ended;\n"
			   "more than %d are live at once, so %s buffers share theirs with one live at the\n"
			   "same step; the buffer list gives each one's)\n",
			ab_explain_grouped(x->in.problem.n, g, sizeof(g)), N_SYMBOL_CHARS,
			N_SYMBOL_CHARS, ab_explain_grouped(x->symbol_clashes, h, sizeof(h)));
	if (tl.sampled)
		fprintf(f, "(sampled: %zu of %zu rows, evenly spaced, the lower-bound step kept)\n",
			tl.n, tl.n_all);
	for (size_t j = 0; j < tl.n; j++) {
		const char *type = NULL;
		if (x->in.has_graph) {
			int64_t op = ab_lifetime_op_at_step(x->lifetimes,
							    (int32_t)tl.time[j]);

			type = op >= 0 ? ab_explain_op_type(x, (int)op) : "(inputs)";
		}
		draw_row(x, tl.time[j], width, line);
		fprintf(f, "%7" PRId64 " %-17.17s |%s| %10s%s\n", tl.time[j],
			type ? type : "", line, ab_explain_human(tl.live[j], h, sizeof(h)),
			tl.time[j] == x->lb_step ? "  <- lower bound" : "");
	}
	timeline_free(&tl);
	free(line);
}

/* Every buffer of the best plan, by first use: the timeline's character,
 * size, offset and lifetime; on --buffers past AB_EXPLAIN_LIST_MAX. */
static void text_buffers(FILE *f, const struct ab_explanation *x,
			 const struct ab_explain_args *a)
{
	const struct ab_problem *p = &x->in.problem;
	const struct ab_plan *plan = &x->best_plan;
	char g[32], nb[32], tb[64], ob[32], eb[32];

	if (x->best < 0)
		return;
	if (p->n > AB_EXPLAIN_LIST_MAX && !a->buffers) {
		fprintf(f, "\nbuffers: %s in the best plan; --buffers lists each with its offset, size,\n"
			   "lifetime and timeline character\n",
			ab_explain_grouped(p->n, g, sizeof(g)));
		return;
	}
	fprintf(f, "\nbuffers of the best plan (%s), by first use: [offset, end) %s\n",
		ab_explain_at(x, (size_t)x->best, 0)->planner->name,
		plan->n_arenas > 1 ? "as flat addresses (each arena from its base)" : "in the arena");
	fprintf(f, "  %c %-36s %12s %14s %14s  %s%s\n", '#', "tensor", "bytes",
		"offset", "end", "lifetime [first, last]",
		plan->n_arenas > 1 ? "  arena" : "");
	for (size_t k = 0; k < p->n; k++) {
		size_t i = x->by_first_use[k];

		fprintf(f, "  %c %-36.36s %12s %14s %14s  [%" PRId32 ", %" PRId32 "]",
			x->symbol[i],
			tail(ab_explain_buffer_name(x, i, nb, sizeof(nb)), 36, tb, sizeof(tb)),
			ab_explain_grouped(p->buf[i].size, g, sizeof(g)),
			ab_explain_grouped(plan->offset[i], ob, sizeof(ob)),
			ab_explain_grouped(plan->offset[i] + p->buf[i].size, eb, sizeof(eb)),
			p->buf[i].first, p->buf[i].last);
		if (plan->n_arenas > 1)
			fprintf(f, "  %u", (unsigned)plan->arena[i]);
		fputc('\n', f);
	}
}

/* Index of the jj-th smallest alignment. */
static size_t align_rank(const struct ab_explanation *x, size_t jj)
{
	size_t order[AB_EXPLAIN_MAX_ALIGNS];

	for (size_t j = 0; j < x->n_aligns; j++) {
		size_t k = j;

		while (k > 0 && x->aligns[order[k - 1]] > x->aligns[j]) {
			order[k] = order[k - 1];
			k--;
		}
		order[k] = j;
	}
	return order[jj];
}


static void text_alternatives(FILE *f, const struct ab_explanation *x)
{
	int b0 = ab_explain_best_at(x, 0);
	uint64_t base = b0 >= 0 ? ab_explain_at(x, (size_t)b0, 0)->row.check.peak_bytes : 0;
	char a[32];

	fputs("\nwhat other choices would give (best valid planner at each alignment)\n", f);
	fprintf(f, "  %-9s %-20s %14s %16s\n", "align", "best planner",
		"arena_bytes", "vs_in_use");
	for (size_t jj = 0; jj < x->n_aligns; jj++) {
		size_t j = align_rank(x, jj);
		int b = ab_explain_best_at(x, j);
		const struct ab_explain_result *r;
		char d[40], g[32];

		if (b < 0) {
			fprintf(f, "  %-9u %-20s\n", x->aligns[j], "(no valid plan)");
			continue;
		}
		r = ab_explain_at(x, (size_t)b, j);
		if (j == 0 || b0 < 0)
			snprintf(d, sizeof(d), "%s", j == 0 ? "(in use)" : "-");
		else if (r->row.check.peak_bytes == base)
			snprintf(d, sizeof(d), "same");
		else if (r->row.check.peak_bytes < base)
			snprintf(d, sizeof(d), "saves %s", ab_explain_grouped(base - r->row.check.peak_bytes, g, sizeof(g)));
		else
			snprintf(d, sizeof(d), "costs %s", ab_explain_grouped(r->row.check.peak_bytes - base, g, sizeof(g)));
		fprintf(f, "  %-9u %-20s %14s %16s\n", x->aligns[j],
			r->planner->name, ab_explain_grouped(r->row.check.peak_bytes, a, sizeof(a)), d);
	}
	if (b0 >= 0) {
		uint64_t worst = 0;
		const char *wn = NULL;

		for (size_t k = 0; k < x->n_planners; k++) {
			const struct ab_explain_result *r = ab_explain_at(x, k, 0);

			if (r->row.check.valid && r->row.check.peak_bytes >= worst) {
				worst = r->row.check.peak_bytes;
				wn = r->planner->name;
			}
		}
		int rt = ab_explain_runtime_planner(x);

		if (rt >= 0 && ab_explain_at(x, (size_t)rt, 0)->row.check.valid) {
			uint64_t own = ab_explain_at(x, (size_t)rt, 0)->row.check.peak_bytes;

			fprintf(f, "  strategy: the runtime's own planner (%s) needs %s bytes; ",
				ab_explain_at(x, (size_t)rt, 0)->planner->name,
				ab_explain_grouped(own, a, sizeof(a)));
			if (own > base)
				fprintf(f, "%s saves %s\n",
					ab_explain_at(x, (size_t)b0, 0)->planner->name,
					ab_explain_grouped(own - base, a, sizeof(a)));
			else
				fputs("no planner here does better\n", f);
		}
		if (wn && worst > base)
			fprintf(f, "  strategy: the worst, %s, needs %s bytes more than %s\n",
				wn, ab_explain_grouped(worst - base, a, sizeof(a)),
				ab_explain_at(x, (size_t)b0, 0)->planner->name);
		if (base > x->lower_bound_bytes)
			fprintf(f, "  at most %s bytes more could be saved by any plan (best - lower bound)\n",
				ab_explain_grouped(base - x->lower_bound_bytes, a, sizeof(a)));
		else
			fputs("  the best plan meets the lower bound: no plan can use less\n", f);
	}
}

int ab_explain_write_text(FILE *f, const struct ab_explanation *x,
			  const struct ab_explain_args *a)
{
	text_header(f, x);
	text_planners(f, x);
	text_subgraphs(f, x);
	text_where(f, x);
	text_timeline(f, x, a);
	text_buffers(f, x, a);
	text_alternatives(f, x);
	fprintf(f, "\ntime (wall / CPU ms): import %.1f / %.1f; planning at %u (%zu planners) %.1f / %.1f; at the other alignments %.1f / %.1f; checks %.1f / %.1f; total %.1f / %.1f\n",
		x->wall_ms[AB_EXPLAIN_T_IMPORT], x->cpu_ms[AB_EXPLAIN_T_IMPORT],
		x->align, x->n_planners - x->has_offline,
		x->wall_ms[AB_EXPLAIN_T_PLAN], x->cpu_ms[AB_EXPLAIN_T_PLAN],
		x->wall_ms[AB_EXPLAIN_T_PLAN_OTHER], x->cpu_ms[AB_EXPLAIN_T_PLAN_OTHER],
		x->wall_ms[AB_EXPLAIN_T_CHECKS], x->cpu_ms[AB_EXPLAIN_T_CHECKS],
		x->wall_ms[AB_EXPLAIN_T_TOTAL], x->cpu_ms[AB_EXPLAIN_T_TOTAL]);
	return ferror(f) ? -EIO : 0;
}

