/*
 * exact: a complete branch and bound over canonical placements, then
 * repairs; reports whether it proved the optimum.
 *
 * Contract: out holds a valid single-arena plan never worse than
 * best_of's (its first incumbent); best_bound is proven (max of the
 * live-bytes bound, the aligned section bound and C + granule for every
 * exhausted "no" at C), optimal = yes iff the peak equals it; stopped_by
 * says what ended the search (budget, the time safety stop, or size: the
 * complete search skipped above MAX_SEARCHED buffers or MAX_PAIRS
 * overlapping pairs).  Budgets count nodes; deterministic for a seed.
 *
 * Steps (this file is the phase pipeline; the mechanics are the library's):
 *  1-5. The decision "does everything fit in C bytes?" (lib/fit_search.h):
 *     canonical plans, dominance, the section bound with witnesses,
 *     decomposition into pieces, minimalloc's preorders in round robin.
 *  6. Optimisation over C: every canonical peak is a multiple of the
 *     granule g (gcd of sizes and alignments > 1).  The bound starts at
 *     max(live-bytes bound, aligned section bound) rounded up to g.
 *     C = bound first with a quarter of the budget; then bisection
 *     between the bound and the incumbent's peak - g (a plan lowers the
 *     top, a proof raises the bound, a run out of nodes only moves the
 *     bottom up); then the rest of the budget on C = peak - g.
 * 6a. Restarts (restart_phase; only when --budget exceeds the default):
 *     half of what the budget has left goes to passes of the same
 *     bisection, each question answered by runs with preorder i mod 3,
 *     every buffer's keys scaled by a seeded factor in [0.9, 1.1], node
 *     limits m x Luby(i) (lib/restarts.h); "no" still proves.
 *  7. A skyline search for a plan at the bound itself, one that wastes no
 *     byte (lib/skyline.h); found, the plan is optimal.
 *  8. Repairs while the peak is above the bound (lib/repair.h): hole
 *     closing, band repair, window repair, behind one keep-move loop; the
 *     peak never rises.  Above MAX_SEARCHED buffers steps 7 and 8 are the
 *     only search.
 * Budget split: default min(10^6, 2 x 10^8 / m) nodes for the complete
 * search (a node costs O(m)), min(2 x 10^6, 4 x 10^8 / n) more for the
 * skyline search times the share of steps whose live bytes are within a
 * granule of the bound, no repairs.  A larger --budget's rest goes half to
 * the restarts, a quarter of what is left to the skyline search, the rest
 * to the repairs; above MAX_SEARCHED buffers 10^6 repair nodes (the repairs
 * count a step's scans as nodes too, lib/repair.c).  out->budget is the
 * budget resolved (with the skyline search's own nodes), out->stop_phase
 * the phase that ran out; stopped_by = budget also above MAX_SEARCHED
 * when the repairs ran out, size when they ended with nodes left.  The
 * wall-clock safety stop only interrupts (stopped_by = time).
 * Progress: each phase's lines through lib/progress_line.h.
 * Complexity: exponential in the worst case (the problem is NP-hard); per
 * node of the decision search O(k + r log r + overlaps + sections); a
 * restart its node limit plus O(m log m); repairs: lib/repair.h.
 * Sources: Moffitt, "MiniMalloc", ASPLOS 2023, and the public
 * google/minimalloc solver (steps 1-5); large-neighbourhood search (Shaw,
 * CP 1998); restarts after Gomes, Selman and Kautz, AAAI 1998; skyline
 * after Burke, Kendall and Whitwell, Oper. Res. 52(4), 2004.  Own code.
 * Weak spots: proving infeasibility just below an optimum above every
 * bound can take exponentially many nodes (minimalloc D and J; id_model
 * at alignment >= 16); the bisection spends a run out of nodes on a
 * "no"; the restarts' result depends on the seed; the window repair moves
 * the peak little on known-optimum tilings and the skyline search finds
 * nothing there from 1,000 buffers on; hole closing and band repair are
 * greedy.  docs/planners.md has the measurements, what was tried and left
 * out (a restriction bound, iterated local search over orders, ...), and
 * tests/test_bounds.c checks best_bound against an enumerated optimum.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fit_search.h"
#include "lib/progress_line.h"
#include "lib/repair.h"
#include "lib/restarts.h"
#include "lib/rng_clock.h"
#include "lib/skyline.h"

/* Default budget: min(DEFAULT_NODES, DEFAULT_WORK / m) nodes, since a node
 * costs O(m). */
#define DEFAULT_NODES 1000000ull
#define DEFAULT_WORK 200000000ull
/* skyline search (step 7): min(NODES, WORK / buffers) by default */
#define DEFAULT_SKYLINE_NODES 2000000ull
#define DEFAULT_SKYLINE_WORK 400000000ull
#define MAX_SEARCHED 4000
/* above MAX_SEARCHED: repair nodes by default (a node's scans are counted,
 * lib/repair.c, so this is about 5 s of one core at 10^4 buffers) */
