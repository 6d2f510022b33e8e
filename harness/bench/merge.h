/* Shards of a bench CSV into one CSV: the merge behind `arenabench merge`
 * (scripts/study/campaign.sh's merge, local, ssh and Slurm alike). */
#ifndef AB_MERGE_H
#define AB_MERGE_H

#include <stddef.h>
#include <stdio.h>

#include "core/arenabench.h"

/* A shard's .meta: SHARD.csv -> SHARD.meta (other names: NAME.meta). */
char *ab_meta_path(const char *csv);

/* The value of key=... in a .meta (the first such line; malloc'd), NULL
 * with *value unset when absent: 0, or a negative errno (err names the
 * file). */
int ab_meta_get(const char *meta, const char *key, char **value,
		struct ab_error *err);

/*
 * Checks every shard, then writes the header once and every shard's rows
 * in the order given to out.  A shard is refused, naming it, when its
 * .meta is missing, names no csv_sha256 or another one than the CSV's,
 * counts other rows (rows=), when its header differs from the first
 * shard's or a row's schema_version differs from the first row's (a
 * shard with a header and no rows, an input the bench skipped, is
 * fine).  *rows: the rows written.  Nothing is written to out on error.
 */
int ab_merge_shards(const char *const *shards, size_t n, FILE *out,
		    size_t *rows, struct ab_error *err);

#endif
