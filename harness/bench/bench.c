/*
 * The bench stage: for every input, planner and alignment, plan, run both
 * plan checks, time the planner with Google Benchmark and collect a row.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "bench/bench.h"
#include "bench/tiers.h"
#include "bench/timing.h"


/* "sram:262144+dram": each tier's name and value[i], in tier order; a
 * zero value is left out when omit_zero (an unbounded tier's capacity). */
static char *tier_list(const struct ab_tier_set *t, const uint64_t *value,
		       bool omit_zero)
{
	size_t len = 1;
	char *s, *p;

	for (int i = 0; i < t->n; i++)
		len += strlen(t->tier[i].name) + 24;
	s = p = malloc(len);
	if (!s)
		return NULL;
	*p = 0;
	for (int i = 0; i < t->n; i++) {
		p += sprintf(p, "%s%s", i ? "+" : "", t->tier[i].name);
		if (value[i] || !omit_zero)
			p += sprintf(p, ":%" PRIu64, value[i]);
	}
	return s;
}

char *ab_options_string(const struct ab_load_options *l,
			const struct ab_plan_options *o)
{
	char phases[16] = "auto", budget[24] = "default", width[32] = "";
	char *tiers = NULL, *r;
	bool tiered = o->tiers && o->tiers->n > 0;

	if (o->phases > 0)
		snprintf(phases, sizeof(phases), "%d", o->phases);
	if (o->budget > 0)
		snprintf(budget, sizeof(budget), "%" PRIu64, o->budget);
	if (l->reorder.method == AB_REORDER_BEAM && l->reorder.beam_width > 0)
		snprintf(width, sizeof(width), ";reorder_width=%d",
			 l->reorder.beam_width);
	if (tiered) {
		uint64_t cap[AB_MAX_ARENAS];

		for (int i = 0; i < o->tiers->n; i++)
			cap[i] = o->tiers->tier[i].capacity;
		tiers = tier_list(o->tiers, cap, true);
		if (!tiers)
			return NULL;
	}
	/* with tiers: ...;tiers=sram:262144+dram;tier_benefit=bytes */
	r = ab_strdupf("lifetimes=%s;round=%u;scratch=%s;seed=%" PRIu64
		       ";budget=%s;phases=%s;inplace=%s;reorder=%s%s%s%s%s%s",
		       ab_lifetime_rule_name(l->problem.lifetimes),
		       l->problem.round_to > 1 ? l->problem.round_to : 1,
		       l->problem.exclude_scratch ? "no" : "yes", o->seed,
		       budget, phases, l->problem.inplace ? "yes" : "no",
		       ab_reorder_method_name(l->reorder.method), width,
		       tiered ? ";tiers=" : "", tiered ? tiers : "",
		       tiered ? ";tier_benefit=" : "",
		       tiered ? ab_tier_benefit_name(o->tiers->opt.benefit) : "");
	free(tiers);
	return r;
}

char *ab_describe_check(const struct ab_input *in, const struct ab_plan *plan,
			const struct ab_check_result *r, const char *check)
{
	char a[160], b[160];
	const struct ab_problem *p = &in->problem;

	ab_input_buffer_name(in, r->a, a, sizeof(a));
	ab_input_buffer_name(in, r->b, b, sizeof(b));
	switch (r->verdict) {
	case AB_PLAN_OVERLAP:
		return ab_strdupf("%s check: buffers %s [%" PRId32 ",%" PRId32 "] at bytes [%" PRIu64 ",%" PRIu64 ") and %s [%" PRId32 ",%" PRId32 "] at bytes [%" PRIu64 ",%" PRIu64 ") are live together and overlap in address",
				  check, a, p->buf[r->a].first, p->buf[r->a].last,
				  plan->offset[r->a], plan->offset[r->a] + p->buf[r->a].size,
				  b, p->buf[r->b].first, p->buf[r->b].last,
				  plan->offset[r->b], plan->offset[r->b] + p->buf[r->b].size);
	case AB_PLAN_STOMP:
		/* Under --inplace a buffer holds several tensors: name them. */
		if (in->has_graph && r->tensor_a >= 0 && r->tensor_b >= 0 &&
		    (size_t)r->tensor_a < in->graph.n_tensors &&
		    (size_t)r->tensor_b < in->graph.n_tensors) {
			snprintf(a, sizeof(a), "'%s'", in->graph.tensors[r->tensor_a].name);
			snprintf(b, sizeof(b), "'%s'", in->graph.tensors[r->tensor_b].name);
		}
		return ab_strdupf("%s check: buffer %s was overwritten by %s while live (detected at step %" PRId32 ")",
				  check, a, b, r->step);
	case AB_PLAN_MISALIGNED:
	case AB_PLAN_OUTSIDE_ARENA:
	case AB_PLAN_ABOVE_PEAK:
		return ab_strdupf("%s check: buffer %s is %s", check, a,
				  ab_verdict_name(r->verdict));
	default:
		return ab_strdupf("%s check: %s", check, ab_verdict_name(r->verdict));
	}
}

