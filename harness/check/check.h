/*
 * The checks of a finished plan as one service: the geometric check
 * (validate.c) and the execution check (execute.c) run in that order, and
 * their outcome is one type, whatever the caller (bench rows, explain,
 * suite, export, the offline plan).  One verdict cache saves running the
 * execution check twice on the very same offsets.
 *
 * The checks see a graph (NULL for a CSV problem), its problem and the
 * names both give (tensor names, a CSV's ids), never the importer's input.
 * May include: core, check.
 * Contract: functions named as actions return 0 or a negative errno.
 */
#ifndef AB_CHECK_H
#define AB_CHECK_H

#include "core/arenabench.h"
#include "check/execute.h"
#include "check/validate.h"
#include "core/tiers.h"

/* What the checks found.  message is malloc'd (the caller frees it). */
struct ab_check_outcome {
	bool valid;
	enum ab_verdict verdict;     /* AB_PLAN_VALID when valid */
	char *message;               /* why it is not valid, naming the
					buffers, or NULL */
	enum ab_exec_mode exec_mode; /* AB_EXEC_SKIPPED when it did not run */
	bool exec_cached;            /* the execution verdict came from the
					cache (same offsets checked before) */
	uint64_t peak_bytes;         /* the plan's peak */
	int arenas;
	/* CPU time of each check in ns (0 when it did not run or its verdict
	   came from the cache): plan --timings prints them */
	double geometric_cpu_ns, execution_cpu_ns;
};

/*
 * Execution verdicts of plans already checked on one input: a plan with
 * the same offsets, arenas and peak (compared in full, not by hash) under
 * the same requested mode gets the same verdict without running the
 * schedule again.  The geometric check is never cached (it depends on the
 * alignment).  Zero-initialise; free with ab_verdict_cache_free.
 */
struct ab_verdict_cache {
	bool lookup_only; /* set: misses are not added (explain compares the
			     other alignments with the one in use only) */
	size_t n, cap;
	struct ab_verdict_cached *entry;
	struct ab_exec_memory memory; /* reused by every check of the input */
};
void ab_verdict_cache_free(struct ab_verdict_cache *c);

/*
 * Both checks of plan on problem p (of graph g, or NULL for a CSV
 * problem): the geometric one at align, then
 * the execution one (mode NULL = full unless large).  Fills *out (its old
 * message is not freed); cache may be NULL.  -ENOMEM when a message
 * cannot be made.
 */
int ab_check_plan(const struct ab_graph *g, const struct ab_problem *p,
		  const struct ab_plan *plan, uint32_t align, const enum ab_exec_mode *mode,
		  struct ab_verdict_cache *cache, struct ab_check_outcome *out);

/* Marks *out as not valid for a reason outside the checks (no plan, a
 * refused plan, a tier check); msg is taken over (NULL = out of memory,
 * -ENOMEM returned). */
int ab_check_outcome_fail(struct ab_check_outcome *out, char *msg);

/* The reason a check failed, naming the buffers, their live ranges and
 * bytes (malloc'd; NULL when out of memory). */
char *ab_describe_check(const struct ab_graph *g, const struct ab_problem *p,
			const struct ab_plan *plan,
			const struct ab_check_result *r, const char *check);

/* The name of buffer i for messages (into buf, returned): its tensor's
 * name in quotes when g is given, else the CSV's id (and name column), or
 * "id N". */
const char *ab_buffer_name(const struct ab_graph *g, const struct ab_problem *p,
			   size_t i, char *buf, size_t len);

/*
 * The check of a tiered plan (check/tiers.c): one arena per tier, every
 * arena_size <= its tier's capacity, and the arenas one after another
 * (separate memories share no address).  -ENOSPC with the tier, its peak
 * and capacity; -EINVAL for the layout.  Run after ab_check_plan.
 */
int ab_tiers_check(const struct ab_plan *plan, const struct ab_tier *tiers,
		   int n_tiers, struct ab_error *err);
/* The same as a combinator's check (struct ab_combinator.check) over
 * self, a struct ab_tier_set. */
int ab_tiers_check_set(const void *self, const struct ab_plan *plan,
		       struct ab_error *err);

#endif
