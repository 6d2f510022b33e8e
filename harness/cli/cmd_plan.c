/* `arenabench plan FILE --planner P`: one plan, checked, as a summary. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "report/plan_files.h"

int cmd_plan(struct args *a)
{
	struct ab_error err = { { 0 } };
	struct ab_input in;
	const struct ab_planner *pl;
	struct ab_plan plan;
	struct ab_row row = { 0 };
	char *options;
	int code;

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
		fprintf(stderr, "arenabench: plan: --align takes one value\n");
		return EXIT_USAGE;
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
	ab_plan_and_check(&in, pl, &a->plan, &plan, &row, NULL);
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
		fprintf(stderr, "arenabench: no plan: %s\n", row.check.message ? row.check.message : "?");
		code = EXIT_INVALID;
		free(options);
		goto done;
	}
	printf("peak:         %" PRIu64 " bytes", row.check.peak_bytes);
	if (row.lower_bound_bytes)
		printf(" (%.4f x lower bound)", (double)row.check.peak_bytes / (double)row.lower_bound_bytes);
	printf("\narenas:       %d\n", row.check.arenas);
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
	       row.check.valid ? "yes" : "NO", ab_exec_mode_name(row.check.exec_mode),
	       row.tiered ? "; tier capacities" : "");
	free(options);
	code = row.check.valid ? 0 : EXIT_INVALID;
	if (!row.check.valid)
		fprintf(stderr, "arenabench: INVALID PLAN: %s\n", row.check.message ? row.check.message : "?");
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
done:
	free(row.check.message);
	free(row.tier_peaks);
	ab_plan_free(&plan);
	ab_input_free(&in);
	return code;
}

