/*
 * Running one planner on one input, then checking its plan: the service
 * that bench rows and the reports (explain, suite, export, plan) share.
 * The checks themselves and their outcome type are check/check.h.
 * May include: core, import, check (and planners through the registry).
 */
#ifndef AB_RUN_H
#define AB_RUN_H

#include "check/check.h"
#include "import/input.h"

/* One result: a CSV row of the bench (docs/results-csv.md). */
struct ab_row {
	double plan_wall_ns; /* the untimed plan's wall time (plan's summary) */
	double plan_cpu_ns;  /* its CPU time, all threads (plan --timings) */
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
	/* outcome: the checks (valid, message, exec_mode, peak, arenas) */
	struct ab_check_outcome check;
	bool plan_failed;      /* the planner (or the tiers) gave no plan */
	uint64_t peak_align1_bytes;
	enum ab_stopped_by stopped_by;
	enum ab_optimal optimal;
	uint64_t best_bound_bytes, iterations;
	uint64_t budget;          /* the plan's node/iteration budget, 0 = none */
	const char *stop_phase;   /* the phase it stopped in (static), or NULL */
	/* --tier: each tier's peak ("sram:N+dram:M") and bytes outside tier 0 */
	bool tiered;
	char *tier_peaks;
	uint64_t spilled_bytes;
	/* timing; timed = false leaves the columns empty */
	bool timed;
	double plan_ns, plan_ns_stddev;
	int repetitions;
};

/* Runs pl on in's problem: pl->plan, or with o->combinator the
 * combinator over pl (*res filled when res is non-NULL).  On failure err
 * says why (for tiers that cannot fit: the bytes needed). */
int ab_run_planner(const struct ab_input *in, const struct ab_planner *pl,
		   const struct ab_plan_options *o, struct ab_plan *plan,
		   struct ab_combined *res, struct ab_error *err);

/* Plans, then runs both checks (ab_check_plan, then the combinator's
 * own check when there is one: the tier check under --tier); fills the outcome fields of row except timing.  `plan` must
 * have room for p->n buffers.  cache may be NULL. */
int ab_plan_and_check(const struct ab_input *in, const struct ab_planner *pl,
		      const struct ab_plan_options *o, struct ab_plan *plan,
		      struct ab_row *row, struct ab_verdict_cache *cache);

/* The load options that took effect for in: a minimalloc CSV has no
 * operators, so the lifetime rule, rounding, scratch, in-place and
 * reordering options are left at their neutral values. */
struct ab_load_options ab_load_in_effect(const struct ab_input *in,
					 const struct ab_load_options *l);

/* The canonical options string for a row (give it what took effect). */
char *ab_options_string(const struct ab_load_options *l,
			const struct ab_plan_options *o);

#endif