void ab_exec_cache_free(struct ab_exec_cache *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->entry[i].offset);
		free(c->entry[i].arena);
	}
	free(c->entry);
	free(c->memory.mem);
	memset(c, 0, sizeof(*c));
}

#define EXEC_CACHE_MAX_BUFFERS 100000

static uint64_t plan_hash(const struct ab_plan *plan)
{
	uint64_t h = 1469598103934665603ull;

	for (size_t i = 0; i < plan->n; i++)
		h = (h ^ (plan->offset[i] + ((uint64_t)plan->arena[i] << 56))) *
		    1099511628211ull;
	return h ^ plan->peak;
}

static struct ab_exec_cached *cache_find(struct ab_exec_cache *c,
					 const struct ab_plan *plan,
					 uint64_t h)
{
	for (size_t i = 0; i < c->n; i++) {
		struct ab_exec_cached *e = &c->entry[i];

		if (e->hash == h &&
		    !memcmp(e->offset, plan->offset, plan->n * sizeof(*e->offset)) &&
		    !memcmp(e->arena, plan->arena, plan->n * sizeof(*e->arena)))
			return e;
	}
	return NULL;
}

static void cache_add(struct ab_exec_cache *c, const struct ab_plan *plan,
		      uint64_t h, enum ab_verdict v, enum ab_exec_mode m,
		      const struct ab_check_result *res)
{
	struct ab_exec_cached *e;

	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 16;
		void *p = realloc(c->entry, cap * sizeof(*c->entry));

		if (!p)
			return; /* no cache entry: only slower */
		c->entry = p;
		c->cap = cap;
	}
	e = &c->entry[c->n];
	e->offset = malloc((plan->n + 1) * sizeof(*e->offset));
	e->arena = malloc((plan->n + 1) * sizeof(*e->arena));
	if (!e->offset || !e->arena) {
		free(e->offset);
		free(e->arena);
		return;
	}
	memcpy(e->offset, plan->offset, plan->n * sizeof(*e->offset));
	memcpy(e->arena, plan->arena, plan->n * sizeof(*e->arena));
	e->hash = h;
	e->verdict = v;
	e->mode = m;
	e->res = *res;
	c->n++;
}

/* Both checks on a plan already made; fills valid, exec_mode, error. */
static int check_plan(const struct ab_input *in, const struct ab_plan *plan,
		      uint32_t align, enum ab_lifetime_rule rule,
		      const enum ab_exec_mode *force, struct ab_row *row,
		      struct ab_exec_cache *cache)
{
	struct ab_check_result res;
	struct ab_exec_cached *hit = NULL;
	enum ab_verdict v;
	uint64_t h = 0;

	row->valid = false;
	row->exec_mode = AB_EXEC_SKIPPED;
	/* The geometric check always runs: it depends on the alignment. */
	if (ab_validate_plan(&in->problem, plan, align, &res) !=
	    AB_PLAN_VALID) {
		row->error = ab_describe_check(in, plan, &res, "geometric");
		return row->error ? 0 : -ENOMEM;
	}
	if (cache && plan->n <= EXEC_CACHE_MAX_BUFFERS) {
		h = plan_hash(plan);
		hit = cache_find(cache, plan, h);
	}
	if (hit) {
		v = hit->verdict;
		row->exec_mode = hit->mode;
		res = hit->res;
	} else if (cache) {
		v = ab_execute_plan_reuse(in->has_graph ? &in->graph : NULL,
					  &in->problem, plan, rule, force,
					  &row->exec_mode, &res, &cache->memory);
		if (plan->n <= EXEC_CACHE_MAX_BUFFERS && v != AB_PLAN_CHECK_FAILED)
			cache_add(cache, plan, h, v, row->exec_mode, &res);
	} else {
		v = ab_execute_plan(in->has_graph ? &in->graph : NULL,
				    &in->problem, plan, rule, force,
				    &row->exec_mode, &res);
	}
	if (v != AB_PLAN_VALID) {
		row->error = ab_describe_check(in, plan, &res, "execution");
		return row->error ? 0 : -ENOMEM;
	}
	row->valid = true;
	return 0;
}

