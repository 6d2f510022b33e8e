/*
 * The one option table, parsed with getopt_long (`--opt=value` and
 * `--opt value`), each option with the commands it applies to (any other
 * is an error naming it), the help of each command, and the one rule for
 * the defaults (alignment, lifetime rule, rounding) of each command and
 * runtime.
 */
#include <errno.h>
#include <math.h>
#include <inttypes.h>
#include <ctype.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/strmap.h"
#include "report/explain.h"
#include "report/export.h"
#include "lib/tiers.h"

enum {
	O_ALIGN = 256, O_LIFETIMES, O_RUNTIME, O_ROUND, O_NO_SCRATCH,
	O_SUBGRAPH, O_DIM, O_SEED, O_BUDGET, O_PHASES, O_SAFETY, O_REORDER,
	O_REORDER_WIDTH, O_INPLACE, O_TIER, O_TIER_BENEFIT, O_PLANNERS, O_PLANNERS_DIR,
	O_PLANNER, O_COST, O_OUT, O_EMIT_PLAN, O_EMIT_LIVE, O_CAPACITY, O_PLOT, O_JSON,
	O_NO_TIMING, O_QUIET, O_STRICT, O_HEADER, O_BUDGET_SECONDS, O_AGAINST, O_RATIOS, O_HELP,
	O_BUFFERS, O_PLOT_MIN_BYTES, O_PLOT_STEPS, O_FAMILY, O_TIMINGS,
	O_DIMS_FILE, O_ALLOW_EMPTY, O_MATCH, O_TOP,
};

#define LOAD (CMD_BENCH | CMD_PLAN | CMD_STATS | CMD_EXPLAIN)
#define TFLITE (LOAD | CMD_EXPORT)
#define PLANS (CMD_BENCH | CMD_PLAN | CMD_EXPLAIN | CMD_SUITE | CMD_EXPORT)
#define ALL 0x7ff

struct option_doc {
	struct option opt;
	int applies;         /* enum cli_cmd bits */
	const char *value;   /* the value's name in the help, or NULL */
	const char *help;
};

