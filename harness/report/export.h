/*
 * `arenabench export`: a copy of a .tflite model that carries a computed
 * memory plan as OfflineMemoryAllocation metadata, which TFLite Micro reads
 * when it allocates tensors.  Format, sources and design: docs/export.md.
 *
 * Three layers, each usable on its own:
 *  - ab_export_plan_words(): a checked plan -> the int32 metadata words
 *    [version, subgraph, n, offset of tensor 0 .. n-1] (-1 = runtime);
 *  - ab_export_attach(): model bytes + words -> new model bytes.  The
 *    original file is kept byte for byte; a new root Model table, placed in
 *    front of it, refers to the original's vectors and adds one Buffer and
 *    one Metadata entry (any old OfflineMemoryAllocation entry is dropped);
 *  - ab_export_model(): load, plan under TFLite Micro's rules (lifetimes
 *    tflm, sizes rounded to 16), run both plan checks, attach, read the
 *    result back, write it atomically.  cli/cmd_export.c prints the report.
 *
 * Contract: functions named as actions return 0 or a negative errno and, on
 * failure, fill err with a message naming the file and what was expected.
 * -ENOTSUP: a model the exporter refuses (several subgraphs, data stored
 * outside the flatbuffer, Model fields it does not know); -EBADMSG: a
 * malformed model; -EOVERFLOW: offsets beyond int32 or a file beyond 4 GiB;
 * -EINVAL: bad options; -EEXIST: the output would overwrite the input;
 * -EPROTO: the plan failed a check, or the written model did not read back
 * as planned (a bug; nothing is written).
 */
#ifndef AB_EXPORT_H
#define AB_EXPORT_H

#include "bench/run.h"

/* TFLite Micro's MicroArenaBufferAlignment(): arena buffers start and
 * (rounded) end at multiples of 16. */
#define AB_TFLM_ALIGN 16
/* Word 0 of the metadata, as TFLite Micro's own tests write it. */
#define AB_EXPORT_FORMAT_VERSION 1
/* TFLite Micro's kMaxScratchBuffersPerOp. */
#define AB_TFLM_MAX_SCRATCH_PER_OP 12

struct ab_export_options {
	const struct ab_planner *planner; /* NULL: best_of */
	uint32_t align;                   /* 0: AB_TFLM_ALIGN; else a power of
					     two >= 16 */
	struct ab_tflite_options tflite;  /* subgraph and --dim overrides */
	struct ab_plan_options plan;      /* seed, budget; align is set here */
};

/* What an export did. */
struct ab_export_report {
	const struct ab_planner *planner;
	uint32_t align;
	uint64_t arena_bytes;        /* the plan's peak: the arena head the
					planned tensors need */
	uint64_t lower_bound_bytes;
	bool plan_valid;             /* both checks passed (if not: -EPROTO,
					err says why) */
	enum ab_exec_mode exec_mode; /* how the execution check ran */
	size_t n_subgraphs;          /* in the file */
	size_t n_ops;
	size_t n_tensors;            /* of the planned subgraph */
	size_t n_planned;            /* tensors given an offset */
	size_t n_runtime;            /* arena tensors left at -1: TFLite Micro
					plans them at start-up */
	size_t n_const;              /* data in the model: not in the arena */
	size_t n_vars;               /* variables: the arena's persistent tail */
	uint64_t var_bytes;          /* their bytes, each rounded to 16 */
	size_t n_empty;              /* zero bytes (or strings): nothing to place */
	bool replaced_old_plan;      /* the input carried a plan already */
	size_t in_bytes, out_bytes;  /* file sizes */
	size_t header_bytes;         /* bytes put in front of the original */
};

/* The metadata words for a plan of in->problem (in imported from a
 * single-subgraph .tflite under the tflm rule): word 2 is the model's
 * tensor count, and every tensor outside the problem gets -1.  *words is
 * malloc'd.  -EOVERFLOW names a tensor whose offset or end exceeds
 * INT32_MAX. */
int ab_export_plan_words(const struct ab_input *in, const struct ab_plan *plan,
			 int32_t **words, size_t *n_words,
			 struct ab_error *err);

/* Model bytes + metadata words -> new model bytes (*out malloc'd).  `path`
 * names the model in messages.  The input's bytes are the output's last
 * `len` bytes, unchanged; *header_bytes (may be NULL) is what was put in
 * front (a multiple of 16).  *replaced (may be NULL) tells whether an old
 * OfflineMemoryAllocation entry was dropped. */
int ab_export_attach(const uint8_t *model, size_t len, const char *path,
		     const int32_t *words, size_t n_words, uint8_t **out,
		     size_t *out_len, size_t *header_bytes, bool *replaced,
		     struct ab_error *err);

/* The whole export of in_path to out_path; nothing is written on failure
 * (out_path is replaced atomically). */
int ab_export_model(const char *in_path, const char *out_path,
		    const struct ab_export_options *o,
		    struct ab_export_report *rep, struct ab_error *err);

#endif
