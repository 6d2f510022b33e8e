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
	/* The load options and alignments of one input, starting from load
	 * and aligns (NULL: those for every input): the command line's
	 * default per input kind and the input's --dim values (a dims file).
	 * 0 or a negative errno with err filled (the input is then skipped
	 * like one that fails to load).  aligns holds up to 16. */
	int (*input_options)(void *user, const char *path,
			     struct ab_load_options *lo, uint32_t *aligns,
			     size_t *n_aligns, struct ab_error *err);
	struct ab_plan_options plan; /* align is set per row */
	/* An input that cannot be planned (it fails to load: malformed,
	 * unsupported, or needing --dim values) is skipped: recorded in the
	 * rows' skipped list with the reason and reported through skipped;
	 * the run goes on.  strict: the first such input stops the run. */
	bool strict;
	const struct ab_timer *timer; /* NULL: no timing columns */
	/* progress and problems go to the caller (only main prints) */
	void (*progress)(void *user, size_t done, size_t total,
			 const char *path, const char *what);
	void (*problem)(void *user, const char *msg);
	void (*skipped)(void *user, const struct ab_skipped_input *s);
	void *user;
};

/* An input the run skipped: why (the importer's message without the
 * path; for a model needing --dim values the missing names, the input
 * needing them and its shape) and, when flags would let it plan, those
 * flags ("--dim N=VALUE ..."), else NULL. */
struct ab_skipped_input {
	char *path, *why, *flags;
};

/* The --dim values an input was planned with (those its import applied),
 * "NAME=VALUE ..." (dims_file.h's syntax). */
struct ab_input_dims {
	char *path, *dims;
};

struct ab_rows {
	struct ab_row *row;
	size_t n, cap;
	size_t invalid;
	struct ab_skipped_input *skipped;
	size_t n_skipped;
	struct ab_input_dims *dims;
	size_t n_dims;
};

/* Runs the benchmark.  An input that cannot be loaded is skipped
 * (rows->skipped) unless cfg->strict, when it stops the run; running out
 * of memory stops it always (nothing is written by this function);
 * invalid plans are recorded as valid = no and counted. */
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
 * skipped_input=PATH: WHY[; add FLAGS] for each; then one line
 * input_dims=PATH: NAME=VALUE ... for each input planned with --dim
 * values (a dims file's line once the key is cut: docs/onnx.md). */
int ab_write_meta_skipped(FILE *f, const struct ab_rows *rows);

#endif
