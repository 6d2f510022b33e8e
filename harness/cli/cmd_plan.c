/* `arenabench plan FILE --planner P`: one plan, checked, as a summary. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "report/explain.h"
#include "report/plan_files.h"

/* minimalloc's question, answered from this plan and the best proven
 * bound: a valid plan within C fits; a bound above C (the lower bound, or
 * a budgeted planner's proof) cannot fit; anything else is unknown. */
static int answer_capacity(FILE *so, uint64_t cap, const struct ab_row *row,
			   const struct ab_planner *pl)
{
	/* the row's proven bound: never below the live-bytes bound, and an
	 * optimal plan's peak is at it (bench/run.c's row rules) */
	uint64_t bound = row->best_bound_bytes;

	if (row->check.peak_bytes <= cap) {
		fprintf(so, "capacity:     fits: peak %" PRIu64 " <= %" PRIu64 " bytes\n",
		       row->check.peak_bytes, cap);
		return 0;
	}
	if (bound > cap) {
		fprintf(so, "capacity:     does not fit: every plan needs at least %" PRIu64 " > %" PRIu64 " bytes\n",
		       bound, cap);
		return EXIT_NO_FIT;
	}
	fprintf(so, "capacity:     unknown: %s's plan needs %" PRIu64 " > %" PRIu64 " bytes and the best bound is %" PRIu64 " (a budgeted planner such as exact, or a larger --budget, may settle it)\n",
	       pl->name, row->check.peak_bytes, cap, bound);
	return EXIT_FIT_UNKNOWN;
}

static double clock_ms(clockid_t clock)
{
	return ab_clock_ns(clock) / 1e6;
}

static double cpu_ms(void)
{
	return clock_ms(CLOCK_PROCESS_CPUTIME_ID);
}

/* --timings: the CPU time of each stage, on stderr (the summary's stream
 * stays as it is): CPU, not wall, so that a shared machine's waiting is
 * left out (a second planning thread adds its time).  load reads and
 * parses the input; write is --emit-plan and --emit-live; the rest (the
 * summary, freeing) is whatever else the command spent up to its return;
 * then the command's CPU and wall time since it started. */
struct stage_times {
	double start_cpu, start_wall, load, bound, write;
};

static void print_timings(const struct stage_times *st, const struct ab_row *row)
{
	double plan = row->plan_cpu_ns / 1e6,
	       geo = row->check.geometric_cpu_ns / 1e6,
	       exe = row->check.execution_cpu_ns / 1e6;
	double total = cpu_ms() - st->start_cpu;

	fprintf(stderr, "timings:      CPU ms: load %.1f, lower bound %.1f, plan %.1f, geometric check %.1f, execution check %.1f, write %.1f, rest %.1f; total %.1f CPU ms, %.1f wall ms\n",
		st->load, st->bound, plan, geo, exe, st->write,
		total - st->load - st->bound - plan - geo - exe - st->write,
		total, clock_ms(CLOCK_MONOTONIC) - st->start_wall);
}

/* Progress of a long search, on stderr. */
static void print_progress(void *user, const struct ab_progress *pr)
{
	const char *path = user;

	fprintf(stderr, "arenabench: %s: %s: peak %" PRIu64 ", bound %" PRIu64
		", gap %.4f%%, %" PRIu64 " nodes, %.1f s\n", path, pr->phase,
		pr->peak, pr->bound,
		pr->bound ? 100.0 * (double)(pr->peak - pr->bound) / (double)pr->bound : 0.0,
		pr->nodes, pr->seconds);
}

/* Why a budgeted search stopped, with the budget and the phase. */
static void stop_reason(const struct ab_row *row, char *why, size_t n)
{
	const char *in = row->stop_phase ? ", in " : "";
	const char *phase = row->stop_phase ? row->stop_phase : "";

	if (row->stopped_by == AB_STOPPED_BUDGET)
		snprintf(why, n, "the budget (%" PRIu64 " nodes/iterations%s%s)",
			 row->budget, in, phase);
	else if (row->stopped_by == AB_STOPPED_TIME)
		snprintf(why, n, "the time limit (--safety-seconds%s%s)", in, phase);
	else if (row->stopped_by == AB_STOPPED_SIZE)
		snprintf(why, n, "size (the complete search was skipped: too many buffers; "
			 "the repairs ended with %" PRIu64 " of %" PRIu64 " nodes left)",
			 row->budget > row->iterations ? row->budget - row->iterations : 0,
			 row->budget);
	else
		snprintf(why, n, "none (finished)");
}

