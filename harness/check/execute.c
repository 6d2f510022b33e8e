/*
 * The execution check (contract in arenabench.h): run the schedule on a
 * real arena with pseudo-random tensor contents and catch every stomp.
 * It trusts neither the planner nor the problem's intervals: with a graph,
 * what must survive is read from the operators themselves.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check/execute.h"
#include "check/paths.h"

static const char *const mode_names[] = {
	[AB_EXEC_FULL] = "full",
	[AB_EXEC_SAMPLED] = "sampled",
	[AB_EXEC_SKIPPED] = "skipped",
};

const char *ab_exec_mode_name(enum ab_exec_mode m)
{
	return (unsigned)m <= AB_EXEC_SKIPPED ? mode_names[m] : "?";
}

static uint64_t hash_str(uint64_t h, const char *s)
{
	for (; s && *s; s++)
		h = ab_mix64(h ^ (unsigned char)*s);
	return h;
}

/*
 * The arena as an image of words: word k holds the arena's bytes
 * [k * stride, k * stride + 8), byte j of it in bits 8j..8j+7.  Full mode
 * has stride 8, so the words tile the arena and every byte is kept.
 * Sampled mode keeps only the words at multiples of its stride (4 KiB, or
 * coarser above AB_EXEC_SAMPLED_FINE_BYTES: ab_exec_sample_shift): an
 * image of peak / 512 words, 2^25 at most, in which two
 * buffers that overlap own the same words inside their overlap.  A buffer
 * owns the bytes of a word that lie inside it: the words at its two ends
 * may be partly its own, and are written and compared under a byte mask.
 */
struct exec {
	uint64_t *image;
	unsigned shift; /* log2 of the stride */
	const struct ab_problem *p;
	const struct ab_plan *plan;
};

/* The image words bytes [o, e) own some byte of, lo..hi, and the masks
 * of those bytes in the first and the last of them; false when they own
 * none (o == e, or sampled bytes between two sampled words). */
struct span {
	uint64_t lo, hi, lo_mask, hi_mask;
};

static inline bool span_of(unsigned shift, uint64_t o, uint64_t e,
			   struct span *s)
{
	uint64_t lo_at, in_hi;

	if (e == o)
		return false;
	/* the first word ending after o, the last starting before e */
	s->lo = o < 8 ? 0 : ((o - 8) >> shift) + 1;
	s->hi = (e - 1) >> shift;
	if (s->lo > s->hi)
		return false;
	lo_at = s->lo << shift;
	in_hi = e - (s->hi << shift); /* the bytes' count in word hi, >= 1 */
	s->lo_mask = o > lo_at ? ~0ull << (8 * (o - lo_at)) : ~0ull;
	s->hi_mask = in_hi >= 8 ? ~0ull : (1ull << (8 * in_hi)) - 1;
	if (s->lo == s->hi)
		s->lo_mask = s->hi_mask = s->lo_mask & s->hi_mask;
	return true;
}

/* Word k of a tensor's stream is seed ^ k * STREAM_STEP: one add and one
 * xor a word, and at the same k two different seeds always differ (in
 * the bytes where the seeds do; seeds are splitmix64 hashes). */
#define STREAM_STEP 0x9e3779b97f4a7c15ull

/* Two words of the image at once (GCC's and Clang's vector extension: two
 * 64-bit lanes, one SSE2 register on x86-64, plain words elsewhere). */
typedef uint64_t two_words __attribute__((vector_size(16)));

