/* The offline plan of a .tflite model for explain: see offline.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "report/offline.h"

bool ab_offline_available(const struct ab_input *in)
{
	return in->is_tflite && in->tflite.has_offline_plan &&
	       in->tflite.offline_offsets;
}

int ab_offline_plan(const struct ab_input *in, const struct ab_plan_options *o,
		    struct ab_plan *plan, struct ab_offline_stats *st)
{
	const struct ab_problem *p = &in->problem;
	const struct ab_planner *offline = ab_planner_find("offline");
	int rc;

	memset(st, 0, sizeof(*st));
	st->split_tensor[0] = st->split_tensor[1] = -1;
	if (!ab_offline_available(in))
		return -ENOENT;
	if (in->fixed_split) {
		st->split_tensor[0] = in->fixed_split_tensor[0];
		st->split_tensor[1] = in->fixed_split_tensor[1];
		return -EINVAL;
	}
	if (!offline)
		return -ENOENT;
	ab_plan_reset(plan);
	rc = offline->plan(p, o, plan);
	if (rc)
		return rc;
	for (size_t i = 0; i < p->n; i++) {
		if (!p->fixed_offset || p->fixed_offset[i] < 0) {
			st->runtime++;
			continue;
		}
		st->fixed++;
		if ((uint64_t)p->fixed_offset[i] % ab_effective_align(p, i, o))
			st->misaligned_fixed++;
	}
	return 0;
}

int ab_offline_plan_and_check(const struct ab_input *in,
			      const struct ab_plan_options *o,
			      const enum ab_exec_mode *mode,
			      struct ab_plan *plan, struct ab_row *row,
			      struct ab_offline_stats *st)
{
	int rc = ab_offline_plan(in, o, plan, st);

	row->planner = ab_planner_find("offline");
	row->check.valid = false;
	row->check.exec_mode = AB_EXEC_SKIPPED;
	if (rc == -EINVAL && st->split_tensor[0] >= 0) {
		const struct ab_tensor *t = in->graph.tensors;
		int64_t a = st->split_tensor[0], b = st->split_tensor[1];

		row->check.message = ab_strdupf(
			"offline plan refused: --inplace shares one buffer between "
			"tensors '%s' and '%s', which the model's plan places at "
			"%" PRId64 " and %" PRId64 " (explain without --inplace "
			"checks the model's plan)",
			t[a].name, t[b].name, in->fixed_split_offset[0],
			in->fixed_split_offset[1]);
		return 0;
	}
	if (rc) {
		row->check.message = ab_strdupf("offline plan failed: %s", strerror(-rc));
		return rc == -ENOMEM ? rc : 0;
	}
	row->best_bound_bytes = row->lower_bound_bytes;
	row->optimal = plan->peak == row->lower_bound_bytes ? AB_OPTIMAL_YES
							    : AB_OPTIMAL_UNKNOWN;
	return ab_check_plan(ab_input_graph(in), &in->problem, plan, 1, mode, NULL, &row->check);
}