static const struct option_doc table[] = {
	{ { "align", required_argument, NULL, O_ALIGN }, PLANS | CMD_SCALE, "A[,A...]",
	  "offsets are multiples of max(A, own alignment)" },
	{ { "lifetimes", required_argument, NULL, O_LIFETIMES }, LOAD, "R",
	  "default | tflite | tflm (docs/semantics.md)" },
	{ { "runtime", required_argument, NULL, O_RUNTIME }, LOAD, "tflite|tflm",
	  "a runtime's conventions: alignment, lifetimes, rounding" },
	{ { "round", required_argument, NULL, O_ROUND }, LOAD, "N",
	  "round sizes up to a multiple of N before planning" },
	{ { "no-scratch", no_argument, NULL, O_NO_SCRATCH }, LOAD, NULL,
	  "leave operator scratch buffers out" },
	{ { "family", required_argument, NULL, O_FAMILY }, LOAD, "NAME",
	  "the family of every input (default: a .graph's own, a model's folder)" },
	{ { "subgraph", required_argument, NULL, O_SUBGRAPH }, TFLITE | CMD_SCALE, "N",
	  ".tflite: the subgraph to plan (default 0)" },
	{ { "dim", required_argument, NULL, O_DIM }, TFLITE | CMD_SCALE, "NAME=VALUE",
	  ".tflite/.onnx: value of a dynamic (symbolic) dimension; INPUT:AXIS=VALUE: any dimension of an input, named or not" },
	{ { "dims-file", required_argument, NULL, O_DIMS_FILE }, TFLITE | CMD_SCALE, "F",
	  "--dim values per model, a line each: MODEL: NAME=VALUE ... (docs/onnx.md)" },
	{ { "seed", required_argument, NULL, O_SEED }, PLANS, "N",
	  "search planners: seed (default 1)" },
	{ { "budget", required_argument, NULL, O_BUDGET }, PLANS, "N",
	  "search planners: iteration budget" },
	{ { "phases", required_argument, NULL, O_PHASES }, PLANS, "N",
	  "multi_arena_phase: number of phases (default auto)" },
	{ { "safety-seconds", required_argument, NULL, O_SAFETY }, PLANS, "S",
	  "wall-clock safety stop for search planners" },
	{ { "reorder", required_argument, NULL, O_REORDER }, LOAD, "M",
	  "reorder operators before planning: none | greedy | beam | inductor (docs/reorder.md)" },
	{ { "reorder-width", required_argument, NULL, O_REORDER_WIDTH }, LOAD, "N",
	  "beam: states kept per step (default 64)" },
	{ { "inplace", no_argument, NULL, O_INPLACE }, LOAD, NULL,
	  "elementwise ops write into a last-read same-size input (docs/semantics.md)" },
	{ { "tier", required_argument, NULL, O_TIER }, CMD_BENCH | CMD_PLAN | CMD_EXPLAIN | CMD_SUITE,
	  "NAME[:CAPACITY]", "a memory tier, fastest first, e.g. --tier sram:256KiB --tier dram (docs/tiers.md)" },
	{ { "tier-benefit", required_argument, NULL, O_TIER_BENEFIT }, CMD_BENCH | CMD_PLAN | CMD_EXPLAIN | CMD_SUITE,
	  "bytes|accesses", "fill fast tiers by bytes (default) or accesses" },
	{ { "planners", required_argument, NULL, O_PLANNERS }, CMD_BENCH | CMD_EXPLAIN | CMD_SUITE,
	  "a,b,...", "planners to run (default: every planner of --cost)" },
	{ { "planner", required_argument, NULL, O_PLANNER }, PLANS | CMD_SCALE | CMD_COMPARE, "P",
	  "the planner (see `arenabench list`); py:FILE.py: a Python strategy (docs/python.md)" },
	{ { "planners-dir", required_argument, NULL, O_PLANNERS_DIR }, CMD_BENCH, "DIR",
	  "add the Python strategies DIR/*.py to the planners (docs/python.md)" },
	{ { "cost", required_argument, NULL, O_COST }, CMD_BENCH | CMD_EXPLAIN | CMD_SUITE,
	  "fast|budgeted|all", "planners by cost class (default fast)" },
	{ { "out", required_argument, NULL, O_OUT }, CMD_BENCH | CMD_SUITE | CMD_EXPORT, "FILE",
	  "the file to write" },
	{ { "emit-plan", required_argument, NULL, O_EMIT_PLAN }, CMD_PLAN, "FILE",
	  "the plan in minimalloc's solution format" },
	{ { "emit-live", required_argument, NULL, O_EMIT_LIVE }, CMD_PLAN, "FILE",
	  "the live-bytes curve: step,live_bytes,lower_bound_bytes" },
	{ { "timings", no_argument, NULL, O_TIMINGS }, CMD_PLAN, NULL,
	  "the CPU time of each stage (load, lower bound, plan, both checks, writing) on stderr" },
	{ { "capacity", required_argument, NULL, O_CAPACITY }, CMD_PLAN, "C",
	  "does it fit in C bytes (units B, KiB, MiB, GiB)? exit 0 fits, 3 does not, 4 unknown" },
	{ { "plot", required_argument, NULL, O_PLOT }, CMD_EXPLAIN, "F.svg",
	  "draw the best plan with plots/layout.gp (.svg, .png or .pdf; needs gnuplot)" },
	{ { "plot-min-bytes", required_argument, NULL, O_PLOT_MIN_BYTES }, CMD_EXPLAIN, "N",
	  "--plot: hide buffers smaller than N bytes (units B, KiB, MiB, GiB)" },
	{ { "plot-steps", required_argument, NULL, O_PLOT_STEPS }, CMD_EXPLAIN, "FROM:TO",
	  "--plot: draw steps FROM to TO only (both included)" },
	{ { "buffers", no_argument, NULL, O_BUFFERS }, CMD_EXPLAIN, NULL,
	  "list every buffer with offset, size, lifetime and timeline character (default up to 64 buffers)" },
	{ { "against", required_argument, NULL, O_AGAINST }, CMD_COMPARE, "Q",
	  "compare: with --planner P, P against Q inside one CSV" },
	{ { "match", required_argument, NULL, O_MATCH }, CMD_COMPARE, "KEYS",
	  "compare: the columns that pair rows, graph plus any of planner, align, options" },
	{ { "top", required_argument, NULL, O_TOP }, CMD_COMPARE, "N",
	  "compare: list the N largest changes and unpaired rows (default 10; 0 = all)" },
	{ { "ratios", required_argument, NULL, O_RATIOS }, CMD_COMPARE, "FILE",
	  "compare: the per-pair ratios, sorted, for plots/compare.gp" },
	{ { "json", no_argument, NULL, O_JSON }, CMD_EXPLAIN | CMD_COMPARE, NULL,
	  "the report as JSON" },
	{ { "no-timing", no_argument, NULL, O_NO_TIMING }, CMD_BENCH, NULL,
	  "skip Google Benchmark (timing columns empty)" },
	{ { "quiet", no_argument, NULL, O_QUIET }, CMD_BENCH | CMD_SUITE, NULL,
	  "no progress on stderr" },
	{ { "strict", no_argument, NULL, O_STRICT }, CMD_BENCH, NULL,
	  "an input that cannot be planned stops the run, exit 2 (default: skipped with its reason, the run goes on)" },
	{ { "allow-empty", no_argument, NULL, O_ALLOW_EMPTY }, CMD_BENCH, NULL,
	  "when every input is skipped, still write the CSV (header only) and .meta, exit 0 (campaign shards; default: exit 2, nothing written)" },
	{ { "header", no_argument, NULL, O_HEADER }, CMD_SCALE, NULL,
	  "print the CSV header line first" },
	{ { "budget-seconds", required_argument, NULL, O_BUDGET_SECONDS }, CMD_SCALE, "S",
	  "a first plan still running after S seconds (wall) is stopped there: status timed_out, not timed (default 60)" },
	{ { "help", no_argument, NULL, O_HELP }, ALL, NULL,
	  "this help" },
};
#define N_OPTIONS (sizeof(table) / sizeof(table[0]))

