#include <errno.h>
#include <stdlib.h>

#include "lib/placement.h"
#include "lib/replay.h"

int ab_replay_events(const struct ab_problem *p, struct ab_replay_event *ev)
{
	size_t n = p->n, j = 0, k = 0;
	uint32_t *by_first = malloc((n + 1) * sizeof(*by_first));
	uint32_t *by_last = malloc((n + 1) * sizeof(*by_last));
	uint64_t *last = malloc((n + 1) * sizeof(*last));
	int rc = -ENOMEM;

	if (!by_first || !by_last || !last)
		goto out;
	for (size_t i = 0; i < n; i++)
		last[i] = (uint64_t)(int64_t)p->buf[i].last ^ (1ull << 63);
	const uint64_t *keys[] = { last };

	rc = ab_order_first_use(p, by_first);
	if (!rc)
		rc = ab_order_by_keys(p, by_last, keys, 1);
	if (rc)
		goto out;
	for (size_t i = 0; i < n; i++) {
		uint32_t b = by_first[i];

		while (j < n && p->buf[by_last[j]].last < p->buf[b].first)
			ev[k++] = (struct ab_replay_event){ AB_REPLAY_FREE,
							    by_last[j++] };
		ev[k++] = (struct ab_replay_event){ AB_REPLAY_ALLOC, b };
	}
	while (j < n)
		ev[k++] = (struct ab_replay_event){ AB_REPLAY_FREE, by_last[j++] };
out:
	free(by_first);
	free(by_last);
	free(last);
	return rc;
}

uint64_t ab_common_align(const struct ab_problem *p,
			 const struct ab_plan_options *o)
{
	uint64_t a = o->align ? o->align : 1;

	for (size_t i = 0; i < p->n; i++) {
		uint64_t b = p->buf[i].align ? p->buf[i].align : 1;

		a = a / ab_gcd(a, b) * b;
		if (a > UINT32_MAX)
			return 0;
	}
	return a;
}