#define DEFAULT_REPAIR_NODES 1000000ull
#define SHARE_DIV 4 /* a decision gets 1/SHARE_DIV of the nodes left */
#define RESTART_SHARE_DIV 16 /* restart_phase: per question, of its nodes */
#define RESTART_SPREAD 0.1   /* restarts: keys scaled by 1 +- this */

/* Restarts at one C: preorder h = i mod 3, its keys scaled by fresh
 * random factors, node limits on Luby's schedule times m. */
static int decide_restarts(struct ab_fit_search *x, uint64_t cap,
			   uint64_t budget, struct ab_rng *rng)
{
	uint64_t start = x->nodes_total, base = x->m;
	int r = AB_FIT_ABORTED;

	x->factor = malloc(x->m * sizeof(*x->factor));
	if (!x->factor)
		return -ENOMEM;
	for (uint64_t i = 1; r == AB_FIT_ABORTED; i++) {
		uint64_t used = x->nodes_total - start;
		uint64_t limit = ab_luby(i) * base;

		if (used >= budget || x->nodes_total >= x->budget)
			break;
		ab_random_factors(x->factor, x->m, RESTART_SPREAD, rng);
		r = ab_fit_decide_once(x, cap, (int)(i % AB_FIT_PREORDERS),
				limit < budget - used ? limit : budget - used);
	}
	free(x->factor);
	x->factor = NULL;
	return r;
}

/* One answer of the bisection over C in [lo, hi] (multiples of g): a
 * plan found lowers the top to its peak - g; a proof that C does not fit
 * raises the bound and the bottom to C + g; a run out of nodes only moves
 * the bottom up.  The complete search's loop and the restarts' passes
 * both take their answers here. */
static void bisect_answer(struct ab_fit_search *x, struct ab_plan *out, int r,
			  uint64_t c, uint64_t g, uint64_t *lo, uint64_t *hi,
			  uint64_t *bound)
{
	if (r == AB_FIT_FOUND) {
		ab_fit_take(x, out);
		*hi = (out->peak - 1) / g * g;
	} else {
		if (r == AB_FIT_NOT_FOUND)
			*bound = c + g;
		*lo = c + g;
	}
	x->peak_now = out->peak;
	x->bound_now = *bound;
	ab_fit_report(x, r == AB_FIT_FOUND || r == AB_FIT_NOT_FOUND);
}

/* A budget above the default buys passes of bisection after the complete
 * search: C between the proven bound and the incumbent's peak - g, each
 * question answered by decide_restarts with at most 1/RESTART_SHARE_DIV
 * of the phase's nodes; a pass that closes without proving starts again
 * from the bound. */
static int restart_phase(struct ab_fit_search *x, struct ab_plan *out, uint64_t g,
			 uint64_t *bound, uint64_t budget, uint64_t seed)
{
	struct ab_rng rng;
	uint64_t share = budget / RESTART_SHARE_DIV, lo = *bound, hi = 0;

	if (!share)
		share = 1; /* each question must spend a node, or the passes
			    * never end */
	ab_rng_seed(&rng, seed);
	x->budget = x->nodes_total + budget;
	if (x->line)
		x->line->phase = "restarts";
	while (*bound < out->peak && !x->timed_out &&
	       x->nodes_total < x->budget) {
		uint64_t c;
		int r;

		if (lo > hi) { /* a new pass */
			lo = *bound;
			hi = (out->peak - 1) / g * g;
		}
		c = lo + (hi - lo) / g / 2 * g;
		r = decide_restarts(x, c, share, &rng);
		if (r < 0)
			return r;
		bisect_answer(x, out, r, c, g, &lo, &hi, bound);
	}
	return 0;
}

/* The granule of the whole problem: gcd of the sizes and of the
 * alignments > 1 (every canonical offset and peak is a multiple). */
static uint64_t problem_granule(const struct ab_problem *p,
				const struct ab_plan_options *o)
{
	uint64_t g = 0;

	for (size_t i = 0; i < p->n; i++) {
		uint64_t a = ab_effective_align(p, i, o);

		if (!p->buf[i].size)
			continue;
		g = ab_gcd(g, p->buf[i].size);
		if (a > 1)
			g = ab_gcd(g, a);
	}
	return g ? g : 1;
}

/* The skyline search's default nodes: min(NODES, WORK / buffers) times
 * the share of steps whose live bytes are within a granule of the bound,
 * the only steps where its forward check bites (all of a tiling's; few
 * of minimalloc's D, where it would otherwise add 7 s and find nothing).
 * Returns 0 or -ENOMEM. */
