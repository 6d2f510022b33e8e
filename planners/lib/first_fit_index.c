/* First fit by checkpoints: see first_fit_index.h for the idea and costs.
 * This file: the gap lists, ranks, the choice of w, the time-local order
 * and the index itself; first_fit_runner.c runs it on one or two threads,
 * piecewise.c holds the functions H_T. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/first_fit_internal.h"

/* ---------------------------------------------------------- gap lists */


/* Each list was given room for every buffer of the schedule starting in
 * its gap (ff_run_init), so it never grows. */
static int list_insert(struct list *l, const struct entry *e)
{
	uint32_t lo = 0, hi = l->n;

	if (l->n == l->cap)
		return -EPROTO; /* cannot happen: see ff_run_init */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (l->e[mid].lo <= e->lo)
			lo = mid + 1;
		else
			hi = mid;
	}
	memmove(l->e + lo + 1, l->e + lo, (l->n - lo) * sizeof(*l->e));
	l->e[lo] = *e;
	l->n++;
	if (e->hi - e->lo > l->longest)
		l->longest = e->hi - e->lo;
	return 0;
}

/* ------------------------------------------------------------ ranks */



void ff_ranks_free(struct ranks *r)
{
	if (r->memo)
		return; /* the memo's own */
	free(r->first);
	free(r->last);
}

/* The group of equal steps with `starts` starts and `ends` ends: each
 * start overlaps the buffers already live and the other starts of the
 * group, then the group's ends leave (lifetimes are closed). */
static void count_group(struct ranks *r, uint64_t *live, uint64_t starts,
			uint64_t ends)
{
	r->pairs += starts * *live + starts * (starts - 1) / 2;
	*live += starts;
	*live -= ends;
}

/* Steps spanning at most this many times the buffers are ranked by
 * counting over the span instead of sorting the end points. */
#define DENSE_SPAN 4

/* The ranks by counting: one pass over the span [lo, hi] of steps. */
static int rank_dense(const struct ab_problem *p, const uint32_t *order,
		      size_t m, int64_t lo, int64_t hi, struct ranks *r)
{
	size_t span = (size_t)(hi - lo) + 1;
	uint32_t *starts = calloc(span, sizeof(*starts));
	uint32_t *ends = calloc(span, sizeof(*ends));
	uint64_t live = 0;
	size_t distinct = 0;

	if (!starts || !ends) {
		free(starts);
		free(ends);
		return -ENOMEM;
	}
	for (size_t j = 0; j < m; j++) {
		const struct ab_buffer *b = &p->buf[ff_any_order(order, m, p->n, j)];

		starts[b->first - lo]++;
		ends[b->last - lo]++;
	}
	for (size_t t = 0; t < span; t++) {
		if (!starts[t] && !ends[t])
			continue;
		count_group(r, &live, starts[t], ends[t]);
		starts[t] = (uint32_t)distinct++; /* now the step's rank */
	}
	for (size_t j = 0; j < m; j++) {
		uint32_t i = ff_any_order(order, m, p->n, j);

		r->first[i] = (int32_t)starts[p->buf[i].first - lo];
		r->last[i] = (int32_t)starts[p->buf[i].last - lo];
	}
	r->steps = distinct;
	free(starts);
	free(ends);
	return 0;
}

/* One sort of the 2m end points, or counting when the steps are dense;
 * the overlapping pairs come from the same pass (count_group). */
