/*
 * minimalloc's CSV formats (problem_csv.c): its problems read into a
 * struct ab_problem, and a plan written in its solution format.
 */
#ifndef AB_PROBLEM_CSV_H
#define AB_PROBLEM_CSV_H

#include <stdio.h>

#include "core/arenabench.h"

/* minimalloc CSV: id,lower,upper,size[,alignment] (half-open [lower,upper)).
 * Import sets last = upper - 1 and rejects upper <= lower, negative values
 * and non-integers.  Columns are read by name. */
int ab_problem_parse_csv(const char *text, size_t len, const char *path,
			 struct ab_problem *out, struct ab_error *err);
int ab_problem_load_csv(const char *path, struct ab_problem *out,
			struct ab_error *err);

/* Writes minimalloc's solution format: id,lower,upper,size[,alignment],
 * offset[,arena] in problem order; upper = last + 1. */
int ab_plan_write_csv(FILE *f, const struct ab_problem *p,
		      const struct ab_plan *plan);

#endif
