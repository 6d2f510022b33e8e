/*
 * arenabench: the command line.  The only place that prints or chooses an
 * exit code.  Exit codes: 0 success, 1 an invalid plan was found (and
 * recorded as invalid), 2 bad usage or bad input (nothing written).
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "bench/bench.h"
#include "report/explain.h"
#include "report/export.h"
#include "report/plan_files.h"
#include "bench/scale.h"
#include "report/suite.h"
#include "core/textio.h"
#include "bench/tiers.h"
#include "bench/timing.h"

#define EXIT_INVALID 1
#define EXIT_USAGE 2

static void usage(FILE *f)
{
	fputs("usage: arenabench COMMAND [options]\n"
	      "\n"
	      "commands:\n"
	      "  list                      the registered planners, one line each\n"
	      "  bench INPUT...            plan every input with every planner and alignment,\n"
	      "                            check every plan, time it, write a CSV\n"
	      "  plan FILE --planner P     plan one input and print a summary\n"
	      "  stats FILE...             CSV of corpus statistics (no planning)\n"
	      "  explain MODEL             where a model's memory goes, every fast planner against\n"
	      "                            the lower bound (--runtime tflite|tflm, --json, --plot F.svg)\n"
	      "  suite DIR...              planners over minimalloc CSV problems vs capacity [--out F]\n"
	      "  scale FILE --planner P    one scaling measurement as a CSV row (scripts/study/scaling.sh)\n"
	      "  export MODEL --out OUT    a copy of a .tflite carrying a checked plan as TFLite Micro's\n"
	      "                            OfflineMemoryAllocation metadata [--planner P (best_of)] [--align N (16)]\n"
	      "\n"
	      "INPUT is a .graph, .csv (minimalloc) or .tflite file, or a directory of them.\n"
	      "\n"
	      "common options:\n"
	      "  --align A[,A...]          offsets are multiples of max(A, own alignment)\n"
	      "  --lifetimes R             default | tflite | tflm (docs/semantics.md)\n"
	      "  --round N                 round sizes up to a multiple of N before planning\n"
	      "  --no-scratch              leave operator scratch buffers out\n"
	      "  --subgraph N              .tflite: the subgraph to plan (default 0)\n"
	      "  --dim NAME=VALUE          .tflite: value of a dynamic dimension\n"
	      "  --seed N, --budget N      search planners: seed and iteration budget\n"
	      "  --phases N                multi_arena_phase: number of phases (default auto)\n"
	      "  --safety-seconds S        wall-clock safety stop for search planners\n"
	      "  --reorder M               reorder operators before planning: none | greedy | beam | inductor\n"
	      "                            (docs/reorder.md; never raises the lower bound)\n"
	      "  --reorder-width N         beam: states kept per step (default 64)\n"
	      "  --inplace                 elementwise ops write into a last-read same-size input\n"
	      "                            (docs/semantics.md)\n"
	      "  --tier NAME[:CAPACITY]    a memory tier, fastest first, e.g. --tier sram:256KiB\n"
	      "                            --tier dram (the last may be unbounded; docs/tiers.md)\n"
	      "  --tier-benefit B          fill fast tiers by bytes (default) or accesses\n"
	      "bench options:\n"
	      "  --planners a,b,...        planners to run (default: every fast planner)\n"
	      "  --cost fast|budgeted|all  planners by cost class\n"
	      "  --out FILE                CSV to write (default results/results.csv)\n"
	      "  --no-timing               skip Google Benchmark (timing columns empty)\n"
	      "  --quiet                   no progress on stderr\n"
	      "  --benchmark_*             Google Benchmark's own flags, e.g.\n"
	      "                            --benchmark_min_time=0.05 (seconds, plain number)\n"
	      "plan options:\n"
	      "  --planner P               the planner (see `arenabench list`)\n"
	      "  --emit-plan FILE          the plan in minimalloc's solution format\n"
	      "  --emit-live FILE          the live-bytes curve: step,live_bytes,lower_bound_bytes\n",
	      f);
}

/* ------------------------------------------------------------- arguments */