int ff_rank_lifetimes(const struct ab_problem *p, const uint32_t *order,
			  size_t m, struct ranks *r)
{
	struct ab_key_index *ki = NULL;
	uint64_t live = 0;
	size_t distinct = 0;
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	int rc = -ENOMEM;

	memset(r, 0, sizeof(*r));
	r->n = p->n;
	r->first = ab_alloc_large((p->n + 1) * sizeof(*r->first));
	r->last = ab_alloc_large((p->n + 1) * sizeof(*r->last));
	if (!r->first || !r->last)
		goto out;
	for (size_t j = 0; j < m; j++) {
		const struct ab_buffer *b = &p->buf[ff_any_order(order, m, p->n, j)];

		lo = b->first < lo ? b->first : lo;
		hi = b->last > hi ? b->last : hi;
	}
	if (m && (uint64_t)(hi - lo) < DENSE_SPAN * (uint64_t)m) {
		rc = rank_dense(p, order, m, lo, hi, r);
		if (rc)
			goto out;
		goto lengths;
	}
	ki = ab_alloc_large((2 * m + 1) * sizeof(*ki));
	if (!ki)
		goto out;
	for (size_t j = 0; j < m; j++) {
		uint32_t i = ff_any_order(order, m, p->n, j);
		const struct ab_buffer *b = &p->buf[i];

		ki[2 * j].key = (uint64_t)((int64_t)b->first - INT32_MIN);
		ki[2 * j].index = 2 * i;
		ki[2 * j + 1].key = (uint64_t)((int64_t)b->last - INT32_MIN);
		ki[2 * j + 1].index = 2 * i + 1;
	}
	rc = ab_sort_key_index(ki, 2 * m);
	if (rc)
		goto out;
	for (size_t q = 0; q < 2 * m;) {
		uint64_t starts = 0, ends = 0;
		size_t g = q;

		for (; g < 2 * m && ki[g].key == ki[q].key; g++) {
			uint32_t i = ki[g].index / 2;

			if (ki[g].index % 2) {
				r->last[i] = (int32_t)distinct;
				ends++;
			} else {
				r->first[i] = (int32_t)distinct;
				starts++;
			}
		}
		count_group(r, &live, starts, ends);
		distinct++;
		q = g;
	}
	r->steps = distinct;
lengths:
	for (size_t j = 0; j < m; j++) {
		uint32_t i = ff_any_order(order, m, p->n, j);
		int64_t len = r->last[i] - r->first[i];

		r->total_len += (uint64_t)len;
		if (len > r->reach)
			r->reach = len;
	}
	rc = 0;
out:
	free(ki);
	if (rc)
		ff_ranks_free(r);
	return rc;
}

/* ----------------------------------------------------- the choice of w */

/* Rough costs in ns, measured on the 2-core development machine: one
 * conflict listed (and sorted), one function paint, one gap-list entry
 * looked at, and the index's fixed work per buffer (walk and list). */
#define COST_HIT 40
#define COST_PAINT 120
#define COST_LIST 3
#define COST_QUERY 400
#define MAX_PAINTS_PER_BUFFER 40 /* memory guard: pieces ~ paints */
#define MIN_BUFFERS 256

/* The spacing from the ranks, or 0 (listing is cheaper, or the index
 * would be too large).  Counts only: deterministic. */
uint32_t ff_choose_spacing(const struct ranks *r, const uint32_t *order,
			       size_t m)
{
	int32_t *f = ab_alloc_large((m + 1) * sizeof(*f));
	int32_t *l = ab_alloc_large((m + 1) * sizeof(*l));
	/* one count array for every spacing: the first (w = 4) needs most */
	uint64_t *count = ab_alloc_large((r->steps / 4 + 2) * sizeof(*count));
	uint64_t best_cost = UINT64_MAX;
	uint32_t best = 0;

	if (m < MIN_BUFFERS || !f || !l || !count)
		goto out;
	/* once, so that the passes below read them in sequence */
	for (size_t j = 0; j < m; j++) {
		uint32_t i = ff_any_order(order, m, r->n, j);

		f[j] = r->first[i];
		l[j] = r->last[i];
	}
	for (uint32_t shift = 2; shift <= 16; shift++) {
		uint64_t w = 1ull << shift, paints = 0, listed = 0, cost;
		size_t cks = (r->steps - 1) / w + 1;

		for (size_t j = 0; j < m; j++) {
			int64_t hi = (l[j] + r->reach) >> shift;

			if (hi > (int64_t)cks - 1)
				hi = (int64_t)cks - 1;
			paints += (uint64_t)(hi - ((f[j] + (int64_t)w - 1) >> shift) + 1);
		}
		if (paints > MAX_PAINTS_PER_BUFFER * (uint64_t)m)
			continue;
		memset(count, 0, (cks + 1) * sizeof(*count));
		for (size_t j = 0; j < m; j++)
			if (f[j] & (w - 1))
				count[f[j] >> shift]++;
		for (size_t j = 0; j < m; j++)
			listed += count[l[j] >> shift] / 2;
		cost = COST_PAINT * paints + COST_LIST * listed + COST_QUERY * m;
		if (cost < best_cost) {
			best_cost = cost;
			best = (uint32_t)w;
		}
	}
	if (best && COST_HIT * r->pairs <= best_cost)
		best = 0;
out:
	free(f);
	free(l);
	free(count);
	return best;
}

