/*
 * The command line: the only stage that prints, picks the exit code or
 * starts a process.  main.c dispatches; options.c holds the one option
 * table (getopt_long), the help of each command and the one rule for the
 * defaults of each command and runtime; cmd_<name>.c is one command each.
 * May include: everything.
 * Exit codes: 0 success, 1 an invalid plan was found (and recorded as
 * invalid), 2 bad usage or bad input (nothing written).
 */
#ifndef AB_CLI_H
#define AB_CLI_H

#include <stdio.h>

#include "bench/bench.h"
#include "core/outlock.h"
#include "core/tiers.h"
#include "import/dims_file.h"

#define EXIT_INVALID 1
#define EXIT_USAGE 2
/* plan --capacity C (minimalloc's question): 0 = fits, and */
#define EXIT_NO_FIT 3      /* a proven bound is above C */
#define EXIT_FIT_UNKNOWN 4 /* no plan within C and no proof within the budget */

/* The commands, as bits of an option's "applies to" mask. */
enum cli_cmd {
	CMD_LIST = 1 << 0, CMD_BENCH = 1 << 1, CMD_PLAN = 1 << 2,
	CMD_STATS = 1 << 3, CMD_EXPLAIN = 1 << 4, CMD_SUITE = 1 << 5,
	CMD_SCALE = 1 << 6, CMD_EXPORT = 1 << 7, CMD_COMPARE = 1 << 8,
	CMD_MERGE = 1 << 9, CMD_SUMMARY = 1 << 10,
};

struct args {
	enum cli_cmd cmd;
	struct ab_load_options load;
	struct ab_plan_options plan;
	uint32_t aligns[16];
	size_t n_aligns;
	const char *planners;   /* comma list, or NULL */
	const char *planners_dir; /* bench --planners-dir: its *.py strategies */
	const char *cost;       /* fast | budgeted | all */
	const char *out;
	const char *emit_plan, *emit_live, *plot;
	uint64_t capacity; /* plan --capacity; 0 = not asked */
	bool buffers, plot_window;    /* explain --buffers, --plot-steps */
	bool timings;                 /* plan --timings */
	uint64_t plot_min_bytes;      /* explain --plot-min-bytes */
	int32_t plot_from, plot_to;
	const char *against, *ratios; /* compare */
	const char *match;            /* compare --match */
	uint64_t top;                 /* compare --top (0 = all) */
	bool timing, quiet, json, header;
	bool strict;            /* bench: an input that cannot be planned is an error */
	bool allow_empty;       /* bench: every input skipped still writes */
	double budget_seconds;  /* scale */
	char **pos;
	size_t n_pos;
	const char *runtime;
	bool align_given, lifetimes_given, round_given, out_given;
	bool runtime_given;       /* --runtime (else a default per input kind) */
	struct ab_dims_file dims_file; /* --dims-file; n == 0 without */
	struct ab_tier_set tiers; /* --tier */
	/* the tiers' combinator (planners/lib/tiers.h, check/check.h) over
	   `tiers`: a->plan.combinator points here once a --tier is given */
	struct ab_combinator tiering;
};

/* A --tier spec, "NAME" or "NAME:CAPACITY" (tier_spec.c, the parser
 * users reach).  NAME is 1..31 of [a-z0-9_].  CAPACITY is a positive integer
 * with an optional unit B, KiB, MiB or GiB (powers of 1024).  KB, MB, GB,
 * K, M, G are rejected as ambiguous (1000 or 1024?); fractions ("1.5MiB")
 * are rejected: write the bytes. */
int cli_tier_parse(const char *spec, struct ab_tier *out, struct ab_error *err);
/* Parses spec and appends it to tiers[0..*n_tiers) (room for
 * AB_MAX_ARENAS), enforcing the list rules of ab_tiers_check_list. */
int cli_tier_add(struct ab_tier *tiers, int *n_tiers, const char *spec,
		 struct ab_error *err);

/* The command named s (0 if none); the message for an unknown one, with
 * the closest command ("did you mean"). */
enum cli_cmd cli_command(const char *s);
void cli_unknown_command(const char *s);

/* argv[0] is the command's name.  Fills a (the command's defaults, then
 * the options); 0, 1 when --help was printed, or -EINVAL (message
 * printed). */
int cli_parse(enum cli_cmd cmd, int argc, char **argv, struct args *a);
void cli_args_free(struct args *a);

/* arenabench --version: revision, compiler, build flags (version.c). */
void cli_version(FILE *f);

/* The usage of every command (arenabench --help) or of one. */
void cli_usage(FILE *f);
void cli_command_help(FILE *f, enum cli_cmd cmd);

/* The planners of --planners, or of --cost (message printed on error). */
int cli_planners(const struct args *a, const struct ab_planner ***out,
		 size_t *n);
