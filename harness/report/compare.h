/*
 * Two bench runs compared (`arenabench compare A.csv B.csv`), or two
 * planners inside one run (`--planner P --against Q`): rows are matched by
 * a key of graph and any of planner, align and options (default all of
 * them; planner is never part of the key for two planners) and their
 * peak_bytes compared.  A column left out of the key may differ between
 * the sides (an --align 16 run against an --align 64 one): the writers
 * label each side, and each pair, by it.  B is the new side: a ratio
 * below 1 means B needs less memory.  Writers take the stream they print
 * to; nothing here prints or exits.
 */
#ifndef AB_COMPARE_H
#define AB_COMPARE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/arenabench.h"

/* One row of a results CSV, as far as comparing needs it. */
struct ab_cmp_row {
	char *graph, *family, *planner, *options;
	uint32_t align;
	bool valid;
	uint64_t peak;
	uint64_t lower_bound; /* 0 when the CSV has no lower_bound_bytes */
	double plan_ns; /* < 0 when the row was not timed */
};

struct ab_cmp_table {
	char *path;
	char *schema; /* schema_version of every row */
	bool has_lower_bound;
	struct ab_cmp_row *row;
	size_t n;
};

/* Reads a results CSV (docs/results-csv.md); a missing column, a schema
 * that changes between rows or a malformed row is an error naming the
 * file and line. */
int ab_cmp_load(const char *path, struct ab_cmp_table *t, struct ab_error *err);
void ab_cmp_table_free(struct ab_cmp_table *t);

/* The columns of the matching key (bits). */
enum ab_cmp_key {
	AB_CMP_GRAPH = 1, AB_CMP_PLANNER = 2, AB_CMP_ALIGN = 4, AB_CMP_OPTIONS = 8,
	AB_CMP_ALL = 15,
};

/* "graph,planner" -> bits; graph is required; an unknown word is an error
 * naming it (with the closest column). */
int ab_cmp_parse_match(const char *list, unsigned *keys, struct ab_error *err);

/* What to compare: two files (planner and against NULL) or two planners
 * of one file; keys 0 means every column the mode allows. */
struct ab_cmp_spec {
	const char *planner, *against;
	unsigned keys;
};

/* A matched pair: index into a and into b. */
struct ab_cmp_pair {
	size_t a, b;
	double ratio; /* b.peak / a.peak */
};

/* Counts for one group (a planner or a family). */
struct ab_cmp_group {
	char *name;
	size_t wins, losses, ties; /* B below, above, equal to A */
	double log_sum, min_ratio, max_ratio;
	size_t n;
	double time_log_sum;
	size_t n_timed;
};

struct ab_cmp_result {
	struct ab_cmp_pair *pair;
	size_t n_pairs;
	size_t *only_a, *only_b; /* row indices without a partner */
	size_t n_only_a, n_only_b;
	size_t invalid_pairs;    /* pairs where either side is invalid */
	struct ab_cmp_group *by_planner, *by_family;
	size_t n_planners, n_families;
	unsigned keys;                    /* the key used */
	const char *planner_a, *planner_b; /* the planner of each side, or NULL */
};

/* a and b: two tables (b may be a, with planner/against set).  Two rows
 * of one side with one key, or two sides with no key in common, are
 * errors; the latter names the columns that keep them apart and the
 * --match that would compare them. */
int ab_cmp_run(const struct ab_cmp_table *a, const struct ab_cmp_table *b,
	       const struct ab_cmp_spec *spec, struct ab_cmp_result *r,
	       struct ab_error *err);
void ab_cmp_result_free(struct ab_cmp_result *r);

/* The text table (the `top` largest changes and rows without a partner,
 * 0 = all) and the JSON document. */
int ab_cmp_write_text(FILE *f, const struct ab_cmp_table *a,
		      const struct ab_cmp_table *b, const struct ab_cmp_result *r,
		      size_t top);
int ab_cmp_write_json(FILE *f, const struct ab_cmp_table *a,
		      const struct ab_cmp_table *b, const struct ab_cmp_result *r);
/* The per-pair ratios sorted ascending, one "rank ratio graph planner"
 * line each, for plots/compare.gp. */
int ab_cmp_write_ratios(FILE *f, const struct ab_cmp_table *a,
			const struct ab_cmp_table *b, const struct ab_cmp_result *r);

#endif
