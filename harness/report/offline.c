/* The `offline` pseudo-planner: see offline.h for what it does and why. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "report/offline.h"
#include "lib/placement.h"

static int plan_unavailable(const struct ab_problem *p,
			    const struct ab_plan_options *o,
			    struct ab_plan *out)
{
	return -ENOTSUP; /* needs the model, not just the problem */
}

const struct ab_planner ab_planner_offline = {
	.name = "offline",
	.about = "the model's own plan (OfflineMemoryAllocation); -1 buffers by first fit",
	.cost = AB_COST_FAST,
	.plan = plan_unavailable,
};

bool ab_offline_available(const struct ab_input *in)
{
	return in->is_tflite && in->tflite.has_offline_plan &&
	       in->tflite.offline_offsets;
}

/* The model's offset for tensor t, or -1. */
static int64_t tensor_offset(const struct ab_input *in, int64_t t)
{
	if (t < 0 || (size_t)t >= in->tflite.n_offline)
		return -1;
	return in->tflite.offline_offsets[t];
}

/* fixed[i] = the model's offset for buffer i, or -1.  A buffer holds one
 * tensor, or under --inplace a chain of them: every tensor of the chain
 * that the model places must be at the same offset (those marked -1
 * follow the chain).  Otherwise the model's plan gives the chain no single
 * place; st->split_tensor names two tensors it separates and the result is
 * -EINVAL. */
static int fixed_offsets(const struct ab_input *in, int64_t *fixed,
			 struct ab_offline_stats *st)
{
	const struct ab_problem *p = &in->problem;
	int64_t *witness = NULL;

	for (size_t i = 0; i < p->n; i++)
		fixed[i] = tensor_offset(in, p->tensor ? p->tensor[i] : -1);
	if (!p->tensor_buffer || !p->n_aliased)
		return 0;
	witness = malloc((p->n ? p->n : 1) * sizeof(*witness));
	if (!witness)
		return -ENOMEM;
	for (size_t i = 0; i < p->n; i++)
		witness[i] = fixed[i] >= 0 ? p->tensor[i] : -1;
	for (size_t t = 0; t < p->n_tensors; t++) {
		int32_t i = p->tensor_buffer[t];
		int64_t off = tensor_offset(in, (int64_t)t);

		if (i < 0 || off < 0)
			continue;
		if (fixed[i] < 0) {
			fixed[i] = off;
			witness[i] = (int64_t)t;
		} else if (fixed[i] != off) {
			st->split_tensor[0] = witness[i];
			st->split_tensor[1] = (int64_t)t;
			free(witness);
			return -EINVAL;
		}
	}
	free(witness);
	return 0;
}

int ab_offline_plan(const struct ab_input *in, const struct ab_plan_options *o,
		    struct ab_plan *plan, struct ab_offline_stats *st)
{
	const struct ab_problem *p = &in->problem;
	uint32_t *order = NULL;
	int64_t *fixed = NULL;
	uint64_t top;
	int rc;

	memset(st, 0, sizeof(*st));
	st->split_tensor[0] = st->split_tensor[1] = -1;
	if (!ab_offline_available(in))
		return -ENOENT;
	ab_plan_reset(plan);
	order = malloc((p->n ? p->n : 1) * sizeof(*order));
	fixed = malloc((p->n ? p->n : 1) * sizeof(*fixed));
	if (!order || !fixed) {
		rc = -ENOMEM;
		goto out_free_order;
	}
	rc = fixed_offsets(in, fixed, st);
	if (!rc)
		rc = ab_order_size_desc(p, order);
	if (!rc)
		rc = ab_place_around_fixed(p, o, fixed, order, ab_fit_first,
					   plan->offset, &top);
	if (rc)
		goto out_free_order;
	for (size_t i = 0; i < p->n; i++) {
		if (fixed[i] < 0) {
			st->runtime++;
			continue;
		}
		st->fixed++;
		if ((uint64_t)fixed[i] % ab_effective_align(p, i, o))
			st->misaligned_fixed++;
	}
	ab_plan_finish_single(plan, p);
out_free_order:
	free(order);
	free(fixed);
	return rc;
}


int ab_offline_plan_and_check(const struct ab_input *in,
			      const struct ab_plan_options *o,
			      const enum ab_exec_mode *mode,
			      struct ab_plan *plan, struct ab_row *row,
			      struct ab_offline_stats *st)
{
	int rc = ab_offline_plan(in, o, plan, st);

	row->planner = &ab_planner_offline;
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
			t[a].name, t[b].name, tensor_offset(in, a),
			tensor_offset(in, b));
		return 0;
	}
	if (rc) {
		row->check.message = ab_strdupf("offline plan failed: %s", strerror(-rc));
		return rc == -ENOMEM ? rc : 0;
	}
	row->best_bound_bytes = row->lower_bound_bytes;
	row->optimal = plan->peak == row->lower_bound_bytes ? AB_OPTIMAL_YES
							    : AB_OPTIMAL_UNKNOWN;
	return ab_check_plan(in, plan, 1, mode, NULL, &row->check);
}