/* ------------------------------------------------------------ commands */

struct command_doc {
	enum cli_cmd cmd;
	const char *name, *usage, *about, *example;
};

static const struct command_doc commands[] = {
	{ CMD_LIST, "list", "list", "the registered planners, one line each",
	  "arenabench list" },
	{ CMD_BENCH, "bench", "bench INPUT... [--out FILE]",
	  "plan every input with every planner and alignment, check every plan, time it, write a CSV\n"
	  "(and FILE.meta); Google Benchmark's own --benchmark_* flags pass through,\n"
	  "e.g. --benchmark_min_time=0.05 (seconds, plain number)",
	  "arenabench bench graphs/starter --planners size_first_fit,linear --align=16 --no-timing" },
	{ CMD_PLAN, "plan", "plan FILE --planner P",
	  "plan one input and print a summary",
	  "arenabench plan graphs/starter/residual_block.graph --planner=size_first_fit --emit-plan plan.csv" },
	{ CMD_STATS, "stats", "stats INPUT...",
	  "CSV of corpus statistics (no planning)",
	  "arenabench stats graphs/starter graphs/zoo" },
	{ CMD_EXPLAIN, "explain", "explain MODEL",
	  "where a model's memory goes, every fast planner against the lower bound",
	  "arenabench explain model.tflite --runtime tflm --json" },
	{ CMD_SUITE, "suite", "suite DIR... [--out FILE]",
	  "planners over minimalloc CSV problems (NAME.CAPACITY.csv) vs capacity",
	  "arenabench suite ../shared/problems/minimalloc --out suite.csv" },
	{ CMD_SCALE, "scale", "scale FILE --planner P",
	  "one scaling measurement as a CSV row (scripts/study/scaling.sh); --benchmark_* flags pass\n"
	  "through (defaults --benchmark_min_time=0.05 --benchmark_repetitions=3).\n"
	  "`arenabench scale --write-meta PATH [WORDS...]` writes the metadata sidecar",
	  "arenabench scale build/sweep/chain_10000.csv --planner size_first_fit --header" },
	{ CMD_COMPARE, "compare", "compare A.csv B.csv | compare RUN.csv --planner P --against Q",
	  "two bench CSVs (or two planners in one) row by row on peak_bytes: wins, losses, ties and the\n"
	  "geometric mean of B/A per planner and family, the largest changes, rows in one file only, timing\n"
	  "ratios when both sides were timed (docs/compare.md)",
	  "arenabench compare results/reference/results.csv results/results.csv" },
	{ CMD_MERGE, "merge", "merge --out OUT.csv [--meta-from FILE] SHARD.csv...",
	  "bench CSVs (each with its .meta naming its csv_sha256) into one CSV and .meta, checked and\n"
	  "replaced as a pair (the campaign's merge; docs/io.md); --meta-from gives the .meta's lines",
	  "arenabench merge --out results/results.csv build/campaigns/x/shards/*.csv" },
	{ CMD_SUMMARY, "summary", "summary RUN.csv",
	  "the per-planner summary that closes bench, from a results CSV (a campaign's merged run)",
	  "arenabench summary results/results.csv" },
	{ CMD_EXPORT, "export", "export MODEL.tflite --out OUT.tflite",
	  "a copy of a .tflite carrying a checked plan as TFLite Micro's OfflineMemoryAllocation\n"
	  "metadata; the plan always follows TFLite Micro's rules (lifetimes tflm, sizes rounded to 16)",
	  "arenabench export model.tflite --out planned.tflite --planner best_of" },
};
#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static const struct command_doc *command_doc(enum cli_cmd cmd)
{
	for (size_t i = 0; i < N_COMMANDS; i++)
		if (commands[i].cmd == cmd)
			return &commands[i];
	return NULL;
}

enum cli_cmd cli_command(const char *s)
{
	for (size_t i = 0; i < N_COMMANDS; i++)
		if (!strcmp(commands[i].name, s))
			return commands[i].cmd;
	return 0;
}

