/*
 * Planning time behind a C interface: what the bench loop and the scale
 * measurement call to time a planner.  Google Benchmark's implementation
 * is in cli/timing.cc, the one C++ file of arenabench.
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

/* The timed function; returns 0 or non-zero on error. */
typedef int (*ab_timed_fn)(void *ctx);
typedef void (*ab_timing_cb)(void *user, size_t index,
			     const struct ab_timing_result *r);

/* A timer, supplied by the binary that times (the CLI gives Google
 * Benchmark's, cli/timing.cc), so that the library, the tests and the
 * generators do not link it.  run registers a batch of functions, runs
 * them one after another on the calling thread, reports each result
 * through cb with its index in the batch and clears the registrations;
 * returns 0 or a negative errno.  library names it for the metadata
 * ("1.7.1"). */
struct ab_timer {
	int (*run)(const char *const *names, ab_timed_fn *fns, void **ctxs,
		   size_t count, ab_timing_cb cb, void *user);
	const char *(*library)(void);
};

#ifdef __cplusplus
}
#endif
#endif
