/* The bench stage: inputs x planners x alignments -> validated rows -> CSV. */
#ifndef AB_BENCH_H
#define AB_BENCH_H

#include "core/arenabench.h"
#include "import/input.h"

struct ab_row {
	/* identity */
	char *graph, *family, *source;
	size_t ops, buffers;
	uint64_t sum_bytes, weights_bytes, lower_bound_bytes;
	uint64_t lower_bound_original_bytes; /* before --reorder */
	double reorder_ns;                   /* --reorder's wall time, 0 = none */
	uint32_t threads;                    /* the plan's threads (1 or 2) */
	size_t max_live_buffers;
	const struct ab_planner *planner;
	uint32_t align;
	char *options;
	/* outcome */
	bool valid;
	bool plan_failed;      /* the planner (or the tiers) gave no plan */
	enum ab_exec_mode exec_mode;
	char *error;           /* why it is not valid, or NULL */
	uint64_t peak_bytes, peak_align1_bytes;
	int arenas;
	enum ab_stopped_by stopped_by;
	enum ab_optimal optimal;
	uint64_t best_bound_bytes, iterations;
	/* --tier: each tier's peak ("sram:N+dram:M") and bytes outside tier 0 */
	bool tiered;
	char *tier_peaks;
	uint64_t spilled_bytes;
	/* timing; timed = false leaves the columns empty */
	bool timed;
	double plan_ns, plan_ns_stddev;
	int repetitions;
};

struct ab_bench_config {
	const char *const *inputs;
	size_t n_inputs;
	const struct ab_planner *const *planners;
	size_t n_planners;
	const uint32_t *aligns;
	size_t n_aligns;
	struct ab_load_options load;
	struct ab_plan_options plan; /* align is set per row */
	bool timing;
	/* progress and problems go to the caller (only main prints) */
	void (*progress)(void *user, size_t done, size_t total,
			 const char *path, const char *what);
	void (*problem)(void *user, const char *msg);
	void *user;
};

struct ab_rows {
	struct ab_row *row;
	size_t n, cap;
	size_t invalid;
};

/* Runs the benchmark.  Input errors stop the run (nothing is written by
 * this function); invalid plans are recorded as valid = no and counted. */
int ab_bench_run(const struct ab_bench_config *cfg, struct ab_rows *rows,
		 struct ab_error *err);
void ab_rows_free(struct ab_rows *rows);

/* Execution-check verdicts of plans already run on one input: a plan
 * with the same offsets and arenas (compared in full, not by hash) gets
 * the same verdict without running the schedule again. */
struct ab_exec_cache {
	size_t n, cap;
	struct ab_exec_cached {
		uint64_t hash;
		uint64_t *offset;
		uint16_t *arena;
		enum ab_verdict verdict;
		enum ab_exec_mode mode;
		struct ab_check_result res;
	} *entry;
	struct ab_exec_memory memory; /* reused by every check of the input */
};
void ab_exec_cache_free(struct ab_exec_cache *c);

struct ab_tier_report;
/* Runs pl on in's problem: pl->plan, or with o->tiers across the tiers
 * (ab_plan_tiers; *rep filled when rep is non-NULL).  On failure err says
 * why (for tiers that cannot fit: the bytes needed). */
int ab_run_planner(const struct ab_input *in, const struct ab_planner *pl,
		   const struct ab_plan_options *o, struct ab_plan *plan,
		   struct ab_tier_report *rep, struct ab_error *err);

/* Plans, then runs both checks; fills the outcome fields of row except
 * timing.  `plan` must have room for p->n buffers.  cache may be NULL. */
int ab_plan_and_check(const struct ab_input *in,
		      const struct ab_planner *pl,
		      const struct ab_plan_options *o,
		      enum ab_lifetime_rule rule, struct ab_plan *plan,
		      struct ab_row *row);
int ab_plan_and_check_cached(const struct ab_input *in,
			     const struct ab_planner *pl,
			     const struct ab_plan_options *o,
			     enum ab_lifetime_rule rule, struct ab_plan *plan,
			     struct ab_row *row, struct ab_exec_cache *cache);

/* The two checks of a finished plan, as ab_plan_and_check runs them (one implementation),
 * with the execution check's mode chosen (NULL = full unless large):
 * fills row->valid, error (why, naming the buffers), exec_mode,
 * peak_bytes and arenas. */
int ab_check_plan_row(const struct ab_input *in, const struct ab_plan *plan,
		      uint32_t check_align, enum ab_lifetime_rule rule,
		      const enum ab_exec_mode *mode, struct ab_row *row);
/* The reason a check failed, naming the buffers, their live ranges and
 * bytes (malloc'd; NULL when out of memory). */
char *ab_describe_check(const struct ab_input *in, const struct ab_plan *plan,
			const struct ab_check_result *r, const char *check);

/* The canonical options string for a row. */
char *ab_options_string(const struct ab_load_options *l,
			const struct ab_plan_options *o);

/* CSV writing (schema in docs/results-csv.md) and the metadata sidecar. */
int ab_rows_write_csv(FILE *f, const struct ab_rows *rows);
int ab_write_meta(FILE *f, int argc, char **argv);

#endif