void cli_unknown_command(const char *s)
{
	const char *names[N_COMMANDS], *near;

	for (size_t i = 0; i < N_COMMANDS; i++)
		names[i] = commands[i].name;
	near = ab_closest_name(s, names, N_COMMANDS);
	fprintf(stderr, "arenabench: unknown command '%s'", s);
	if (near)
		fprintf(stderr, "; did you mean %s?", near);
	fputs(" (expected", stderr);
	for (size_t i = 0; i < N_COMMANDS; i++)
		fprintf(stderr, "%s%s", i ? ", " : " ", names[i]);
	fputs("; arenabench --help)\n", stderr);
}

/* ------------------------------------------------------------ defaults */

/*
 * The one rule for the conventions of each command: the alignments, the
 * lifetime rule and the rounding used when no option gives them.  A
 * --runtime (explain's default: tflite) sets its runtime's conventions,
 * each explicit option winning over it:
 *   tflite: align 64, lifetimes tflite;  tflm: align 16, lifetimes tflm,
 *   sizes rounded to 16 (TFLite Micro's MicroArenaBufferAlignment);
 *   onnxruntime (a .onnx's): align 64 (ONNX Runtime's kAllocAlignment,
 *   which its memory pattern pads every allocation to), default lifetimes.
 * Without a runtime: bench compares 1, 16 and 64; plan, suite and scale
 * use 1; export uses TFLite Micro's 16; lifetimes are the default rule.
 * On top, one default per input kind (cli_input_conventions).
 */
struct conventions {
	uint32_t aligns[3];
	size_t n_aligns;
	enum ab_lifetime_rule lifetimes;
	uint32_t round_to;
};

static struct conventions conventions_of(enum cli_cmd cmd, const char *runtime)
{
	if (!runtime && cmd == CMD_EXPLAIN)
		runtime = "tflite";
	if (runtime && !strcmp(runtime, "tflm"))
		return (struct conventions){ { 16 }, 1, AB_LIFETIMES_TFLM, 16 };
	if (runtime && !strcmp(runtime, "onnxruntime"))
		return (struct conventions){ { 64 }, 1, AB_LIFETIMES_DEFAULT, 0 };
	if (runtime)
		return (struct conventions){ { 64 }, 1, AB_LIFETIMES_TFLITE, 0 };
	if (cmd == CMD_BENCH)
		return (struct conventions){ { 1, 16, 64 }, 3, AB_LIFETIMES_DEFAULT, 0 };
	if (cmd == CMD_EXPORT)
		return (struct conventions){ { AB_TFLM_ALIGN }, 1, AB_LIFETIMES_DEFAULT, 0 };
	return (struct conventions){ { 1 }, 1, AB_LIFETIMES_DEFAULT, 0 };
}

static void apply_conventions(struct args *a)
{
	struct conventions c = conventions_of(a->cmd, a->runtime);

	if (a->cmd == CMD_EXPLAIN && !a->runtime)
		a->runtime = "tflite";
	if (!a->align_given) {
		memcpy(a->aligns, c.aligns, sizeof(c.aligns));
		a->n_aligns = c.n_aligns;
	}
	if (!a->lifetimes_given)
		a->load.problem.lifetimes = c.lifetimes;
	if (!a->round_given)
		a->load.problem.round_to = c.round_to;
}

static bool has_suffix(const char *path, const char *suffix)
{
	size_t n = strlen(path), k = strlen(suffix);

	return n >= k && !strcmp(path + n - k, suffix);
}

/* Does the .tflite at path carry an offline plan?  (A model that does
 * not load says no: its real load reports why.) */
static bool carries_offline_plan(const char *path, const struct ab_load_options *lo)
{
	struct ab_tflite_info info;
	struct ab_graph g;
	struct ab_error e = { { 0 } };
	bool has = false;

	memset(&info, 0, sizeof(info));
	memset(&g, 0, sizeof(g));
	if (ab_tflite_load(path, &lo->tflite, &g, &info, &e) == 0) {
		has = info.has_offline_plan;
		ab_graph_free(&g);
	}
	ab_tflite_info_free(&info);
	return has;
}

const char *cli_input_conventions(const struct args *a, const char *path,
				  struct ab_load_options *lo, uint32_t *aligns,
				  size_t *n_aligns, const char **why)
{
	struct conventions c;
	const char *rt;

	if (why)
		*why = NULL;
	if (a->runtime_given || a->cmd == CMD_EXPORT)
		return a->runtime;
	if (has_suffix(path, ".onnx")) {
		rt = "onnxruntime";
	} else if (has_suffix(path, ".tflite")) {
		rt = "tflite";
		if (carries_offline_plan(path, lo)) {
			rt = "tflm";
			if (why)
				*why = "the model carries an offline plan (OfflineMemoryAllocation metadata, which only TFLite Micro reads; `arenabench export` writes one); --runtime tflite reads it under TFLite's";
		}
	} else {
		return a->cmd == CMD_EXPLAIN ? "tflite" : NULL;
	}
	c = conventions_of(a->cmd, rt);
	if (!a->align_given) {
		memcpy(aligns, c.aligns, sizeof(c.aligns));
		*n_aligns = c.n_aligns;
	}
	if (!a->lifetimes_given)
		lo->problem.lifetimes = c.lifetimes;
	if (!a->round_given)
		lo->problem.round_to = c.round_to;
	return rt;
}