uint32_t ab_first_fit_spacing(const struct ab_problem *p, const uint32_t *order,
			      size_t m)
{
	struct ranks r;
	uint32_t w;

	if (m < MIN_BUFFERS || ff_rank_lifetimes(p, order, m, &r))
		return 0;
	w = ff_choose_spacing(&r, order, m);
	ff_ranks_free(&r);
	return w;
}

/* ------------------------------------------------- a time-local order */

/* Candidates a buffer's batch-mates scan, on average, in the default
 * batch (see time_local_order). */
#define BATCH_CANDIDATES 32

/* The default batch: about BATCH_CANDIDATES batch-mates start within a
 * buffer's reach (batch x (mean length + longest + 1) / steps). */
size_t ff_choose_batch(const struct ranks *r, size_t m)
{
	uint64_t span = r->total_len / (m ? m : 1) + (uint64_t)r->reach + 1;
	uint64_t g = BATCH_CANDIDATES * (uint64_t)r->steps / span;

	if (g < 64)
		g = 64;
	return g > m ? (m ? m : 1) : (size_t)g;
}

/*
 * First fit's answer for a buffer depends only on which of the buffers
 * that overlap it in time are placed before it.  So any order that keeps
 * every overlapping pair in the order of `order` gives the same offsets.
 * This one cuts `order` into batches of consecutive buffers and takes each
 * batch by first use, each buffer after those batch-mates that come before
 * it in `order` and overlap it (depth first; a batch-mate's scan resumes
 * where it stopped, since "placed" only grows).  Overlapping buffers of
 * different batches keep their order because batches go in order.  The
 * index then works through time inside a batch: the few checkpoint
 * functions a stretch of time uses stay in cache while its buffers are
 * placed, instead of every buffer fetching its own from memory.
 * Cost: a sort per batch and, per buffer, the batch-mates starting within
 * its reach (about BATCH_CANDIDATES with the default batch).
 */
