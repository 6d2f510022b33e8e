/* The bench stage: inputs x planners x alignments -> validated rows -> CSV. */
#ifndef AB_BENCH_H
#define AB_BENCH_H

#include "bench/run.h"
#include "bench/timing.h"

struct ab_skipped_input;

struct ab_bench_config {
	const char *const *inputs;
	size_t n_inputs;
	const struct ab_planner *const *planners;
	size_t n_planners;
	const uint32_t *aligns;
	size_t n_aligns;
	struct ab_load_options load;
	/* One default per input kind: when tflite_own, .tflite inputs are
	 * loaded with tflite_load and planned at tflite_aligns instead. */
	bool tflite_own;
	struct ab_load_options tflite_load;
	const uint32_t *tflite_aligns;
	size_t n_tflite_aligns;
	struct ab_plan_options plan; /* align is set per row */
	/* An .onnx input whose only problem is symbolic dimensions that no
	 * --dim names (AB_ONNX_NEEDS_DIMS) is skipped: recorded in the rows'
	 * skipped list and reported through skipped.  strict: it stops the
	 * run like any other input error. */
	bool strict;
	const struct ab_timer *timer; /* NULL: no timing columns */
	/* progress and problems go to the caller (only main prints) */
	void (*progress)(void *user, size_t done, size_t total,
			 const char *path, const char *what);
	void (*problem)(void *user, const char *msg);
	void (*skipped)(void *user, const struct ab_skipped_input *s);
	void *user;
};

/* An input the run skipped: why (the missing names, the input needing
 * them and its shape) and the flags that would let it plan
 * ("--dim N=VALUE ..."). */
struct ab_skipped_input {
	char *path, *why, *flags;
};

struct ab_rows {
	struct ab_row *row;
	size_t n, cap;
	size_t invalid;
	struct ab_skipped_input *skipped;
	size_t n_skipped;
};

/* Runs the benchmark.  Input errors stop the run (nothing is written by
 * this function), except an input that only needs --dim values, which
 * is skipped (rows->skipped) unless cfg->strict; invalid plans are
 * recorded as valid = no and counted. */
int ab_bench_run(const struct ab_bench_config *cfg, struct ab_rows *rows,
		 struct ab_error *err);
void ab_rows_free(struct ab_rows *rows);

/* CSV writing (schema in docs/results-csv.md) and the metadata sidecar. */
int ab_rows_write_csv(FILE *f, const struct ab_rows *rows);
/* The first line a shell command prints ("unknown" when none): the
 * command line gives it (only cli/ starts a process).  timer names the
 * timing library in the sidecar (NULL: "none"). */
typedef void (*ab_capture_fn)(const char *cmd, char *buf, size_t len);
int ab_write_meta(FILE *f, const struct ab_timer *timer, int argc,
		  char **argv, ab_capture_fn run_capture);
/* The skipped inputs in the sidecar: skipped_inputs=N, then one line
 * skipped_input=PATH: WHY; add FLAGS for each. */
int ab_write_meta_skipped(FILE *f, const struct ab_rows *rows);

#endif