int cli_input_options(const struct args *a, const char *path,
		      struct ab_load_options *lo, uint32_t *aligns,
		      size_t *n_aligns, const char **runtime, const char **why,
		      struct ab_error *err)
{
	const char *rt;

	if (a->dims_file.n) {
		int rc = ab_dims_for_input(&a->dims_file, path, &a->load.tflite,
					   &lo->tflite, err);

		if (rc)
			return rc;
	}
	rt = cli_input_conventions(a, path, lo, aligns, n_aligns, why);
	if (runtime)
		*runtime = rt;
	return 0;
}

/* The defaults of the options cmd takes (true to the option table:
 * --align only where it applies). */
static void defaults_text(enum cli_cmd cmd, char *buf, size_t len)
{
	struct conventions c = conventions_of(cmd, NULL);
	bool align = cmd & (PLANS | CMD_SCALE);
	size_t k = 0;

	buf[0] = 0;
	if (cmd == CMD_SUMMARY)
		return;
	if (cmd == CMD_COMPARE) {
		snprintf(buf, len, "--match graph,planner,align,options (with --against: graph,align,options), --top 10");
		return;
	}
	if (align) {
		k += (size_t)snprintf(buf + k, len - k, "--align ");
		for (size_t i = 0; i < c.n_aligns && k < len; i++)
			k += (size_t)snprintf(buf + k, len - k, "%s%u", i ? "," : "", c.aligns[i]);
	}
	if (cmd & LOAD && k < len)
		snprintf(buf + k, len - k, "%s--lifetimes %s%s", align ? ", " : "",
			 ab_lifetime_rule_name(c.lifetimes),
			 cmd == CMD_EXPLAIN ? " (--runtime tflite: align 64, lifetimes tflite)"
			 : !align ? "; a .tflite: --lifetimes tflite (TFLite's conventions)"
			 : "; a .tflite: --align 64, --lifetimes tflite (TFLite's conventions)");
	if (cmd & LOAD && cmd != CMD_SUITE)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s", align
			 ? "; a .tflite with an offline plan: TFLite Micro's (--align 16, --lifetimes tflm, --round 16); a .onnx: --align 64, --lifetimes default (ONNX Runtime's)"
			 : "; a .tflite with an offline plan: TFLite Micro's (--lifetimes tflm, --round 16); a .onnx: --lifetimes default (ONNX Runtime's)");
}

/* ---------------------------------------------------------------- help */

void cli_usage(FILE *f)
{
	fputs("usage: arenabench COMMAND [options]   (arenabench COMMAND --help for its options)\n\ncommands:\n", f);
	for (size_t i = 0; i < N_COMMANDS; i++) {
		const char *nl = strchr(commands[i].about, '\n');

		fprintf(f, "  %-38s %.*s\n", commands[i].usage,
			nl ? (int)(nl - commands[i].about) : (int)strlen(commands[i].about),
			commands[i].about);
	}
	fputs("\nINPUT is a .graph, .csv (minimalloc), .tflite or .onnx file, or a directory of them.\n"
	      "Options take their value as --opt=value or --opt value.\n"
	      "arenabench --version: the revision, compiler and build flags of this binary.\n", f);
}

void cli_command_help(FILE *f, enum cli_cmd cmd)
{
	const struct command_doc *c = command_doc(cmd);
	char defaults[512];

	fprintf(f, "usage: arenabench %s [options]\n\n%s\n\noptions:\n", c->usage, c->about);
	for (size_t i = 0; i < N_OPTIONS; i++) {
		char left[64];

		if (!(table[i].applies & cmd))
			continue;
		snprintf(left, sizeof(left), "--%s%s%s", table[i].opt.name,
			 table[i].value ? " " : "", table[i].value ? table[i].value : "");
		fprintf(f, "  %-30s %s\n", left, table[i].help);
	}
	defaults_text(cmd, defaults, sizeof(defaults));
	if (defaults[0])
		fprintf(f, "\ndefaults: %s\n", defaults);
	fprintf(f, "\nexample:\n  %s\n", c->example);
}

/* ------------------------------------------------------------- parsing */

/* A whole decimal number, no sign, no message: 0 or -EINVAL/-ERANGE. */
static int scan_u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	if (!s || !*s || !isdigit((unsigned char)*s))
		return -EINVAL;
	*v = strtoull(s, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	if (errno || *end)
		return -EINVAL;
	return 0;
}