int ab_check_plan_row(const struct ab_input *in, const struct ab_plan *plan,
		      uint32_t check_align, enum ab_lifetime_rule rule,
		      const enum ab_exec_mode *mode, struct ab_row *row)
{
	row->peak_bytes = plan->peak;
	row->arenas = plan->n_arenas;
	return check_plan(in, plan, check_align, rule, mode, row, NULL);
}

int ab_plan_and_check(const struct ab_input *in,
		      const struct ab_planner *pl,
		      const struct ab_plan_options *o,
		      enum ab_lifetime_rule rule, struct ab_plan *plan,
		      struct ab_row *row)
{
	return ab_plan_and_check_cached(in, pl, o, rule, plan, row, NULL);
}

int ab_run_planner(const struct ab_input *in, const struct ab_planner *pl,
		   const struct ab_plan_options *o, struct ab_plan *plan,
		   struct ab_tier_report *rep, struct ab_error *err)
{
	struct ab_tier_report scratch;
	struct ab_plan_options one;
	int rc;

	ab_plan_reset(plan);
	one = *o;
	one.threads_used = &plan->threads;
	if (!o->tiers || o->tiers->n == 0) {
		rc = pl->plan(&in->problem, &one, plan);
		return rc ? ab_fail(err, rc, "planner %s failed: %s", pl->name,
				    strerror(-rc))
			  : 0;
	}
	one.tiers = NULL;
	return ab_plan_tiers(&in->problem, in->accesses, pl, &one,
			     o->tiers->tier, o->tiers->n, &o->tiers->opt, plan,
			     rep ? rep : &scratch, err);
}

int ab_plan_and_check_cached(const struct ab_input *in,
			     const struct ab_planner *pl,
			     const struct ab_plan_options *o,
			     enum ab_lifetime_rule rule, struct ab_plan *plan,
			     struct ab_row *row, struct ab_exec_cache *cache)
{
	struct ab_tier_report rep = { 0 };
	struct ab_error err = { { 0 } };
	int rc;

	rc = ab_run_planner(in, pl, o, plan, &rep, &err);
	row->valid = false;
	row->exec_mode = AB_EXEC_SKIPPED;
	if (rc) {
		row->plan_failed = true;
		row->error = strdup(err.msg);
		return row->error ? 0 : -ENOMEM;
	}
	if (o->tiers && o->tiers->n > 0) {
		row->tiered = true;
		row->spilled_bytes = rep.spilled_bytes;
		free(row->tier_peaks);
		row->tier_peaks = tier_list(o->tiers, rep.peak, false);
		if (!row->tier_peaks)
			return -ENOMEM;
	}
	row->peak_bytes = plan->peak;
	row->arenas = plan->n_arenas;
	row->stopped_by = plan->stopped_by;
	row->iterations = plan->iterations;
	row->threads = plan->threads;
	row->best_bound_bytes = plan->best_bound > row->lower_bound_bytes
					? plan->best_bound
					: row->lower_bound_bytes;
	row->optimal = plan->peak == row->lower_bound_bytes ? AB_OPTIMAL_YES
							    : plan->optimal;
	rc = check_plan(in, plan, o->align, rule, NULL, row, cache);
	if (!rc && row->valid && o->tiers && o->tiers->n > 0 &&
	    ab_tiers_check(plan, o->tiers->tier, o->tiers->n, &err)) {
		row->valid = false;
		row->error = ab_strdupf("tier check: %s", err.msg);
		return row->error ? 0 : -ENOMEM;
	}
	return rc;
}

/* ---------------------------------------------------------------- the run */

struct timed_ctx {
	const struct ab_input *in;
	const struct ab_planner *pl;
	struct ab_plan_options o;
	struct ab_plan *plan;
};