static int time_local_order(const uint32_t *order, size_t m,
			    const struct ranks *r, const size_t *ends,
			    size_t batch, bool backward, uint32_t *sched,
			    int32_t *sched_first, int32_t *sched_last)
{
	struct ab_key_index *ki = malloc((batch + 1) * sizeof(*ki));
	uint32_t *slot = malloc((batch + 1) * sizeof(*slot));
	int32_t *tf = malloc((batch + 1) * sizeof(*tf));
	int32_t *tl = malloc((batch + 1) * sizeof(*tl));
	uint32_t *cursor = malloc((batch + 1) * sizeof(*cursor));
	uint32_t *stack = malloc((batch + 1) * sizeof(*stack));
	uint8_t *done = malloc(batch + 1);
	size_t out = 0;
	int rc = -ENOMEM;

	if (!ki || !slot || !tf || !tl || !cursor || !stack || !done)
		goto out;
	rc = 0;
	for (size_t j0 = 0, bq = 0; j0 < m && !rc; j0 = ends[bq++]) {
		size_t nb = ends[bq] - j0, q0;
		const uint32_t *bo = order + j0; /* the batch, by slot */

		/* already by first use (first_fit_in_order's batches): the sort
		 * is stable and every batch-mate a buffer waits for comes before
		 * it, so the schedule is the batch as it is; the scan below would
		 * look at every batch-mate within reach for nothing */
		for (q0 = 1; !backward && q0 < nb; q0++)
			if (r->first[bo[q0]] < r->first[bo[q0 - 1]])
				break;
		if (!backward && q0 >= nb) {
			for (size_t q = 0; q < nb; q++) {
				sched[out] = bo[q];
				sched_first[out] = r->first[bo[q]];
				sched_last[out++] = r->last[bo[q]];
			}
			continue;
		}
		for (size_t q = 0; q < nb; q++) {
			ki[q].key = (uint32_t)r->first[bo[q]];
			ki[q].index = (uint32_t)q;
		}
		rc = ab_sort_key_index(ki, nb); /* stable: ties keep the slot order */
		/* by time from here: q-th by first use, its slot and lifetime */
		for (size_t q = 0, lo = 0; !rc && q < nb; q++) {
			slot[q] = ki[q].index;
			tf[q] = r->first[bo[slot[q]]];
			tl[q] = r->last[bo[slot[q]]];
			while (tf[lo] < (int64_t)tf[q] - r->reach)
				lo++;
			cursor[q] = (uint32_t)lo; /* first batch-mate that can overlap */
		}
		memset(done, 0, nb);
		for (size_t k = 0; !rc && k < nb; k++) {
			size_t q = backward ? nb - 1 - k : k, top = 0;

			if (done[q])
				continue;
			stack[top++] = (uint32_t)q;
			while (top) {
				uint32_t t = stack[top - 1];
				bool deeper = false;

				while (cursor[t] < nb && tf[cursor[t]] <= tl[t]) {
					uint32_t v = cursor[t]++;

					if (!done[v] && slot[v] < slot[t] && tl[v] >= tf[t]) {
						stack[top++] = v; /* t waits for v */
						deeper = true;
						break;
					}
				}
				if (!deeper) {
					top--;
					done[t] = 1;
					sched[out] = bo[slot[t]];
					sched_first[out] = tf[t];
					sched_last[out++] = tl[t];
				}
			}
		}
	}
out:
	free(ki);
	free(slot);
	free(tf);
	free(tl);
	free(cursor);
	free(stack);
	free(done);
	return rc;
}

/* ---------------------------------------------------------- placing */

static void index_free(struct index *ix)
{
	pw_pool_free(&ix->pool); /* the functions' arrays too */
	free(ix->entries);
	free(ix->fun);
	free(ix->list);
	free(ix->last_query);
}

/* The walk, in doubled addresses: the conflicts' union is H_T's blocked
 * runs at threshold a and the live list entries; both streams come in
 * order of start, and are merged as ab_fit_first scans hits by offset (a
 * piece starting at or past the window's end leaves the window free; one
 * ending inside or past its start moves the window past it).  The lowest
 * fit at or above `from`. */
