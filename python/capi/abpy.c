/*
 * The C API of the Python package (python/arenabench, docs/python.md):
 * a few flat functions over the harness that ctypes calls, so that the
 * package never reads a harness struct but the ones declared in
 * python/arenabench/_capi.py (struct abpy_plan_info, abpy_check_info and
 * struct ab_error).  Linked with the harness, the planners and Google
 * Benchmark's timer into build/libarenabench.so by `make python`.
 *
 * Contract: like the harness, every function named as an action returns 0
 * or a negative errno and fills the caller's struct ab_error with the
 * harness's own message; nothing here prints, exits or starts a process.
 * ctypes releases the GIL around every call; a Python strategy's plan
 * function (a ctypes callback) takes it back while it runs.
 */
#include <errno.h>
#include <inttypes.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/bench.h"
#include "cli/timing.h"
#include "import/expand.h"
#include "report/explain.h"

/* The command line's memory policy (cli/main.c): arrays up to 32 MiB come
 * from the heap, which is never trimmed, so that the next plan does not
 * fault its arrays in afresh page by page.  The package applies it when
 * it loads this library unless ARENABENCH_KEEP_MEMORY=0 (docs/python.md). */
void abpy_keep_freed_memory(void)
{
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, -1);
}

/* ------------------------------------------------------------ conventions */

/*
 * The command line's rule for a runtime's conventions (cli/options.c,
 * conventions_of): tflite = align 64 and TFLite's lifetimes; tflm = align
 * 16, TFLite Micro's lifetimes and sizes rounded to 16; no runtime: a
 * .tflite gets tflite's, anything else align 1 and arenabench's rule.
 * tests/test_python.py pins the package's offsets to the CLI's, so a drift
 * between the two copies fails there.
 */
static int conventions(const char *runtime, const char *path,
		       struct ab_load_options *lo, uint32_t *align,
		       struct ab_error *err)
{
	size_t n = path ? strlen(path) : 0;
	bool tflite = n >= 7 && !strcmp(path + n - 7, ".tflite");

	if (runtime && *runtime && strcmp(runtime, "tflite") && strcmp(runtime, "tflm"))
		return ab_fail(err, -EINVAL, "runtime '%s': expected tflite or tflm", runtime);
	if (runtime && !strcmp(runtime, "tflm")) {
		lo->problem.lifetimes = AB_LIFETIMES_TFLM;
		lo->problem.round_to = 16;
		*align = 16;
	} else if ((runtime && !strcmp(runtime, "tflite")) || (!runtime && tflite)) {
		lo->problem.lifetimes = AB_LIFETIMES_TFLITE;
		*align = 64;
	} else {
		*align = 1;
	}
	return 0;
}

/* dims: "NAME=VALUE" lines. */
static int add_dims(struct ab_load_options *lo, const char *dims,
		    struct ab_error *err)
{
	char line[256];

	while (dims && *dims) {
		size_t k = strcspn(dims, "\n");

		if (k >= sizeof(line))
			return ab_fail(err, -EINVAL, "dims: '%.*s...' is too long", 40, dims);
		memcpy(line, dims, k);
		line[k] = 0;
		if (k) {
			/* the command line's --dim rule (cli/options.c) */
			struct ab_tflite_dim *d;
			char *eq = strchr(line, '='), *end;
			long long v = eq ? strtoll(eq + 1, &end, 10) : -1;

			if (!eq || eq == line || (size_t)(eq - line) >= sizeof(d->name) ||
			    lo->tflite.n_dims == AB_TFLITE_MAX_DIMS || !eq[1] || *end ||
			    v < 0 || v > INT32_MAX)
				return ab_fail(err, -EINVAL, "dims: expected NAME=VALUE (at most %d, VALUE a whole number up to %d), got '%s'",
					       AB_TFLITE_MAX_DIMS, INT32_MAX, line);
			d = &lo->tflite.dims[lo->tflite.n_dims++];
			memcpy(d->name, line, (size_t)(eq - line));
			d->name[eq - line] = 0;
			d->value = v;
		}
		dims += k + (dims[k] == '\n');
	}
	return 0;
}

