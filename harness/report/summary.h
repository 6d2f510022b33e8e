/*
 * The per-planner summary that closes `arenabench bench`, as a function of
 * rows: the same text whether the rows are the bench's own or a results
 * CSV read back (`arenabench summary RUN.csv`, the end of a campaign).
 * Per planner over every row (all inputs and alignments), in order of
 * first appearance: the geometric mean of peak / lower bound over the
 * valid rows with a non-zero bound, the rows at the bound (peak equal to
 * the raw lower bound), the invalid rows, the worst row.
 */
#ifndef AB_SUMMARY_H
#define AB_SUMMARY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "report/compare.h"

struct ab_summary_row {
	const char *planner, *graph;
	uint32_t align;
	bool valid;
	uint64_t peak_bytes, lower_bound_bytes;
};

int ab_summary_write(FILE *f, const struct ab_summary_row *row, size_t n);
/* The rows of a results CSV loaded by ab_cmp_load (which must have had
 * its lower_bound_bytes column: -EINVAL naming the file otherwise). */
int ab_summary_of_table(const struct ab_cmp_table *t, struct ab_summary_row **out,
			struct ab_error *err);

#endif