static inline void write_bytes(uint64_t *img, unsigned shift, uint64_t o,
			       uint64_t e, uint64_t seed)
{
	struct span s;
	uint64_t v, k, x;

	if (!span_of(shift, o, e, &s))
		return;
	v = seed ^ s.lo * STREAM_STEP;
	img[s.lo] = (img[s.lo] & ~s.lo_mask) | (v & s.lo_mask);
	k = s.lo + 1;
	x = k * STREAM_STEP;
	if (k + 2 <= s.hi) {
		two_words xs = { x, x + STREAM_STEP }, seeds = { seed, seed };
		const two_words step = { 2 * STREAM_STEP, 2 * STREAM_STEP };

		for (; k + 2 <= s.hi; k += 2, xs += step) {
			two_words w = seeds ^ xs;

			memcpy(&img[k], &w, sizeof(w));
		}
		x = xs[0];
	}
	for (; k < s.hi; k++, x += STREAM_STEP)
		img[k] = seed ^ x;
	if (s.hi > s.lo) {
		v = seed ^ s.hi * STREAM_STEP;
		img[s.hi] = (img[s.hi] & ~s.hi_mask) | (v & s.hi_mask);
	}
}

static inline bool bytes_intact(const uint64_t *img, unsigned shift,
				uint64_t o, uint64_t e, uint64_t seed)
{
	struct span s;
	uint64_t bad, k, x;

	if (!span_of(shift, o, e, &s))
		return true;
	bad = (img[s.lo] ^ seed ^ s.lo * STREAM_STEP) & s.lo_mask;
	k = s.lo + 1;
	x = k * STREAM_STEP;
	if (k + 2 <= s.hi) {
		two_words xs = { x, x + STREAM_STEP }, seeds = { seed, seed };
		two_words acc = { 0, 0 };
		const two_words step = { 2 * STREAM_STEP, 2 * STREAM_STEP };

		for (; k + 2 <= s.hi; k += 2, xs += step) {
			two_words w;

			memcpy(&w, &img[k], sizeof(w));
			acc |= w ^ seeds ^ xs;
		}
		x = xs[0];
		bad |= acc[0] | acc[1];
	}
	for (; k < s.hi; k++, x += STREAM_STEP)
		bad |= img[k] ^ seed ^ x;
	if (s.hi > s.lo)
		bad |= (img[s.hi] ^ seed ^ s.hi * STREAM_STEP) & s.hi_mask;
	return bad == 0;
}

static void write_buffer(struct exec *ex, size_t i, uint64_t seed)
{
	uint64_t o = ex->plan->offset[i];

	write_bytes(ex->image, ex->shift, o, o + ex->p->buf[i].size, seed);
}

static bool verify_buffer(struct exec *ex, size_t i, uint64_t seed)
{
	uint64_t o = ex->plan->offset[i];

	return bytes_intact(ex->image, ex->shift, o, o + ex->p->buf[i].size, seed);
}

static bool addr_overlap(const struct exec *ex, size_t a, size_t b)
{
	uint64_t oa = ex->plan->offset[a], ob = ex->plan->offset[b];

	return a != b && ex->p->buf[a].size && ex->p->buf[b].size &&
	       oa < ob + ex->p->buf[b].size && ob < oa + ex->p->buf[a].size;
}

static enum ab_verdict stomp(struct ab_check_result *res, size_t victim,
			     size_t culprit, int32_t step)
{
	res->verdict = AB_PLAN_STOMP;
	res->a = victim;
	res->b = culprit;
	res->step = step;
	return AB_PLAN_STOMP;
}

/* -------------------------------------------------------------- graph mode */

struct graph_exec {
	struct exec ex;
	const struct ab_graph *g;
	int32_t *buf_of;   /* tensor -> buffer or -1 (not in the arena) */
	uint64_t *seed;    /* tensor -> content seed */
	int32_t *written;  /* tensor -> step written (-1: graph-provided) */
	uint8_t *by_op;    /* tensor -> 1 when an operator writes it */
};

/* Do buffers a and b share a byte?  (The same buffer shares them all.) */
static bool buffers_meet(const struct exec *ex, size_t a, size_t b)
{
	return a == b ? ex->p->buf[a].size != 0 : addr_overlap(ex, a, b);
}

/* The tensor of the latest write at or before `step` that overlaps the
 * victim's bytes (another tensor of the same buffer, under in-place reuse,
 * counts), or -1. */