/* ------------------------------------------------------------- problems */

int abpy_load(const char *path, const char *runtime, const char *dims,
	      struct ab_input **out, uint32_t *align, struct ab_error *err)
{
	struct ab_load_options lo = { 0 };
	struct ab_input *in = calloc(1, sizeof(*in));
	int rc;

	*out = NULL;
	if (!in)
		return ab_fail(err, -ENOMEM, "%s: out of memory", path);
	rc = conventions(runtime, path, &lo, align, err);
	if (!rc)
		rc = add_dims(&lo, dims, err);
	if (!rc)
		rc = ab_input_load(path, &lo, in, err);
	if (rc) {
		if (rc == AB_ONNX_NEEDS_DIMS)
			ab_input_free(in);
		free(in);
		return rc;
	}
	*out = in;
	return 0;
}

/* A problem from arrays, through the minimalloc CSV reader (the same rules
 * and messages as a .csv file; `name` stands for the file and line k + 2
 * for buffer k): half-open [lower, upper). */
int abpy_from_arrays(const char *name, size_t n, const int64_t *lower,
		     const int64_t *upper, const int64_t *size,
		     const int64_t *align, struct ab_input **out,
		     struct ab_error *err)
{
	struct ab_load_options lo = { .family = "arrays" };
	struct ab_input *in;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int rc;

	*out = NULL;
	if (!f)
		return ab_fail(err, -ENOMEM, "%s: out of memory", name);
	fputs("id,lower,upper,size,alignment\n", f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%zu,%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 "\n",
			i, lower[i], upper[i], size[i], align ? align[i] : 1);
	if (fclose(f)) {
		free(text);
		return ab_fail(err, -ENOMEM, "%s: out of memory", name);
	}
	in = calloc(1, sizeof(*in));
	if (!in) {
		free(text);
		return ab_fail(err, -ENOMEM, "%s: out of memory", name);
	}
	rc = ab_input_parse(name, (const uint8_t *)text, len, &lo, in, err);
	free(text);
	if (rc) {
		free(in);
		return rc;
	}
	*out = in;
	return 0;
}

void abpy_free(struct ab_input *in)
{
	if (in) {
		ab_input_free(in);
		free(in);
	}
}

const struct ab_problem *abpy_problem(const struct ab_input *in)
{
	return &in->problem;
}

size_t abpy_n(const struct ab_problem *p)
{
	return p->n;
}

const char *abpy_problem_name(const struct ab_problem *p)
{
	return p->name ? p->name : "";
}

/* Buffer i lives on [lower[i], upper[i]) (upper = last + 1); align[i] is
 * max(o_align, its own). */
void abpy_buffers(const struct ab_problem *p, uint32_t o_align,
		  int64_t *lower, int64_t *upper, uint64_t *size,
		  uint64_t *align)
{
	for (size_t i = 0; i < p->n; i++) {
		lower[i] = p->buf[i].first;
		upper[i] = (int64_t)p->buf[i].last + 1;
		size[i] = p->buf[i].size;
		align[i] = p->buf[i].align > o_align ? p->buf[i].align : (o_align ? o_align : 1);
	}
}

uint64_t abpy_lower_bound(const struct ab_problem *p)
{
	return ab_lower_bound(p, NULL);
}

uint64_t abpy_sum(const struct ab_problem *p)
{
	return ab_sum_bytes(p);
}

const char *abpy_name(const struct ab_input *in)
{
	return in->problem.name ? in->problem.name : in->path;
}

const char *abpy_family(const struct ab_input *in)
{
	return in->family ? in->family : "";
}

size_t abpy_steps(const struct ab_input *in)
{
	return in->ops;
}

void abpy_buffer_name(const struct ab_input *in, size_t i, char *buf,
		      size_t len)
{
	ab_buffer_name(in->has_graph ? &in->graph : NULL, &in->problem, i, buf, len);
}

/* -------------------------------------------------------------- planners */

size_t abpy_planner_count(void)
{
	return ab_planner_count();
}

const struct ab_planner *abpy_planner_at(size_t i)
{
	return ab_planner_at(i);
}

