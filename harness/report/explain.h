/*
 * `arenabench explain MODEL`: where a model's activation memory goes, how
 * every fast planner (and the model's own offline plan, if any) does
 * against the lower bound, and what another strategy or alignment would
 * save.  Works on .tflite, .graph and .csv (minimalloc) inputs.
 *
 * Two layers: ab_explain() computes an ab_explanation (explain.c; no
 * printing; the tests read it), and the writers write it as text
 * (explain_text.c) or JSON (explain_json.c) to a stream; ab_explain_plot()
 * draws the best plan (explain_plot.c).  cli/cmd_explain.c is the command.
 * Functions named as actions return 0 or a negative errno (err filled).
 */
#ifndef AB_EXPLAIN_H
#define AB_EXPLAIN_H

#include "bench/run.h"
#include "report/offline.h"
#include "core/tiers.h"

/* What the command line hands over.  `load` and `plan.align` already carry the
 * runtime's conventions with any explicit option applied over them
 * (cli/options.c, the one rule for the defaults); the *_given flags only say what to report. */
struct ab_explain_args {
	const char *path;
	const char *runtime;          /* "tflite", "tflm" or "onnxruntime" */
	const char *runtime_reason;   /* why this runtime when it is not the
					 input kind's plain default, or NULL */
	struct ab_load_options load;
	struct ab_plan_options plan;  /* plan.align: the alignment in use */
	const struct ab_tier_set *tiers; /* --tier (plan.combinator runs them), or NULL */
	bool align_given, lifetimes_given, round_given;
	const char *planners;         /* comma list; NULL = by cost class */
	const char *cost;             /* fast (NULL) | budgeted | all */
	bool json;
	const char *plot;             /* .svg/.png/.pdf to draw, or NULL */
	const char *layout_script;    /* NULL: plots/layout.gp, found from
					 the working directory or the binary */
	size_t timeline_rows;         /* 0 = 48; longer schedules are sampled */
	int timeline_width;           /* 0 = 64 columns */
	bool buffers;                 /* --buffers: list every buffer even
					 above AB_EXPLAIN_LIST_MAX */
	uint64_t plot_min_bytes;      /* --plot-min-bytes: hide smaller ones */
	bool plot_window;             /* --plot-steps FROM:TO given */
	int32_t plot_from, plot_to;   /* the steps drawn, both included */
};

/* Models with at most this many buffers list them all by default. */
#define AB_EXPLAIN_LIST_MAX 64
/* The JSON's "schema_version" (docs/explain.md says what each adds). */
#define AB_EXPLAIN_JSON_SCHEMA 2

#define AB_EXPLAIN_TOP 10
#define AB_EXPLAIN_MAX_ALIGNS 4

/* What explain times: import (load + lifetimes), planning at the
 * alignment in use (registry planners), at the other alignments, the
 * checks, and the whole analysis. */
enum { AB_EXPLAIN_T_IMPORT, AB_EXPLAIN_T_PLAN, AB_EXPLAIN_T_PLAN_OTHER,
       AB_EXPLAIN_T_CHECKS, AB_EXPLAIN_T_TOTAL, AB_EXPLAIN_T_COUNT };

/* One planner's outcome at one alignment. */
struct ab_explain_result {
	const struct ab_planner *planner;
	uint32_t align;
	struct ab_row row;            /* valid, error, peak_bytes, exec_mode */
	bool exec_reused;             /* same offsets as at the alignment in
					 use: its execution verdict reused */
};

struct ab_explanation {
	struct ab_input in;
	const char *runtime;
	const char *runtime_reason;   /* borrowed from the args, or NULL */
	uint32_t align;
	enum ab_lifetime_rule lifetimes;
	uint32_t round_to;
	bool align_given, lifetimes_given, round_given;
	bool load_inplace;                 /* --inplace */
	enum ab_reorder_method reorder_method; /* --reorder */
	const struct ab_tier_set *tiers;   /* --tier, or NULL */

	uint64_t sum_bytes, lower_bound_bytes;
	uint64_t weights_bytes;       /* const tensors by shape */
	uint64_t weights_stored_bytes; /* .tflite: bytes the file holds */
	uint64_t persistent_bytes;    /* var tensors */
	bool persistent_in_arena;     /* false under tflm lifetimes */

