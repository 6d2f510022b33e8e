/*
 * Planning time through Google Benchmark, behind a C API.  The one C++
 * file of arenabench (timing.cc) implements it.
 */
#ifndef AB_TIMING_H
#define AB_TIMING_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct ab_timing_result {
	double median_ns;   /* median over repetitions of real time per call */
	double stddev_ns;   /* standard deviation over repetitions */
	int repetitions;
	uint64_t iterations; /* calls per repetition */
	int error;          /* the timed function reported an error */
};

/* Parses Google Benchmark's own flags (--benchmark_*) out of argv, after
 * installing arenabench's defaults (min time, repetitions) that any flag
 * given by the user overrides.  Unknown --benchmark_ flags are an error.
 * Returns 0, or -EINVAL with a message in err (size errlen). */
int ab_timing_init(int *argc, char **argv, double default_min_time,
		   int default_repetitions, char *err, size_t errlen);

/* The timed function; returns 0 or non-zero on error. */
typedef int (*ab_timed_fn)(void *ctx);
typedef void (*ab_timing_cb)(void *user, size_t index,
			     const struct ab_timing_result *r);

/* Registers a batch of functions, runs them (respecting the usual flags,
 * e.g. --benchmark_filter), reports each result through cb with its index
 * in the batch, then clears the registrations.  Benchmarks run one after
 * another on the calling thread, never two at once. */
int ab_timing_run(const char *const *names, ab_timed_fn *fns, void **ctxs,
		  size_t count, ab_timing_cb cb, void *user);

/* "1.7.1": the library version this was built against, for the metadata. */
const char *ab_timing_library(void);

#ifdef __cplusplus
}
#endif
#endif