const struct ab_planner *abpy_planner_find(const char *name)
{
	return ab_planner_find(name);
}

const char *abpy_planner_name(const struct ab_planner *pl)
{
	return pl->name;
}

const char *abpy_planner_about(const struct ab_planner *pl)
{
	return pl->about;
}

const char *abpy_planner_cost(const struct ab_planner *pl)
{
	return ab_cost_class_name(pl->cost);
}

const char *abpy_planner_language(const struct ab_planner *pl)
{
	return pl->language ? pl->language : "c";
}

/*
 * A strategy written in Python as a planner: fn is a ctypes callback
 * (planner contract of core/arenabench.h) that reads the problem with
 * abpy_buffers and answers with abpy_plan_set_offsets or abpy_plan_fail.
 * Freed with abpy_planner_free; the strings are copied.
 */
struct ab_planner *abpy_planner_new(const char *name, const char *about,
				    int cost, const char *language,
				    int (*fn)(const struct ab_problem *,
					      const struct ab_plan_options *,
					      struct ab_plan *))
{
	struct ab_planner *pl = calloc(1, sizeof(*pl));

	if (!pl)
		return NULL;
	pl->name = strdup(name);
	pl->about = strdup(about);
	pl->language = strdup(language);
	pl->cost = cost == 1 ? AB_COST_BUDGETED : AB_COST_FAST;
	pl->plan = fn;
	if (!pl->name || !pl->about || !pl->language) {
		free((char *)pl->name);
		free((char *)pl->about);
		free((char *)pl->language);
		free(pl);
		return NULL;
	}
	return pl;
}

void abpy_planner_free(struct ab_planner *pl)
{
	if (!pl)
		return;
	free((char *)pl->name);
	free((char *)pl->about);
	free((char *)pl->language);
	free(pl);
}

uint32_t abpy_options_align(const struct ab_plan_options *o)
{
	return o->align ? o->align : 1;
}

/* The strategy's offsets into the plan: one arena, peak = the highest
 * end.  An offset above 2^62 is refused (no end could be computed
 * without overflow); overlap and alignment are the checks' business. */
int abpy_plan_set_offsets(const struct ab_problem *p,
			  const struct ab_plan_options *o,
			  struct ab_plan *plan, const uint64_t *offsets)
{
	for (size_t i = 0; i < p->n; i++) {
		if (offsets[i] > AB_MAX_PROBLEM_BYTES)
			return ab_fail(o->why, -ERANGE, "offset %" PRIu64 " of buffer %zu is above 2^62 bytes",
				       offsets[i], i);
		plan->offset[i] = offsets[i];
		plan->arena[i] = 0;
	}
	ab_plan_finish_single(plan, p);
	return 0;
}

/* Why the strategy gave no plan (its exception), for the row's message. */
int abpy_plan_fail(const struct ab_plan_options *o, const char *msg)
{
	return ab_fail(o->why, -EINVAL, "%s", msg);
}

/* ------------------------------------------------------------------ plan */

struct abpy_plan_info {
	uint64_t peak, peak_align1;
	int32_t n_arenas, stopped_by, optimal;
	uint32_t threads;
	uint64_t best_bound, iterations;
	double wall_ns, cpu_ns;
	uint64_t arena_base[AB_MAX_ARENAS], arena_size[AB_MAX_ARENAS];
};

/* Plans in's problem with pl at align into the caller's offsets[] and
 * arena[] (room for max(n, 1) each: the plan is made in place, no copy),
 * and, when align is not 1, once more at 1 for the padding, as the CSV's
 * peak_align1_bytes; wall_ns and cpu_ns time the first call only, as the
 * command line's plan does (ab_run_planner). */
int abpy_plan(const struct ab_input *in, const struct ab_planner *pl,
	      uint32_t align, uint64_t budget, uint64_t seed,
	      uint64_t *offsets, uint16_t *arena, struct abpy_plan_info *info,
	      struct ab_error *err)
{
	struct ab_plan_options o = { .align = align, .budget = budget, .seed = seed };
	struct ab_plan plan = { .n = in->problem.n, .offset = offsets, .arena = arena };
	double t0, c0;
	int rc;