static int parse_u64_arg(const char *opt, const char *s, uint64_t *v)
{
	if (scan_u64(s, v) == 0)
		return 0;
	fprintf(stderr, "arenabench: %s expects a non-negative integer, got '%s'\n",
		opt, s ? s : "");
	return -EINVAL;
}

/* One message for any value outside [lo, hi], the range named. */
static int parse_u64_in(const char *opt, const char *s, uint64_t lo,
			uint64_t hi, const char *what, uint64_t *v)
{
	if (scan_u64(s, v) == 0 && *v >= lo && *v <= hi)
		return 0;
	fprintf(stderr, "arenabench: %s expects %s from %" PRIu64 " to %" PRIu64 ", got '%s'\n",
		opt, what, lo, hi, s ? s : "");
	return -EINVAL;
}

/* Seconds: a finite number in [lo, hi]; NaN, infinities, overflow and
 * empty text are refused. */
static int parse_seconds(const char *opt, const char *s, double lo,
			 double hi, double *v)
{
	char *end;

	errno = 0;
	*v = s && *s ? strtod(s, &end) : NAN;
	if (s && *s && !*end && !errno && isfinite(*v) && *v >= lo && *v <= hi)
		return 0;
	fprintf(stderr, "arenabench: %s expects seconds from %g to %g, got '%s'\n",
		opt, lo, hi, s ? s : "");
	return -EINVAL;
}

static int parse_aligns(const char *s, struct args *a)
{
	char *copy = strdup(s), *save = NULL, *t;

	a->n_aligns = 0;
	for (t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		uint64_t v;

		if (scan_u64(t, &v) || v == 0 || (v & (v - 1)) ||
		    v > (1u << 30) || a->n_aligns == 16) {
			fprintf(stderr, "arenabench: --align expects up to 16 powers of two up to 2^30, got '%s'\n",
				s);
			free(copy);
			return -EINVAL;
		}
		a->aligns[a->n_aligns++] = (uint32_t)v;
	}
	free(copy);
	if (!a->n_aligns) {
		fprintf(stderr, "arenabench: --align expects a list like 1,16,64\n");
		return -EINVAL;
	}
	return 0;
}

static int parse_dim(const char *v, struct args *a)
{
	struct ab_tflite_dim *d;
	const char *eq = strchr(v, '=');
	uint64_t val;

	if (!eq || eq == v || (size_t)(eq - v) >= sizeof(d->name) ||
	    a->load.tflite.n_dims == AB_TFLITE_MAX_DIMS ||
	    scan_u64(eq + 1, &val) || val > INT32_MAX) {
		fprintf(stderr, "arenabench: --dim expects NAME=VALUE or INPUT:AXIS=VALUE (at most %d), got '%s'\n",
			AB_TFLITE_MAX_DIMS, v);
		return -EINVAL;
	}
	d = &a->load.tflite.dims[a->load.tflite.n_dims++];
	memcpy(d->name, v, (size_t)(eq - v));
	d->name[eq - v] = 0;
	d->value = (int64_t)val;
	return 0;
}

/* A positive number of bytes with an optional unit: the tiers' capacity
 * syntax, one parser for every such option. */
static int parse_bytes(const char *opt, const char *v, uint64_t *out)
{
	struct ab_error e = { { 0 } };
	struct ab_tier t;
	char spec[96];

	snprintf(spec, sizeof(spec), "capacity:%s", v);
	if (strlen(v) > 64 || cli_tier_parse(spec, &t, &e) || !t.capacity) {
		fprintf(stderr, "arenabench: %s expects a positive number of bytes with an optional unit B, KiB, MiB or GiB, got '%s'\n",
			opt, v);
		return -EINVAL;
	}
	*out = t.capacity;
	return 0;
}

/* FROM:TO, two steps with FROM <= TO. */
static int parse_steps(const char *opt, const char *v, struct args *a)
{
	const char *colon = strchr(v, ':');
	char from[32];
	uint64_t f, t;

	if (colon && (size_t)(colon - v) < sizeof(from)) {
		memcpy(from, v, (size_t)(colon - v));
		from[colon - v] = 0;
	}
	if (!colon || (size_t)(colon - v) >= sizeof(from) || scan_u64(from, &f) ||
	    scan_u64(colon + 1, &t) || f > t || t > INT32_MAX - 1) {
		fprintf(stderr, "arenabench: %s expects FROM:TO, two steps with FROM <= TO, got '%s'\n",
			opt, v);
		return -EINVAL;
	}
	a->plot_window = true;
	a->plot_from = (int32_t)f;
	a->plot_to = (int32_t)t;
	return 0;
}