static int32_t find_culprit_graph(struct graph_exec *ge, size_t victim_t,
				  int32_t step)
{
	size_t victim = (size_t)ge->buf_of[victim_t];
	int32_t from = ge->written[victim_t] < 0 ? 0 : ge->written[victim_t];

	for (int32_t k = step; k >= from; k--) {
		const struct ab_op *op = &ge->g->ops[k];
		int lists[2] = { op->n_outputs, op->n_scratch };
		const int *idx[2] = { op->outputs, op->scratch };

		for (int l = 0; l < 2; l++)
			for (int j = 0; j < lists[l]; j++) {
				int t = idx[l][j];

				if (t >= 0 && (size_t)t != victim_t &&
				    ge->buf_of[t] >= 0 &&
				    buffers_meet(&ge->ex, victim,
						 (size_t)ge->buf_of[t]))
					return t;
			}
	}
	/* Else a tensor the caller provided at the start. */
	for (size_t t = 0; t < ge->g->n_tensors; t++)
		if (t != victim_t && !ge->by_op[t] && ge->buf_of[t] >= 0 &&
		    buffers_meet(&ge->ex, victim, (size_t)ge->buf_of[t]))
			return (int32_t)t;
	return -1;
}

/* Tensor t failed its check at `step`, where the writes of ops up to
 * `written_by` have happened: report it and the write that hit it (buffer
 * and tensor indices; the victim itself if none is found). */
static enum ab_verdict stomp_tensor(struct graph_exec *ge,
				    struct ab_check_result *res, int t,
				    int32_t step, int32_t written_by)
{
	int32_t culprit = find_culprit_graph(ge, (size_t)t, written_by);

	stomp(res, (size_t)ge->buf_of[t],
	      culprit >= 0 ? (size_t)ge->buf_of[culprit]
			   : (size_t)ge->buf_of[t],
	      step);
	res->tensor_a = t;
	res->tensor_b = culprit >= 0 ? culprit : t;
	return AB_PLAN_STOMP;
}

static bool check_tensor(struct graph_exec *ge, int t)
{
	return t < 0 || ge->buf_of[t] < 0 ||
	       verify_buffer(&ge->ex, (size_t)ge->buf_of[t], ge->seed[t]);
}

/* In-place semantics: an elementwise op that writes an output into an
 * input's own buffer really overwrites that input; the input is dead from
 * then on, so it is not verified again after the op's writes.  Any later
 * read of it still is, and fails. */
static bool overwritten_in_place(const struct graph_exec *ge,
				 const struct ab_op *op, int t)
{
	if (!(op->flags & AB_OP_ELEMENTWISE) || t < 0 || ge->buf_of[t] < 0)
		return false;
	for (int j = 0; j < op->n_outputs; j++)
		if (op->outputs[j] >= 0 && op->outputs[j] != t &&
		    ge->buf_of[op->outputs[j]] == ge->buf_of[t])
			return true;
	return false;
}

/*
 * What must survive comes from the graph's declarations and the operator
 * order alone, never from the problem's intervals: a tensor no operator
 * writes (graph input, var, a graph output passed through or left to the
 * runtime, a tensor the runtime provides) holds the caller's contents from
 * the start; every operator's inputs hold their producer's contents when it
 * runs; graph outputs (and vars, and under tflite, whose inputs are
 * preserved, graph inputs) hold theirs at the end.  The problem says only
 * where each tensor is (buf_of).
 */
static enum ab_verdict run_graph(struct graph_exec *ge,
				 enum ab_lifetime_rule rule,
				 struct ab_check_result *res)
{
	const struct ab_graph *g = ge->g;
	int32_t last = (int32_t)g->n_ops - 1;

