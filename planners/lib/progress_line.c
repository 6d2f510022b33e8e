/* The progress lines of a long plan: see progress_line.h. */
#include "lib/progress_line.h"
#include "lib/rng_clock.h"

void ab_progress_line_say(struct ab_progress_line *l, int why, uint64_t peak,
			  uint64_t bound, uint64_t nodes)
{
	struct ab_progress pr;
	double now;

	if (!l || !l->fn)
		return;
	now = ab_now_seconds();
	if ((why == AB_REPORT_TICK && now - l->last < 1.0) ||
	    (why == AB_REPORT_FINAL && now - l->t0 < 1.0))
		return;
	if (!l->opened) {
		struct ab_progress start = { "best_of", l->start_peak, bound, 0, 0 };

		l->opened = true;
		l->fn(l->user, &start);
	}
	l->last = now;
	pr.phase = l->phase;
	pr.peak = peak;
	pr.bound = bound;
	pr.nodes = nodes;
	pr.seconds = now - l->t0;
	l->fn(l->user, &pr);
}