static int timed_plan(void *ctx)
{
	struct timed_ctx *c = ctx;
	struct ab_error err;

	return ab_run_planner(c->in, c->pl, &c->o, c->plan, NULL, &err);
}

struct timing_sink {
	struct ab_row *rows; /* the rows of this input */
};

static void on_timing(void *user, size_t index,
		      const struct ab_timing_result *r)
{
	struct timing_sink *s = user;
	struct ab_row *row = &s->rows[index];

	if (r->error)
		return;
	row->timed = true;
	row->plan_ns = r->median_ns;
	row->plan_ns_stddev = r->stddev_ns;
	row->repetitions = r->repetitions;
}

static int push_row(struct ab_rows *rows, struct ab_row **out)
{
	if (rows->n == rows->cap) {
		size_t cap = rows->cap ? rows->cap * 2 : 64;
		void *r = realloc(rows->row, cap * sizeof(*rows->row));

		if (!r)
			return -ENOMEM;
		rows->row = r;
		rows->cap = cap;
	}
	*out = &rows->row[rows->n++];
	memset(*out, 0, sizeof(**out));
	return 0;
}

void ab_rows_free(struct ab_rows *rows)
{
	for (size_t i = 0; i < rows->n; i++) {
		free(rows->row[i].graph);
		free(rows->row[i].family);
		free(rows->row[i].source);
		free(rows->row[i].options);
		free(rows->row[i].error);
		free(rows->row[i].tier_peaks);
	}
	free(rows->row);
	memset(rows, 0, sizeof(*rows));
}

static int bench_input(const struct ab_bench_config *cfg,
		       const struct ab_input *in, struct ab_rows *rows,
		       struct ab_error *err)
{
	const struct ab_problem *p = &in->problem;
	size_t first_row = rows->n, per_input = cfg->n_planners * cfg->n_aligns;
	uint64_t sum = ab_sum_bytes(p), lb = ab_lower_bound(p, NULL);
	size_t max_live = ab_max_live_buffers(p);
	struct ab_plan plan, timing_plan;
	struct ab_exec_cache cache = { 0 };
	struct timed_ctx *ctx = NULL;
	ab_timed_fn *fns = NULL;
	void **ctxs = NULL;
	const char **names = NULL;
	int rc;

