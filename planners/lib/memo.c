/* What planners work out from the problem alone, kept for the next planner
 * on the same problem: see memo.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/first_fit_internal.h"
#include "lib/memo.h"
#include "lib/placement.h"

struct ab_plan_memo *ab_plan_memo_new(const struct ab_problem *p)
{
	struct ab_plan_memo *m = calloc(1, sizeof(*m));

	if (m)
		m->p = p;
	return m;
}

void ab_plan_memo_free(struct ab_plan_memo *m)
{
	if (!m)
		return;
	if (m->ranked) {
		m->r.memo = NULL;
		ff_ranks_free(&m->r);
	}
	free(m->first_use);
	free(m->size_desc);
	free(m);
}

/* o's memo when it is p's (a member planning a part of the problem has
 * another p), else NULL. */
static struct ab_plan_memo *memo_of(const struct ab_problem *p,
				    const struct ab_plan_options *o)
{
	return o && o->memo && o->memo->p == p ? o->memo : NULL;
}

int ff_rank_lifetimes_memo(const struct ab_problem *p,
			   const struct ab_plan_options *o,
			   const uint32_t *order, size_t m, struct ranks *r)
{
	struct ab_plan_memo *memo = memo_of(p, o);
	int rc;

	if (!memo || m != p->n)
		return ff_rank_lifetimes(p, order, m, r);
	if (!memo->ranked) {
		rc = ff_rank_lifetimes(p, order, m, &memo->r);
		if (rc)
			return rc;
		memo->ranked = true;
		memo->r.memo = memo;
	}
	*r = memo->r;
	return 0;
}

uint32_t ff_choose_spacing_memo(const struct ranks *r, const uint32_t *order,
				size_t m)
{
	struct ab_plan_memo *memo = r->memo;

	if (!memo || m != r->n)
		return ff_choose_spacing(r, order, m);
	if (!memo->spaced) {
		memo->spacing = ff_choose_spacing(r, order, m);
		memo->spaced = true;
	}
	return memo->spacing;
}

/* An order of every buffer by make_order: copied from *kept (made there the
 * first time), or made in place when there is no memo (kept NULL). */
static int order_kept(const struct ab_problem *p,
		      int (*make_order)(const struct ab_problem *, uint32_t *),
		      uint32_t **kept, uint32_t *order)
{
	int rc;

	if (!kept)
		return make_order(p, order);
	if (!*kept) {
		uint32_t *q = malloc((p->n + 1) * sizeof(*q));

		if (!q)
			return -ENOMEM;
		rc = make_order(p, q);
		if (rc) {
			free(q);
			return rc;
		}
		*kept = q;
	}
	memcpy(order, *kept, p->n * sizeof(*order));
	return 0;
}

int ab_order_first_use_memo(const struct ab_problem *p,
			    const struct ab_plan_options *o, uint32_t *order)
{
	struct ab_plan_memo *memo = memo_of(p, o);

	return order_kept(p, ab_order_first_use, memo ? &memo->first_use : NULL,
			  order);
}

int ab_order_size_desc_memo(const struct ab_problem *p,
			    const struct ab_plan_options *o, uint32_t *order)
{
	struct ab_plan_memo *memo = memo_of(p, o);

	return order_kept(p, ab_order_size_desc, memo ? &memo->size_desc : NULL,
			  order);
}