	for (size_t t = 0; t < g->n_tensors; t++) {
		ge->seed[t] = hash_str(ab_mix64(t) ^ 0x1234, g->tensors[t].name);
		ge->written[t] = -1;
		ge->by_op[t] = 0;
	}
	for (size_t k = 0; k < g->n_ops; k++) {
		const struct ab_op *op = &g->ops[k];

		for (int j = 0; j < op->n_outputs; j++)
			if (op->outputs[j] >= 0)
				ge->by_op[op->outputs[j]] = 1;
		for (int j = 0; j < op->n_scratch; j++)
			if (op->scratch[j] >= 0)
				ge->by_op[op->scratch[j]] = 1;
	}
	/* The caller's contents, then a check that none hit another. */
	for (size_t t = 0; t < g->n_tensors; t++)
		if (ge->buf_of[t] >= 0 && !ge->by_op[t])
			write_buffer(&ge->ex, (size_t)ge->buf_of[t], ge->seed[t]);
	for (size_t t = 0; t < g->n_tensors; t++)
		if (!ge->by_op[t] && !check_tensor(ge, (int)t))
			return stomp_tensor(ge, res, (int)t, 0, -1);
	for (size_t k = 0; k < g->n_ops; k++) {
		const struct ab_op *op = &g->ops[k];
		uint64_t h = hash_str(0xabcdef, op->name);

		for (int pass = 0; pass < 2; pass++) {
			for (int j = 0; j < op->n_inputs; j++) {
				int t = op->inputs[j];

				if (pass && overwritten_in_place(ge, op, t))
					continue;
				if (!check_tensor(ge, t))
					return stomp_tensor(ge, res, t, (int32_t)k,
							    (int32_t)k - !pass);
			}
			if (pass)
				break;
			/* Outputs depend on the op and its inputs' contents. */
			for (int j = 0; j < op->n_inputs; j++)
				h = ab_mix64(h ^ (op->inputs[j] < 0 ? 0x77 : ge->seed[op->inputs[j]]));
			for (int j = 0; j < op->n_outputs; j++) {
				int t = op->outputs[j];

				ge->seed[t] = ab_mix64(h + (uint64_t)j);
				ge->written[t] = (int32_t)k;
				if (ge->buf_of[t] >= 0)
					write_buffer(&ge->ex, (size_t)ge->buf_of[t], ge->seed[t]);
			}
			for (int j = 0; j < op->n_scratch; j++) {
				int t = op->scratch[j];

				ge->seed[t] = ab_mix64(h ^ (0x5c5cull + (uint64_t)j));
				ge->written[t] = (int32_t)k;
				if (ge->buf_of[t] >= 0)
					write_buffer(&ge->ex, (size_t)ge->buf_of[t], ge->seed[t]);
			}
		}
		/* After all writes of the step: outputs and scratch intact. */
		for (int l = 0; l < 2; l++) {
			int n = l ? op->n_scratch : op->n_outputs;
			const int *idx = l ? op->scratch : op->outputs;

			for (int j = 0; j < n; j++)
				if (!check_tensor(ge, idx[j]))
					return stomp_tensor(ge, res, idx[j], (int32_t)k,
							    (int32_t)k);
		}
	}
	for (size_t t = 0; t < g->n_tensors; t++) {
		const struct ab_tensor *tt = &g->tensors[t];
		unsigned roles = ab_tensor_roles(tt);

		if (((roles & AB_ROLE_GRAPH_OUTPUT) || tt->kind == AB_KIND_VAR ||
		     ((roles & AB_ROLE_GRAPH_INPUT) &&
		      rule == AB_LIFETIMES_TFLITE)) &&
		    !check_tensor(ge, (int)t))
			return stomp_tensor(ge, res, (int)t, last, last);
	}
	/* Every output was just verified to hold its seed's stream. */
	res->outputs_digest = ab_mix64(0x6f7574ull);
	for (size_t t = 0; t < g->n_tensors; t++)
		if (ab_tensor_roles(&g->tensors[t]) & AB_ROLE_GRAPH_OUTPUT)
			res->outputs_digest = ab_mix64(res->outputs_digest ^ ge->seed[t]);
	return AB_PLAN_VALID;
}