uint64_t ff_first_fit(struct index *ix, int32_t a, int32_t b,
		      uint64_t size, uint64_t align, uint64_t from)
{
	size_t c = (size_t)b >> ix->shift;
	const struct fun *f = &ix->fun[c];
	const struct list *l = &ix->list[c];
	uint64_t cand = ab_align_up(from, align);
	uint64_t hs = UINT64_MAX, he = 0; /* H_T's next run */
	uint64_t ls = UINT64_MAX, le = 0; /* the next live entry */
	struct pw_runs h;
	struct ff_live lv;

	if (!size)
		return cand;
	pw_runs_init(&h, &ix->pool, f, a);
	ff_live_init(&lv, l, a, b);
	if (f->n && !pw_next_run(&h, 2 * cand + 1, &hs, &he))
		hs = UINT64_MAX;
	if (!ff_next_live(&lv, 2 * cand + 1, &ls, &le))
		ls = UINT64_MAX;
	for (;;) {
		uint64_t s, e;

		if (ls < hs) {
			s = ls;
			e = le;
		} else if (hs != UINT64_MAX) {
			s = hs;
			e = he;
		} else {
			break;
		}
		if (2 * cand + 2 * size <= s)
			break;
		if (e > 2 * cand + 1)
			cand = ab_align_up(e >> 1, align);
		if (ls < hs) {
			if (!ff_next_live(&lv, 2 * cand + 1, &ls, &le))
				ls = UINT64_MAX;
		} else if (!pw_next_run(&h, 2 * cand + 1, &hs, &he)) {
			hs = UINT64_MAX;
		}
	}
	ix->st.walk_steps += h.runs;
	ix->st.list_scanned += lv.scanned;
	return cand;
}

int ff_place(struct index *ix, int64_t first, int64_t last, size_t pos,
		 uint64_t x, uint64_t size)
{
	uint64_t w = 1ull << ix->shift;
	uint64_t lo = 2 * x, hi = size ? 2 * (x + size) : 2 * x + 1;
	int64_t c1 = (last + ix->reach) >> ix->shift;
	int rc;

	if (c1 > (int64_t)ix->checkpoints - 1)
		c1 = (int64_t)ix->checkpoints - 1;
	/* the functions are independent: fetch all their chunks first */
	for (int64_t c = (first + (int64_t)w - 1) >> ix->shift; c <= c1; c++) {
		const struct fun *f = &ix->fun[c];

		if (f->n && ix->last_query[c] > pos + 1)
			pw_prefetch_chunk(pw_chunk_of(&ix->pool, f,
						pw_last_le(f->start, 0, f->n, lo)));
	}
	for (int64_t c = (first + (int64_t)w - 1) >> ix->shift; c <= c1; c++) {
		if (ix->last_query[c] <= pos + 1)
			continue; /* no later buffer asks this checkpoint */
		ix->st.paints++;
		rc = pw_paint(&ix->pool, &ix->fun[c], lo, hi, (int32_t)last);
		if (rc)
			return rc;
	}
	if (first & (int64_t)(w - 1)) {
		size_t c = (size_t)first >> ix->shift;
		struct entry e = { lo, hi, (int32_t)first, (int32_t)last };

		if (ix->last_query[c] > pos + 1 && (rc = list_insert(&ix->list[c], &e)))
			return rc;
	}
	return 0;
}


void ff_run_free(struct run *rn)
{
	free(rn->sched);
	free(rn->sf);
	free(rn->sl);
	index_free(&rn->ix);
}

/* Batches end at ends[0], ends[1], ... (the last at m), the longest
 * `batch` buffers; batch 1 = in `order` itself. */
