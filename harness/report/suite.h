/*
 * `arenabench suite DIR...`: every planner over a folder of minimalloc CSV
 * problems (NAME.CAPACITY.csv, e.g. minimalloc's benchmarks/challenging),
 * each plan checked, each peak reported next to the problem's capacity
 * (from the file name) and its lower bound: a table, and a tidy CSV, one row per (problem, planner):
 *   problem,buffers,capacity_bytes,lower_bound_bytes,planner,align,valid,peak_bytes
 * Derived numbers (fits, peak / bound) are in the table only.
 * Functions named as actions return 0 or a negative errno (err filled).
 */
#ifndef AB_SUITE_H
#define AB_SUITE_H

#include "bench/run.h"

struct ab_suite_args {
	const char *const *paths;  /* directories (their *.csv) or files */
	size_t n_paths;
	const char *planners;      /* comma list; NULL = by cost class */
	const char *cost;          /* fast (NULL) | budgeted | all */
	struct ab_plan_options plan; /* plan.align: 0 or 1 = unaligned */
	const char *out;           /* CSV to write, or NULL */
	/* called before problem i of n (NULL: none) */
	void (*progress)(void *user, size_t i, size_t n, const char *path);
	void *user;
};

struct ab_suite_problem {
	char *name;                /* e.g. "A.1048576" */
	char *path;
	size_t buffers;
	uint64_t capacity_bytes;   /* 0 when the name carries none */
	uint64_t lower_bound_bytes;
	uint64_t *peak_bytes;      /* per planner */
	bool *valid;
	char **error;              /* why a plan is invalid, or NULL */
};

struct ab_suite {
	size_t n_planners, n_problems;
	const struct ab_planner **planners;
	struct ab_suite_problem *problems;
	uint32_t align;
	size_t invalid;
};

int ab_suite_run(const struct ab_suite_args *a, struct ab_suite *s,
		 struct ab_error *err);
void ab_suite_free(struct ab_suite *s);
int ab_suite_write_table(FILE *f, const struct ab_suite *s);
int ab_suite_write_csv(FILE *f, const struct ab_suite *s);

#endif
