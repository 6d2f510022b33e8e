/*
 * `arenabench merge --out OUT.csv [--meta-from FILE] SHARD.csv...`: bench
 * CSVs into one, the campaign's merge (scripts/study/campaign.sh, local,
 * ssh and Slurm alike).  Every shard is checked against the csv_sha256 of
 * its .meta (bench/merge.h); OUT and its .meta are written through the
 * one atomic writer and replaced as a pair, the .meta naming the CSV's
 * sha256 (docs/io.md).  OUT is locked by its identity for the run (or by
 * the campaign, which passes its lock down); OUT and its .meta must not
 * be a shard, a shard's .meta or a shard's input (shard_input=), compared
 * by device and inode.  Exit 0, or 2 naming the cause with the old pair
 * intact.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/merge.h"
#include "cli/cli.h"
#include "core/sha256.h"
#include "core/textio.h"

static int usage(void)
{
	fprintf(stderr, "usage: arenabench merge --out OUT.csv [--meta-from FILE] SHARD.csv...\n");
	return EXIT_USAGE;
}

/* The files OUT and its .meta must not be: the shards, their .meta files,
 * their inputs and --meta-from.  NULL-free list, malloc'd strings. */
static int collect_inputs(char **shards, size_t n, const char *meta_from,
			  char ***files, size_t *n_files)
{
	struct ab_error err = { { 0 } };
	char **f = calloc(3 * n + 1, sizeof(*f));
	size_t k = 0;

	*files = f;
	if (!f)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		char *input = NULL;

		f[k++] = strdup(shards[i]);
		f[k] = ab_meta_path(shards[i]);
		if (f[k] && ab_meta_get(f[k], "shard_input", &input, &err) == 0 && input)
			f[k + 1] = input;
		k += f[k + 1] ? 2 : 1;
	}
	if (meta_from)
		f[k++] = strdup(meta_from);
	*n_files = k;
	for (size_t i = 0; i < k; i++)
		if (!f[i])
			return -ENOMEM;
	return 0;
}

/* The .meta: --meta-from's lines but its own rows= and csv_sha256=, then
 * the merged CSV's. */
static int write_meta(FILE *f, const char *from, size_t rows, const char *hex,
		      struct ab_error *err)
{
	if (from) {
		struct ab_line_reader lr;
		char *text, *line;
		size_t len;
		int rc = ab_read_file(from, &text, &len, err);

		if (rc)
			return rc;
		ab_line_reader_init(&lr, text, len);
		while ((rc = ab_line_reader_next(&lr, &line)) > 0)
			if (strncmp(line, "rows=", 5) && strncmp(line, "csv_sha256=", 11))
				fprintf(f, "%s\n", line);
		if (rc < 0)
			ab_fail(err, rc, "%s:%d: a line over %u bytes or holding a NUL byte",
				from, lr.line, AB_MAX_LINE_BYTES);
		ab_line_reader_free(&lr);
		free(text);
		if (rc < 0)
			return rc;
	}
	fprintf(f, "rows=%zu\ncsv_sha256=%s\n", rows, hex);
	return 0;
}

int cmd_merge(int argc, char **argv)
{
	struct ab_error err = { { 0 } };
	struct ab_atomic_file csv, meta;
	struct ab_out_lock lock = { -1, NULL, 0 };
	const char *out = NULL, *meta_from = NULL;
	char **shards = calloc((size_t)argc, sizeof(*shards)), **files = NULL;
	char *mpath = NULL, hex[65];
	size_t n = 0, n_files = 0, rows = 0;
	int code = EXIT_USAGE;

	if (!shards)
		return EXIT_USAGE;
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			free(shards);
			cli_command_help(stdout, CMD_MERGE);
			return 0;
		} else if (!strcmp(argv[i], "--out") && i + 1 < argc) {
			out = argv[++i];
		} else if (!strncmp(argv[i], "--out=", 6)) {
			out = argv[i] + 6;
		} else if (!strcmp(argv[i], "--meta-from") && i + 1 < argc) {
			meta_from = argv[++i];
		} else if (!strncmp(argv[i], "--meta-from=", 12)) {
			meta_from = argv[i] + 12;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "arenabench: merge: unknown option '%s'\n", argv[i]);
			free(shards);
			return usage();
		} else {
			shards[n++] = argv[i];
		}
	}
	if (!out || !n) {
		free(shards);
		return usage();
	}
	mpath = ab_meta_path(out);
	if (!mpath || collect_inputs(shards, n, meta_from, &files, &n_files)) {
		fprintf(stderr, "arenabench: merge: out of memory\n");
		goto out;
	}
	if (cli_refuse_inputs("--out", out, (const char *const *)files, n_files) ||
	    cli_refuse_inputs("--out's .meta", mpath, (const char *const *)files, n_files) ||
	    cli_refuse_special("--out", out) || cli_refuse_special("--out's .meta", mpath) ||
	    cli_lock_output(&lock, out, "arenabench merge"))
		goto out;
	if (ab_atomic_open(&csv, out, &err)) {
		fprintf(stderr, "arenabench: merge: %s; nothing written\n", err.msg);
		goto out;
	}
	if (ab_merge_shards((const char *const *)shards, n, csv.f, &rows, &err)) {
		ab_atomic_abort(&csv);
		fprintf(stderr, "arenabench: merge: %s; %s is unchanged\n", err.msg, out);
		goto out;
	}
	if (csv.in_place) {
		/* standard output or a device: no .meta beside it */
		if (ab_atomic_commit(&csv, &err)) {
			fprintf(stderr, "arenabench: merge: %s\n", err.msg);
			goto out;
		}
	} else {
		if (fflush(csv.f) || ferror(csv.f)) {
			ab_atomic_abort(&csv);
			fprintf(stderr, "arenabench: merge: %s: write error: %s; %s and its .meta are unchanged\n",
				out, strerror(errno), out);
			goto out;
		}
		if (ab_sha256_file(csv.tmp, hex, &err) || ab_atomic_open(&meta, mpath, &err)) {
			ab_atomic_abort(&csv);
			fprintf(stderr, "arenabench: merge: %s; %s and its .meta are unchanged\n", err.msg, out);
			goto out;
		}
		if (write_meta(meta.f, meta_from, rows, hex, &err)) {
			ab_atomic_abort(&csv);
			ab_atomic_abort(&meta);
			fprintf(stderr, "arenabench: merge: %s; %s and its .meta are unchanged\n", err.msg, out);
			goto out;
		}
		if (ab_atomic_commit_pair(&csv, &meta, &err)) {
			fprintf(stderr, "arenabench: merge: %s\n", err.msg);
			goto out;
		}
	}
	fprintf(stderr, "arenabench: merge: wrote %zu rows from %zu shards to %s\n", rows, n, out);
	code = 0;
out:
	ab_out_lock_release(&lock);
	for (size_t i = 0; i < n_files; i++)
		free(files[i]);
	free(files);
	free(mpath);
	free(shards);
	return code;
}