/* One option with its value v (NULL for flags). */
static int set_option(int id, const char *o, const char *v, struct args *a)
{
	struct ab_error e = { { 0 } };
	uint64_t x;
	int r;

	switch (id) {
	case O_ALIGN:
		if (parse_aligns(v, a))
			return -EINVAL;
		a->align_given = true;
		return 0;
	case O_LIFETIMES:
		r = ab_lifetime_rule_from_name(v);
		if (r < 0) {
			fprintf(stderr, "arenabench: --lifetimes expects default, tflite or tflm, got '%s'\n", v);
			return -EINVAL;
		}
		a->load.problem.lifetimes = r;
		a->lifetimes_given = true;
		return 0;
	case O_RUNTIME:
		if (strcmp(v, "tflite") && strcmp(v, "tflm")) {
			fprintf(stderr, "arenabench: --runtime expects tflite or tflm, got '%s'\n", v);
			return -EINVAL;
		}
		a->runtime = v;
		a->runtime_given = true;
		return 0;
	case O_ROUND:
		if (parse_u64_in(o, v, 1, 1u << 30, "a multiple (1 = no rounding)", &x))
			return -EINVAL;
		a->load.problem.round_to = (uint32_t)x;
		a->round_given = true;
		return 0;
	case O_NO_SCRATCH:
		a->load.problem.exclude_scratch = true;
		return 0;
	case O_SUBGRAPH:
		if (parse_u64_in(o, v, 0, INT32_MAX, "a subgraph index", &x))
			return -EINVAL;
		a->load.tflite.subgraph = (int)x;
		return 0;
	case O_DIM:
		return parse_dim(v, a);
	case O_DIMS_FILE:
		if (a->dims_file.path) {
			fprintf(stderr, "arenabench: --dims-file is given twice (expected one file)\n");
			return -EINVAL;
		}
		if (ab_dims_file_load(v, &a->dims_file, &e)) {
			fprintf(stderr, "arenabench: --dims-file: %s\n", e.msg);
			return -EINVAL;
		}
		if (!a->dims_file.path)
			a->dims_file.path = strdup(v);
		return 0;
	case O_FAMILY:
		/* A CSV field and a file-name part: no separators or quotes. */
		if (!*v || strpbrk(v, ",\"\n\r/ ")) {
			fprintf(stderr, "arenabench: --family: '%s' is not a family name (expected a non-empty name without comma, slash, quote, space or line break)\n", v);
			return -EINVAL;
		}
		a->load.family = v;
		return 0;
	case O_SEED:
		return parse_u64_arg(o, v, &a->plan.seed);
	case O_BUDGET:
		/* 0 would read as "the planner's default": leave the option out. */
		return parse_u64_in(o, v, 1, UINT64_MAX, "iterations (leave it out for the planner's default)",
				    &a->plan.budget);
	case O_PHASES:
		if (parse_u64_in(o, v, 1, AB_MAX_ARENAS - 1, "a number of phases", &x))
			return -EINVAL;
		a->plan.phases = (int)x;
		return 0;
	case O_SAFETY:
		return parse_seconds(o, v, 0, 1e9, &a->plan.safety_seconds);
	case O_REORDER:
		r = ab_reorder_method_from_name(v);
		if (r < 0) {
			fprintf(stderr, "arenabench: --reorder expects none, greedy, beam or inductor, got '%s'\n", v);
			return -EINVAL;
		}
		a->load.reorder.method = r;
		return 0;
	case O_REORDER_WIDTH:
		if (parse_u64_in(o, v, 1, AB_REORDER_BEAM_WIDTH_MAX, "a number of states", &x))
			return -EINVAL;
		a->load.reorder.beam_width = (int)x;
		return 0;
	case O_INPLACE:
		a->load.problem.inplace = true;
		return 0;
	case O_TIER:
		if (cli_tier_add(a->tiers.tier, &a->tiers.n, v, &e)) {
			fprintf(stderr, "arenabench: --tier: %s\n", e.msg);
			return -EINVAL;
		}
		a->tiering = (struct ab_combinator){
			.name = "tier", .self = &a->tiers, .plan = ab_tiers_combine,
			.check = ab_tiers_check_set,
			.options_text = ab_tiers_options_text,
			.parts_text = ab_tiers_parts_text,
		};
		a->plan.combinator = &a->tiering;
		return 0;
	case O_TIER_BENEFIT:
		r = ab_tier_benefit_from_name(v);
		if (r < 0) {
			fprintf(stderr, "arenabench: --tier-benefit expects bytes or accesses, got '%s'\n", v);
			return -EINVAL;
		}
		a->tiers.opt.benefit = r;
		return 0;
	case O_PLANNERS:
	case O_PLANNER:
		a->planners = v;
		return 0;
	case O_PLANNERS_DIR:
		a->planners_dir = v;
		return 0;
	case O_AGAINST:
		a->against = v;
		return 0;
	case O_RATIOS:
		a->ratios = v;
		return 0;
	case O_MATCH:
		a->match = v;
		return 0;
	case O_TOP:
		return parse_u64_arg(o, v, &a->top);
	case O_COST:
		if (strcmp(v, "fast") && strcmp(v, "budgeted") && strcmp(v, "all")) {
			fprintf(stderr, "arenabench: --cost expects fast, budgeted or all, got '%s'\n", v);
			return -EINVAL;
		}
		a->cost = v;
		return 0;
	case O_OUT:
		a->out = v;
		a->out_given = true;
		return 0;
	case O_EMIT_PLAN:
		a->emit_plan = v;
		return 0;
	case O_EMIT_LIVE:
		a->emit_live = v;
		return 0;
	case O_CAPACITY:
		return parse_bytes(o, v, &a->capacity);
	case O_PLOT_MIN_BYTES:
		return parse_bytes(o, v, &a->plot_min_bytes);
	case O_PLOT_STEPS:
		return parse_steps(o, v, a);
	case O_TIMINGS:
		a->timings = true;
		return 0;
	case O_BUFFERS:
		a->buffers = true;
		return 0;
	case O_PLOT:
		a->plot = v;
		return 0;
	case O_JSON:
		a->json = true;
		return 0;
	case O_NO_TIMING:
		a->timing = false;
		return 0;
	case O_QUIET:
		a->quiet = true;
		return 0;
	case O_STRICT:
		a->strict = true;
		return 0;
	case O_ALLOW_EMPTY:
		a->allow_empty = true;
		return 0;
	case O_HEADER:
		a->header = true;
		return 0;
	case O_BUDGET_SECONDS:
		if (parse_seconds(o, v, 1e-6, 1e9, &a->budget_seconds))
			return -EINVAL;
		return 0;
	}
	return -EINVAL;
}

