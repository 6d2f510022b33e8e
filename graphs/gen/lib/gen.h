/*
 * Corpus generator helpers: a deterministic RNG and an in-memory graph
 * builder that writes the `.graph` text format (graphs/README.md).
 *
 * Everything here is self-contained (no dependency on libarenabench) so a
 * generator builds even while the core is being written.  Actions return 0
 * or a negative errno; allocation failure aborts (generators are tools).
 */
#ifndef GEN_H
#define GEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/textio.h"

/* ------------------------------------------------------------------- rng */

/* xoshiro256** seeded through splitmix64: same seed, same stream. */
struct gen_rng {
	uint64_t s[4];
};

void gen_rng_seed(struct gen_rng *r, uint64_t seed);
uint64_t gen_rng_next(struct gen_rng *r);
/* Uniform integer in [lo, hi] (inclusive), unbiased. */
int64_t gen_rng_range(struct gen_rng *r, int64_t lo, int64_t hi);
/* Uniform double in [0, 1) with 53 random bits. */
double gen_rng_unit(struct gen_rng *r);
/* Log-uniform integer in [lo, hi]: exp(U(log lo, log hi)), rounded down. */
uint64_t gen_rng_log_uniform(struct gen_rng *r, uint64_t lo, uint64_t hi);

/* ----------------------------------------------------------------- dtypes */

enum gen_dtype {
	GEN_F32, GEN_F16, GEN_BF16, GEN_F64, GEN_I8, GEN_U8, GEN_I16,
	GEN_I32, GEN_I64, GEN_BOOL, GEN_BYTES, GEN_DTYPE_COUNT
};
enum gen_kind {
	GEN_INPUT, GEN_OUTPUT, GEN_CONST, GEN_VAR, GEN_SCRATCH,
	GEN_INTERMEDIATE, GEN_KIND_COUNT
};

const char *gen_dtype_name(enum gen_dtype d);
size_t gen_dtype_bytes(enum gen_dtype d); /* 0 for GEN_BYTES */
const char *gen_kind_name(enum gen_kind k);

/* -------------------------------------------------------------- builder */

#define GEN_MAX_RANK 8
#define GEN_OP_SIDE_EFFECT 1u
#define GEN_OP_ELEMENTWISE 2u

struct gen_tensor {
	char *name;
	enum gen_kind kind;
	enum gen_dtype dtype;
	int rank;                    /* 0 = scalar; GEN_BYTES: unused */
	int64_t dims[GEN_MAX_RANK];
	uint64_t bytes;              /* size in bytes (computed or explicit) */
	uint32_t align;              /* 0 = default (not written) */
	int producer;                /* op index or -1 */
	int last_reader;             /* op index or -1 */
};

struct gen_op {
	char *name;
	char *type;
	int n_in, n_out, n_scratch;
	int *in, *out, *scratch;     /* tensor indices; -1 in `in` = absent */
	unsigned flags;
	bool phase_start;
};

struct gen_graph {
	char *name, *family, *source;
	char *header;                /* comment block, '\n'-separated lines */
	struct gen_tensor *t;
	size_t n_t, cap_t;
	struct gen_op *op;
	size_t n_op, cap_op;
	/* Declaration order: >= 0 tensor index, < 0 is op -(i+1). */
	int *order;
	size_t n_order, cap_order;
	bool pending_phase;
};

void gen_graph_init(struct gen_graph *g, const char *name,
		    const char *family, const char *source);
void gen_graph_free(struct gen_graph *g);
/* Appends a line to the header comment (printf style). */
void gen_comment(struct gen_graph *g, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Declares a tensor with a shape; returns its index. */
int gen_tensor(struct gen_graph *g, const char *name, enum gen_kind kind,
	       enum gen_dtype dtype, int rank, const int64_t *dims);
/* Same with the dims as arguments (rank given first). */
int gen_tensorv(struct gen_graph *g, const char *name, enum gen_kind kind,
		enum gen_dtype dtype, int rank, ...);
/* Declares a `bytes` tensor of an explicit size. */
int gen_tensor_bytes(struct gen_graph *g, const char *name,
		     enum gen_kind kind, uint64_t bytes);

/* Declares an op; lists are copied.  Returns the op index. */
int gen_op(struct gen_graph *g, const char *name, const char *type,
	   int n_in, const int *in, int n_out, const int *out,
	   int n_scratch, const int *scratch, unsigned flags);
/* The next op starts a phase. */
void gen_phase(struct gen_graph *g);

/* Sum of const bytes / of non-const bytes. */
uint64_t gen_const_bytes(const struct gen_graph *g);
uint64_t gen_const_elems(const struct gen_graph *g);
uint64_t gen_tensor_elems(const struct gen_tensor *t);

/* Writes the text form to f. */
int gen_graph_print(const struct gen_graph *g, FILE *f);
/* Writes dir/<name>.graph through gen_file below. */
int gen_graph_write(const struct gen_graph *g, const char *dir);

/* ------------------------------------------------------------- output */

/* A file written whole or not at all: the text goes to PATH.tmp.PID,
 * which is renamed onto PATH only when everything was written. */
/* An output written through the library's atomic writer (core/textio.h:
 * a temporary file renamed over the path on success). */
struct gen_file {
	FILE *f;
	struct ab_atomic_file af;
};
/* Opens w for writing (w->f); 0 or -errno. */
int gen_file_open(struct gen_file *w, const char *path);
/* Closes w; with rc 0 (the writer's status) renames it onto the path,
 * else (or when closing fails) removes it.  Returns rc or -errno. */
int gen_file_close(struct gen_file *w, int rc);
/* text[0..len) into path that way. */
int gen_write_file(const char *path, const char *text, size_t len);

/* A comma-separated list of positive integers into v[0..max): the count,
 * or -1 on anything else (more than max included). */
int gen_parse_list(const char *s, int64_t *v, int max);

/* printf into a static rotating buffer (8 slots) for building names. */
const char *gen_fmt(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/* mkdir -p; returns 0 or -errno. */
int gen_mkdirs(const char *path);

#endif