static int skyline_default(const struct ab_problem *p, uint64_t bound,
			   uint64_t g, uint64_t *nodes)
{
	struct ab_live_profile lp;
	uint64_t full = 0, all = 0;
	int rc = ab_live_profile(p, &lp);

	if (rc)
		return rc;
	for (size_t k = 0; k + 1 < lp.n; k++) {
		uint64_t len = (uint64_t)(lp.time[k + 1] - lp.time[k]);

		all += len;
		if (lp.bytes[k] + g > bound)
			full += len;
	}
	ab_live_profile_free(&lp);
	*nodes = DEFAULT_SKYLINE_WORK / (p->n ? p->n : 1);
	if (*nodes > DEFAULT_SKYLINE_NODES)
		*nodes = DEFAULT_SKYLINE_NODES;
	if (all)
		*nodes = (uint64_t)((double)*nodes * (double)full / (double)all);
	return 0;
}

/* Step 7: the skyline search (planners/lib/skyline.c) for a plan at the
 * bound itself, i.e. one that wastes nothing; found, it is optimal. */
static int skyline_at_bound(const struct ab_problem *p,
			    const struct ab_plan_options *o, struct ab_plan *out,
			    uint64_t bound, uint64_t budget, double deadline,
			    struct ab_progress_line *line,
			    uint64_t nodes_before,
			    uint64_t *used, bool *timed_out)
{
	struct ab_skyline_run run = { .budget = budget, .seed = o->seed,
				      .deadline = deadline };
	uint64_t *off = malloc((p->n + 1) * sizeof(*off));
	int rc;

	if (!off)
		return -ENOMEM;
	rc = ab_skyline_fit(p, o, bound, off, &run);
	if (rc == 1) {
		memcpy(out->offset, off, p->n * sizeof(*off));
		ab_plan_finish_single(out, p);
		rc = 0;
	}
	line->phase = "skyline search";
	ab_progress_line_say(line, AB_REPORT_FINAL, out->peak, bound,
			     nodes_before + run.nodes);
	*used = run.nodes;
	*timed_out = *timed_out || run.timed_out;
	free(off);
	return rc;
}

/*
 * Steps 6 and 6a on x (set up, x->budget and x->deadline set): C = bound,
 * bisection, then C = peak - g; then, with a budget above the complete
 * search's, the restarts.  out is the incumbent, *bound the proven bound.
 */
static int complete_search(struct ab_fit_search *x, struct ab_plan *out,
			   const struct ab_plan_options *o, uint64_t budget,
			   uint64_t g, uint64_t *bound)
{
	uint64_t lo, hi;

	x->line->phase = "complete search";
	x->peak_now = out->peak;
	/* Every canonical plan's offsets and peak are multiples of the
	 * granule g (gcd of sizes and alignments), so C and the bound move
	 * in steps of g.  C = LB first, with 1/SHARE_DIV of the budget; then
	 * bisection on C between the proven bound and the incumbent's peak
	 * - g, where a plan lowers the top to its own peak - g, a proof
	 * raises the bound to C + g, and a run out of nodes moves the bottom
	 * up without proving anything; once it closes, what is left of the
	 * budget goes to C = peak - g, the one question whose answer either
	 * improves the plan or proves it optimal. */
	*bound = ab_fit_section_bound(x, *bound);
	x->bound_now = *bound;
	lo = *bound;
	hi = out->peak > g ? (out->peak - 1) / g * g : 0;
	while (*bound < out->peak && !x->timed_out &&
	       x->nodes_total < x->budget) {
		uint64_t left = x->budget - x->nodes_total, c, share = left;
		int r;

		if (lo > hi) {
			c = (out->peak - 1) / g * g; /* the last question */
		} else {
			c = x->nodes_total ? lo + (hi - lo) / g / 2 * g : lo;
			if (left / SHARE_DIV > x->m)
				share = left / SHARE_DIV;
		}
		r = ab_fit_decide(x, c, share);
		if (r < 0)
			return r;
		if (r != AB_FIT_FOUND && r != AB_FIT_NOT_FOUND && lo > hi)
			break; /* the last question ran out of nodes */
		bisect_answer(x, out, r, c, g, &lo, &hi, bound);
	}
	ab_progress_line_say(x->line, AB_REPORT_FINAL, out->peak, *bound,
			     x->nodes_total);
	if (budget > x->budget && out->peak > *bound && !x->timed_out) {
		int rc = restart_phase(x, out, g, bound,
				       (budget - x->budget) / 2, o->seed);

		if (rc)
			return rc;
		ab_progress_line_say(x->line, AB_REPORT_FINAL, out->peak,
				     *bound, x->nodes_total);
	}
	return 0;
}

