/*
 * The scaling study's one measurement (scripts/study/scaling.sh runs one
 * `arenabench scale` process per measurement, so the peak resident size
 * belongs to that planner and size alone): load FILE, plan it once with a
 * wall clock (the budget check), record the process's peak resident size
 * (getrusage ru_maxrss: loading plus planning, before anything else runs),
 * check the plan both ways (check.h: geometric, then execution), and,
 * when the first plan finished within
 * the budget, time the planner with Google Benchmark (median and standard
 * deviation over repetitions).  status is ok, timed_out (the first plan
 * took longer than the budget: no timing; with a watch that stops it at
 * the budget, see ab_scale_format_stopped_row, no peak either), invalid
 * or failed.
 * first_plan_cpu_ns is the process CPU time of the first plan: on a busy
 * machine it shows how much of the wall time was waiting.
 * Contract: 0 or a negative errno with err filled.
 */
#ifndef AB_SCALE_H
#define AB_SCALE_H

#include <stdio.h>

#include "bench/bench.h"

struct ab_scale_result {
	char problem[256];
	size_t buffers, max_live_buffers;
	const struct ab_planner *planner;
	uint32_t align;
	bool timed;                  /* plan_ns.. are set */
	double plan_ns, plan_ns_stddev;
	int repetitions;
	double first_plan_ns, first_plan_cpu_ns;
	uint64_t load_rss_bytes, peak_rss_bytes;
	uint64_t peak_bytes, lower_bound_bytes;
	const char *status;          /* ok | timed_out | invalid | failed */
	char why[512];               /* invalid: the checks' reason, naming
					the buffers (cut to fit); else "" */
	uint32_t threads;            /* the first plan's threads (1 or 2) */
};

/* Called right before the first plan (starting true; r has problem,
 * buffers, planner, align and load_rss_bytes) and right after it (false):
 * the CLI arms a wall-clock stop at the budget there, so a planner past
 * its budget costs the budget and no more. */
typedef void (*ab_scale_watch_fn)(void *user, const struct ab_scale_result *r,
				  bool starting);

/* timer times the planner (the CLI's Google Benchmark, initialised
 * before); watch (may be NULL) is called around the first plan.  tflite
 * (may be NULL): a model's dimension values (--dim), as plan loads it. */
int ab_scale_measure(const char *file, const struct ab_planner *pl,
		     const struct ab_tflite_options *tflite,
		     uint32_t align, double budget_seconds,
		     const struct ab_timer *timer,
		     ab_scale_watch_fn watch, void *watch_user,
		     struct ab_scale_result *r, struct ab_error *err);

/* The yardstick of the scaling study (issue 19 reports each planner as a
 * multiple of it, since absolute times drift on a shared machine): the
 * best of `rounds` wall times of ab_sort_key_index on n keys drawn
 * uniformly below 2^32 (splitmix64 from seed 1, the same keys every
 * round, copied in before each timed sort).  *best_cpu_ns (when not NULL):
 * the best of the same rounds' thread CPU times, the figure to divide a
 * first plan's CPU time by on a loaded machine.  0 or -ENOMEM. */
int ab_scale_sort_reference(size_t n, int rounds, double *best_ns,
			    double *best_cpu_ns);

/* The CSV row (with header, the header line first).  0 or -EIO. */
int ab_scale_write_row(FILE *f, const struct ab_scale_result *r, bool header);

/* The row of a first plan stopped at the budget, formatted into buf
 * (with header, the header line first): r's problem, buffers, planner,
 * align and load_rss_bytes, status timed_out, no timing, peak or bound
 * (the plan never finished).  Formatted before the plan starts, so that a
 * signal handler can write it.  The length, or -1 when len is too small. */
int ab_scale_format_stopped_row(char *buf, size_t len,
				const struct ab_scale_result *r, bool header);

#endif
