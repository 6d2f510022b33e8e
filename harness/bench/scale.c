/* The scaling study's one measurement; see scale.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "bench/bench.h"
#include "import/input.h"
#include "bench/scale.h"
#include "bench/timing.h"
#include "check/check.h"

static const char *const scale_columns =
	"problem,buffers,max_live_buffers,planner,align,plan_ns,"
	"plan_ns_stddev,repetitions,first_plan_ns,first_plan_cpu_ns,load_rss_bytes,"
	"peak_rss_bytes,peak_bytes,lower_bound_bytes,status,threads";

struct scale_ctx {
	const struct ab_problem *p;
	const struct ab_planner *pl;
	struct ab_plan_options o;
	struct ab_plan *plan;
};

struct scale_timing {
	bool have;
	struct ab_timing_result r;
};

static uint64_t max_rss_bytes(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return (uint64_t)ru.ru_maxrss * 1024; /* Linux: kilobytes */
}

static int timed_plan(void *c)
{
	struct scale_ctx *ctx = c;

	ab_plan_reset(ctx->plan);
	return ctx->pl->plan(ctx->p, &ctx->o, ctx->plan);
}

static void on_result(void *user, size_t index,
		      const struct ab_timing_result *r)
{
	struct scale_timing *t = user;

	(void)index;
	if (r->error)
		return;
	t->have = true;
	t->r = *r;
}

int ab_scale_measure(const char *file, const struct ab_planner *pl,
		     const struct ab_tflite_options *tflite,
		     uint32_t align, double budget_seconds,
		     const struct ab_timer *timer,
		     ab_scale_watch_fn watch, void *watch_user,
		     struct ab_scale_result *r, struct ab_error *err)
{
	struct ab_load_options lo = { 0 };
	struct ab_input in;
	struct ab_plan plan;
	struct scale_timing t = { 0 };
	struct scale_ctx ctx;
	double t0, c0;
	int rc;

	memset(r, 0, sizeof(*r));
	r->status = "ok";
	lo.problem.lifetimes = AB_LIFETIMES_DEFAULT;
	if (tflite)
		lo.tflite = *tflite;
	rc = ab_input_load(file, &lo, &in, err);
	if (rc)
		return rc;
	if (ab_plan_alloc(&plan, in.problem.n)) {
		ab_input_free(&in);
		return ab_fail(err, -ENOMEM, "out of memory");
	}
	ctx = (struct scale_ctx){ &in.problem, pl,
				  { .align = align, .seed = 1,
				    .threads_used = &plan.threads },
				  &plan };
	snprintf(r->problem, sizeof(r->problem), "%s",
		 in.problem.name ? in.problem.name : file);
	r->buffers = in.problem.n;
	r->planner = pl;
	r->align = align;
	r->load_rss_bytes = max_rss_bytes();
	if (watch)
		watch(watch_user, r, true);
	c0 = ab_clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	t0 = ab_clock_ns(CLOCK_MONOTONIC);
	rc = timed_plan(&ctx);
	r->first_plan_ns = ab_clock_ns(CLOCK_MONOTONIC) - t0;
	r->first_plan_cpu_ns = ab_clock_ns(CLOCK_PROCESS_CPUTIME_ID) - c0;
	if (watch)
		watch(watch_user, r, false);
	r->threads = plan.threads;
	r->peak_rss_bytes = max_rss_bytes();
	if (rc) {
		r->status = "failed";
	} else {
		/* both checks, as every harness row (after the RSS reading:
		 * the execution check's image is not the planner's) */
		struct ab_check_outcome chk = { 0 };

		if (ab_check_plan(ab_input_graph(&in), &in.problem, &plan,
				  align, NULL, NULL, &chk)) {
			ab_plan_free(&plan);
			ab_input_free(&in);
			return ab_fail(err, -ENOMEM, "out of memory");
		}
		if (!chk.valid) {
			r->status = "invalid";
			snprintf(r->why, sizeof(r->why), "%s",
				 chk.message ? chk.message : "?");
		}
		free(chk.message);
	}
	if (!strcmp(r->status, "ok") && r->first_plan_ns > budget_seconds * 1e9)
		r->status = "timed_out";
	if (!strcmp(r->status, "ok")) {
		const char *name = pl->name;
		ab_timed_fn fn = timed_plan;
		void *c = &ctx;

		timer->run(&name, &fn, &c, 1, on_result, &t);
		if (!t.have)
			r->status = "failed";
	}
	r->max_live_buffers = ab_max_live_buffers(&in.problem);
	r->timed = t.have;
	if (t.have) {
		r->plan_ns = t.r.median_ns;
		r->plan_ns_stddev = t.r.stddev_ns;
		r->repetitions = t.r.repetitions;
	}
	r->peak_bytes = rc ? 0 : plan.peak;
	r->lower_bound_bytes = ab_lower_bound(&in.problem, NULL);
	ab_plan_free(&plan);
	ab_input_free(&in);
	return 0;
}