	rc = ab_plan_alloc(&plan, p->n);
	if (!rc)
		rc = ab_plan_alloc(&timing_plan, p->n);
	if (rc)
		return ab_fail(err, rc, "%s: out of memory", in->path);
	for (size_t k = 0; k < cfg->n_planners; k++) {
		const struct ab_planner *pl = cfg->planners[k];
		struct ab_plan_options o = cfg->plan;
		uint64_t peak1 = 0;
		bool have_peak1 = false;

		for (size_t a = 0; a < cfg->n_aligns; a++) {
			struct ab_row *row;

			rc = push_row(rows, &row);
			if (rc)
				goto oom;
			row->graph = strdup(p->name ? p->name : in->path);
			row->family = strdup(in->family);
			row->source = strdup(in->source);
			o.align = cfg->aligns[a];
			row->options = ab_options_string(&cfg->load, &o);
			if (!row->graph || !row->family || !row->source ||
			    !row->options)
				goto oom;
			row->ops = in->ops;
			row->buffers = p->n;
			row->sum_bytes = sum;
			row->weights_bytes = p->weights_bytes;
			row->lower_bound_bytes = lb;
			row->lower_bound_original_bytes =
				in->reordered ? in->reorder.lower_bound_before
					      : lb;
			row->reorder_ns = in->reorder_ns;
			row->max_live_buffers = max_live;
			row->planner = pl;
			row->align = o.align;
			/* peak at alignment 1, from the same planner */
			if (!have_peak1 && o.align != 1) {
				struct ab_row r1 = *row;
				struct ab_plan_options o1 = o;

				r1.error = NULL;
				r1.tier_peaks = NULL;
				o1.align = 1;
				ab_plan_and_check_cached(in, pl, &o1,
							 cfg->load.problem.lifetimes,
							 &plan, &r1, &cache);
				if (!r1.valid) {
					row->error = r1.error;
					rows->invalid++;
					if (cfg->problem)
						cfg->problem(cfg->user, row->error);
				} else {
					free(r1.error);
				}
				free(r1.tier_peaks);
				peak1 = r1.peak_bytes;
				have_peak1 = true;
			}
			ab_plan_and_check_cached(in, pl, &o,
						 cfg->load.problem.lifetimes,
						 &plan, row, &cache);
			if (o.align == 1 && !have_peak1) {
				peak1 = row->peak_bytes;
				have_peak1 = true;
			}
			row->peak_align1_bytes = peak1;
			if (!row->valid) {
				rows->invalid++;
				if (cfg->problem && row->error) {
					char *m = ab_strdupf("%s: planner %s at align %u: %s",
							    in->path, pl->name, o.align, row->error);

					cfg->problem(cfg->user, m ? m : row->error);
					free(m);
				}
			}
		}
	}
	if (cfg->timing && per_input) {
		ctx = calloc(per_input, sizeof(*ctx));
		fns = calloc(per_input, sizeof(*fns));
		ctxs = calloc(per_input, sizeof(*ctxs));
		names = calloc(per_input, sizeof(*names));
		if (!ctx || !fns || !ctxs || !names)
			goto oom;
		for (size_t j = 0; j < per_input; j++) {
			struct ab_row *row = &rows->row[first_row + j];

			ctx[j].in = in;
			ctx[j].pl = row->planner;
			ctx[j].o = cfg->plan;
			ctx[j].o.align = row->align;
			ctx[j].plan = &timing_plan;
			fns[j] = timed_plan;
			ctxs[j] = &ctx[j];
			names[j] = row->planner->name;
		}
		{
			struct timing_sink sink = { &rows->row[first_row] };

			ab_timing_run(names, fns, ctxs, per_input, on_timing,
				      &sink);
		}
	}
	rc = 0;
	goto out;
oom:
	rc = ab_fail(err, -ENOMEM, "%s: out of memory", in->path);
out:
	free(ctx);
	free(fns);
	free(ctxs);
	free(names);
	ab_exec_cache_free(&cache);
	ab_plan_free(&plan);
	ab_plan_free(&timing_plan);
	return rc;
}

int ab_bench_run(const struct ab_bench_config *cfg, struct ab_rows *rows,
		 struct ab_error *err)
{
	memset(rows, 0, sizeof(*rows));
	for (size_t i = 0; i < cfg->n_inputs; i++) {
		struct ab_input in;
		int rc;

		if (cfg->progress)
			cfg->progress(cfg->user, i, cfg->n_inputs,
				      cfg->inputs[i], "planning");
		rc = ab_input_load(cfg->inputs[i], &cfg->load, &in, err);
		if (rc)
			return rc;
		rc = bench_input(cfg, &in, rows, err);
		ab_input_free(&in);
		if (rc)
			return rc;
	}
	if (cfg->progress)
		cfg->progress(cfg->user, cfg->n_inputs, cfg->n_inputs, NULL,
			      "done");
	return 0;
}

/* ------------------------------------------------------------------ output */

static const char *const columns =
	"schema_version,graph,family,source,ops,buffers,sum_bytes,"
	"weights_bytes,lower_bound_bytes,max_live_buffers,planner,cost_class,"
	"align,options,valid,exec_check,peak_bytes,peak_align1_bytes,"
	"padding_bytes,arenas,stopped_by,optimal,best_bound_bytes,iterations,"
	"plan_ns,plan_ns_stddev,repetitions,lower_bound_original_bytes,"
	"tier_peaks,spilled_bytes,reorder_ns,threads";

/* CSV fields never hold commas, quotes or newlines. */
static void put_field(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		char c = *s;

		if (c == ',')
			c = ';';
		else if (c == '"')
			c = '\'';
		else if (c == '\n' || c == '\r')
			c = ' ';
		fputc(c, f);
	}
}

static const char *const stopped_names[] = { "none", "budget", "time" };
static const char *const optimal_names[] = { "unknown", "yes", "no" };

