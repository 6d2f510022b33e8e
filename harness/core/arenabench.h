/*
 * arenabench: the public API of the planning pipeline.
 *
 *   graph file / model -> ab_graph -> (lifetime rule) -> ab_problem
 *                       -> planner -> ab_plan -> validator -> metrics -> CSV
 *
 * Contract for every function named as an action: it returns 0 on success or
 * a negative errno value on failure, and on failure fills the caller's
 * struct ab_error with a message that names the file, line or tensor and
 * what was expected.  Only main() prints and chooses the exit code.
 */
#ifndef ARENABENCH_H
#define ARENABENCH_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ errors */

struct ab_error {
	char msg[1024];
};

/* Formats into err (if non-NULL) and returns code (a negative errno). */
int ab_fail(struct ab_error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A malloc'd formatted string, or NULL when out of memory. */
char *ab_strdupf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ------------------------------------------------------------------- graph */

enum ab_dtype {
	AB_DTYPE_F32,
	AB_DTYPE_F16,
	AB_DTYPE_BF16,
	AB_DTYPE_I8,
	AB_DTYPE_U8,
	AB_DTYPE_I16,
	AB_DTYPE_I32,
	AB_DTYPE_I64,
	AB_DTYPE_BOOL,
	AB_DTYPE_F64,
	AB_DTYPE_STRING, /* variable length: only an explicit byte size plans */
	AB_DTYPE_BYTES,  /* no element type: the tensor has an explicit size */
	AB_DTYPE_COUNT
};

enum ab_tensor_kind {
	AB_KIND_INPUT,        /* graph input: live from step 0 */
	AB_KIND_OUTPUT,       /* graph output: live through the last step */
	AB_KIND_CONST,        /* weights: never in the arena (weights_bytes) */
	AB_KIND_VAR,          /* persistent: live for the whole run */
	AB_KIND_SCRATCH,      /* workspace of exactly one operator */
	AB_KIND_INTERMEDIATE, /* produced by one op, read by later ops */
	AB_KIND_COUNT
};

#define AB_MAX_RANK 8

/* What the graph declares about a tensor besides its kind: a tensor may be
 * both a graph input and a graph output (state handed from one invocation
 * to the next, or a model returning an input), or a var or an intermediate
 * that is also a graph output.  The kind's own role is implied (an `input`
 * has AB_ROLE_GRAPH_INPUT whether or not the bit is set): read roles with
 * ab_tensor_roles().  Produced, read, never read or never written follow
 * from the operators (docs/semantics.md, "Roles and lifetimes"). */
enum ab_tensor_role {
	AB_ROLE_GRAPH_INPUT = 1u << 0,
	AB_ROLE_GRAPH_OUTPUT = 1u << 1,
};

struct ab_tensor {
	char *name;
	enum ab_tensor_kind kind;
	uint8_t roles;              /* enum ab_tensor_role bits */
	enum ab_dtype dtype;
	int rank;                   /* -1 when only a byte size is known */
	int64_t dims[AB_MAX_RANK];
	uint64_t bytes;             /* computed from shape, or explicit */
	uint32_t align;             /* the buffer's own alignment, >= 1 */
	int line;                   /* source line, 0 when not from text */
};

/* Operator flags used by later transforms (reordering, in-place). */
enum ab_op_flags {
	AB_OP_SIDE_EFFECT = 1u << 0, /* stateful: keep relative order */
	AB_OP_ELEMENTWISE = 1u << 1, /* output may alias a same-size input */
};

/* The tensor's roles, the kind's own included. */
static inline unsigned ab_tensor_roles(const struct ab_tensor *t)
{
	return t->roles | (t->kind == AB_KIND_INPUT ? (unsigned)AB_ROLE_GRAPH_INPUT : 0u) |
	       (t->kind == AB_KIND_OUTPUT ? (unsigned)AB_ROLE_GRAPH_OUTPUT : 0u);
}

struct ab_op {
	char *name;
	char *type;       /* e.g. CONV_2D; free text */
	int n_inputs;
	int *inputs;      /* tensor indices; -1 = optional input absent */
	int n_outputs;
	int *outputs;
	int n_scratch;
	int *scratch;     /* scratch tensors owned by this op */
	uint32_t flags;
	bool phase_start; /* a "phase" marker line preceded this op */
	int line;         /* source line, 0 when not from a text file */
	/* Control flow (docs/semantics.md, "Control flow"): enum ab_call;
	 * for AB_CALL_ENTER / AB_CALL_RETURN the flat index of the calling
	 * operator; the subgraph the operator belongs to (0 in a graph
	 * without subgraphs). */
	uint8_t call;
	int32_t caller;
	int32_t subgraph;
};

/*
 * Control flow, flattened into the caller's timeline: an operator that
 * calls subgraphs (call = IF, WHILE, ONCE or EACH) is followed, for each
 * callee in order, by an AB_CALL_ENTER pseudo-operator (it writes the
 * callee's inputs), the callee's operators and an AB_CALL_RETURN
 * pseudo-operator (it reads the callee's outputs; the last one also the
 * calling operator's inputs and outputs, which so live through the
 * call).  The execution check runs the paths a runtime can take
 * (check/paths.c); the tflite rule plans each subgraph alone.
 */
enum ab_call {
	AB_CALL_NONE = 0,
	AB_CALL_IF,     /* one callee, chosen at run time (IF, ONNX If) */
	AB_CALL_WHILE,  /* [cond,] body repeated (WHILE, ONNX Loop, Scan) */
	AB_CALL_ONCE,   /* its callee once (CALL_ONCE) */
	AB_CALL_EACH,   /* every callee once, in order (CALL, StableHLO) */
	AB_CALL_ENTER,  /* pseudo-operator: a callee starts */
	AB_CALL_RETURN, /* pseudo-operator: a callee ends */
};

struct ab_subgraph {
	char *name;
	size_t first_tensor, n_tensors; /* its tensors, contiguous */
	int n_inputs, n_outputs;        /* declared, flat tensor indices */
	int *inputs, *outputs;
	bool called;                    /* reached from the planned root */
};

struct ab_graph {
	char *name;
	char *family;  /* e.g. zoo, chain, minimalloc; a model: its folder */
	char *source;  /* paper/table or file the graph was built from */
	size_t n_tensors;
	struct ab_tensor *tensors;
	size_t n_ops;
	struct ab_op *ops;
	/* Subgraphs of a model with control flow (0: a plain graph). */
	size_t n_subgraphs;
	struct ab_subgraph *subgraphs;
};

void ab_graph_free(struct ab_graph *g);
/* A deep copy of src (names, lists, header strings) into dst. */
int ab_graph_copy(const struct ab_graph *src, struct ab_graph *dst,
		  struct ab_error *err);
const char *ab_dtype_name(enum ab_dtype d);
int ab_dtype_from_name(const char *s); /* -1 if unknown */
size_t ab_dtype_bytes(enum ab_dtype d); /* 0 for STRING/BYTES */
const char *ab_kind_name(enum ab_tensor_kind k);
int ab_kind_from_name(const char *s);   /* -1 if unknown */

/* Element count x element size, with overflow checks (-EOVERFLOW). */
int ab_tensor_shape_bytes(enum ab_dtype d, int rank, const int64_t *dims,
			  uint64_t *bytes);

/* The .graph text format is read and written by import/graph_text.h. */
/* Checks structure: one producer per intermediate, use after def, ... */
int ab_graph_check(const struct ab_graph *g, const char *path,
		   struct ab_error *err);

/* ----------------------------------------------------------------- problem */

/* The lifetime rule: how a graph becomes intervals (harness/core/lifetime.c). */
enum ab_lifetime_rule {
	AB_LIFETIMES_DEFAULT, /* arenabench: inputs [0, last read] */
	AB_LIFETIMES_TFLITE,  /* TFLite: graph inputs live to the end */
	AB_LIFETIMES_TFLM,    /* TFLite Micro: step 0 is before op 0 */
	AB_LIFETIMES_COUNT
};
const char *ab_lifetime_rule_name(enum ab_lifetime_rule r);
int ab_lifetime_rule_from_name(const char *s); /* -1 if unknown */
/* The step at which operator `op` runs under rule r, and the operator
 * running at `step` (negative: before the first operator, the TFLite
 * Micro step 0).  The only place the TFLite Micro step shift is stated. */
int32_t ab_lifetime_step_of_op(enum ab_lifetime_rule r, int32_t op);
int32_t ab_lifetime_op_at_step(enum ab_lifetime_rule r, int32_t step);

#define AB_MAX_PARTS 64 /* = AB_MAX_ARENAS */

struct ab_buffer {
	uint64_t size;  /* raw bytes; never rounded by alignment */
	uint32_t align; /* the buffer's own alignment, >= 1 */
	int32_t first;  /* first step live, inclusive */
	int32_t last;   /* last step live, inclusive (>= first) */
};

struct ab_problem {
	char *name;
	/* The lifetime rule that built the intervals (graph problems; CSV
	 * problems keep AB_LIFETIMES_DEFAULT).  Checks read it from here. */
	enum ab_lifetime_rule lifetimes;
	size_t n;                 /* buffers */
	struct ab_buffer *buf;
	int64_t *id;              /* external id (CSV id or tensor index) */
	char **label;             /* CSV id text (ids may be names), or NULL */
	char *label_text;         /* when set, every label[i] points into this
				   * one block (freed once), else each label
				   * is its own allocation */
	char **csv_name;          /* a CSV's optional 'name' column, or NULL */
	uint8_t csv_words[3];     /* its header's words for id, lower, upper
				   * (problem_csv.c's aliases; 0 = those) */
	int32_t *tensor;          /* graph tensor index (the root of an in-place
				   * chain), or -1 */
	/* Graph problems: tensor t lives in buffer tensor_buffer[t], or -1
	 * when it is not in the arena.  Several tensors share one buffer
	 * under --inplace.  NULL (n_tensors 0) for CSV problems. */
	size_t n_tensors;
	int32_t *tensor_buffer;
	size_t n_aliased;         /* tensors placed in another's buffer */
	int32_t steps;            /* steps are 0 .. steps-1 */
	size_t n_phase_starts;    /* phase marker steps from the graph */
	int32_t *phase_starts;
	uint64_t weights_bytes;   /* consts, reported, not planned */
	uint64_t capacity;        /* minimalloc capacity, 0 if unknown */
	/* Offsets the input itself fixes (a minimalloc CSV's `offset`
	 * column, a .tflite model's offline plan, TFLite Micro's
	 * AddBuffer(..., offline_offset)): NULL, or per buffer an offset or
	 * -1 where the planner chooses.  The `offline` planner keeps them and
	 * says so (plan->fixed_kept), and the geometric check then reports a
	 * fixed buffer placed elsewhere as AB_PLAN_MOVED_FIXED; the other
	 * planners plan as if there were none (they are compared with the
	 * input's own plan, not bound by it). */
	int64_t *fixed_offset;
	/* Separate arenas (the tflite rule on a model with control flow:
	 * TFLite gives each subgraph its own ArenaPlanner): buffer i belongs
	 * to part[i] < n_parts; a part's steps are the flat indices of its
	 * subgraph's operators, so parts overlap in time but never share an
	 * arena.  Each is planned alone into its own arena (ab_planner_run),
	 * the geometric check holds every buffer to its part's arena, and the
	 * lower bound is the sum of the parts' bounds.  n_parts 0 = one. */
	int n_parts;
	uint16_t *part;
	int32_t part_subgraph[AB_MAX_PARTS]; /* the graph subgraph of a part */
};

/* Test-only deliberate lifetime bugs, to show that the execution check
 * does not share the lifetime code's mistakes (tests/test_checks.c). */
enum ab_lifetime_mutation {
	AB_MUTATE_NONE,
	AB_MUTATE_PASSTHROUGH_SHORT, /* input+output ends at its last read */
};

struct ab_problem_options {
	enum ab_lifetime_rule lifetimes;
	enum ab_lifetime_mutation mutate; /* tests only; AB_MUTATE_NONE */
	uint32_t round_to; /* round sizes up to a multiple (TFLM: 16); 0 = no */
	bool exclude_scratch; /* --no-scratch: scratch tensors not planned */
	/* In-place reuse: the first output of an AB_OP_ELEMENTWISE op shares
	 * the buffer of its first input that is an intermediate last read by
	 * that op with the same (rounded) size, when the output is itself an
	 * intermediate (docs/semantics.md, "In-place reuse"). */
	bool inplace;
};

/* graph -> problem.  Buffer i of the problem is in tensor-index order (of
 * its root tensor under inplace). */
int ab_problem_from_graph(const struct ab_graph *g,
			  const struct ab_problem_options *opt,
			  struct ab_problem *out, struct ab_error *err);
void ab_problem_free(struct ab_problem *p);

/*
 * Accesses of each buffer (harness/core/lifetime.c, beside the lifetimes
 * they count; computed when tiers ranked by accesses need them) of a graph-derived problem (p->tensor[i] is
 * buffer i's tensor), malloc'd into *out (p->n entries): one per use as an
 * op input, one per op output, two per scratch use (written and read by
 * its op), plus one write by the caller for a tensor no op writes (graph
 * inputs, vars).  At least 1; saturates at UINT32_MAX.  -EINVAL when a
 * buffer has no tensor (a CSV problem: pass NULL accesses instead).
 */
int ab_buffer_accesses(const struct ab_graph *g, const struct ab_problem *p,
		       uint32_t **out, struct ab_error *err);
int ab_problem_alloc(struct ab_problem *p, size_t n);

/* The live curve: from time[k] on (until time[k+1]), bytes[k] raw bytes
 * in buffers[k] buffers are live.  Only times where something changes. */
struct ab_live_profile {
	size_t n;
	int64_t *time;
	uint64_t *bytes;
	size_t *buffers;
};
int ab_live_profile(const struct ab_problem *p, struct ab_live_profile *lp);
void ab_live_profile_free(struct ab_live_profile *lp);

/*
 * Sizes that fit: every problem is refused at import unless the sum of its
 * sizes, each rounded up to the largest alignment a plan may ask
 * (AB_MAX_ALIGN), is at most AB_MAX_PROBLEM_BYTES.  Then no sum, live
 * count, offset + size or aligned peak of any plan can overflow 64 bits,
 * and a real peak never reaches UINT64_MAX, the planners' "no plan yet".
 * Returns the index of the buffer that brings the total past the limit
 * (the one to name), or -1 when the problem fits.
 */
#define AB_MAX_ALIGN (1u << 30)
#define AB_MAX_PROBLEM_BYTES (1ull << 62)
int64_t ab_problem_oversize(const struct ab_problem *p);

/* Largest sum of raw sizes live at any one step; optionally that step. */
uint64_t ab_lower_bound(const struct ab_problem *p, int32_t *at_step);
uint64_t ab_sum_bytes(const struct ab_problem *p);
/* Largest number of buffers live at any one step. */
size_t ab_max_live_buffers(const struct ab_problem *p);

/* -------------------------------------------------------------------- plan */

#define AB_MAX_ARENAS 64

/* none: finished (proved, or nothing to search); budget: out of nodes or
 * iterations; time: the wall-clock safety stop; size: the complete search
 * was skipped as too large for it (exact: only window repairs ran). */
enum ab_stopped_by { AB_STOPPED_NONE, AB_STOPPED_BUDGET, AB_STOPPED_TIME,
		     AB_STOPPED_SIZE };
const char *ab_stopped_by_name(enum ab_stopped_by s);
enum ab_optimal { AB_OPTIMAL_UNKNOWN, AB_OPTIMAL_YES, AB_OPTIMAL_NO };

struct ab_plan {
	size_t n;
	uint64_t *offset;   /* flat address of each buffer */
	uint16_t *arena;    /* arena index of each buffer */
	int n_arenas;       /* >= 1 */
	uint64_t arena_base[AB_MAX_ARENAS];
	uint64_t arena_size[AB_MAX_ARENAS];
	uint64_t peak;      /* bytes of the flat address space needed */
	/* Filled by search planners; fast planners leave the defaults. */
	enum ab_stopped_by stopped_by;
	enum ab_optimal optimal;
	uint64_t best_bound;  /* proven lower bound on the optimum, 0 = none */
	uint64_t iterations;  /* search iterations/nodes actually used */
	/* The node/iteration budget the search ran under (the default
	 * resolved; 0 = none) and the phase that was running when it stopped
	 * (a static string, NULL = none): "stopped by node budget 1000000 in
	 * window repair".  ab_plan_reset clears both. */
	uint64_t budget;
	const char *stop_phase;
	/* Most threads the planning ran on at once: 1, or 2 where first fit's
	 * checkpoint index cut the problem in time (ab_plan_reset sets 1). */
	uint32_t threads;
	/* The planner kept the problem's fixed offsets (p->fixed_offset):
	 * the geometric check holds it to that.  ab_plan_reset clears it. */
	bool fixed_kept;
};

int ab_plan_alloc(struct ab_plan *plan, size_t n);
void ab_plan_reset(struct ab_plan *plan); /* keeps arrays, clears results */
void ab_plan_free(struct ab_plan *plan);
/* Copies src's placement into dst (room for src->n buffers): offsets,
 * arenas, arena extents, peak and fixed_kept.  The search fields (stopped_by, optimal,
 * best_bound, iterations) stay as dst has them. */
void ab_plan_copy(struct ab_plan *dst, const struct ab_plan *src);
/* Single-arena helper: arena 0 at base 0, peak = max(offset + size). */
void ab_plan_finish_single(struct ab_plan *plan, const struct ab_problem *p);

/* ---------------------------------------------------------------- planners */

enum ab_cost_class {
	AB_COST_FAST,     /* near-linear, deterministic: run by `make bench` */
	AB_COST_BUDGETED, /* search with an iteration budget: `make sweep` */
	AB_COST_FIXED,    /* planning around the input's fixed offsets: run
			   * only on inputs that fix some (offline) */
};

/* A long search's state, passed to ab_plan_options.progress now and then
 * (at most about once a second) and once at the end of a phase. */
struct ab_progress {
	const char *phase;  /* e.g. "window repair" */
	uint64_t peak;      /* best plan so far */
	uint64_t bound;     /* best proven lower bound */
	uint64_t nodes;     /* nodes used in this phase */
	double seconds;     /* since the phase started */
};

/* Which mechanics a planner that has two routes takes: listing the
 * conflicts (planners/lib/placement.h) or the checkpoint index
 * (planners/lib/first_fit_index.h).  The offsets are the same either way;
 * by default the route is chosen from the problem (which is cheaper), and
 * tests force each to compare them. */
enum ab_route {
	AB_ROUTE_CHOSEN = 0,
	AB_ROUTE_LISTING,
	AB_ROUTE_INDEX,
};

struct ab_plan_options {
	uint32_t align;            /* offsets are multiples of max(align, own) */
	uint64_t seed;             /* for randomized search */
	uint64_t budget;           /* iterations/nodes; 0 = planner default */
	double safety_seconds;     /* wall-clock safety stop; 0 = none */
	int phases;                /* multi_arena_phase: target phases; 0 = auto */
	/* A combinator to plan with the planner (below: the memory tiers),
	 * run by the harness in the planner's place; planners themselves
	 * ignore it.  NULL = the planner alone. */
	const struct ab_combinator *combinator;
	/* Progress of long searches (NULL: none); the caller prints. */
	void (*progress)(void *user, const struct ab_progress *pr);
	void *progress_user;
	/* Where a mechanic that runs more than one thread records how many
	 * (raising it, never lowering): the harness points it at its plan's
	 * `threads`.  NULL = not recorded. */
	uint32_t *threads_used;
	/* AB_ROUTE_CHOSEN (0) outside tests. */
	enum ab_route route;
	/* Set by the harness (ab_run_planner) for a strategy that is not a
	 * registered C planner: the planner's context (struct ab_planner),
	 * and where its plan function may say why it failed (NULL = nowhere;
	 * registered planners ignore both). */
	const void *context;
	struct ab_error *why;
	/* A peak the caller has no use for (0 = none): a planner may stop as
	 * soon as it knows its plan's peak (ab_plan.peak) will be at least
	 * cutoff, and return AB_ABOVE_CUTOFF, its plan unfinished.  best_of
	 * sets it to skip members that cannot win; a planner that ignores it
	 * is correct, only slower.  Sound where placed buffers keep their
	 * offsets: their highest end is then at most the final peak
	 * (ab_above_cutoff). */
	uint64_t cutoff;
	/* What planners/lib works out from the problem alone, kept for the
	 * next planner on the same problem (orders of every buffer, the
	 * index's lifetime ranks and spacing): best_of makes one for its
	 * members
	 * (planners/lib/memo.h).
	 * NULL = none, each planner works it out itself. */
	struct ab_plan_memo *memo;
};

/* The return of a planner that stopped at o->cutoff (no errno a planner
 * returns otherwise). */
#define AB_ABOVE_CUTOFF (-EDOM)

/* Whether a plan whose peak will be at least peak_so_far may stop. */
static inline bool ab_above_cutoff(const struct ab_plan_options *o,
				   uint64_t peak_so_far)
{
	return o->cutoff && peak_so_far >= o->cutoff;
}

/*
 * A planner reads the problem and options and fills the caller-owned plan
 * (offset[], arena[], n_arenas, arena_base[], arena_size[], peak).  It
 * never prints, exits or keeps global state.  Returns 0 or -errno.
 */
struct ab_planner {
	const char *name;   /* = the file stem in planners/ */
	const char *about;  /* one line for `arenabench list` */
	enum ab_cost_class cost;
	int (*plan)(const struct ab_problem *p, const struct ab_plan_options *o,
		    struct ab_plan *out);
	/* A strategy from outside C (the command line's `py:` planners, the
	 * Python package's; docs/python.md): its language for the CSV's
	 * `language` column (NULL = "c") and the state its plan function reads
	 * as ab_plan_options.context.  Registered planners leave both NULL. */
	const char *language;
	const void *context;
};

/* Runs pl on p: pl->plan, or for a problem of several parts one run per
 * part, each part its own arena, laid out one after another (arena j at
 * the end of arena j - 1 rounded up to the largest effective alignment). */
int ab_planner_run(const struct ab_planner *pl, const struct ab_problem *p,
		   const struct ab_plan_options *o, struct ab_plan *out);

/*
 * A planner combinator plans with a planner rather than by itself: it runs
 * pl on parts of p and lays the parts out, one arena each (the one today:
 * memory tiers, planners/lib/tiers.h, configured by core/tiers.h's struct
 * ab_tier_set).  When ab_plan_options.combinator is set, the harness runs
 * it in the planner's place, checks its plan with both plan checks and
 * then with its own `check`, and writes its text in the row.  The command
 * line sets it up.
 */
struct ab_combined {
	uint64_t peak[AB_MAX_ARENAS]; /* each part's peak (= arena_size) */
	uint64_t spilled_bytes;       /* raw bytes outside part 0 */
};
struct ab_combinator {
	const char *name; /* "tier": its check's messages say "tier check: " */
	const void *self; /* its configuration */
	/* Like a planner's plan, given the planner and each buffer's reads +
	 * writes (NULL: 1 each); fills *res.  0 or -errno, err says why. */
	int (*plan)(const void *self, const struct ab_planner *pl,
		    const struct ab_problem *p, const uint32_t *accesses,
		    const struct ab_plan_options *o, struct ab_plan *out,
		    struct ab_combined *res, struct ab_error *err);
	/* The check of a finished plan against the parts' limits. */
	int (*check)(const void *self, const struct ab_plan *plan,
		     struct ab_error *err);
	/* The row's text (malloc'd; NULL when out of memory): the options
	 * column's part, and each part's result. */
	char *(*options_text)(const void *self);
	char *(*parts_text)(const void *self, const struct ab_combined *res);
};

/* The registry is generated from planners/ *.c by the Makefile. */
size_t ab_planner_count(void);
const struct ab_planner *ab_planner_at(size_t i);
const struct ab_planner *ab_planner_find(const char *name);
/* "fast", "budgeted" or "fixed" (list, the CSV's cost_class column). */
const char *ab_cost_class_name(enum ab_cost_class c);
/* Whether the harness runs pl on p: a planner of class fixed only where
 * the problem has fixed offsets (bench and suite skip it elsewhere). */
bool ab_planner_applies(const struct ab_planner *pl,
			const struct ab_problem *p);

/* ------------------------------------------------------------------- sort */

/* Stable radix sort of (key, index) pairs (harness/core/sort.c): the sort
 * for orders by one integer key, in every stage and planner (buffer
 * orders below, events, sweeps).  Orders by a comparison of several
 * fields (ties broken field by field, ranks by ratios) use qsort with a
 * comparator beside them; a key that packs them is not always possible. */
struct ab_key_index {
	uint64_t key;
	uint32_t index;
};

/* Sorts by key ascending; equal keys keep their input order (stable).
 * O(n * passes) over the bits that differ between keys, in passes of at
 * most 11 bits (8 below 65536 items; a 20-bit time takes 2 passes),
 * digits equal in every key skipped.  Below 64 items, insertion sort. */
int ab_sort_key_index(struct ab_key_index *a, size_t n);
/* Sorts a[0..n) by a[i] >> low_bits (< 64) ascending, stable, the same radix
 * passes over half the bytes: values whose low bits rise in input order
 * (an index packed below a key) come out wholly in order. */
int ab_sort_u64_above(uint64_t *a, size_t n, unsigned low_bits);
/* Stable sort of order[0..m) by key[order[j]] ascending (key per buffer). */
int ab_order_stable_by(uint32_t *order, size_t m, const uint64_t *key);
/* order[] = every buffer by first use ascending, then index. */
int ab_order_first_use(const struct ab_problem *p, uint32_t *order);
/* rank[i] = buffer i's place in the order of every buffer by first use
 * (by_last: by last use) ascending, then index.  O(n) when the times
 * already rise with the index (each place is its index); else a counting
 * sort, O(n + steps), when they lie in 0 .. 2n + 64; else the radix sort. */
int ab_rank_by_time(const struct ab_problem *p, bool by_last, uint32_t *rank);

/* ----------------------------------------------------------------- memory */

/* malloc for large arrays read in random order (harness/core/memory.c):
 * from 1 MiB on, the block is aligned to and rounded up to 2 MiB and the
 * kernel is asked to back it with transparent huge pages, so touching it
 * costs a page fault a 2 MiB instead of every 4 KiB, and random reads
 * miss the TLB less (a fault costs microseconds in a virtual machine).
 * Freed with free(); NULL when out of memory. */
void *ab_alloc_large(size_t bytes);

/* Effective alignment of buffer i: max(o->align, buffer's own). */
static inline uint64_t ab_effective_align(const struct ab_problem *p, size_t i,
					  const struct ab_plan_options *o)
{
	uint64_t a = o->align ? o->align : 1;
	return p->buf[i].align > a ? p->buf[i].align : a;
}

static inline uint64_t ab_align_up(uint64_t x, uint64_t a)
{
	return a <= 1 ? x : (x + a - 1) / a * a;
}

/* A clock's reading in nanoseconds (CLOCK_MONOTONIC for wall time,
 * CLOCK_PROCESS_CPUTIME_ID for the process's CPU time). */
static inline double ab_clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* splitmix64's step as a hash: x plus the golden gamma, then its finaliser
 * (Steele, Lea and Flood 2014).  ab_mix64(s + k * gamma), k = 0, 1, ...,
 * is the splitmix64 sequence from seed s. */
static inline uint64_t ab_mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* Greatest common divisor (0 with b gives b). */
static inline uint64_t ab_gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

#ifdef __cplusplus
}
#endif
#endif