int ff_run_init(struct run *rn, const struct ranks *r,
		    const uint32_t *order, size_t m, uint32_t spacing,
		    const size_t *ends, size_t batch, bool backward)
{
	struct index *ix = &rn->ix;
	int rc;

	memset(rn, 0, sizeof(*rn));
	rn->m = m;
	while ((1u << ix->shift) < spacing)
		ix->shift++;
	ix->reach = r->reach;
	ix->checkpoints = r->steps ? ((r->steps - 1) >> ix->shift) + 1 : 1;
	ix->fun = calloc(ix->checkpoints, sizeof(*ix->fun));
	ix->list = calloc(ix->checkpoints, sizeof(*ix->list));
	ix->last_query = calloc(ix->checkpoints, sizeof(*ix->last_query));
	rn->sched = ab_alloc_large((m ? m : 1) * sizeof(*rn->sched));
	rn->sf = ab_alloc_large((m ? m : 1) * sizeof(*rn->sf));
	rn->sl = ab_alloc_large((m ? m : 1) * sizeof(*rn->sl));
	if (!ix->fun || !ix->list || !ix->last_query || !rn->sched || !rn->sf ||
	    !rn->sl)
		return -ENOMEM;
	if (batch > 1) {
		rc = time_local_order(order, m, r, ends, batch, backward,
				      rn->sched, rn->sf, rn->sl);
		if (rc)
			return rc;
	} else {
		for (size_t j = 0; j < m; j++) {
			rn->sched[j] = order[j];
			rn->sf[j] = r->first[order[j]];
			rn->sl[j] = r->last[order[j]];
		}
	}
	for (size_t j = 0; j < m; j++)
		ix->last_query[(size_t)rn->sl[j] >> ix->shift] = (uint32_t)(j + 1);
	/* the lists in one array, each with room for every buffer starting
	 * in its gap: grown one by one, they doubled about six times each and
	 * left their old blocks behind (about 100 MB of fresh memory at 10^6
	 * buffers, against 24 MB here) */
	{
		size_t total = 0;
		uint32_t w1 = (1u << ix->shift) - 1;

		for (size_t j = 0; j < m; j++)
			if (rn->sf[j] & w1)
				ix->list[(size_t)rn->sf[j] >> ix->shift].cap++;
		for (size_t c = 0; c < ix->checkpoints; c++)
			total += ix->list[c].cap;
		ix->entries = ab_alloc_large((total ? total : 1) * sizeof(*ix->entries));
		if (!ix->entries)
			return -ENOMEM;
		total = 0;
		for (size_t c = 0; c < ix->checkpoints; c++) {
			ix->list[c].e = ix->entries + total;
			total += ix->list[c].cap;
		}
	}
	ix->st.spacing = 1u << ix->shift;
	ix->st.batch = batch > 1 ? (uint32_t)batch : 1;
	ix->st.threads = 1;
	return 0;
}

void ff_run_stats(struct run *rn, struct ab_first_fit_stats *st)
{
	const struct index *ix = &rn->ix;

	*st = ix->st;
	st->queries = rn->m;
	for (size_t c = 0; c < ix->checkpoints; c++)
		for (uint32_t k = 0; k < ix->fun[c].n; k++)
			st->pieces += pw_chunk_of(&ix->pool, &ix->fun[c], k)->n;
}


/* ---------------------------------------------------- entry points */

int ab_first_fit_place(const struct ab_problem *p,
		       const struct ab_plan_options *o, const uint32_t *order,
		       size_t m, const struct ab_first_fit_config *cfg,
		       uint64_t *offsets, uint64_t *top,
		       struct ab_first_fit_stats *stats)
{
	struct ranks r;
	int rc = ff_rank_lifetimes_memo(p, o, order, m, &r);

	if (rc)
		return rc;
	rc = ff_place_ranked(p, o, order, m, &r, cfg, AB_INDEX_FIRST_FIT,
			     offsets, top, stats);
	ff_ranks_free(&r);
	return rc;
}

int ab_first_fit_route(const struct ab_problem *p,
		       const struct ab_plan_options *o, const uint32_t *order,
		       size_t m, uint64_t *offsets, uint64_t *top)
{
	struct ab_first_fit_config cfg = { 0 };
	struct ranks r;
	int rc;

	if (m < MIN_BUFFERS)
		return 1;
	rc = ff_rank_lifetimes_memo(p, o, order, m, &r);
	if (rc)
		return rc;
	cfg.spacing = ff_choose_spacing_memo(&r, order, m);
	rc = cfg.spacing ? ff_place_ranked(p, o, order, m, &r, &cfg,
					   AB_INDEX_FIRST_FIT, offsets, top, NULL)
			 : 1;
	ff_ranks_free(&r);
	return rc;
}
