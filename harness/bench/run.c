/*
 * Running one planner on one input and checking its plan: the service
 * behind bench rows and the reports (bench/run.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/run.h"

struct ab_load_options ab_load_in_effect(const struct ab_input *in,
					 const struct ab_load_options *l)
{
	struct ab_load_options e = *l;

	if (!in->has_graph) {
		e.problem.lifetimes = AB_LIFETIMES_DEFAULT;
		e.problem.round_to = 0;
		e.problem.exclude_scratch = false;
		e.problem.inplace = false;
		memset(&e.reorder, 0, sizeof(e.reorder));
	}
	return e;
}

char *ab_options_string(const struct ab_load_options *l,
			const struct ab_plan_options *o)
{
	char phases[16] = "auto", budget[24] = "default", width[32] = "";
	char *extra = NULL, *r;

	if (o->phases > 0)
		snprintf(phases, sizeof(phases), "%d", o->phases);
	if (o->budget > 0)
		snprintf(budget, sizeof(budget), "%" PRIu64, o->budget);
	if (l->reorder.method == AB_REORDER_BEAM && l->reorder.beam_width > 0)
		snprintf(width, sizeof(width), ";reorder_width=%d",
			 l->reorder.beam_width);
	if (o->combinator) {
		extra = o->combinator->options_text(o->combinator->self);
		if (!extra)
			return NULL;
	}
	/* with tiers: ...;tiers=sram:262144+dram;tier_benefit=bytes */
	r = ab_strdupf("lifetimes=%s;round=%u;scratch=%s;seed=%" PRIu64
		       ";budget=%s;phases=%s;inplace=%s;reorder=%s%s%s",
		       ab_lifetime_rule_name(l->problem.lifetimes),
		       l->problem.round_to > 1 ? l->problem.round_to : 1,
		       l->problem.exclude_scratch ? "no" : "yes", o->seed,
		       budget, phases, l->problem.inplace ? "yes" : "no",
		       ab_reorder_method_name(l->reorder.method), width,
		       extra ? extra : "");
	free(extra);
	return r;
}

int ab_run_planner(const struct ab_input *in, const struct ab_planner *pl,
		   const struct ab_plan_options *o, struct ab_plan *plan,
		   struct ab_combined *res, struct ab_error *err)
{
	const struct ab_combinator *c = o->combinator;
	struct ab_combined scratch = { { 0 }, 0 };
	struct ab_plan_options one;
	uint32_t *accesses = NULL;
	int rc;

	ab_plan_reset(plan);
	if (in->fixed_split && pl->cost == AB_COST_FIXED)
		return ab_fail(err, -EINVAL, "planner %s: --inplace shares one buffer between tensors '%s' and '%s', which the model's plan places at %" PRId64 " and %" PRId64 " (without --inplace the model's plan is kept)",
			       pl->name,
			       in->graph.tensors[in->fixed_split_tensor[0]].name,
			       in->graph.tensors[in->fixed_split_tensor[1]].name,
			       in->fixed_split_offset[0], in->fixed_split_offset[1]);
	if (!ab_planner_applies(pl, &in->problem))
		return ab_fail(err, -EINVAL, "planner %s: %s fixes no offsets (it needs a .tflite model with an offline plan or a CSV with an offset column)",
			       pl->name, in->path);
	one = *o;
	one.threads_used = &plan->threads;
	one.combinator = NULL;
	one.context = pl->context;
	if (!c) {
		struct ab_error why = { { 0 } };

		one.why = &why;
		rc = ab_planner_run(pl, &in->problem, &one, plan);
		return rc ? ab_fail(err, rc, "planner %s failed: %s", pl->name,
				    why.msg[0] ? why.msg : strerror(-rc))
			  : 0;
	}
	if (in->problem.n_parts > 1)
		return ab_fail(err, -ENOTSUP, "planner %s: %s on %s, whose subgraphs each have their own arena under the tflite rule, is not supported (expected --runtime tflm or --lifetimes default, one arena)",
			       pl->name, c->name, in->path);
	/* a combinator may weigh buffers by their accesses: counted here,
	 * only for a combined run of a graph-derived problem (a CSV problem
	 * counts 1 each) */
	if (in->problem.tensor) {
		rc = ab_buffer_accesses(&in->graph, &in->problem, &accesses, err);
		if (rc)
			return rc;
	}
	rc = c->plan(c->self, pl, &in->problem, accesses, &one, plan,
		     res ? res : &scratch, err);
	free(accesses);
	return rc;
}

int ab_plan_and_check(const struct ab_input *in, const struct ab_planner *pl,
		      const struct ab_plan_options *o, struct ab_plan *plan,
		      struct ab_row *row, struct ab_verdict_cache *cache)
{
	const struct ab_combinator *c = o->combinator;
	struct ab_combined res = { { 0 }, 0 };
	struct ab_error err = { { 0 } };
	double t0, c0;
	int rc;

	/* every row carries a proven bound, a failed plan's too */
	row->best_bound_bytes = row->lower_bound_bytes;
	row->optimal = AB_OPTIMAL_UNKNOWN;
	c0 = ab_clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	t0 = ab_clock_ns(CLOCK_MONOTONIC);
	rc = ab_run_planner(in, pl, o, plan, &res, &err);
	row->plan_wall_ns = ab_clock_ns(CLOCK_MONOTONIC) - t0;
	row->plan_cpu_ns = ab_clock_ns(CLOCK_PROCESS_CPUTIME_ID) - c0;
	row->check.valid = false;
	row->check.exec_mode = AB_EXEC_SKIPPED;
	if (rc) {
		row->plan_failed = true;
		return ab_check_outcome_fail(&row->check, strdup(err.msg));
	}
	if (c) {
		row->tiered = true;
		row->spilled_bytes = res.spilled_bytes;
		free(row->tier_peaks);
		row->tier_peaks = c->parts_text(c->self, &res);
		if (!row->tier_peaks)
			return -ENOMEM;
	}
	row->stopped_by = plan->stopped_by;
	row->iterations = plan->iterations;
	row->budget = plan->budget;
	row->stop_phase = plan->stop_phase;
	row->threads = plan->threads;
	row->best_bound_bytes = plan->best_bound > row->lower_bound_bytes
					? plan->best_bound
					: row->lower_bound_bytes;
	/* optimal = yes only for a valid plan whose peak equals a proven
	 * bound: the live-bytes bound or the planner's own best bound (a
	 * planner's "yes" above its own bound is not believed) */
	row->optimal = plan->peak <= row->best_bound_bytes ? AB_OPTIMAL_YES
		       : plan->optimal == AB_OPTIMAL_YES ? AB_OPTIMAL_UNKNOWN
							 : plan->optimal;
	rc = ab_check_plan(ab_input_graph(in), &in->problem, plan, o->align, NULL, cache, &row->check);
	if (!rc && row->check.valid && c && c->check(c->self, plan, &err))
		rc = ab_check_outcome_fail(&row->check,
					   ab_strdupf("%s check: %s", c->name, err.msg));
	if (!row->check.valid && row->optimal == AB_OPTIMAL_YES)
		row->optimal = AB_OPTIMAL_UNKNOWN;
	return rc;
}
