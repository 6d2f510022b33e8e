/* File and line I/O shared by the parsers and writers. */
#ifndef AB_TEXTIO_H
#define AB_TEXTIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/arenabench.h"

#define AB_MAX_FILE_BYTES (4ull << 30) /* inputs larger than this are refused */
#define AB_MAX_LINE_BYTES (1u << 20)

/* Opens an input for reading after checking, without blocking, that it
 * is a regular file of at most `limit` bytes: a directory, FIFO, device
 * or socket is refused by kind at once.  *size is its length. */
int ab_open_input(const char *path, uint64_t limit, FILE **f,
		  uint64_t *size, struct ab_error *err);
/* Reads a whole file (NUL-terminated copy) through ab_open_input with
 * AB_MAX_FILE_BYTES.  Errors name the file. */
int ab_read_file(const char *path, char **text, size_t *len,
		 struct ab_error *err);

/* v in decimal at p, without a NUL; returns the end.  p must have room
 * for 20 bytes: the bytes between the end and p + 20 may be overwritten.
 * For writers that format a row in a buffer, not a printf a field. */
char *ab_put_u64(char *p, uint64_t v);

/* Yields lines of text (without "\n" or "\r\n") in a private copy. */
struct ab_line_reader {
	const char *text;
	size_t len, pos;
	int line;       /* 1-based number of the line last returned */
	char *buf;
	size_t cap;
};
void ab_line_reader_init(struct ab_line_reader *lr, const char *text,
			 size_t len);
/* 1 = a line in *line, 0 = end, -E2BIG = over-long line or NUL byte. */
int ab_line_reader_next(struct ab_line_reader *lr, char **line);
void ab_line_reader_free(struct ab_line_reader *lr);

/* The file a path names once symlinks are followed (malloc'd); a
 * dangling link names its target, which is then created. */
char *ab_resolve_output(const char *path);

/* An output.  A regular file (or a new one) is written to
 * "<path>.tmp.<pid>" (created O_EXCL) and renamed over path on commit, so
 * a failed run never leaves a partial or clobbered file; a symlink is
 * followed to its target; a device is written in place (never replaced by
 * a regular file); "-" is standard output.  A directory, FIFO (whose
 * reader may never come) or socket is refused.  Every write, the flush,
 * fsync and close are checked; the folder is synced after the rename. */
struct ab_atomic_file {
	FILE *f;
	char *path; /* the file written (symlinks followed) */
	char *tmp;  /* NULL when written in place */
	bool in_place, is_stdout;
};
int ab_atomic_open(struct ab_atomic_file *af, const char *path,
		   struct ab_error *err);
int ab_atomic_commit(struct ab_atomic_file *af, struct ab_error *err);
/* Commits two files together (a results CSV and its .meta): both are
 * written out first, then both renamed; on any failure neither replaces
 * its old version. */
int ab_atomic_commit_pair(struct ab_atomic_file *a, struct ab_atomic_file *b,
			  struct ab_error *err);
void ab_atomic_abort(struct ab_atomic_file *af);
/* Removes every temporary file still open: for a signal handler. */
void ab_atomic_remove_all(void);

#endif