	memset(info, 0, sizeof(*info));
	ab_plan_reset(&plan);
	c0 = ab_clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	t0 = ab_clock_ns(CLOCK_MONOTONIC);
	rc = ab_run_planner(in, pl, &o, &plan, NULL, err);
	info->wall_ns = ab_clock_ns(CLOCK_MONOTONIC) - t0;
	info->cpu_ns = ab_clock_ns(CLOCK_PROCESS_CPUTIME_ID) - c0;
	if (rc)
		return rc;
	info->peak = info->peak_align1 = plan.peak;
	info->n_arenas = plan.n_arenas;
	memcpy(info->arena_base, plan.arena_base, sizeof(info->arena_base));
	memcpy(info->arena_size, plan.arena_size, sizeof(info->arena_size));
	info->stopped_by = (int32_t)plan.stopped_by;
	info->optimal = (int32_t)plan.optimal;
	info->threads = plan.threads;
	info->best_bound = plan.best_bound;
	info->iterations = plan.iterations;
	if (align > 1) {
		struct ab_plan one;

		if (ab_plan_alloc(&one, in->problem.n))
			return ab_fail(err, -ENOMEM, "%s: out of memory", in->path);
		o.align = 1;
		rc = ab_run_planner(in, pl, &o, &one, NULL, err);
		if (!rc)
			info->peak_align1 = one.peak;
		ab_plan_free(&one);
	}
	return rc;
}

/* ----------------------------------------------------------------- check */

struct abpy_check_info {
	int32_t verdict;   /* enum ab_verdict */
	int32_t exec_mode; /* enum ab_exec_mode; -1: the execution check did
			      not run (the geometric one failed) */
	int64_t a, b;      /* buffers involved, -1 when none */
	int32_t step;      /* execution check: step of detection, or -1 */
	int32_t geometric; /* 1: the geometric check gave the verdict */
};

/*
 * Both checks of a plan given as arrays, in check/check.c's order
 * (ab_check_plan): the geometric check at align, then the execution check;
 * the message is ab_describe_check's (malloc'd into *message, NULL when
 * valid; free with abpy_free_string).
 */
int abpy_check(const struct ab_input *in, const uint64_t *offsets,
	       const uint16_t *arena, int n_arenas, const uint64_t *base,
	       const uint64_t *size, uint64_t peak, uint32_t align,
	       struct abpy_check_info *info, char **message,
	       struct ab_error *err)
{
	const struct ab_graph *g = in->has_graph ? &in->graph : NULL;
	struct ab_check_result res = { 0 };
	enum ab_exec_mode mode = AB_EXEC_SKIPPED;
	struct ab_plan plan;
	enum ab_verdict v;
	const char *which = "geometric";

	*message = NULL;
	if (n_arenas < 1 || n_arenas > AB_MAX_ARENAS)
		return ab_fail(err, -EINVAL, "a plan has 1 to %d arenas, not %d",
			       AB_MAX_ARENAS, n_arenas);
	if (ab_plan_alloc(&plan, in->problem.n))
		return ab_fail(err, -ENOMEM, "%s: out of memory", in->path);
	memcpy(plan.offset, offsets, plan.n * sizeof(*offsets));
	memcpy(plan.arena, arena, plan.n * sizeof(*arena));
	plan.n_arenas = n_arenas;
	memcpy(plan.arena_base, base, (size_t)n_arenas * sizeof(*base));
	memcpy(plan.arena_size, size, (size_t)n_arenas * sizeof(*size));
	plan.peak = peak;
	info->exec_mode = -1;
	info->geometric = 1;
	v = ab_validate_plan(&in->problem, &plan, align, &res);
	if (v == AB_PLAN_VALID) {
		which = "execution";
		info->geometric = 0;
		res.step = -1;
		v = ab_execute_plan(g, &in->problem, &plan, NULL, &mode, &res);
		info->exec_mode = (int32_t)mode;
	}
	info->verdict = (int32_t)v;
	info->a = info->b = -1;
	info->step = -1;
	if (v != AB_PLAN_VALID) {
		info->a = v == AB_PLAN_CHECK_FAILED ? -1 : (int64_t)res.a;
		info->b = v == AB_PLAN_OVERLAP || v == AB_PLAN_STOMP ? (int64_t)res.b : -1;
		info->step = info->geometric ? -1 : res.step;
		*message = ab_describe_check(g, &in->problem, &plan, &res, which);
		if (!*message) {
			ab_plan_free(&plan);
			return ab_fail(err, -ENOMEM, "%s: out of memory", in->path);
		}
	}
	ab_plan_free(&plan);
	return 0;
}