struct args {
	struct ab_load_options load;
	struct ab_plan_options plan;
	uint32_t aligns[16];
	size_t n_aligns;
	const char *planners;   /* comma list, or NULL */
	const char *cost;       /* fast | budgeted | all */
	const char *out;
	const char *emit_plan, *emit_live, *plot;
	bool timing, quiet, json;
	char **pos;
	size_t n_pos;
	const char *runtime;
	bool align_given, lifetimes_given, round_given, out_given;
	struct ab_tier_set tiers; /* --tier; a->plan.tiers points here */
};

static int parse_u64_arg(const char *opt, const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	if (!s || !*s || *s == '-')
		goto bad;
	*v = strtoull(s, &end, 10);
	if (errno || *end)
		goto bad;
	return 0;
bad:
	fprintf(stderr, "arenabench: %s expects a non-negative integer, got '%s'\n",
		opt, s ? s : "");
	return -EINVAL;
}

static int parse_aligns(const char *s, struct args *a)
{
	char *copy = strdup(s), *save = NULL, *t;

	a->n_aligns = 0;
	for (t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		uint64_t v;

		if (parse_u64_arg("--align", t, &v) || v == 0 || (v & (v - 1)) ||
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

static int parse_args(int argc, char **argv, struct args *a)
{
	a->load.problem.lifetimes = AB_LIFETIMES_DEFAULT;
	a->plan.seed = 1;
	a->aligns[0] = 1;
	a->aligns[1] = 16;
	a->aligns[2] = 64;
	a->n_aligns = 3;
	a->cost = "fast";
	a->out = "results/results.csv";
	a->timing = true;
	a->pos = calloc((size_t)argc + 1, sizeof(*a->pos));
	if (!a->pos)
		return -ENOMEM;
	for (int i = 0; i < argc; i++) {
		const char *o = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		uint64_t x;

#define NEED_VALUE()                                                         \
	do {                                                                 \
		if (!v) {                                                    \
			fprintf(stderr, "arenabench: %s expects a value\n", o); \
			return -EINVAL;                                      \
		}                                                            \
		i++;                                                         \
	} while (0)
		if (o[0] != '-' || strcmp(o, "-") == 0) {
			a->pos[a->n_pos++] = argv[i];
		} else if (!strcmp(o, "--align")) {
			NEED_VALUE();
			if (parse_aligns(v, a))
				return -EINVAL;
			a->align_given = true;
		} else if (!strcmp(o, "--lifetimes")) {
			int r;

			NEED_VALUE();
			r = ab_lifetime_rule_from_name(v);
			if (r < 0) {
				fprintf(stderr, "arenabench: --lifetimes expects default, tflite or tflm, got '%s'\n", v);
				return -EINVAL;
			}
			a->load.problem.lifetimes = r;
			a->lifetimes_given = true;
		} else if (!strcmp(o, "--runtime")) {
			NEED_VALUE();
			if (strcmp(v, "tflite") && strcmp(v, "tflm")) {
				fprintf(stderr, "arenabench: --runtime expects tflite or tflm, got '%s'\n", v);
				return -EINVAL;
			}
			a->runtime = v;
		} else if (!strcmp(o, "--round")) {
			NEED_VALUE();
			if (parse_u64_arg(o, v, &x) || x > (1u << 30))
				return -EINVAL;
			a->load.problem.round_to = (uint32_t)x;
			a->round_given = true;
		} else if (!strcmp(o, "--inplace")) {
			a->load.problem.inplace = true;
		} else if (!strcmp(o, "--reorder")) {
			int m;

			NEED_VALUE();
			m = ab_reorder_method_from_name(v);
			if (m < 0) {
				fprintf(stderr, "arenabench: --reorder expects none, greedy, beam or inductor, got '%s'\n", v);
				return -EINVAL;
			}
			a->load.reorder.method = m;
		} else if (!strcmp(o, "--reorder-width")) {
			NEED_VALUE();
			if (parse_u64_arg(o, v, &x) || x < 1 || x > AB_REORDER_BEAM_WIDTH_MAX) {
				fprintf(stderr, "arenabench: --reorder-width expects 1 to %d states\n",
					AB_REORDER_BEAM_WIDTH_MAX);
				return -EINVAL;
			}
			a->load.reorder.beam_width = (int)x;
		} else if (!strcmp(o, "--tier")) {
			struct ab_error e = { { 0 } };

			NEED_VALUE();
			if (ab_tier_add(a->tiers.tier, &a->tiers.n, v, &e)) {
				fprintf(stderr, "arenabench: --tier: %s\n", e.msg);
				return -EINVAL;
			}
			a->plan.tiers = &a->tiers;
		} else if (!strcmp(o, "--tier-benefit")) {
			int b;

			NEED_VALUE();
			b = ab_tier_benefit_from_name(v);
			if (b < 0) {
				fprintf(stderr, "arenabench: --tier-benefit expects bytes or accesses, got '%s'\n", v);
				return -EINVAL;
			}
			a->tiers.opt.benefit = b;
		} else if (!strcmp(o, "--no-scratch")) {
			a->load.problem.exclude_scratch = true;
		} else if (!strcmp(o, "--subgraph")) {
			NEED_VALUE();
			if (parse_u64_arg(o, v, &x) || x > INT32_MAX)
				return -EINVAL;
			a->load.tflite.subgraph = (int)x;
		} else if (!strcmp(o, "--dim")) {
			struct ab_tflite_dim *d;
			const char *eq;
			uint64_t val;

			NEED_VALUE();
			eq = strchr(v, '=');
			if (!eq || eq == v || (size_t)(eq - v) >= sizeof(d->name) ||
			    a->load.tflite.n_dims == AB_TFLITE_MAX_DIMS ||
			    parse_u64_arg(o, eq + 1, &val) || val > INT32_MAX) {
				fprintf(stderr, "arenabench: --dim expects NAME=VALUE (at most %d), got '%s'\n",
					AB_TFLITE_MAX_DIMS, v);
				return -EINVAL;
			}
			d = &a->load.tflite.dims[a->load.tflite.n_dims++];
			memcpy(d->name, v, (size_t)(eq - v));
			d->name[eq - v] = 0;
			d->value = (int64_t)val;
		} else if (!strcmp(o, "--seed")) {
			NEED_VALUE();
			if (parse_u64_arg(o, v, &a->plan.seed))
				return -EINVAL;
		} else if (!strcmp(o, "--budget")) {
			NEED_VALUE();
			if (parse_u64_arg(o, v, &a->plan.budget))
				return -EINVAL;
		} else if (!strcmp(o, "--phases")) {
			NEED_VALUE();
			if (parse_u64_arg(o, v, &x) || x < 1 || x > AB_MAX_ARENAS - 1) {
				fprintf(stderr, "arenabench: --phases expects 1 to %d\n", AB_MAX_ARENAS - 1);
				return -EINVAL;
			}
			a->plan.phases = (int)x;
		} else if (!strcmp(o, "--safety-seconds")) {
			char *end;

			NEED_VALUE();
			a->plan.safety_seconds = strtod(v, &end);
			if (*end || a->plan.safety_seconds < 0) {
				fprintf(stderr, "arenabench: --safety-seconds expects seconds, got '%s'\n", v);
				return -EINVAL;
			}
		} else if (!strcmp(o, "--planners") || !strcmp(o, "--planner")) {
			NEED_VALUE();
			a->planners = v;
		} else if (!strcmp(o, "--cost")) {
			NEED_VALUE();
			if (strcmp(v, "fast") && strcmp(v, "budgeted") && strcmp(v, "all")) {
				fprintf(stderr, "arenabench: --cost expects fast, budgeted or all, got '%s'\n", v);
				return -EINVAL;
			}
			a->cost = v;
		} else if (!strcmp(o, "--out")) {
			NEED_VALUE();
			a->out = v;
			a->out_given = true;
		} else if (!strcmp(o, "--emit-plan")) {
			NEED_VALUE();
			a->emit_plan = v;
		} else if (!strcmp(o, "--emit-live")) {
			NEED_VALUE();
			a->emit_live = v;
		} else if (!strcmp(o, "--plot")) {
			NEED_VALUE();
			a->plot = v;
		} else if (!strcmp(o, "--json")) {
			a->json = true;
		} else if (!strcmp(o, "--no-timing")) {
			a->timing = false;
		} else if (!strcmp(o, "--quiet")) {
			a->quiet = true;
		} else if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
			usage(stdout);
			exit(0);
		} else {
			fprintf(stderr, "arenabench: unknown option '%s' (see arenabench --help)\n", o);
			return -EINVAL;
		}
#undef NEED_VALUE
	}
	if (a->plan.tiers) {
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
	return 0;
}

/* Planners named in a comma list, or all of a cost class, registry order. */
static int select_planners(const struct args *a,
			   const struct ab_planner ***out, size_t *n)
{
	size_t total = ab_planner_count();
	const struct ab_planner **sel = calloc(total + 1, sizeof(*sel));

	*n = 0;
	if (!sel)
		return -ENOMEM;
	if (a->planners) {
		char *copy = strdup(a->planners), *save = NULL, *t;

		for (t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
			const struct ab_planner *pl = ab_planner_find(t);

			if (!pl) {
				fprintf(stderr, "arenabench: unknown planner '%s' (see arenabench list)\n", t);
				free(copy);
				free(sel);
				return -EINVAL;
			}
			if (*n < total)
				sel[(*n)++] = pl;
		}
		free(copy);
	} else {
		for (size_t i = 0; i < total; i++) {
			const struct ab_planner *pl = ab_planner_at(i);

			if (!strcmp(a->cost, "all") ||
			    (!strcmp(a->cost, "fast") && pl->cost == AB_COST_FAST) ||
			    (!strcmp(a->cost, "budgeted") && pl->cost == AB_COST_BUDGETED))
				sel[(*n)++] = pl;
		}
	}
	*out = sel;
	return 0;
}

/* ----------------------------------------------------------- input files */

static bool is_input_name(const char *s)
{
	size_t n = strlen(s);

	return (n > 6 && !strcmp(s + n - 6, ".graph")) ||
	       (n > 4 && !strcmp(s + n - 4, ".csv")) ||
	       (n > 7 && !strcmp(s + n - 7, ".tflite"));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Expands directories (sorted, not recursive) into input files. */
static int expand_inputs(char **pos, size_t n_pos, char ***out, size_t *n)
{
	size_t cap = 64;
	char **files = malloc(cap * sizeof(*files));

	*n = 0;
	if (!files)
		return -ENOMEM;
	for (size_t i = 0; i < n_pos; i++) {
		struct stat st;

		if (stat(pos[i], &st) != 0) {
			fprintf(stderr, "arenabench: %s: %s\n", pos[i], strerror(errno));
			return -ENOENT;
		}
		if (S_ISDIR(st.st_mode)) {
			DIR *d = opendir(pos[i]);
			struct dirent *e;
			size_t first = *n;

			if (!d) {
				fprintf(stderr, "arenabench: %s: %s\n", pos[i], strerror(errno));
				return -errno;
			}
			while ((e = readdir(d))) {
				if (e->d_name[0] == '.' || !is_input_name(e->d_name))
					continue;
				if (*n == cap) {
					cap *= 2;
					files = realloc(files, cap * sizeof(*files));
					if (!files)
						return -ENOMEM;
				}
				if (asprintf(&files[(*n)++], "%s/%s", pos[i], e->d_name) < 0)
					return -ENOMEM;
			}
			closedir(d);
			qsort(files + first, *n - first, sizeof(*files), cmp_str);
		} else {
			if (*n == cap) {
				cap *= 2;
				files = realloc(files, cap * sizeof(*files));
				if (!files)
					return -ENOMEM;
			}
			files[(*n)++] = strdup(pos[i]);
		}
	}
	*out = files;
	return 0;
}

/* ---------------------------------------------------------------- commands */

static int cmd_list(void)
{
	for (size_t i = 0; i < ab_planner_count(); i++) {
		const struct ab_planner *pl = ab_planner_at(i);

		printf("%-22s %-9s %s\n", pl->name,
		       pl->cost == AB_COST_FAST ? "fast" : "budgeted", pl->about);
	}
	return 0;
}

struct progress {
	bool quiet;
	time_t start;
};

static void on_progress(void *user, size_t done, size_t total,
			const char *path, const char *what)
{
	struct progress *pr = user;

	if (pr->quiet)
		return;
	if (path)
		fprintf(stderr, "[%zu/%zu %lds] %s: %s\n", done + 1, total,
			(long)(time(NULL) - pr->start), path, what);
	else
		fprintf(stderr, "[%zu/%zu %lds] %s\n", done, total,
			(long)(time(NULL) - pr->start), what);
}

static void on_problem(void *user, const char *msg)
{
	(void)user;
	fprintf(stderr, "arenabench: INVALID PLAN: %s\n", msg);
}

static char *meta_path(const char *csv)
{
	size_t n = strlen(csv);
	char *m = malloc(n + 6);

	if (!m)
		return NULL;
	memcpy(m, csv, n + 1);
	if (n > 4 && !strcmp(m + n - 4, ".csv"))
		m[n - 4] = 0;
	strcat(m, ".meta");
	return m;
}

static void apply_runtime(struct args *a)
{
	/* --runtime sets conventions together; explicit options override. */
	if (!a->runtime)
		return;
	if (!strcmp(a->runtime, "tflm")) {
		if (!a->align_given) {
			a->aligns[0] = 16;
			a->n_aligns = 1;
		}
		if (!a->lifetimes_given)
			a->load.problem.lifetimes = AB_LIFETIMES_TFLM;
		if (!a->round_given)
			a->load.problem.round_to = 16;
	} else {
		if (!a->align_given) {
			a->aligns[0] = 64;
			a->n_aligns = 1;
		}
		if (!a->lifetimes_given)
			a->load.problem.lifetimes = AB_LIFETIMES_TFLITE;
	}
}

static int cmd_bench(struct args *a, int argc, char **argv)
{
	struct ab_bench_config cfg = { 0 };
	struct progress pr = { a->quiet, time(NULL) };
	const struct ab_planner **planners = NULL;
	struct ab_rows rows = { 0 };
	struct ab_error err = { { 0 } };
	struct ab_atomic_file csv, meta;
	char **files = NULL, *mpath = NULL;
	size_t n_files = 0, n_planners = 0;
	int rc, code = EXIT_USAGE;

	apply_runtime(a);
	if (!a->n_pos) {
		fprintf(stderr, "arenabench: bench: no inputs (expected .graph/.csv/.tflite files or directories)\n");
		return EXIT_USAGE;
	}
	if (expand_inputs(a->pos, a->n_pos, &files, &n_files) ||
	    select_planners(a, &planners, &n_planners))
		goto out;
	if (!n_files || !n_planners) {
		fprintf(stderr, "arenabench: bench: %s\n",
			!n_files ? "no .graph, .csv or .tflite files in the inputs"
				 : "no planners selected");
		goto out;
	}
	cfg.inputs = (const char *const *)files;
	cfg.n_inputs = n_files;
	cfg.planners = planners;
	cfg.n_planners = n_planners;
	cfg.aligns = a->aligns;
	cfg.n_aligns = a->n_aligns;
	cfg.load = a->load;
	cfg.plan = a->plan;
	cfg.timing = a->timing;
	cfg.progress = on_progress;
	cfg.problem = on_problem;
	cfg.user = &pr;
	rc = ab_bench_run(&cfg, &rows, &err);
	if (rc) {
		fprintf(stderr, "arenabench: %s\n", err.msg);
		fprintf(stderr, "arenabench: nothing written; %s is unchanged\n", a->out);
		goto out;
	}
	mpath = meta_path(a->out);
	if (!mpath || ab_atomic_open(&csv, a->out, &err)) {
		fprintf(stderr, "arenabench: %s\n", err.msg);
		goto out;
	}
	if (ab_atomic_open(&meta, mpath, &err)) {
		ab_atomic_abort(&csv);
		fprintf(stderr, "arenabench: %s\n", err.msg);
		goto out;
	}
	ab_rows_write_csv(csv.f, &rows);
	ab_write_meta(meta.f, argc, argv);
	if (ab_atomic_commit(&csv, &err)) {
		ab_atomic_abort(&meta);
		fprintf(stderr, "arenabench: %s\n", err.msg);
		goto out;
	}
	if (ab_atomic_commit(&meta, &err)) {
		fprintf(stderr, "arenabench: %s\n", err.msg);
		goto out;
	}
	if (!a->quiet)
		fprintf(stderr, "arenabench: wrote %zu rows to %s (%zu invalid)\n",
			rows.n, a->out, rows.invalid);
	code = rows.invalid ? EXIT_INVALID : 0;
out:
	for (size_t i = 0; i < n_files; i++)
		free(files[i]);
	free(files);
	free(planners);
	free(mpath);
	ab_rows_free(&rows);
	return code;
}

static int cmd_plan(struct args *a)
{
	struct ab_error err = { { 0 } };
	struct ab_input in;
	const struct ab_planner *pl;
	struct ab_plan plan;
	struct ab_row row = { 0 };
	char *options;
	int code;

	apply_runtime(a);
	if (a->n_pos != 1 || !a->planners || strchr(a->planners, ',')) {
		fprintf(stderr, "arenabench: plan: expected FILE --planner P [--align N] [--emit-plan out.csv] [--emit-live live.csv]\n");
		return EXIT_USAGE;
	}
	pl = ab_planner_find(a->planners);
	if (!pl) {
		fprintf(stderr, "arenabench: unknown planner '%s' (see arenabench list)\n", a->planners);
		return EXIT_USAGE;
	}
	if (a->n_aligns != 1) {
		if (a->align_given) {
			fprintf(stderr, "arenabench: plan: --align takes one value\n");
			return EXIT_USAGE;
		}
		a->aligns[0] = 1;
	}
	a->plan.align = a->aligns[0];
	if (ab_input_load(a->pos[0], &a->load, &in, &err)) {
		fprintf(stderr, "arenabench: %s\n", err.msg);
		return EXIT_USAGE;
	}
	if (ab_plan_alloc(&plan, in.problem.n)) {
		fprintf(stderr, "arenabench: out of memory\n");
		ab_input_free(&in);
		return EXIT_USAGE;
	}
	row.lower_bound_bytes = ab_lower_bound(&in.problem, NULL);
	ab_plan_and_check(&in, pl, &a->plan, a->load.problem.lifetimes, &plan, &row);
	options = ab_options_string(&a->load, &a->plan);
	printf("input:        %s (%s)\n", in.path, in.family);
	printf("buffers:      %zu in %zu steps\n", in.problem.n, in.ops);
	if (a->load.problem.inplace)
		printf("in place:     %zu tensors share an input's buffer (--inplace)\n",
		       in.problem.n_aliased);
	printf("sum:          %" PRIu64 " bytes\n", ab_sum_bytes(&in.problem));
	if (in.reordered)
		printf("reorder:      %s: lower bound %" PRIu64 " -> %" PRIu64 " bytes (%s%s)\n",
		       ab_reorder_method_name(a->load.reorder.method),
		       in.reorder.lower_bound_before, in.reorder.lower_bound_after,
		       in.reorder.kept_original ? "file order kept" : "new order",
		       in.reorder.optimal ? "; no order has a lower bound below this" : "");
	else if (a->load.reorder.method != AB_REORDER_NONE)
		printf("reorder:      none (a CSV problem has no operators to reorder)\n");
	printf("lower bound:  %" PRIu64 " bytes\n", row.lower_bound_bytes);
	printf("planner:      %s (align %u; %s)\n", pl->name, a->plan.align, options ? options : "");
	if (row.plan_failed) {
		fprintf(stderr, "arenabench: no plan: %s\n", row.error ? row.error : "?");
		code = EXIT_INVALID;
		free(options);
		goto done;
	}
	printf("peak:         %" PRIu64 " bytes", row.peak_bytes);
	if (row.lower_bound_bytes)
		printf(" (%.4f x lower bound)", (double)row.peak_bytes / (double)row.lower_bound_bytes);
	printf("\narenas:       %d\n", row.arenas);
	if (row.tiered) {
		/* tier t is arena t (harness/bench/tiers.h) */
		for (int i = 0; i < a->tiers.n && i < plan.n_arenas; i++) {
			printf("tier:         %s: peak %" PRIu64 " bytes",
			       a->tiers.tier[i].name, plan.arena_size[i]);
			if (a->tiers.tier[i].capacity)
				printf(" (capacity %" PRIu64 ")", a->tiers.tier[i].capacity);
			putchar('\n');
		}
		printf("spilled:      %" PRIu64 " bytes outside tier '%s'\n",
		       row.spilled_bytes, a->tiers.tier[0].name);
	}
	printf("valid:        %s (geometric check; execution check %s%s)\n",
	       row.valid ? "yes" : "NO", ab_exec_mode_name(row.exec_mode),
	       row.tiered ? "; tier capacities" : "");
	free(options);
	code = row.valid ? 0 : EXIT_INVALID;
	if (!row.valid)
		fprintf(stderr, "arenabench: INVALID PLAN: %s\n", row.error ? row.error : "?");
	if (a->emit_plan && row.valid && ab_write_plan_file(a->emit_plan, &in.problem, &plan, &err)) {
		fprintf(stderr, "arenabench: %s\n", err.msg);
		code = EXIT_USAGE;
	}
	if (a->emit_plan && !row.valid)
		fprintf(stderr, "arenabench: the invalid plan was not written to %s\n", a->emit_plan);
	if (a->emit_live && ab_write_live_file(a->emit_live, &in.problem, &err)) {
		fprintf(stderr, "arenabench: %s\n", err.msg);
		code = EXIT_USAGE;
	}
done:
	free(row.error);
	free(row.tier_peaks);
	ab_plan_free(&plan);
	ab_input_free(&in);
	return code;
}

static int cmd_stats(struct args *a)
{
	char **files = NULL;
	size_t n_files = 0;
	int code = 0;

	apply_runtime(a);
	if (!a->n_pos || expand_inputs(a->pos, a->n_pos, &files, &n_files)) {
		fprintf(stderr, "arenabench: stats: expected input files or directories\n");
		return EXIT_USAGE;
	}
	puts("graph,family,source,ops,buffers,sum_bytes,weights_bytes,lower_bound_bytes,max_live_buffers");
	for (size_t i = 0; i < n_files; i++) {
		struct ab_error err = { { 0 } };
		struct ab_input in;
		const char *s;

		if (ab_input_load(files[i], &a->load, &in, &err)) {
			fprintf(stderr, "arenabench: %s\n", err.msg);
			code = EXIT_USAGE;
			break;
		}
		printf("%s,%s,", in.problem.name, in.family);
		for (s = in.source; *s; s++)
			putchar(*s == ',' ? ';' : *s == '"' ? '\'' : *s);
		printf(",%zu,%zu,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%zu\n",
		       in.ops, in.problem.n, ab_sum_bytes(&in.problem),
		       in.problem.weights_bytes, ab_lower_bound(&in.problem, NULL),
		       ab_max_live_buffers(&in.problem));
		ab_input_free(&in);
	}
	for (size_t i = 0; i < n_files; i++)
		free(files[i]);
	free(files);
	return code;
}

static int cmd_explain(struct args *a)
{
	struct ab_explain_args e = { 0 };

	if (!a->runtime)
		a->runtime = "tflite"; /* explain's default conventions */
	apply_runtime(a);
	if (a->n_pos != 1 || a->n_aligns != 1) {
		fprintf(stderr, "arenabench: explain: expected one MODEL (.tflite, .graph or .csv) and at most one --align value\n");
		return EXIT_USAGE;
	}
	e.path = a->pos[0];
	e.runtime = a->runtime;
	e.load = a->load;
	e.plan = a->plan;
	e.plan.align = a->aligns[0];
	e.align_given = a->align_given;
	e.lifetimes_given = a->lifetimes_given;
	e.round_given = a->round_given;
	e.planners = a->planners;
	e.cost = a->cost;
	e.json = a->json;
	e.plot = a->plot;
	return ab_cmd_explain(&e);
}

static int cmd_suite(struct args *a)
{
	struct ab_suite_args s = { 0 };

	if (a->align_given && a->n_aligns != 1) {
		fprintf(stderr, "arenabench: suite: --align takes one value\n");
		return EXIT_USAGE;
	}
	s.paths = (const char *const *)a->pos;
	s.n_paths = a->n_pos;
	s.planners = a->planners;
	s.cost = a->cost;
	s.plan = a->plan;
	s.plan.align = a->align_given ? a->aligns[0] : 1;
	s.out = a->out_given ? a->out : NULL;
	s.quiet = a->quiet;
	return ab_cmd_suite(&s);
}

static int cmd_export(struct args *a)
{
	struct ab_export_args e = { 0 };

	if (a->n_pos != 1 || !a->out_given || (a->planners && strchr(a->planners, ',')) ||
	    (a->align_given && a->n_aligns != 1) || a->lifetimes_given ||
	    a->round_given || a->runtime || a->load.problem.exclude_scratch) {
		fprintf(stderr, "arenabench: export: expected MODEL.tflite --out OUT.tflite [--planner P] [--align N] [--subgraph N] [--dim NAME=VALUE]; the plan always follows TFLite Micro's rules (no --lifetimes, --round, --runtime or --no-scratch)\n");
		return EXIT_USAGE;
	}
	e.path = a->pos[0];
	e.out = a->out;
	e.planner = a->planners;
	e.align = a->align_given ? a->aligns[0] : 0;
	e.tflite = a->load.tflite;
	e.plan = a->plan;
	return ab_cmd_export(&e);
}

int main(int argc, char **argv)
{
	struct args a = { 0 };
	char err[256];
	const char *cmd;
	int code;

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	cmd = argv[1];
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(cmd, "scale"))
		return ab_scale_main(argc, argv);
	if (!strcmp(cmd, "bench") &&
	    ab_timing_init(&argc, argv, 0.01, 3, err, sizeof(err))) {
		fprintf(stderr, "arenabench: %s\n", err);
		return EXIT_USAGE;
	}
	if (parse_args(argc - 2, argv + 2, &a)) {
		free(a.pos);
		return EXIT_USAGE;
	}
	if (!strcmp(cmd, "list"))
		code = cmd_list();
	else if (!strcmp(cmd, "bench"))
		code = cmd_bench(&a, argc, argv);
	else if (!strcmp(cmd, "plan"))
		code = cmd_plan(&a);
	else if (!strcmp(cmd, "stats"))
		code = cmd_stats(&a);
	else if (!strcmp(cmd, "explain"))
		code = cmd_explain(&a);
	else if (!strcmp(cmd, "suite"))
		code = cmd_suite(&a);
	else if (!strcmp(cmd, "export"))
		code = cmd_export(&a);
	else {
		fprintf(stderr, "arenabench: unknown command '%s' (expected list, bench, plan, stats, explain, suite or export)\n", cmd);
		code = EXIT_USAGE;
	}
	free(a.pos);
	return code;
}