int ab_scale_write_row(FILE *f, const struct ab_scale_result *r, bool header)
{
	if (header)
		fprintf(f, "%s\n", scale_columns);
	fprintf(f, "%s,%zu,%zu,%s,%u,", r->problem, r->buffers,
		r->max_live_buffers, r->planner->name, r->align);
	if (r->timed)
		fprintf(f, "%.0f,%.0f,%d,", r->plan_ns, r->plan_ns_stddev,
			r->repetitions);
	else
		fputs(",,0,", f);
	fprintf(f, "%.0f,%.0f,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%s,%u\n",
		r->first_plan_ns, r->first_plan_cpu_ns, r->load_rss_bytes,
		r->peak_rss_bytes, r->peak_bytes, r->lower_bound_bytes, r->status,
		r->threads ? r->threads : 1);
	return ferror(f) ? -EIO : 0;
}

int ab_scale_format_stopped_row(char *buf, size_t len,
				const struct ab_scale_result *r, bool header)
{
	/* problem,buffers,max_live_buffers,planner,align,plan_ns,
	 * plan_ns_stddev,repetitions,first_plan_ns,first_plan_cpu_ns,
	 * load_rss_bytes,peak_rss_bytes,peak_bytes,lower_bound_bytes,status,
	 * threads */
	int n = snprintf(buf, len, "%s%s%s,%zu,,%s,%u,,,0,,,%" PRIu64 ",,,,timed_out,\n",
			 header ? scale_columns : "", header ? "\n" : "",
			 r->problem, r->buffers, r->planner->name, r->align,
			 r->load_rss_bytes);

	return n < 0 || (size_t)n >= len ? -1 : n;
}

int ab_scale_sort_reference(size_t n, int rounds, double *best_ns,
			    double *best_cpu_ns)
{
	struct ab_key_index *keys = malloc(n * sizeof(*keys));
	struct ab_key_index *work = malloc(n * sizeof(*work));
	int rc = 0;

	*best_ns = 0;
	if (best_cpu_ns)
		*best_cpu_ns = 0;
	if (!keys || !work) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		keys[i].key = ab_mix64(1 + i * 0x9e3779b97f4a7c15ull) >> 32;
		keys[i].index = (uint32_t)i;
	}
	for (int r = 0; r < rounds; r++) {
		double t, c;

		memcpy(work, keys, n * sizeof(*work));
		c = ab_clock_ns(CLOCK_THREAD_CPUTIME_ID);
		t = ab_clock_ns(CLOCK_MONOTONIC);
		rc = ab_sort_key_index(work, n);
		t = ab_clock_ns(CLOCK_MONOTONIC) - t;
		c = ab_clock_ns(CLOCK_THREAD_CPUTIME_ID) - c;
		if (rc)
			goto out;
		if (r == 0 || t < *best_ns)
			*best_ns = t;
		if (best_cpu_ns && (r == 0 || c < *best_cpu_ns))
			*best_cpu_ns = c;
	}
out:
	free(keys);
	free(work);
	return rc;
}