void abpy_free_string(char *s)
{
	free(s);
}

const char *abpy_verdict_name(int v)
{
	return ab_verdict_name((enum ab_verdict)v);
}

const char *abpy_exec_mode_name(int m)
{
	return ab_exec_mode_name((enum ab_exec_mode)m);
}

/* --------------------------------------------------------------- explain */

/* `explain PATH --json` with the command line's defaults (runtime tflite
 * unless given); planners: a comma list or NULL (by cost); cost: fast,
 * budgeted, all or NULL; align 0: the runtime's. */
int abpy_explain_json(const char *path, const char *runtime, const char *dims,
		      uint32_t align, const char *planners, const char *cost,
		      char **json, struct ab_error *err)
{
	struct ab_explain_args e = { 0 };
	struct ab_explanation x;
	uint32_t conv_align;
	size_t len = 0;
	FILE *f;
	int rc;

	*json = NULL;
	e.path = path;
	e.runtime = runtime && *runtime ? runtime : "tflite";
	rc = conventions(e.runtime, path, &e.load, &conv_align, err);
	if (!rc)
		rc = add_dims(&e.load, dims, err);
	if (rc)
		return rc;
	e.plan.align = align ? align : conv_align;
	e.align_given = align != 0;
	e.planners = planners;
	e.cost = cost;
	e.json = true;
	rc = ab_explain(&e, &x, err);
	if (rc)
		return rc;
	f = open_memstream(json, &len);
	if (!f) {
		ab_explanation_free(&x);
		return ab_fail(err, -ENOMEM, "%s: out of memory", path);
	}
	rc = ab_explain_write_json(f, &x);
	ab_explanation_free(&x);
	if (fclose(f) || rc) {
		free(*json);
		*json = NULL;
		return ab_fail(err, -EIO, "%s: the JSON could not be written", path);
	}
	return 0;
}

/* ----------------------------------------------------------------- bench */

static bool timing_ready;

struct bench_run {
	char *text; /* the invalid plans' and skipped inputs' messages, one a line */
	size_t len;
	FILE *f;
	bool by_kind;      /* no runtime: a .tflite gets TFLite's conventions */
	bool aligns_given; /* ... but the alignments given */
};

static void on_problem(void *user, const char *msg)
{
	struct bench_run *m = user;

	if (m->f)
		fprintf(m->f, "%s\n", msg);
}

static void on_skipped(void *user, const struct ab_skipped_input *sk)
{
	struct bench_run *m = user;

	if (m->f)
		fprintf(m->f, "skipped %s: %s%s%s\n", sk->path, sk->why,
			sk->flags ? "; add " : "", sk->flags ? sk->flags : "");
}

/* One default per input kind (cli/options.c's rule): a .tflite without a
 * runtime gets TFLite's lifetimes, and align 64 unless aligns were given. */
static int input_options(void *user, const char *path, struct ab_load_options *lo,
			 uint32_t *aligns, size_t *n_aligns, struct ab_error *err)
{
	const struct bench_run *m = user;
	struct ab_load_options kind = *lo;
	uint32_t align;
	size_t n = strlen(path);

	if (!m->by_kind || n < 7 || strcmp(path + n - 7, ".tflite"))
		return 0;
	conventions(NULL, path, &kind, &align, err);
	lo->problem.lifetimes = kind.problem.lifetimes;
	if (!m->aligns_given) {
		aligns[0] = align;
		*n_aligns = 1;
	}
	return 0;
}