/* Steps 7 and 8 while the peak is above the bound: the skyline search,
 * then the repairs, within what *budget has left (the default skyline
 * search's own nodes are added to it). */
static int after_search(const struct ab_problem *p,
			const struct ab_plan_options *o, struct ab_plan *out,
			uint64_t g, uint64_t bound, uint64_t *total,
			double deadline, struct ab_progress_line *line,
			uint64_t *used, bool *timed_out)
{
	uint64_t budget = *total;
	int rc;

	if (out->peak > bound && !*timed_out) {
		uint64_t more = 0, nodes = 0;
		const char *before = line->phase;

		if (o->budget)
			nodes = budget > *used ? (budget - *used) / SHARE_DIV : 0;
		else if ((rc = skyline_default(p, bound, g, &nodes)))
			return rc;
		rc = skyline_at_bound(p, o, out, bound, nodes, deadline, line,
				      *used, &more, timed_out);
		*used += more;
		if (!more)
			line->phase = before; /* it did not run: not the stop */
		if (!o->budget)
			budget += more; /* the default gives it its own nodes */
		*total = budget;
		if (rc)
			return rc;
	}
	if (out->peak > bound && !*timed_out && *used < budget) {
		struct ab_repair_run run = {
			.granule = g, .bound = bound, .budget = budget - *used,
			.deadline = deadline, .nodes_before = *used,
			.line = line,
		};

		rc = ab_repair_plan(p, o, out, &run);
		*used += run.nodes;
		*timed_out = run.timed_out;
		if (rc)
			return rc;
	}
	return 0;
}

/* The seed: the best fast plan (planners/best_of.c). */
extern const struct ab_planner ab_planner_best_of;

static int plan_exact(const struct ab_problem *p,
		      const struct ab_plan_options *o, struct ab_plan *out)
{
	struct ab_fit_search x;
	uint64_t bound = ab_lower_bound(p, NULL), g, budget, whole_budget;
	uint64_t used = 0;
	double deadline;
	struct ab_progress_line line = { .fn = o->progress,
					 .user = o->progress_user,
					 .t0 = ab_now_seconds() };
	bool whole = false, timed_out = false;
	int rc;

	rc = ab_planner_best_of.plan(p, o, out);
	if (rc)
		return rc;
	line.start_peak = out->peak;
	out->stopped_by = AB_STOPPED_NONE;
	out->iterations = 0;
	g = problem_granule(p, o);
	bound = (bound + g - 1) / g * g;
	if (out->peak <= bound)
		goto done;
	deadline = o->safety_seconds > 0
			   ? ab_now_seconds() + o->safety_seconds : 0;
	rc = ab_fit_setup(&x, p, o, NULL, MAX_SEARCHED);
	if (rc && rc != -E2BIG) {
		ab_fit_teardown(&x);
		return rc;
	}
	if (rc == -E2BIG) {
		rc = 0;
		budget = o->budget ? o->budget : DEFAULT_REPAIR_NODES;
	} else {
		whole = true;
		whole_budget = DEFAULT_WORK / x.m;
		if (whole_budget > DEFAULT_NODES)
			whole_budget = DEFAULT_NODES;
		/* by default no repairs after a complete search (they cost
		 * the test suite minutes on the corpus); a larger --budget
		 * buys them */
		budget = o->budget ? o->budget : whole_budget;
		x.budget = whole_budget < budget ? whole_budget : budget;
		x.deadline = deadline;
		x.line = &line;
		rc = complete_search(&x, out, o, budget, g, &bound);
		used = x.nodes_total;
		timed_out = x.timed_out;
	}
	ab_fit_teardown(&x);
	if (!rc)
		rc = after_search(p, o, out, g, bound, &budget, deadline, &line,
				  &used, &timed_out);
	if (rc)
		return rc;
	out->iterations = used;
	out->budget = budget;
	if (timed_out)
		out->stopped_by = AB_STOPPED_TIME;
	else if (out->peak > bound)
		out->stopped_by = whole || used >= budget ? AB_STOPPED_BUDGET
							  : AB_STOPPED_SIZE;
	if (out->stopped_by == AB_STOPPED_TIME ||
	    out->stopped_by == AB_STOPPED_BUDGET)
		out->stop_phase = line.phase ? line.phase : "complete search";
done:
	out->best_bound = bound;
	out->optimal = out->peak <= bound ? AB_OPTIMAL_YES : AB_OPTIMAL_UNKNOWN;
	return 0;
}

const struct ab_planner ab_planner_exact = {
	.name = "exact",
	.about = "branch and bound over canonical placements (minimalloc-style), proves optimality; node budget",
	.cost = AB_COST_BUDGETED,
	.plan = plan_exact,
};
