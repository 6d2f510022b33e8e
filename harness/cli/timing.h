/*
 * Google Benchmark behind the timer interface of bench/timing.h
 * (timing.cc, the one C++ file).  Only the CLI links it.
 */
#ifndef AB_CLI_TIMING_H
#define AB_CLI_TIMING_H

#include "bench/timing.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Parses Google Benchmark's own flags (--benchmark_*) out of argv, after
 * installing arenabench's defaults (min time, repetitions) that any flag
 * given by the user overrides.  Unknown --benchmark_ flags are an error.
 * Returns 0, or -EINVAL with a message in err (size errlen). */
int ab_timing_init(int *argc, char **argv, double default_min_time,
		   int default_repetitions, char *err, size_t errlen);

/* Runs a batch (the contract of struct ab_timer's run, respecting the
 * usual flags, e.g. --benchmark_filter). */
int ab_timing_run(const char *const *names, ab_timed_fn *fns, void **ctxs,
		  size_t count, ab_timing_cb cb, void *user);

/* "1.7.1": the library version this was built against. */
const char *ab_timing_library(void);

/* The two above as a timer. */
extern const struct ab_timer ab_google_benchmark;

#ifdef __cplusplus
}
#endif
#endif
