/*
 * `arenabench scale FILE --planner P [--align A] [--budget-seconds S]
 *                   [--header] [--benchmark_*...]`
 *
 * One measurement of the scaling study: load FILE, plan it once with a
 * wall clock (the budget check), record the process's peak resident size
 * (getrusage ru_maxrss: loading plus planning, before anything else runs),
 * check the plan geometrically, and, when the first plan finished within
 * the budget, time the planner with Google Benchmark (median and standard
 * deviation over repetitions; defaults --benchmark_min_time=0.05
 * --benchmark_repetitions=3, any --benchmark_ flag given wins).  Prints
 * one CSV row; status is ok, timed_out (the first plan took longer than
 * the budget: no timing), invalid or failed.  first_plan_cpu_ns is the
 * process CPU time of the first plan: on a busy machine it shows how much
 * of the wall time was waiting.  Nothing else runs in the
 * process while it is timed.
 *
 * `arenabench scale --write-meta PATH [WORDS...]` writes the harness's
 * metadata sidecar (ab_write_meta: git revision, compiler, CPU, date, the
 * command given as WORDS) to PATH, atomically, and exits.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "bench/bench.h"
#include "import/input.h"
#include "core/textio.h"
#include "bench/scale.h"
#include "bench/timing.h"

static const char *const scale_columns =
	"problem,buffers,max_live_buffers,planner,align,plan_ns,"
	"plan_ns_stddev,repetitions,first_plan_ns,first_plan_cpu_ns,load_rss_bytes,"
	"peak_rss_bytes,peak_bytes,lower_bound_bytes,status,threads";

struct scale_args {
	const char *file, *planner;
	uint32_t align;
	double budget_seconds;
	bool header;
};

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

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static double cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

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

static int parse(int argc, char **argv, struct scale_args *a)
{
	a->align = 1;
	a->budget_seconds = 60;
	for (int i = 2; i < argc; i++) {
		const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		char *end;

		if (!strcmp(o, "--header")) {
			a->header = true;
		} else if (!strcmp(o, "--planner") && v) {
			a->planner = v;
			i++;
		} else if (!strcmp(o, "--align") && v) {
			unsigned long x = strtoul(v, &end, 10);

			if (*end || !x || (x & (x - 1)) || x > (1ul << 30)) {
				fprintf(stderr, "arenabench: scale: --align expects a power of two up to 2^30, got '%s'\n", v);
				return -EINVAL;
			}
			a->align = (uint32_t)x;
			i++;
		} else if (!strcmp(o, "--budget-seconds") && v) {
			a->budget_seconds = strtod(v, &end);
			if (*end || a->budget_seconds <= 0) {
				fprintf(stderr, "arenabench: scale: --budget-seconds expects positive seconds, got '%s'\n", v);
				return -EINVAL;
			}
			i++;
		} else if (o[0] != '-' && !a->file) {
			a->file = o;
		} else {
			fprintf(stderr, "arenabench: scale: unexpected argument '%s'\n"
					"usage: arenabench scale FILE --planner P [--align A] [--budget-seconds S] [--header] [--benchmark_*]\n",
				o);
			return -EINVAL;
		}
	}
	if (!a->file || !a->planner) {
		fprintf(stderr, "usage: arenabench scale FILE --planner P [--align A] [--budget-seconds S] [--header] [--benchmark_*]\n");
		return -EINVAL;
	}
	return 0;
}

int ab_scale_main(int argc, char **argv)
{
	struct scale_args a = { 0 };
	struct ab_load_options lo = { 0 };
	struct ab_error err = { { 0 } };
	struct ab_input in;
	struct ab_plan plan;
	struct ab_check_result res;
	struct scale_timing t = { 0 };
	struct scale_ctx ctx;
	const struct ab_planner *pl;
	const char *status = "ok";
	char msg[256];
	double t0, c0, first_ns, first_cpu_ns;
	uint32_t threads = 1;
	uint64_t load_rss, peak_rss;
	int rc;

	if (argc >= 4 && !strcmp(argv[2], "--write-meta")) {
		struct ab_atomic_file f;

		if (ab_atomic_open(&f, argv[3], &err)) {
			fprintf(stderr, "arenabench: %s\n", err.msg);
			return 2;
		}
		if (ab_write_meta(f.f, argc - 4, argv + 4)) {
			ab_atomic_abort(&f);
			fprintf(stderr, "arenabench: %s: write error\n", argv[3]);
			return 2;
		}
		if (ab_atomic_commit(&f, &err)) {
			fprintf(stderr, "arenabench: %s\n", err.msg);
			return 2;
		}
		return 0;
	}
	if (ab_timing_init(&argc, argv, 0.05, 3, msg, sizeof(msg))) {
		fprintf(stderr, "arenabench: %s\n", msg);
		return 2;
	}
	if (parse(argc, argv, &a))
		return 2;
	pl = ab_planner_find(a.planner);
	if (!pl) {
		fprintf(stderr, "arenabench: unknown planner '%s' (see arenabench list)\n", a.planner);
		return 2;
	}
	lo.problem.lifetimes = AB_LIFETIMES_DEFAULT;
	if (ab_input_load(a.file, &lo, &in, &err)) {
		fprintf(stderr, "arenabench: %s\n", err.msg);
		return 2;
	}
	if (ab_plan_alloc(&plan, in.problem.n)) {
		fprintf(stderr, "arenabench: out of memory\n");
		ab_input_free(&in);
		return 2;
	}
	ctx = (struct scale_ctx){ &in.problem, pl,
				  { .align = a.align, .seed = 1,
				    .threads_used = &plan.threads },
				  &plan };
	load_rss = max_rss_bytes();
	c0 = cpu_ns();
	t0 = now_ns();
	rc = timed_plan(&ctx);
	first_ns = now_ns() - t0;
	first_cpu_ns = cpu_ns() - c0;
	threads = plan.threads;
	peak_rss = max_rss_bytes();
	if (rc)
		status = "failed";
	else if (ab_validate_plan(&in.problem, &plan, a.align, &res) !=
		 AB_PLAN_VALID)
		status = "invalid";
	else if (first_ns > a.budget_seconds * 1e9)
		status = "timed_out";
	if (!strcmp(status, "ok")) {
		const char *name = pl->name;
		ab_timed_fn fn = timed_plan;
		void *c = &ctx;

		ab_timing_run(&name, &fn, &c, 1, on_result, &t);
		if (!t.have)
			status = "failed";
	}
	if (a.header)
		printf("%s\n", scale_columns);
	printf("%s,%zu,%zu,%s,%u,", in.problem.name ? in.problem.name : a.file,
	       in.problem.n, ab_max_live_buffers(&in.problem), pl->name,
	       a.align);
	if (t.have)
		printf("%.0f,%.0f,%d,", t.r.median_ns, t.r.stddev_ns,
		       t.r.repetitions);
	else
		printf(",,0,");
	printf("%.0f,%.0f,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%s,%u\n",
	       first_ns, first_cpu_ns, load_rss, peak_rss, rc ? 0 : plan.peak,
	       ab_lower_bound(&in.problem, NULL), status, threads);
	ab_plan_free(&plan);
	ab_input_free(&in);
	return fflush(stdout) ? 2 : 0;
}
