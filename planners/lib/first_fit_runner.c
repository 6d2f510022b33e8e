/* The checkpoint index's placement loop, on one thread or on two cut in
 * time: see first_fit_index.h. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "lib/first_fit_internal.h"

/* ------------------------------------------------- two threads in time */

/*
 * With two CPUs the problem is cut in time at a rank S: buffers ending
 * before S (left), buffers starting at or after S (right) and the buffers
 * live across S (crossing, all live at S, so they overlap each other).
 * A left and a right buffer never overlap, so each side is placed by its
 * own thread in its own index, crossing buffers included in both.  A
 * crossing buffer must be placed after every earlier buffer that overlaps
 * it, on both sides: each side's schedule keeps that, and the crossing
 * buffers come in the same order on both sides (they all overlap), so the
 * k-th crossing buffer is a meeting point.  There the leader finds the
 * lowest offset that fits both indexes: x = 0; then first fit at or above
 * x on the left, then on the right from there, until both agree (each
 * step is at most the joint answer, so this ends on it), while the other
 * thread waits; both then paint it.  The offsets are first fit's in
 * `order`, the same as with one thread.
 */
struct meeting {
	atomic_uint arrived;  /* crossing buffers the other side reached */
	atomic_uint released; /* crossing buffers the leader has answered */
	atomic_int failed;    /* a side stopped on an error */
	uint32_t buffer;      /* the other side's crossing buffer ... */
	int32_t a, b;         /* ... and its ranks in the other index */
	uint64_t answer;
};

struct side {
	const struct ab_problem *p;
	const struct ab_plan_options *o;
	const uint32_t *order;   /* this side's buffers, in order */
	size_t m;
	const size_t *ends;      /* its batches' ends (the global batches) */
	size_t batch;            /* longest batch */
	uint32_t spacing;
	enum ab_index_rule rule; /* two threads: first fit only */
	const uint8_t *crossing; /* by buffer; NULL: one thread, none */
	uint64_t *offsets;
	const struct ranks *r;
	struct run rn;
	struct side *other;
	struct meeting *mt;      /* NULL with one thread */
	bool leader;
	uint64_t top;
	int rc;
};

/* Spins, then yields: the wait is short when both sides are busy. */
static bool wait_until(const atomic_uint *v, unsigned k,
		       const atomic_int *failed)
{
	for (unsigned spins = 0; atomic_load_explicit(v, memory_order_acquire) < k;
	     spins++) {
		if (atomic_load_explicit(failed, memory_order_relaxed))
			return false;
		if (spins > 1000)
			sched_yield();
	}
	return true;
}

/* How far ahead in the schedule the loop asks for a buffer's record. */
#define PREFETCH_AHEAD 8

/* The placement loop of one index: the whole order (no crossing buffers,
 * no meeting), or one side of two threads. */
static void *side_main(void *arg)
{
	struct side *sd = arg;
	struct run *rn = &sd->rn;
	struct meeting *mt = sd->mt;
	unsigned met = 0;
	int rc;

	/* each side sets itself up (with the whole problem's ranks: a side
	 * leaves the other's checkpoints empty); the other reads this index
	 * only once this side has arrived at a meeting */
	rc = ff_run_init(rn, sd->r, sd->order, sd->m, sd->spacing, sd->ends,
		      sd->batch, !sd->leader);
	if (!rc && sd->rule == AB_INDEX_XLA && sd->batch > 1 && !mt) {
		sd->rc = ff_place_xla_batches(rn, sd->p, sd->o, sd->order,
					      sd->ends, sd->r,
					      sd->offsets, &sd->top);
		return NULL;
	}
	for (size_t j = 0; j < rn->m && !rc; j++) {
		uint32_t i = rn->sched[j];
		uint64_t size, x;

		/* the schedule jumps about the problem's buffers: ask ahead */
		if (j + PREFETCH_AHEAD < rn->m) {
			__builtin_prefetch(&sd->p->buf[rn->sched[j + PREFETCH_AHEAD]]);
			__builtin_prefetch(&sd->offsets[rn->sched[j + PREFETCH_AHEAD]], 1);
		}
		size = sd->p->buf[i].size;
		uint64_t align = ab_effective_align(sd->p, i, sd->o);

		if (!sd->crossing || !sd->crossing[i]) {
			x = sd->rule == AB_INDEX_FIRST_FIT
				    ? ff_first_fit(&rn->ix, rn->sf[j], rn->sl[j],
						   size, align, 0)
				    : ff_best_fit(&rn->ix, rn->sf[j], rn->sl[j],
						  size, align, sd->rule, sd->top,
						  NULL);
			sd->offsets[i] = x;
		} else if (!sd->leader) {
			mt->buffer = i;
			mt->a = rn->sf[j];
			mt->b = rn->sl[j];
			atomic_store_explicit(&mt->arrived, ++met, memory_order_release);
			if (!wait_until(&mt->released, met, &mt->failed)) {
				rc = -ECANCELED;
				break;
			}
			x = mt->answer;
		} else {
			struct run *other = &sd->other->rn;

			if (!wait_until(&mt->arrived, ++met, &mt->failed)) {
				rc = -ECANCELED;
				break;
			}
			if (mt->buffer != i) { /* cannot happen: see above */
				rc = -EPROTO;
				break;
			}
			x = 0;
			for (;;) {
				uint64_t here = ff_first_fit(&rn->ix, rn->sf[j], rn->sl[j],
							  size, align, x);
				uint64_t there = ff_first_fit(&other->ix, mt->a, mt->b,
							   size, align, here);

				x = there;
				if (there == here)
					break;
			}
			sd->offsets[i] = x;
			mt->answer = x;
			atomic_store_explicit(&mt->released, met, memory_order_release);
		}
		if (x + size > sd->top)
			sd->top = x + size;
		rc = ff_place(&rn->ix, rn->sf[j], rn->sl[j], j, x, size);
		if (!rc && ab_above_cutoff(sd->o, sd->top))
			rc = AB_ABOVE_CUTOFF;
	}
	if (rc && mt)
		atomic_store(&mt->failed, 1);
	sd->rc = rc;
	return NULL;
}