/* A Python strategy file as a planner whose plan runs it in a child
 * process (python_planner.c; docs/python.md); the same path gives the
 * same planner.  0, or a negative errno (message printed). */
int cli_python_planner(const char *path, const struct ab_planner **out);
/* The planner NAME of the registry, or py:FILE's; *out NULL when the
 * registry has no NAME.  0, or a negative errno (message printed). */
int cli_find_planner(const char *name, const struct ab_planner **out);
/* The same appended to a malloc'd planner list; and every DIR/ *.py, sorted
 * by name (bench --planners-dir, make bench PLANNERS_DIR=). */
int cli_add_python_planner(const char *path, const struct ab_planner ***list,
			   size_t *n);
int cli_python_planners_dir(const char *dir, const struct ab_planner ***list,
			    size_t *n);

/* For explain and suite, which take one model or minimalloc problems:
 * with --cost budgeted or all and no --planners, that class's planners but
 * the fixed class (offline: explain adds its own row where a model fixes
 * offsets) as a --planners list (malloc'd); else, or out of memory, NULL
 * (then --cost itself selects). */
char *cli_planners_by_cost(const struct args *a);

/* The conventions for one input without --runtime, one default per
 * input kind in every command, each explicit option winning: a .tflite
 * gets TFLite's (lifetimes tflite, align 64), or TFLite Micro's when it
 * carries an offline plan (OfflineMemoryAllocation, which only TFLite
 * Micro reads: an `export`ed model); a .onnx ONNX Runtime's (align 64,
 * its allocation alignment; the default lifetimes); other kinds keep the
 * command's.  Changes *lo and aligns in place; returns the runtime whose
 * conventions apply ("tflite", "tflm", "onnxruntime"), or NULL for the
 * command's own.  *why (may be NULL) gets a reason when the choice is not
 * the kind's plain default (the offline plan), else NULL. */
const char *cli_input_conventions(const struct args *a, const char *path,
				  struct ab_load_options *lo, uint32_t *aligns,
				  size_t *n_aligns, const char **why);
/* Everything one input is loaded with: its --dim values (the command
 * line's and --dims-file's for this model), then cli_input_conventions.
 * 0 or a negative errno with err filled (too many --dim values). */
int cli_input_options(const struct args *a, const char *path,
		      struct ab_load_options *lo, uint32_t *aligns,
		      size_t *n_aligns, const char **runtime, const char **why,
		      struct ab_error *err);

/* The operator-graph options given on the command line (--lifetimes,
 * --round, --no-scratch, --inplace, --reorder), none of which a minimalloc
 * CSV takes, as "--a, --b" in names; returns how many. */
int cli_graph_options(const struct args *a, char *names, size_t len);

/* --seed, --budget and --safety-seconds, which only a budgeted planner
 * reads: an error (printed) when none of the planners is budgeted, a
 * warning when some are not.  0 or -EINVAL. */
int cli_search_options(const struct args *a,
		       const struct ab_planner *const *planners, size_t n);

/* The inputs: files as given, directories expanded to their .graph, .csv
 * .tflite and .onnx files (message printed on error; a warning when an
 * operator-graph option was given and some inputs are CSV). */
int cli_inputs(const struct args *a, char ***files, size_t *n);

/* Starts gnuplot -e EXPR SCRIPT and waits (ab_explain_plot's runner). */
int cli_run_gnuplot(const char *gnuplot, const char *expr, const char *script);

/* The first line of a shell command's output (ab_write_meta's capture). */
void cli_capture(const char *cmd, char *buf, size_t len);

/* outputs.c: the identity of a path (device and inode when it exists,
 * else its folder's canonical path and its name; malloc'd); an output
 * that is one of files refused (message printed, EXIT_USAGE, else 0); the
 * lock of a results file taken (EXIT_USAGE naming the holder, else 0;
 * nothing for "-" or a device), or the campaign's, passed down in
 * ARENABENCH_OUT_LOCK_FD. */
char *cli_path_identity(const char *path);
int cli_refuse_inputs(const char *what, const char *out,
		      const char *const *files, size_t n);
int cli_lock_output(struct ab_out_lock *l, const char *out,
		    const char *command);
/* An output that is a directory, FIFO or socket refused before any work
 * (message printed, EXIT_USAGE, else 0). */
int cli_refuse_special(const char *what, const char *out);

int cmd_list(struct args *a);
int cmd_merge(int argc, char **argv);
int cmd_bench(struct args *a, int argc, char **argv);
int cmd_plan(struct args *a);
int cmd_stats(struct args *a);
int cmd_explain(struct args *a);
int cmd_suite(struct args *a);
int cmd_scale(struct args *a, int argc, char **argv);
int cmd_export(struct args *a);
int cmd_compare(struct args *a);
int cmd_summary(struct args *a);

#endif