	int32_t lb_step;              /* first step where the bound is hit */
	int lb_part;                  /* a problem of parts (an arena per
					 subgraph): the part whose bound is
					 the largest, lb_step and lb_live
					 its own; -1 otherwise */
	uint64_t lb_live_bytes;       /* raw bytes of lb_live */
	int lb_op;                    /* operator there, -1 if none */
	size_t n_lb_live;             /* buffers live at lb_step ... */
	size_t *lb_live;              /* ... by size, largest first */
	char *symbol;                 /* timeline character of each buffer */
	uint32_t *by_first_use;       /* buffer indices in first-use order */
	size_t symbol_clashes;        /* buffers sharing their character with
					 one live at their first step */
	size_t n_largest;             /* the AB_EXPLAIN_TOP largest buffers */
	size_t largest[AB_EXPLAIN_TOP];

	/* string tensors (graph tensor indices) and dynamic shapes */
	size_t n_strings;
	size_t *strings;
	size_t n_dynamic;
	bool used_dims;

	/* results[planner * n_aligns + a]; aligns[0] is the one in use */
	size_t n_planners, n_aligns;
	uint32_t aligns[AB_EXPLAIN_MAX_ALIGNS];
	struct ab_explain_result *results;
	bool has_offline;             /* the last planner is `offline` */
	struct ab_offline_stats offline;
	size_t invalid;               /* invalid plans among all results */
	int best;                     /* planner index with the smallest valid
					 arena at aligns[0], -1 if none */
	struct ab_plan best_plan;     /* its plan, for the timeline and plot */

	/* milliseconds, wall clock and process CPU, by AB_EXPLAIN_T_* */
	double wall_ms[AB_EXPLAIN_T_COUNT], cpu_ms[AB_EXPLAIN_T_COUNT];
};

/* Planners named in a comma list, or (list NULL) every planner of a cost
 * class (fast, budgeted, all; NULL = fast), registry order; *out is
 * malloc'd.  -EINVAL names an unknown planner or class. */
int ab_pick_planners(const char *list, const char *cost,
		     const struct ab_planner ***out, size_t *n,
		     struct ab_error *err);
/* The error for a planner name that is not registered, with the closest
 * registered name when one is near ("did you mean"): -EINVAL. */
int ab_unknown_planner(const char *name, struct ab_error *err);

int ab_explain(const struct ab_explain_args *a, struct ab_explanation *x,
	       struct ab_error *err);
void ab_explanation_free(struct ab_explanation *x);

/* Under the tflite rule a model with control flow has an arena per
 * subgraph (problem parts): part j's lower bound, *buffers its buffers
 * (0 when out of memory). */
uint64_t ab_explain_part_bound(const struct ab_explanation *x, int j,
			       size_t *buffers);

/* The result of planner k at alignment index j. */
static inline const struct ab_explain_result *
ab_explain_at(const struct ab_explanation *x, size_t k, size_t j)
{
	return &x->results[k * x->n_aligns + j];
}

/* Writers; `a` gives the timeline size.  0 or -EIO. */
int ab_explain_write_text(FILE *f, const struct ab_explanation *x,
			  const struct ab_explain_args *a);
int ab_explain_write_json(FILE *f, const struct ab_explanation *x);

/* Runs gnuplot -e expr script and waits: 0, or a negative errno (-EIO
 * when gnuplot failed).  The command line gives it (only cli/ starts a
 * process). */
typedef int (*ab_gnuplot_runner)(const char *gnuplot, const char *expr,
				 const char *script);

/* Whether path ends in .svg, .png or .pdf. */
bool ab_explain_plot_name_ok(const char *path);

/* The data --plot draws, as plots/layout.gp reads it.  plan:
 * id,lower,upper,size,offset,symbol[,arena], one row per buffer of the best
 * plan of at least a->plot_min_bytes live inside the step window, its
 * steps clipped to the window; live: step,live_bytes,lower_bound_bytes of
 * every buffer (hidden ones included) inside the window.  *shown counts
 * the rows.  0 or -EIO. */
int ab_explain_plot_data(FILE *plan, FILE *live,
			 const struct ab_explanation *x,
			 const struct ab_explain_args *a, size_t *shown);

/* Draws the best plan with plots/layout.gp into a->plot: writes the plot
 * data to a temporary directory and has `run` start gnuplot, with the
 * timeline symbols as labels and the runtime's step convention on the
 * axis.  -EINVAL when the window or size filter leaves nothing to draw. */
int ab_explain_plot(const struct ab_explanation *x,
		    const struct ab_explain_args *a, ab_gnuplot_runner run,
		    struct ab_error *err);

#endif