/* The CPUs this process may run on (its affinity), at least 1. */
static unsigned usable_cpus(void)
{
#ifdef CPU_COUNT
	cpu_set_t set;

	if (!sched_getaffinity(0, sizeof(set), &set) && CPU_COUNT(&set) > 0)
		return (unsigned)CPU_COUNT(&set);
#endif
	return 1;
}

/* From here a second thread pays: 4096 buffers take about 3 ms, against
 * some 50 us to start a thread and about a microsecond a meeting. */
#define PARALLEL_MIN_BUFFERS 4096

/* The rank S cutting order[0..m) best for two threads: the larger side
 * (its own buffers plus the crossing ones) as small as it can be.  0 when
 * no cut leaves both sides some buffers of their own. */
static int32_t choose_cut(const struct ranks *r, const uint32_t *order,
			  size_t m, size_t *crossing)
{
	size_t *ends = calloc(r->steps + 1, sizeof(*ends));
	size_t *starts = calloc(r->steps + 1, sizeof(*starts));
	size_t left = 0, started = 0, best = SIZE_MAX;
	int32_t cut = 0;

	*crossing = 0;
	if (!ends || !starts)
		goto out;
	for (size_t j = 0; j < m; j++) {
		ends[r->last[order[j]]]++;
		starts[r->first[order[j]]]++;
	}
	for (size_t s = 1; s < r->steps; s++) {
		/* left: last < s; right: first >= s; crossing: the rest */
		size_t right, cross, larger;

		left += ends[s - 1];
		started += starts[s - 1];
		right = m - started;
		cross = m - left - right;
		larger = (left > right ? left : right) + cross;
		if (left && right && larger < best) {
			best = larger;
			cut = (int32_t)s;
			*crossing = cross;
		}
	}
out:
	free(ends);
	free(starts);
	return cut;
}

/* Batch ends for order[0..m): every `batch` buffers. */
static size_t *batch_ends(size_t m, size_t batch)
{
	size_t n = m / batch + 2, *ends = malloc(n * sizeof(*ends));

	if (ends)
		for (size_t q = 0; q < n; q++)
			ends[q] = (q + 1) * batch < m ? (q + 1) * batch : m;
	return ends;
}

/* Two threads (see above); *done = false, nothing placed, when no cut
 * fits (or, unless forced, when it does not pay).  Both sides cut their
 * buffers into the same batches of `order` (each side's share of the
 * global batch q is its batch q), and the right side takes its batches
 * backward in time, so that on both sides the crossing buffers, near the
 * cut, come at the end of a batch: the sides meet after equal shares of
 * work, and wait little. */