/* ------------------------------------------------------------ problem mode */

static size_t find_culprit_problem(struct exec *ex, size_t victim,
				   int32_t step)
{
	size_t best = victim;
	int32_t best_first = -1;

	for (size_t j = 0; j < ex->p->n; j++) {
		int32_t f = ex->p->buf[j].first;

		if (f >= ex->p->buf[victim].first && f <= step &&
		    f >= best_first && addr_overlap(ex, victim, j)) {
			best = j;
			best_first = f;
		}
	}
	return best;
}

/* A buffer as the problem mode's loops read it, in the order of its
 * events (first uses, then last uses), so that the loops read memory in
 * order.  24 bytes: two arrays of 10^6 stay below the heap's mmap
 * threshold (cli/main.c), so they reuse the pages of earlier stages. */
struct event {
	uint64_t offset, end;
	uint32_t buffer;
	int32_t time;
};

/* Buffer i's content: its own seed (distinct buffers, distinct seeds). */
static inline uint64_t buffer_seed(uint32_t i)
{
	return ab_mix64(0x5eedull + i);
}

/* ev_first and ev_last: every buffer by first use and by last use (ties
 * by index), each with its bytes. */
static int problem_events(const struct exec *ex, struct event *ev_first,
			  struct event *ev_last)
{
	const struct ab_problem *p = ex->p;
	uint32_t *rank = ab_alloc_large((p->n + 1) * sizeof(*rank));
	int rc = -ENOMEM;

	if (!rank)
		return rc;
	for (int pass = 0; pass < 2; pass++) {
		struct event *ev = pass ? ev_last : ev_first;

		rc = ab_rank_by_time(p, pass == 1, rank);
		if (rc)
			break;
		for (size_t i = 0; i < p->n; i++) {
			uint64_t o = ex->plan->offset[i];

			ev[rank[i]] = (struct event){
				.offset = o,
				.end = o + p->buf[i].size,
				.buffer = (uint32_t)i,
				.time = pass ? p->buf[i].last : p->buf[i].first,
			};
		}
	}
	free(rank);
	return rc;
}

static bool event_intact(const struct exec *ex, const struct event *e)
{
	return bytes_intact(ex->image, ex->shift, e->offset, e->end,
			    buffer_seed(e->buffer));
}

/*
 * Every distinct time is a step: at time t the buffers first used at t
 * are written, then verified, then those last used at t are verified.
 */
static enum ab_verdict run_problem(struct exec *ex, struct ab_check_result *res)
{
	size_t n = ex->p->n, jl = 0;
	struct event *ev_first = ab_alloc_large((n + 1) * sizeof(*ev_first));
	struct event *ev_last = ab_alloc_large((n + 1) * sizeof(*ev_last));
	enum ab_verdict v = AB_PLAN_VALID;

	if (!ev_first || !ev_last || problem_events(ex, ev_first, ev_last)) {
		v = res->verdict = AB_PLAN_CHECK_FAILED;
		goto out;
	}
	for (size_t jf = 0; jf < n || jl < n;) {
		/* The next time at which something is written or ends. */
		int32_t t = jf < n ? ev_first[jf].time : INT32_MAX;
		size_t j0 = jf;
		const struct event *bad = NULL;

		if (jl < n && (jf == n || ev_last[jl].time < t))
			t = ev_last[jl].time;
		for (; jf < n && ev_first[jf].time == t; jf++)
			write_bytes(ex->image, ex->shift, ev_first[jf].offset,
				    ev_first[jf].end, buffer_seed(ev_first[jf].buffer));
		/* the last one written is intact: nothing was written after it */
		for (size_t j = j0; j + 1 < jf && !bad; j++)
			if (!event_intact(ex, &ev_first[j]))
				bad = &ev_first[j];
		for (; jl < n && ev_last[jl].time == t && !bad; jl++)
			if (!event_intact(ex, &ev_last[jl]))
				bad = &ev_last[jl];
		if (bad) {
			v = stomp(res, bad->buffer,
				  find_culprit_problem(ex, bad->buffer, t), t);
			goto out;
		}
	}
out:
	free(ev_first);
	free(ev_last);
	return v;
}