/*
 * `bench` over paths (files or folders) with the planners given (registry
 * or Python ones), the aligns given (n_aligns 0: the command line's 1, 16,
 * 64, and 64 for a .tflite; with a runtime, the runtime's), timed by
 * Google Benchmark when timed (its defaults: 0.01 s minimum, 3
 * repetitions).  An input that cannot be planned is skipped, as on the
 * command line.  *csv gets the CSV (docs/results-csv.md) and *messages
 * the invalid plans' reasons and the skipped inputs, one a line (both
 * malloc'd; free with abpy_free_string).
 */
int abpy_bench(const char *const *paths, size_t n_paths,
	       const struct ab_planner *const *planners, size_t n_planners,
	       const uint32_t *aligns, size_t n_aligns, const char *runtime,
	       const char *dims, int timed, char **csv, char **messages,
	       struct ab_error *err)
{
	struct ab_bench_config cfg = { 0 };
	struct bench_run m = { 0 };
	static const uint32_t bench_aligns[] = { 1, 16, 64 };
	uint32_t one_align;
	struct ab_rows rows = { 0 };
	char **files = NULL;
	size_t len = 0, n_files = 0;
	FILE *f;
	int rc;

	*csv = *messages = NULL;
	rc = conventions(runtime, NULL, &cfg.load, &one_align, err);
	if (!rc)
		rc = add_dims(&cfg.load, dims, err);
	if (rc)
		return rc;
	cfg.aligns = aligns;
	cfg.n_aligns = n_aligns > 16 ? 16 : n_aligns;
	if (!n_aligns) {
		/* the command line's defaults (cli/options.c) */
		if (runtime && *runtime) {
			cfg.aligns = &one_align;
			cfg.n_aligns = 1;
		} else {
			cfg.aligns = bench_aligns;
			cfg.n_aligns = 3;
		}
	}
	cfg.plan.seed = 1; /* the command line's default --seed */
	m.by_kind = !(runtime && *runtime);
	m.aligns_given = n_aligns > 0;
	if (m.by_kind)
		cfg.input_options = input_options;
	/* directories become their input files, as on the command line */
	rc = ab_expand_inputs(paths, n_paths, AB_INPUT_ANY, true, &files,
			      &n_files, NULL, err);
	if (rc)
		return rc;
	cfg.inputs = (const char *const *)files;
	cfg.n_inputs = n_files;
	cfg.planners = planners;
	cfg.n_planners = n_planners;
	if (timed) {
		if (!timing_ready) {
			char name[] = "arenabench", msg[256];
			char *argv[] = { name, NULL };
			int argc = 1;

			if (ab_timing_init(&argc, argv, 0.01, 3, msg, sizeof(msg))) {
				ab_free_inputs(files, n_files);
				return ab_fail(err, -EINVAL, "timing: %s", msg);
			}
			timing_ready = true;
		}
		cfg.timer = &ab_google_benchmark;
	}
	m.f = open_memstream(&m.text, &m.len);
	if (!m.f) {
		ab_free_inputs(files, n_files);
		return ab_fail(err, -ENOMEM, "bench: out of memory");
	}
	cfg.problem = on_problem;
	cfg.skipped = on_skipped;
	cfg.user = &m;
	rc = ab_bench_run(&cfg, &rows, err);
	ab_free_inputs(files, n_files);
	fclose(m.f);
	if (rc) {
		free(m.text);
		ab_rows_free(&rows);
		return rc;
	}
	f = open_memstream(csv, &len);
	if (!f) {
		free(m.text);
		ab_rows_free(&rows);
		return ab_fail(err, -ENOMEM, "bench: out of memory");
	}
	rc = ab_rows_write_csv(f, &rows);
	ab_rows_free(&rows);
	if (fclose(f) || rc) {
		free(*csv);
		*csv = NULL;
		free(m.text);
		return ab_fail(err, -EIO, "bench: the CSV could not be written");
	}
	*messages = m.text;
	return 0;
}

/* ------------------------------------------------------------------ onnx */

/* The ONNX importer (build/libarenabench_onnx.so, loaded beside this
 * library when present) handed to the loader hook. */
void abpy_set_onnx_loader(ab_onnx_loader_fn fn)
{
	ab_input_set_onnx_loader(fn);
}