static int place_two_sides(const struct ab_problem *p,
			   const struct ab_plan_options *o,
			   const uint32_t *order, size_t m,
			   const struct ranks *r, uint32_t spacing,
			   size_t batch, bool forced, uint64_t *offsets,
			   uint64_t *top, struct ab_first_fit_stats *stats,
			   bool *done)
{
	struct meeting mt = { 0 };
	struct side sd[2] = { { 0 }, { 0 } };
	uint32_t *sub = NULL;
	size_t *ends = NULL, n_batches = m / batch + 2;
	uint8_t *crossing = NULL;
	size_t cross;
	int32_t cut = choose_cut(r, order, m, &cross);
	pthread_t thread;
	int rc = -ENOMEM;

	*done = false;
	if (!cut || (!forced && cross * 16 > m))
		return 0;
	sub = malloc((2 * m + 2) * sizeof(*sub));
	ends = malloc(2 * n_batches * sizeof(*ends));
	crossing = calloc(p->n + 1, 1);
	if (!sub || !ends || !crossing)
		goto out;
	for (int k = 0; k < 2; k++) {
		size_t n = 0, q = 0, *e = ends + (size_t)k * n_batches;
		uint32_t *so = sub + (size_t)k * (m + 1);

		for (size_t j = 0; j < m; j++) {
			uint32_t i = order[j];
			bool ends_before = r->last[i] < cut, starts_after = r->first[i] >= cut;

			if (!ends_before && !starts_after)
				crossing[i] = 1;
			if (k == 0 ? !starts_after : !ends_before)
				so[n++] = i;
			if ((j + 1) % batch == 0 || j + 1 == m)
				e[q++] = n;
		}
		sd[k] = (struct side){
			.p = p, .o = o, .order = so, .m = n, .ends = e,
			.batch = batch, .spacing = spacing, .crossing = crossing,
			.offsets = offsets, .r = r, .other = &sd[1 - k], .mt = &mt,
			.leader = k == 0,
		};
	}
	if (pthread_create(&thread, NULL, side_main, &sd[1])) {
		rc = 0; /* no second thread: the caller places serially */
		goto out;
	}
	side_main(&sd[0]);
	pthread_join(thread, NULL);
	rc = sd[0].rc && sd[0].rc != -ECANCELED ? sd[0].rc : sd[1].rc;
	if (!rc) {
		*done = true;
		*top = sd[0].top > sd[1].top ? sd[0].top : sd[1].top;
		if (stats) {
			struct ab_first_fit_stats s1;

			ff_run_stats(&sd[0].rn, stats);
			ff_run_stats(&sd[1].rn, &s1);
			stats->queries = m;
			stats->walk_steps += s1.walk_steps;
			stats->paints += s1.paints;
			stats->list_scanned += s1.list_scanned;
			stats->pieces += s1.pieces;
			stats->threads = 2;
			stats->crossing = cross;
		}
	}
out:
	for (int k = 0; k < 2; k++)
		ff_run_free(&sd[k].rn);
	free(sub);
	free(ends);
	free(crossing);
	return rc;
}

/* ------------------------------------------------------------ placing */

int ff_place_ranked(const struct ab_problem *p,
			const struct ab_plan_options *o, const uint32_t *order,
			size_t m, const struct ranks *r,
			const struct ab_first_fit_config *cfg,
			enum ab_index_rule rule, uint64_t *offsets,
			uint64_t *top, struct ab_first_fit_stats *stats)
{
	uint32_t spacing = cfg && cfg->spacing ? cfg->spacing
					      : ff_choose_spacing_memo(r, order, m);
	size_t batch = cfg && cfg->batch ? cfg->batch : ff_choose_batch(r, m);
	unsigned threads = cfg && cfg->threads ? cfg->threads
			   : m >= PARALLEL_MIN_BUFFERS ? usable_cpus() : 1;
	if (rule != AB_INDEX_FIRST_FIT)
		threads = 1;
	struct side one = { 0 };
	size_t *ends;
	int rc;

	if (!spacing)
		spacing = 64;
	*top = 0;
	if (threads >= 2) {
		bool done;

		rc = place_two_sides(p, o, order, m, r, spacing, batch,
				     cfg && cfg->threads >= 2, offsets, top,
				     stats, &done);
		if (!rc && done && o->threads_used && *o->threads_used < 2)
			*o->threads_used = 2;
		if (rc || done)
			return rc;
	}
	ends = batch_ends(m, batch);
	if (!ends)
		return -ENOMEM;
	one = (struct side){
		.p = p, .o = o, .order = order, .m = m, .ends = ends,
		.batch = batch, .spacing = spacing, .rule = rule,
		.offsets = offsets, .r = r, .leader = true,
	};
	side_main(&one);
	rc = one.rc;
	*top = one.top;
	if (!rc && stats)
		ff_run_stats(&one.rn, stats);
	ff_run_free(&one.rn);
	free(ends);
	return rc;
}