/* A budgeted search's line: why it stopped, with the budget and the
 * phase, its bound and the nodes or iterations it used. */
static void print_search(FILE *so, const struct ab_row *row)
{
	char why[200];

	stop_reason(row, why, sizeof(why));
	fprintf(so, "search:       optimal %s; stopped by %s; best bound %" PRIu64 " bytes; %" PRIu64 " iterations\n",
		row->optimal == AB_OPTIMAL_YES ? "yes" : row->optimal == AB_OPTIMAL_NO ? "no" : "unknown",
		why, row->best_bound_bytes, row->iterations);
}

int cmd_plan(struct args *a)
{
	struct ab_error err = { { 0 } };
	struct ab_input in;
	const struct ab_planner *pl;
	struct ab_plan plan;
	struct ab_row row = { 0 };
	char *options;
	int code;
	struct stage_times st = { .start_cpu = cpu_ms(),
				  .start_wall = clock_ms(CLOCK_MONOTONIC) };
	double t;
	/* the summary makes way for a plan or curve written to stdout */
	FILE *so = (a->emit_plan && !strcmp(a->emit_plan, "-")) ||
		   (a->emit_live && !strcmp(a->emit_live, "-")) ? stderr : stdout;

	if (a->n_pos != 1 || !a->planners || strchr(a->planners, ',')) {
		fprintf(stderr, "arenabench: plan: expected FILE --planner P [--align N] [--emit-plan out.csv] [--emit-live live.csv]\n");
		return EXIT_USAGE;
	}
	if (cli_find_planner(a->planners, &pl))
		return EXIT_USAGE;
	if (!pl) {
		struct ab_error e = { { 0 } };

		ab_unknown_planner(a->planners, &e);
		fprintf(stderr, "arenabench: %s\n", e.msg);
		return EXIT_USAGE;
	}
	if (cli_search_options(a, &pl, 1)) /* only exact and local_search read them */
		return EXIT_USAGE;
	if (cli_input_options(a, a->pos[0], &a->load, a->aligns, &a->n_aligns, NULL, NULL, &err)) {
		fprintf(stderr, "arenabench: %s\n", err.msg);
		return EXIT_USAGE;
	}
	if (a->n_aligns != 1) {
		fprintf(stderr, "arenabench: plan: --align takes one value\n");
		return EXIT_USAGE;
	}
	a->plan.align = a->aligns[0];
	t = cpu_ms();
	if (ab_input_load(a->pos[0], &a->load, &in, &err)) {
		fprintf(stderr, "arenabench: %s\n", err.msg);
		return EXIT_USAGE;
	}
	st.load = cpu_ms() - t;
	if (ab_plan_alloc(&plan, in.problem.n)) {
		fprintf(stderr, "arenabench: out of memory\n");
		ab_input_free(&in);
		return EXIT_USAGE;
	}
	t = cpu_ms();
	row.lower_bound_bytes = ab_lower_bound(&in.problem, NULL);
	st.bound = cpu_ms() - t;
	a->plan.progress = print_progress;
	a->plan.progress_user = in.path;
	ab_plan_and_check(&in, pl, &a->plan, &plan, &row, NULL);
	{
		struct ab_load_options effective = ab_load_in_effect(&in, &a->load);

		options = ab_options_string(&effective, &a->plan);
	}
	fprintf(so, "input:        %s (%s)\n", in.path, in.family);
	fprintf(so, "buffers:      %zu in %zu steps\n", in.problem.n, in.ops);
	if (a->load.problem.inplace)
		fprintf(so, "in place:     %zu tensors share an input's buffer (--inplace)\n",
		       in.problem.n_aliased);
	fprintf(so, "sum:          %" PRIu64 " bytes\n", ab_sum_bytes(&in.problem));
	if (in.reordered)
		fprintf(so, "reorder:      %s: lower bound %" PRIu64 " -> %" PRIu64 " bytes (%s%s)\n",
		       ab_reorder_method_name(a->load.reorder.method),
		       in.reorder.lower_bound_before, in.reorder.lower_bound_after,
		       in.reorder.kept_original ? "file order kept" : "new order",
		       in.reorder.optimal ? "; no order has a lower bound below this" : "");
	fprintf(so, "lower bound:  %" PRIu64 " bytes\n", row.lower_bound_bytes);
	fprintf(so, "planner:      %s (align %u; %s)\n", pl->name, a->plan.align, options ? options : "");
	if (row.plan_failed) {
		fprintf(stderr, "arenabench: no plan: %s\n", row.check.message ? row.check.message : "?");
		code = EXIT_INVALID;
		free(options);
		goto done;
	}
	fprintf(so, "peak:         %" PRIu64 " bytes", row.check.peak_bytes);
	if (row.lower_bound_bytes)
		fprintf(so, " (%.4f x lower bound)", (double)row.check.peak_bytes / (double)row.lower_bound_bytes);
	fprintf(so, "\narenas:       %d\n", row.check.arenas);
	fprintf(so, "plan time:    %.3f ms (one run, wall clock; bench times it properly)\n",
	       row.plan_wall_ns / 1e6);
	if (pl->cost == AB_COST_BUDGETED)
		print_search(so, &row);
	if (row.tiered) {
		/* tier t is arena t (planners/lib/tiers.h) */
		for (int i = 0; i < a->tiers.n && i < plan.n_arenas; i++) {
			fprintf(so, "tier:         %s: peak %" PRIu64 " bytes",
			       a->tiers.tier[i].name, plan.arena_size[i]);
			if (a->tiers.tier[i].capacity)
				fprintf(so, " (capacity %" PRIu64 ")", a->tiers.tier[i].capacity);
			fputc('\n', so);
		}
		fprintf(so, "spilled:      %" PRIu64 " bytes outside tier '%s'\n",
		       row.spilled_bytes, a->tiers.tier[0].name);
	}
	fprintf(so, "valid:        %s (geometric check; execution check %s",
	       row.check.valid ? "yes" : "NO", ab_exec_mode_name(row.check.exec_mode));
	if (row.check.exec_mode == AB_EXEC_SAMPLED) /* what it guarantees */
		fprintf(so, " every %" PRIu64 " KiB",
			(uint64_t)1 << (ab_exec_sample_shift(plan.peak) - 10));
	fprintf(so, "%s)\n", row.tiered ? "; tier capacities" : "");
	free(options);
	code = row.check.valid ? 0 : EXIT_INVALID;
	if (!row.check.valid)
		fprintf(stderr, "arenabench: INVALID PLAN: %s\n", row.check.message ? row.check.message : "?");
	t = cpu_ms();
	if (a->emit_plan && row.check.valid && ab_write_plan_file(a->emit_plan, &in.problem, &plan, &err)) {
		fprintf(stderr, "arenabench: %s\n", err.msg);
		code = EXIT_USAGE;
	}
	if (a->emit_plan && !row.check.valid)
		fprintf(stderr, "arenabench: the invalid plan was not written to %s\n", a->emit_plan);
	if (a->emit_live && ab_write_live_file(a->emit_live, &in.problem, &err)) {
		fprintf(stderr, "arenabench: %s\n", err.msg);
		code = EXIT_USAGE;
	}
	st.write = cpu_ms() - t;
	if (a->capacity && code == 0)
		code = answer_capacity(so, a->capacity, &row, pl);
done:
	free(row.check.message);
	free(row.tier_peaks);
	ab_plan_free(&plan);
	ab_input_free(&in);
	if (a->timings)
		print_timings(&st, &row);
	return code;
}