/* "unknown option '--planer'; did you mean --planner?": the closest
 * option of this command, else of any command. */
static void unknown_option(const char *o, enum cli_cmd cmd, const char *name)
{
	const char *names[N_OPTIONS], *near = NULL;
	char word[64];
	size_t n = 0;

	snprintf(word, sizeof(word), "%.*s", (int)strcspn(o + strspn(o, "-"), "="), o + strspn(o, "-"));
	for (int pass = 0; pass < 2 && !near; pass++) {
		n = 0;
		for (size_t i = 0; i < N_OPTIONS; i++)
			if (pass || table[i].applies & cmd)
				names[n++] = table[i].opt.name;
		near = ab_closest_name(word, names, n);
	}
	fprintf(stderr, "arenabench: unknown option '%s'", o);
	if (near)
		fprintf(stderr, "; did you mean --%s?", near);
	fprintf(stderr, " (see arenabench %s --help)\n", name);
}

int cli_parse(enum cli_cmd cmd, int argc, char **argv, struct args *a)
{
	struct option longopts[N_OPTIONS + 1];
	const char *name = command_doc(cmd)->name;
	char opt[64];
	int c, index;

	memset(longopts, 0, sizeof(longopts));
	for (size_t i = 0; i < N_OPTIONS; i++)
		longopts[i] = table[i].opt;
	a->cmd = cmd;
	a->plan.seed = 1;
	a->cost = "fast";
	a->out = "results/results.csv";
	a->timing = true;
	a->budget_seconds = 60;
	a->top = 10;
	a->pos = calloc((size_t)argc + 1, sizeof(*a->pos));
	if (!a->pos)
		return -ENOMEM;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, &index)) != -1) {
		const char *o = argv[optind - 1];

		if (c == 'h' || c == O_HELP) {
			cli_command_help(stdout, cmd);
			return 1;
		}
		if (c == ':') {
			fprintf(stderr, "arenabench: %s expects a value\n", o);
			return -EINVAL;
		}
		if (c == '?') {
			unknown_option(o, cmd, name);
			return -EINVAL;
		}
		if (!(table[index].applies & cmd)) {
			fprintf(stderr, "arenabench: %s: option --%s does not apply to %s (see arenabench %s --help)\n",
				name, table[index].opt.name, name, name);
			return -EINVAL;
		}
		snprintf(opt, sizeof(opt), "--%s", table[index].opt.name);
		if (set_option(c, opt, optarg, a))
			return -EINVAL;
	}
	while (optind < argc)
		a->pos[a->n_pos++] = argv[optind++];
	if (a->plan.combinator) {
		struct ab_error e = { { 0 } };

		if (ab_tiers_check_list(a->tiers.tier, a->tiers.n, &e)) {
			fprintf(stderr, "arenabench: --tier: %s\n", e.msg);
			return -EINVAL;
		}
	}
	if (a->load.reorder.beam_width && a->load.reorder.method != AB_REORDER_BEAM) {
		fprintf(stderr, "arenabench: --reorder-width needs --reorder beam\n");
		return -EINVAL;
	}
	apply_conventions(a);
	return 0;
}

void cli_args_free(struct args *a)
{
	free(a->pos);
	a->pos = NULL;
	ab_dims_file_free(&a->dims_file);
}