/* tensor -> buffer: the problem's map (shared buffers under in-place
 * reuse), or, for a problem built by hand without one, each buffer's own
 * tensor.  Out-of-range entries are ignored (not in the arena). */
static void map_tensors(const struct ab_graph *g, const struct ab_problem *p,
			int32_t *buf_of)
{
	for (size_t t = 0; t < g->n_tensors; t++)
		buf_of[t] = -1;
	if (p->tensor_buffer && p->n_tensors == g->n_tensors) {
		for (size_t t = 0; t < g->n_tensors; t++)
			if (p->tensor_buffer[t] >= 0 &&
			    (size_t)p->tensor_buffer[t] < p->n)
				buf_of[t] = p->tensor_buffer[t];
		return;
	}
	for (size_t i = 0; i < p->n; i++)
		if (p->tensor[i] >= 0 && (size_t)p->tensor[i] < g->n_tensors)
			buf_of[p->tensor[i]] = (int32_t)i;
}

/*
 * Control flow: every path a runtime can take (check/paths.h) runs as a
 * graph of its own over the same tensors and plan.  A tensor the path
 * neither reads nor writes (a branch not taken, a loop body run zero
 * times) is left out: its bytes may belong to others on this path.  A
 * stomp's step is the flat index of the operator that found it.
 */
static enum ab_verdict run_paths(struct graph_exec *ge,
				 enum ab_lifetime_rule rule,
				 struct ab_check_result *res)
{
	const struct ab_graph *g = ge->g;
	int32_t *all = malloc((g->n_tensors + 1) * sizeof(*all));
	uint8_t *touched = malloc(g->n_tensors + 1);
	struct ab_path *paths = NULL;
	enum ab_verdict v = AB_PLAN_VALID;
	uint64_t digest = 0;
	size_t n = 0;

	if (!all || !touched || ab_control_paths(g, &paths, &n)) {
		free(all);
		free(touched);
		res->verdict = AB_PLAN_CHECK_FAILED;
		return AB_PLAN_CHECK_FAILED;
	}
	memcpy(all, ge->buf_of, g->n_tensors * sizeof(*all));
	for (size_t i = 0; i < n && v == AB_PLAN_VALID; i++) {
		struct ab_graph pg = *g;

		pg.n_subgraphs = 0;
		pg.subgraphs = NULL;
		pg.ops = paths[i].ops;
		pg.n_ops = paths[i].n;
		memset(touched, 0, g->n_tensors);
		for (size_t k = 0; k < pg.n_ops; k++) {
			const struct ab_op *op = &pg.ops[k];

			for (int j = 0; j < op->n_inputs; j++)
				if (op->inputs[j] >= 0)
					touched[op->inputs[j]] = 1;
			for (int j = 0; j < op->n_outputs; j++)
				touched[op->outputs[j]] = 1;
			for (int j = 0; j < op->n_scratch; j++)
				touched[op->scratch[j]] = 1;
		}
		for (size_t t = 0; t < g->n_tensors; t++)
			ge->buf_of[t] = touched[t] ? all[t] : -1;
		ge->g = &pg;
		v = run_graph(ge, rule, res);
		ge->g = g;
		if (v == AB_PLAN_STOMP && res->step >= 0 &&
		    (size_t)res->step < paths[i].n)
			res->step = paths[i].flat[res->step];
		if (i == 0)
			digest = res->outputs_digest;
	}
	if (v == AB_PLAN_VALID)
		res->outputs_digest = digest;
	memcpy(ge->buf_of, all, g->n_tensors * sizeof(*all));
	ab_paths_free(paths, n);
	free(all);
	free(touched);
	return v;
}

