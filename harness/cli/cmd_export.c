/*
 * `arenabench export MODEL.tflite --out OUT.tflite`: report/export.h's
 * export, and its report on stdout (on stderr when the model itself goes
 * to stdout: --out -).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "report/explain.h"
#include "report/export.h"

static void print_report(FILE *so, const char *in_path, const char *out_path,
			 const struct ab_export_report *r)
{
	fprintf(so, "input:        %s (%zu operators, %zu tensors)\n", in_path,
		r->n_ops, r->n_tensors);
	fprintf(so, "planner:      %s (TFLite Micro's rules: lifetimes tflm, sizes rounded to 16, offsets aligned to %u)\n",
		r->planner->name, r->align);
	fprintf(so, "arena:        %" PRIu64 " bytes for the planned tensors (lower bound %" PRIu64 ")\n",
		r->arena_bytes, r->lower_bound_bytes);
	fprintf(so, "checks:       valid (geometric check; execution check %s)\n",
		ab_exec_mode_name(r->exec_mode));
	fprintf(so, "tensors:      %zu planned (an offset each), %zu left to the runtime (-1), %zu constant (in the model), %zu variables (%" PRIu64 " bytes, in the arena's persistent tail), %zu without bytes\n",
		r->n_planned, r->n_runtime, r->n_const, r->n_vars, r->var_bytes,
		r->n_empty);
	fprintf(so, "written:      %s (%zu bytes: %zu in front of the original %zu, which is unchanged)%s\n",
		out_path, r->out_bytes, r->header_bytes, r->in_bytes,
		r->replaced_old_plan ? "; the old OfflineMemoryAllocation entry was dropped" : "");
	fprintf(so, "scratch:      not in this plan.  TFLite Micro's kernels request scratch buffers in Prepare\n"
		"              (RequestScratchBufferInArena, at most %d per operator; %zu operators here), and its\n"
		"              GreedyMemoryPlanner fits them around the fixed offsets, each live during its operator.\n"
		"              Their sizes are not in the model file: they depend on the kernel library and build.\n"
		"              The arena head needs %" PRIu64 " bytes plus, at most, the largest total scratch of one operator%s.\n",
		AB_TFLM_MAX_SCRATCH_PER_OP, r->n_ops, r->arena_bytes,
		r->n_runtime ? " and the tensors left to the runtime" : "");
}

int cmd_export(struct args *a)
{
	struct ab_export_options o = { 0 };
	struct ab_export_report rep;
	struct ab_error err = { { 0 } };
	int rc;

	if (a->n_pos != 1 || !a->out_given || (a->planners && strchr(a->planners, ',')) ||
	    a->n_aligns != 1) {
		fprintf(stderr, "arenabench: export: expected MODEL.tflite --out OUT.tflite [--planner P] [--align N] [--subgraph N] [--dim NAME=VALUE]; the plan always follows TFLite Micro's rules (no --lifetimes, --round, --runtime or --no-scratch)\n");
		return EXIT_USAGE;
	}
	if (a->planners) {
		o.planner = ab_planner_find(a->planners);
		if (!o.planner) {
			struct ab_error e = { { 0 } };

			ab_unknown_planner(a->planners, &e);
			fprintf(stderr, "arenabench: %s\n", e.msg);
			return EXIT_USAGE;
		}
	}
	o.align = a->aligns[0];
	o.tflite = a->load.tflite;
	if (a->dims_file.n &&
	    ab_dims_for_input(&a->dims_file, a->pos[0], &a->load.tflite, &o.tflite, &err)) {
		fprintf(stderr, "arenabench: %s\n", err.msg);
		return EXIT_USAGE;
	}
	o.plan = a->plan;
	rc = ab_export_model(a->pos[0], a->out, &o, &rep, &err);
	if (rc) {
		fprintf(stderr, "arenabench: %s\n", err.msg);
		fprintf(stderr, "arenabench: nothing written; %s is unchanged\n",
			a->out);
		return rc == -EPROTO ? EXIT_INVALID : EXIT_USAGE;
	}
	print_report(strcmp(a->out, "-") ? stdout : stderr, a->pos[0], a->out, &rep);
	return 0;
}