int ab_rows_write_csv(FILE *f, const struct ab_rows *rows)
{
	fprintf(f, "%s\n", columns);
	for (size_t i = 0; i < rows->n; i++) {
		const struct ab_row *r = &rows->row[i];

		fputs("3,", f);
		put_field(f, r->graph);
		fputc(',', f);
		put_field(f, r->family);
		fputc(',', f);
		put_field(f, r->source);
		fprintf(f, ",%zu,%zu,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%zu,",
			r->ops, r->buffers, r->sum_bytes, r->weights_bytes,
			r->lower_bound_bytes, r->max_live_buffers);
		put_field(f, r->planner->name);
		fprintf(f, ",%s,%u,", r->planner->cost == AB_COST_FAST ? "fast" : "budgeted",
			r->align);
		put_field(f, r->options);
		fprintf(f, ",%s,%s,%" PRIu64 ",%" PRIu64 ",%" PRId64 ",%d,%s,%s,%" PRIu64 ",%" PRIu64 ",",
			r->valid ? "yes" : "no", ab_exec_mode_name(r->exec_mode),
			r->peak_bytes, r->peak_align1_bytes,
			(int64_t)(r->peak_bytes - r->peak_align1_bytes),
			r->arenas, stopped_names[r->stopped_by],
			optimal_names[r->optimal], r->best_bound_bytes,
			r->iterations);
		if (r->timed)
			fprintf(f, "%.0f,%.0f,%d,", r->plan_ns,
				r->plan_ns_stddev, r->repetitions);
		else
			fputs(",,0,", f);
		fprintf(f, "%" PRIu64 ",", r->lower_bound_original_bytes);
		if (r->tiered) {
			put_field(f, r->tier_peaks ? r->tier_peaks : "");
			fprintf(f, ",%" PRIu64 ",", r->spilled_bytes);
		} else {
			fputs(",,", f);
		}
		if (r->reorder_ns > 0)
			fprintf(f, "%.0f", r->reorder_ns);
		fprintf(f, ",%u\n", r->threads ? r->threads : 1);
	}
	return ferror(f) ? -EIO : 0;
}

static void run_capture(const char *cmd, char *buf, size_t len)
{
	FILE *p = popen(cmd, "r");

	buf[0] = 0;
	if (p) {
		if (!fgets(buf, (int)len, p))
			buf[0] = 0;
		pclose(p);
	}
	buf[strcspn(buf, "\n")] = 0;
	if (!buf[0])
		snprintf(buf, len, "unknown");
}

int ab_write_meta(FILE *f, int argc, char **argv)
{
	char rev[128], dirty[16], cpu[256] = "unknown", line[512], date[64];
	char bench[128];
	struct utsname u;
	FILE *ci = fopen("/proc/cpuinfo", "r");
	time_t now = time(NULL);

	run_capture("git rev-parse HEAD 2>/dev/null", rev, sizeof(rev));
	run_capture("git status --porcelain --untracked-files=no 2>/dev/null | head -c1 | wc -c",
		    dirty, sizeof(dirty));
	run_capture("dpkg-query -W -f='${Version}' libbenchmark-dev 2>/dev/null",
		    bench, sizeof(bench));
	while (ci && fgets(line, sizeof(line), ci)) {
		if (strncmp(line, "model name", 10) == 0) {
			char *c = strchr(line, ':');

			if (c) {
				snprintf(cpu, sizeof(cpu), "%s", c + 2);
				cpu[strcspn(cpu, "\n")] = 0;
			}
			break;
		}
	}
	if (ci)
		fclose(ci);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	fprintf(f, "git_revision=%s\n", rev);
	fprintf(f, "git_dirty=%s\n", strcmp(dirty, "0") ? "yes" : "no");
#ifdef __clang__
	fprintf(f, "compiler=clang %s\n", __clang_version__);
#else
	fprintf(f, "compiler=gcc %s\n", __VERSION__);
#endif
	fprintf(f, "cpu_model=%s\n", cpu);
	fprintf(f, "cores=%ld\n", sysconf(_SC_NPROCESSORS_ONLN));
	if (uname(&u) == 0)
		fprintf(f, "kernel=%s %s %s\n", u.sysname, u.release, u.machine);
	fprintf(f, "date_utc=%s\n", date);
	fprintf(f, "benchmark_library=%s %s\n", ab_timing_library(), bench);
	fputs("command=", f);
	for (int i = 0; i < argc; i++)
		fprintf(f, "%s%s", i ? " " : "", argv[i]);
	fputc('\n', f);
	return ferror(f) ? -EIO : 0;
}