enum ab_verdict ab_execute_plan(const struct ab_graph *g,
				const struct ab_problem *p,
				const struct ab_plan *plan,
				const enum ab_exec_mode *force,
				enum ab_exec_mode *mode,
				struct ab_check_result *res)
{
	struct ab_exec_memory memory = { 0 };
	enum ab_verdict v = ab_execute_plan_reuse(g, p, plan, force,
						  mode, res, &memory);

	free(memory.words);
	return v;
}

unsigned ab_exec_sample_shift(uint64_t peak)
{
	unsigned shift = AB_EXEC_SAMPLE_SHIFT;

	while ((peak >> shift) > (AB_EXEC_SAMPLED_FINE_BYTES >> AB_EXEC_SAMPLE_SHIFT))
		shift++;
	return shift;
}

enum ab_verdict ab_execute_plan_reuse(const struct ab_graph *g,
				      const struct ab_problem *p,
				      const struct ab_plan *plan,
				      const enum ab_exec_mode *force,
				      enum ab_exec_mode *mode,
				      struct ab_check_result *res,
				      struct ab_exec_memory *memory)
{
	struct ab_check_result dummy;
	struct exec ex = { .p = p, .plan = plan };
	enum ab_exec_mode m;
	enum ab_verdict v;
	size_t words;

	if (!res)
		res = &dummy;
	memset(res, 0, sizeof(*res));
	res->step = -1;
	res->tensor_a = res->tensor_b = -1;
	if (force) {
		m = *force;
	} else {
		m = p->n > AB_EXEC_FULL_MAX_BUFFERS ||
				    ab_sum_bytes(p) > AB_EXEC_FULL_MAX_BYTES
			    ? AB_EXEC_SAMPLED
			    : AB_EXEC_FULL;
	}
	if (m == AB_EXEC_FULL && plan->peak > AB_EXEC_MAX_ARENA_BYTES)
		m = force ? AB_EXEC_SKIPPED : AB_EXEC_SAMPLED;
	if (mode)
		*mode = m;
	if (m == AB_EXEC_SKIPPED || p->n == 0)
		return AB_PLAN_VALID;
	ex.shift = m == AB_EXEC_SAMPLED ? ab_exec_sample_shift(plan->peak) : 3;
	words = (plan->peak >> ex.shift) + 1; /* at most 2^29 + 1 (full) */
	if (memory->cap < words) {
		free(memory->words);
		memory->cap = 0;
		/* full mode's image is the arena, on huge pages */
		memory->words = ab_alloc_large(words * sizeof(*memory->words));
		if (!memory->words) {
			res->verdict = AB_PLAN_CHECK_FAILED;
			return AB_PLAN_CHECK_FAILED;
		}
		memory->cap = words;
	}
	ex.image = memory->words;
	if (g) {
		struct graph_exec ge = { .ex = ex, .g = g };

		ge.buf_of = malloc((g->n_tensors + 1) * sizeof(*ge.buf_of));
		ge.seed = malloc((g->n_tensors + 1) * sizeof(*ge.seed));
		ge.written = malloc((g->n_tensors + 1) * sizeof(*ge.written));
		ge.by_op = malloc(g->n_tensors + 1);
		if (!ge.buf_of || !ge.seed || !ge.written || !ge.by_op) {
			v = res->verdict = AB_PLAN_CHECK_FAILED;
		} else {
			map_tensors(g, p, ge.buf_of);
			v = g->n_subgraphs ? run_paths(&ge, p->lifetimes, res)
					   : run_graph(&ge, p->lifetimes, res);
		}
		free(ge.buf_of);
		free(ge.seed);
		free(ge.written);
		free(ge.by_op);
	} else {
		v = run_problem(&ex, res);
	}
	return v;
}
