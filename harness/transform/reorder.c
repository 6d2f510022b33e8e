/*
 * Operator reordering (contract in reorder.h; write-up in docs/reorder.md).
 *
 * Model.  Run the ops in some order; when op v runs after the set S of ops,
 * the bytes live at its step are resident(S) + alloc(v): resident(S) holds
 * the constants (vars, and graph inputs under tflite), the graph inputs and
 * the tensors made by S that an op outside S still reads, and the graph
 * outputs made by S; alloc(v) is v's outputs and scratch.  After the step,
 * v's scratch, its never-read outputs and the inputs v was the last to read
 * leave.  resident(S) depends on the set S only, not on the order within
 * it, which is what makes the layered search over downsets exact.  The
 * model's peak equals the lower bound of ab_problem_from_graph (every rule,
 * rounding included; tests/test_reorder.c checks it on random orders).
 *
 * greedy: memory-aware list scheduling.  Among the ready ops pick by
 *   (a) LPMF, "least peak memory first", the rule of PyTorch inductor's
 *       topological_sort_lpmf (torch/_inductor/memory.py): the smallest
 *       max(peak so far, step bytes), then the smallest alloc - freed;
 *   (b) free-most-first: the smallest alloc - freed (the op that frees the
 *       most), then the smallest step bytes;
 *   and keep the lowest of (a), (b) and the file's order, as inductor's
 *   reorder_for_peak_memory keeps the best of its heuristics.
 *   O(n r d): n ops, r ops ready at a step, d readers per input read.
 * beam: layer k holds partial schedules of k ops, merged when they ran the
 *   same set of ops (Zobrist hash, exact compare; the lower peak stays),
 *   ranked by (max(peak, static bound), resident bytes), the best W kept;
 *   schedules whose peak reaches the greedy's are dropped.  When no layer is
 *   cut this is the exact dynamic program over downsets (zero-indegree
 *   sets) of SERENITY (Ahn et al., "Ordering Chaos", MLSys 2020), so the
 *   result is optimal.  O(n W r (d + n/64)) time, O(n W) memory.
 *
 * Weak spots: the beam's ranking is myopic (a schedule that postpones a big
 * op looks cheap until it must run it); wide graphs (many independent ops,
 * e.g. the weight-gradient ops of a backward pass) have far more downsets
 * than any width, so there the result is a heuristic.  OLLA (Steiner et al.
 * 2022) and MODeL solve ordering (with placement) as an integer program; we
 * do not, to stay well under a second without a solver.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "transform/reorder.h"

static const char *const method_names[AB_REORDER_COUNT] = {
	[AB_REORDER_NONE] = "none",
	[AB_REORDER_GREEDY] = "greedy",
	[AB_REORDER_BEAM] = "beam",
	[AB_REORDER_INDUCTOR] = "inductor",
};

const char *ab_reorder_method_name(enum ab_reorder_method m)
{
	return (unsigned)m < AB_REORDER_COUNT ? method_names[m] : "?";
}

int ab_reorder_method_from_name(const char *s)
{
	for (int i = 0; i < AB_REORDER_COUNT; i++)
		if (strcmp(s, method_names[i]) == 0)
			return i;
	return -1;
}

/* ------------------------------------------------------------------- model */

struct model {
	size_t n;               /* operators */
	size_t n_tensors;
	uint64_t *bytes;        /* tensor -> bytes in the arena (0 = none) */
	int32_t *n_readers;     /* freeable tensor -> distinct ops reading it */
	int32_t *reader_off;    /* freeable tensor -> its readers (CSR) */
	int32_t *reader;
	int32_t *in_off, *in;   /* op -> distinct freeable tensors it reads */
	int32_t *pred_off, *pred; /* op -> distinct ops it must follow */
	int32_t *succ_off, *succ;
	uint64_t *alloc;        /* op -> bytes of its outputs and scratch */
	uint64_t *drop;         /* op -> of those, bytes gone after its step */
	int32_t *phase;         /* op -> phase index in the file's order */
	uint64_t resident0;     /* bytes live before any op has run */
	uint64_t first_extra;   /* live at the first op's step only */
	uint64_t floor;         /* tflm: bytes live at step 0, before op 0 */
	uint64_t static_lb;     /* no order has a lower peak */
};

static void model_free(struct model *m)
{
	free(m->bytes);
	free(m->n_readers);
	free(m->reader_off);
	free(m->reader);
	free(m->in_off);
	free(m->in);
	free(m->pred_off);
	free(m->pred);
	free(m->succ_off);
	free(m->succ);
	free(m->alloc);
	free(m->drop);
	free(m->phase);
	memset(m, 0, sizeof(*m));
}

struct edge {
	int32_t from, to;
};

struct edges {
	struct edge *e;
	size_t n, cap;
};

static int edge_add(struct edges *es, int32_t from, int32_t to)
{
	if (from < 0 || from == to)
		return 0;
	if (es->n == es->cap) {
		size_t cap = es->cap ? 2 * es->cap : 256;
		struct edge *e = realloc(es->e, cap * sizeof(*e));

		if (!e)
			return -ENOMEM;
		es->e = e;
		es->cap = cap;
	}
	es->e[es->n++] = (struct edge){ from, to };
	return 0;
}

/*
 * The ordering constraints as edges from -> to, in the file's order:
 * data (producer -> reader), the chain of side-effect ops, and for each
 * var its writers (side-effect ops listing it) against its other readers
 * (read after write and write after read).
 */
static int collect_edges(const struct ab_graph *g, const int32_t *producer,
			 struct edges *es)
{
	size_t nt = g->n_tensors;
	int32_t *last_writer = malloc((nt + 1) * sizeof(*last_writer));
	/* Readers of each var since its last writer: a linked list. */
	int32_t *head = malloc((nt + 1) * sizeof(*head));
	int32_t *next = NULL, *who = NULL;
	size_t n_links = 0, cap_links = 0;
	int32_t last_side_effect = -1;
	int rc = 0;

	if (!last_writer || !head) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t t = 0; t < nt; t++)
		last_writer[t] = head[t] = -1;
	for (size_t k = 0; k < g->n_ops && !rc; k++) {
		const struct ab_op *op = &g->ops[k];
		bool writes = op->flags & AB_OP_SIDE_EFFECT;

		if (writes) {
			rc = edge_add(es, last_side_effect, (int32_t)k);
			last_side_effect = (int32_t)k;
		}
		for (int i = 0; i < op->n_inputs && !rc; i++) {
			int t = op->inputs[i];

			if (t < 0)
				continue;
			rc = edge_add(es, producer[t], (int32_t)k);
			if (rc || g->tensors[t].kind != AB_KIND_VAR)
				continue;
			rc = edge_add(es, last_writer[t], (int32_t)k);
			if (writes) {
				for (int32_t l = head[t]; l >= 0 && !rc; l = next[l])
					rc = edge_add(es, who[l], (int32_t)k);
				head[t] = -1;
				last_writer[t] = (int32_t)k;
			} else if (!rc) {
				if (n_links == cap_links) {
					size_t cap = cap_links ? 2 * cap_links : 64;
					int32_t *nn = realloc(next, cap * sizeof(*nn));
					int32_t *ww;

					if (!nn) {
						rc = -ENOMEM;
						break;
					}
					next = nn;
					ww = realloc(who, cap * sizeof(*ww));
					if (!ww) {
						rc = -ENOMEM;
						break;
					}
					who = ww;
					cap_links = cap;
				}
				who[n_links] = (int32_t)k;
				next[n_links] = head[t];
				head[t] = (int32_t)n_links++;
			}
		}
	}
out:
	free(last_writer);
	free(head);
	free(next);
	free(who);
	return rc;
}

/* Distinct predecessors (CSR by `to`) and successors (CSR by `from`). */
static int build_adjacency(struct model *m, const struct edges *es)
{
	size_t n = m->n;
	int32_t *mark = malloc((n + 1) * sizeof(*mark));
	int32_t *fill = NULL;
	size_t np = 0;
	int rc = -ENOMEM;

	m->pred_off = calloc(n + 1, sizeof(*m->pred_off));
	m->succ_off = calloc(n + 1, sizeof(*m->succ_off));
	m->pred = malloc((es->n + 1) * sizeof(*m->pred));
	m->succ = malloc((es->n + 1) * sizeof(*m->succ));
	fill = malloc((n + 1) * sizeof(*fill));
	if (!mark || !m->pred_off || !m->succ_off || !m->pred || !m->succ ||
	    !fill)
		goto out;
	/* Bucket the edges by `to`, then drop repeats within a bucket. */
	for (size_t i = 0; i < es->n; i++)
		m->pred_off[es->e[i].to + 1]++;
	for (size_t v = 0; v < n; v++)
		m->pred_off[v + 1] += m->pred_off[v];
	memcpy(fill, m->pred_off, n * sizeof(*fill));
	for (size_t i = 0; i < es->n; i++)
		m->pred[fill[es->e[i].to]++] = es->e[i].from;
	for (size_t v = 0; v < n; v++)
		mark[v] = -1;
	for (size_t v = 0; v < n; v++) {
		int32_t from = m->pred_off[v], to = m->pred_off[v + 1];

		m->pred_off[v] = (int32_t)np;
		for (int32_t i = from; i < to; i++) {
			int32_t u = m->pred[i];

			if (mark[u] != (int32_t)v) {
				mark[u] = (int32_t)v;
				m->pred[np++] = u;
			}
		}
	}
	m->pred_off[n] = (int32_t)np;
	for (size_t i = 0; i < np; i++)
		m->succ_off[m->pred[i] + 1]++;
	for (size_t v = 0; v < n; v++)
		m->succ_off[v + 1] += m->succ_off[v];
	memcpy(fill, m->succ_off, n * sizeof(*fill));
	/* Visiting `to` in ascending order keeps every successor list sorted. */
	for (size_t v = 0; v < n; v++)
		for (int32_t i = m->pred_off[v]; i < m->pred_off[v + 1]; i++)
			m->succ[fill[m->pred[i]]++] = (int32_t)v;
	rc = 0;
out:
	free(mark);
	free(fill);
	return rc;
}

static int model_build(const struct ab_graph *g,
		       const struct ab_problem_options *popt, struct model *m,
		       struct ab_error *err)
{
	const bool tflm = popt->lifetimes == AB_LIFETIMES_TFLM;
	const bool tflite = popt->lifetimes == AB_LIFETIMES_TFLITE;
	size_t n = g->n_ops, nt = g->n_tensors;
	int32_t *producer = malloc((nt + 1) * sizeof(*producer));
	int32_t *owner = malloc((nt + 1) * sizeof(*owner));
	int32_t *mark = malloc((nt + 1) * sizeof(*mark));
	bool *freeable = calloc(nt + 1, sizeof(*freeable));
	bool *resident = calloc(nt + 1, sizeof(*resident)); /* whole run */
	uint64_t constant = 0, unread_inputs = 0;
	struct edges es = { 0 };
	size_t n_in = 0;
	int32_t phase = 0;
	int rc = -ENOMEM;

	memset(m, 0, sizeof(*m));
	m->n = n;
	m->n_tensors = nt;
	m->bytes = calloc(nt + 1, sizeof(*m->bytes));
	m->n_readers = calloc(nt + 1, sizeof(*m->n_readers));
	m->reader_off = calloc(nt + 1, sizeof(*m->reader_off));
	m->in_off = calloc(n + 1, sizeof(*m->in_off));
	m->alloc = calloc(n + 1, sizeof(*m->alloc));
	m->drop = calloc(n + 1, sizeof(*m->drop));
	m->phase = malloc((n + 1) * sizeof(*m->phase));
	if (!producer || !owner || !mark || !freeable || !resident || !m->bytes ||
	    !m->n_readers || !m->reader_off || !m->in_off || !m->alloc ||
	    !m->drop || !m->phase)
		goto out;
	for (size_t t = 0; t < nt; t++)
		producer[t] = owner[t] = mark[t] = -1;
	for (size_t k = 0; k < n; k++) {
		const struct ab_op *op = &g->ops[k];

		for (int i = 0; i < op->n_outputs; i++)
			producer[op->outputs[i]] = (int32_t)k;
		for (int i = 0; i < op->n_scratch; i++)
			owner[op->scratch[i]] = (int32_t)k;
		for (int i = 0; i < op->n_inputs; i++) {
			int t = op->inputs[i];

			if (t >= 0 && mark[t] != (int32_t)k) {
				mark[t] = (int32_t)k;
				m->n_readers[t]++;
			}
		}
		phase += k > 0 && op->phase_start;
		m->phase[k] = phase;
	}
	/* Each tensor's bytes and role, by the rules of harness/core/lifetime.c. */
	for (size_t t = 0; t < nt; t++) {
		const struct ab_tensor *tt = &g->tensors[t];
		uint64_t b = tt->bytes;

		if (tt->dtype == AB_DTYPE_STRING)
			b = 0;
		if (b && popt->round_to > 1) {
			if (b > UINT64_MAX - popt->round_to) {
				rc = ab_fail(err, -EOVERFLOW, "graph '%s': tensor '%s': size overflows when rounded",
					     g->name, tt->name);
				goto out_err;
			}
			b = ab_align_up(b, popt->round_to);
		}
		switch (tt->kind) {
		case AB_KIND_CONST:
			b = 0;
			break;
		case AB_KIND_VAR:
			/* tflite, tflm: variables live outside the arena */
			b = tflm || tflite ? 0 : b;
			constant += b;
			resident[t] = true;
			break;
		case AB_KIND_SCRATCH:
			if (owner[t] >= 0) {
				m->alloc[owner[t]] += b;
				m->drop[owner[t]] += b;
			}
			break;
		default: {
			/* The cases of activation_range (core/lifetime.c). */
			unsigned roles = ab_tensor_roles(tt);
			bool in = roles & AB_ROLE_GRAPH_INPUT;
			bool outp = roles & AB_ROLE_GRAPH_OUTPUT;
			bool written = producer[t] >= 0, read = m->n_readers[t] > 0;
			bool from0 = in || !written;
			bool to_end = outp || (in && tflite) ||
				      (tflite && written && !read);

			if (!in && !outp && !written && !read) {
				b = 0;
			} else if (from0 && to_end) {
				constant += b;
				resident[t] = true;
			} else if (from0) {
				if (read) {
					m->resident0 += b;
					freeable[t] = true;
				} else {
					unread_inputs += b; /* [0, 0] */
				}
			} else {
				m->alloc[producer[t]] += b;
				if (to_end)
					; /* never freed */
				else if (read)
					freeable[t] = true;
				else
					m->drop[producer[t]] += b; /* [p, p] */
			}
			break;
		}
		}
		m->bytes[t] = b;
	}
	/* tflm: step 0 comes before op 0 and holds the inputs; an input no op
	 * reads lives only there.  Otherwise it lives at the first op's step. */
	if (tflm)
		m->floor = m->resident0 + unread_inputs;
	else
		m->first_extra = unread_inputs;
	m->resident0 += constant;
	/* Readers of the freeable tensors, and their inverse per op. */
	for (size_t t = 0; t < nt; t++)
		m->reader_off[t + 1] = m->reader_off[t] +
				       (freeable[t] ? m->n_readers[t] : 0);
	m->reader = malloc(((size_t)m->reader_off[nt] + 1) * sizeof(*m->reader));
	m->in = malloc(((size_t)m->reader_off[nt] + 1) * sizeof(*m->in));
	if (!m->reader || !m->in)
		goto out;
	for (size_t t = 0; t < nt; t++)
		mark[t] = -1;
	for (size_t k = 0; k < n; k++) {
		const struct ab_op *op = &g->ops[k];
		uint64_t need = constant + m->alloc[k];

		m->in_off[k] = (int32_t)n_in;
		for (int i = 0; i < op->n_inputs; i++) {
			int t = op->inputs[i];

			if (t < 0 || mark[t] == (int32_t)k)
				continue;
			mark[t] = (int32_t)k;
			if (!resident[t]) /* residents are in `constant` */
				need += m->bytes[t];
			if (freeable[t]) {
				m->in[n_in++] = (int32_t)t;
				m->reader[m->reader_off[t] + --m->n_readers[t]] =
					(int32_t)k;
			}
		}
		if (need > m->static_lb)
			m->static_lb = need;
	}
	m->in_off[n] = (int32_t)n_in;
	/* n_readers was counted down while filling: restore it. */
	for (size_t t = 0; t < nt; t++)
		m->n_readers[t] = m->reader_off[t + 1] - m->reader_off[t];
	if (m->floor > m->static_lb)
		m->static_lb = m->floor;
	if (collect_edges(g, producer, &es) || build_adjacency(m, &es))
		goto out;
	rc = 0;
out:
	if (rc)
		rc = ab_fail(err, -ENOMEM, "graph '%s': out of memory while reordering",
			     g->name);
out_err:
	if (rc)
		model_free(m);
	free(es.e);
	free(producer);
	free(owner);
	free(mark);
	free(freeable);
	free(resident);
	return rc;
}


/* The model's peak of running the ops in `order` (NULL: the file's). */
static int model_peak(const struct model *m, const int32_t *order,
		      uint64_t *peak_out)
{
	int32_t *left = malloc((m->n_tensors + 1) * sizeof(*left));
	uint64_t resident = m->resident0, peak = m->floor;

	if (!left)
		return -ENOMEM;
	memcpy(left, m->n_readers, m->n_tensors * sizeof(*left));
	for (size_t k = 0; k < m->n; k++) {
		int32_t v = order ? order[k] : (int32_t)k;
		uint64_t step = resident + m->alloc[v] + (k ? 0 : m->first_extra);

		if (step > peak)
			peak = step;
		resident += m->alloc[v] - m->drop[v];
		for (int32_t i = m->in_off[v]; i < m->in_off[v + 1]; i++)
			if (--left[m->in[i]] == 0)
				resident -= m->bytes[m->in[i]];
	}
	free(left);
	*peak_out = peak;
	return 0;
}

/* Sign of (a1 - f1) - (a2 - f2), without overflow. */
static int cmp_net(uint64_t a1, uint64_t f1, uint64_t a2, uint64_t f2)
{
	unsigned __int128 l = (unsigned __int128)a1 + f2;
	unsigned __int128 r = (unsigned __int128)a2 + f1;

	return l < r ? -1 : l > r;
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

/* Insert v into a list kept sorted by op index. */
static void ready_insert(int32_t *ready, size_t *n, int32_t v)
{
	size_t i = *n;

	while (i > 0 && ready[i - 1] > v) {
		ready[i] = ready[i - 1];
		i--;
	}
	ready[i] = v;
	(*n)++;
}

/* ------------------------------------------------------------------ greedy */

enum greedy_rule {
	RULE_LPMF,      /* least max(peak, step bytes), then least net */
	RULE_FREE_MOST, /* least net (frees the most), then least step bytes */
};

/* Memory-aware list scheduling by one rule; ties to the lower op index. */
static int greedy_schedule(const struct model *m, enum greedy_rule rule,
			   uint64_t start_peak, int32_t *order,
			   uint64_t *peak_out, uint64_t *states)
{
	size_t n = m->n, n_ready = 0;
	int32_t *indeg = malloc((n + 1) * sizeof(*indeg));
	int32_t *ready = malloc((n + 1) * sizeof(*ready));
	int32_t *left = malloc((m->n_tensors + 1) * sizeof(*left));
	uint64_t resident = m->resident0;
	uint64_t peak = m->floor > start_peak ? m->floor : start_peak;
	int rc = 0;

	if (!indeg || !ready || !left) {
		rc = -ENOMEM;
		goto out;
	}
	memcpy(left, m->n_readers, m->n_tensors * sizeof(*left));
	for (size_t v = 0; v < n; v++) {
		indeg[v] = m->pred_off[v + 1] - m->pred_off[v];
		if (indeg[v] == 0)
			ready[n_ready++] = (int32_t)v;
	}
	for (size_t k = 0; k < n; k++) {
		size_t pick = SIZE_MAX;
		uint64_t pick_step = 0, pick_freed = 0, pick_top = 0;
		int32_t v;

		for (size_t i = 0; i < n_ready; i++) {
			uint64_t freed, step, top;
			int c;

			v = ready[i];
			if (m->phase[v] != m->phase[k])
				continue; /* phases are barriers */
			freed = m->drop[v];
			for (int32_t j = m->in_off[v]; j < m->in_off[v + 1]; j++)
				if (left[m->in[j]] == 1)
					freed += m->bytes[m->in[j]];
			step = resident + m->alloc[v] + (k ? 0 : m->first_extra);
			top = step > peak ? step : peak;
			(*states)++;
			if (pick == SIZE_MAX) {
				c = -1;
			} else if (rule == RULE_LPMF) {
				c = cmp_u64(top, pick_top);
				if (!c)
					c = cmp_net(m->alloc[v], freed,
						    m->alloc[ready[pick]], pick_freed);
			} else {
				c = cmp_net(m->alloc[v], freed,
					    m->alloc[ready[pick]], pick_freed);
				if (!c)
					c = cmp_u64(step, pick_step);
			}
			if (c < 0) {
				pick = i;
				pick_step = step;
				pick_freed = freed;
				pick_top = top;
			}
		}
		if (pick == SIZE_MAX) {
			rc = -EINVAL; /* not a DAG in the file's order */
			goto out;
		}
		v = ready[pick];
		memmove(ready + pick, ready + pick + 1,
			(n_ready - pick - 1) * sizeof(*ready));
		n_ready--;
		order[k] = v;
		if (pick_step > peak)
			peak = pick_step;
		resident += m->alloc[v];
		resident -= pick_freed;
		for (int32_t j = m->in_off[v]; j < m->in_off[v + 1]; j++)
			left[m->in[j]]--;
		for (int32_t j = m->succ_off[v]; j < m->succ_off[v + 1]; j++)
			if (--indeg[m->succ[j]] == 0)
				ready_insert(ready, &n_ready, m->succ[j]);
	}
	*peak_out = peak;
out:
	free(indeg);
	free(ready);
	free(left);
	return rc;
}

/* ---------------------------------------------------------------- inductor */

/*
 * PyTorch inductor's reorder_for_peak_memory (torch/_inductor/memory.py at
 * a900a4db24854f738b70071b577ff81020f59600): the file's order and three
 * topological sorts, keeping the lowest estimated peak (ties: the earlier
 * of baseline, LPMF, BFS, DFS).
 *  - LPMF: the greedy's RULE_LPMF (key: max(live + the op's outputs, max
 *    so far), then outputs - bytes freed, then index), with the max so far
 *    starting at max(live inputs, the graph outputs' bytes) as inductor's.
 *  - BFS: among ready ops the one whose predecessors ran earliest: the
 *    sorted list of their positions, compared as lists (a prefix first),
 *    ties to the lower index.
 *  - DFS: ops by (outputs + bytes read, index), each visited after its
 *    predecessors in the same key order; post-order.
 * Differences: the estimate is this module's model (the lower bound under
 * the planning rules: scratch and the lifetime rule count), not inductor's
 * estimate_peak_memory; predecessors include this module's constraint
 * edges; LPMF and BFS keep phases as barriers, and a DFS order that leaves
 * a phase early is dropped (ab_reorder_check_order's rules hold for all).
 */

/* Is the sorted list a[0..na) before b[0..nb) as Python compares lists? */
static int cmp_list(const int32_t *a, size_t na, const int32_t *b, size_t nb)
{
	for (size_t i = 0; i < na && i < nb; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return na < nb ? -1 : na > nb;
}

static int cmp_i32(const void *pa, const void *pb)
{
	int32_t a = *(const int32_t *)pa, b = *(const int32_t *)pb;

	return a < b ? -1 : a > b;
}

static int inductor_bfs(const struct model *m, int32_t *order,
			uint64_t *states)
{
	size_t n = m->n, n_ready = 0;
	int32_t *indeg = malloc((n + 1) * sizeof(*indeg));
	int32_t *ready = malloc((n + 1) * sizeof(*ready));
	int32_t *at = malloc((n + 1) * sizeof(*at));
	int32_t *prio = malloc(((size_t)m->pred_off[n] + 1) * sizeof(*prio));
	size_t *len = malloc((n + 1) * sizeof(*len));
	int rc = 0;

	if (!indeg || !ready || !at || !prio || !len) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t v = 0; v < n; v++) {
		indeg[v] = m->pred_off[v + 1] - m->pred_off[v];
		len[v] = 0;
		if (!indeg[v])
			ready[n_ready++] = (int32_t)v;
	}
	for (size_t k = 0; k < n; k++) {
		size_t pick = SIZE_MAX;

		for (size_t i = 0; i < n_ready; i++) {
			int32_t v = ready[i], w;
			int c;

			if (m->phase[v] != m->phase[k])
				continue;
			(*states)++;
			if (pick == SIZE_MAX) {
				pick = i;
				continue;
			}
			w = ready[pick];
			c = cmp_list(prio + m->pred_off[v], len[v],
				     prio + m->pred_off[w], len[w]);
			if (c < 0 || (!c && v < w))
				pick = i;
		}
		if (pick == SIZE_MAX) {
			rc = -EINVAL;
			goto out;
		}
		int32_t v = ready[pick];

		ready[pick] = ready[--n_ready];
		order[k] = v;
		at[v] = (int32_t)k;
		for (int32_t j = m->succ_off[v]; j < m->succ_off[v + 1]; j++) {
			int32_t s = m->succ[j];

			if (--indeg[s])
				continue;
			/* Ready: its priority is its predecessors' positions. */
			int32_t *p = prio + m->pred_off[s];
			size_t np = 0;

			for (int32_t q = m->pred_off[s]; q < m->pred_off[s + 1]; q++)
				p[np++] = at[m->pred[q]];
			qsort(p, np, sizeof(*p), cmp_i32);
			len[s] = np; /* predecessors are distinct: no repeats */
			ready[n_ready++] = s;
		}
	}
out:
	free(indeg);
	free(ready);
	free(at);
	free(prio);
	free(len);
	return rc;
}

struct keyed {
	uint64_t key;
	int32_t v;
};

static int cmp_keyed(const void *pa, const void *pb)
{
	const struct keyed *a = pa, *b = pb;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return a->v < b->v ? -1 : a->v > b->v;
}

/* Sets *kept = false when the order leaves a phase before its end. */
static int inductor_dfs(const struct model *m, int32_t *order, bool *kept,
			uint64_t *states)
{
	size_t n = m->n, n_pred = (size_t)m->pred_off[n], k = 0, depth = 0;
	struct keyed *all = malloc((n + 1) * sizeof(*all));
	struct keyed *deps = malloc((n_pred + 1) * sizeof(*deps));
	uint64_t *key = malloc((n + 1) * sizeof(*key));
	int32_t *stack = malloc((n + 1) * sizeof(*stack));
	int32_t *pos = malloc((n + 1) * sizeof(*pos));
	bool *seen = calloc(n + 1, sizeof(*seen));
	int rc = 0;

	if (!all || !deps || !key || !stack || !pos || !seen) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t v = 0; v < n; v++) {
		key[v] = m->alloc[v];
		for (int32_t j = m->in_off[v]; j < m->in_off[v + 1]; j++)
			key[v] += m->bytes[m->in[j]];
		all[v] = (struct keyed){ key[v], (int32_t)v };
	}
	qsort(all, n, sizeof(*all), cmp_keyed);
	for (size_t v = 0; v < n; v++) {
		int32_t lo = m->pred_off[v], hi = m->pred_off[v + 1];

		for (int32_t j = lo; j < hi; j++)
			deps[j] = (struct keyed){ key[m->pred[j]], m->pred[j] };
		qsort(deps + lo, (size_t)(hi - lo), sizeof(*deps), cmp_keyed);
	}
	for (size_t r = 0; r < n; r++) {
		if (seen[all[r].v])
			continue;
		seen[all[r].v] = true;
		stack[depth] = all[r].v;
		pos[depth++] = m->pred_off[all[r].v];
		while (depth) {
			int32_t v = stack[depth - 1];

			(*states)++;
			if (pos[depth - 1] < m->pred_off[v + 1]) {
				int32_t u = deps[pos[depth - 1]++].v;

				if (!seen[u]) {
					seen[u] = true;
					stack[depth] = u;
					pos[depth++] = m->pred_off[u];
				}
				continue;
			}
			depth--;
			order[k++] = v;
		}
	}
	*kept = true;
	for (size_t i = 1; i < n; i++)
		if (m->phase[order[i]] < m->phase[order[i - 1]])
			*kept = false;
out:
	free(all);
	free(deps);
	free(key);
	free(stack);
	free(pos);
	free(seen);
	return rc;
}

/* best[] holds the file's order at best_peak; replaced by a better one. */
static int inductor_orders(const struct ab_graph *g, const struct model *m,
			   int32_t *best, uint64_t *best_peak, int32_t *trial,
			   uint64_t *states)
{
	uint64_t outputs = 0, peak, unused;
	bool kept = true;
	int rc;

	for (size_t t = 0; t < g->n_tensors; t++)
		if (g->tensors[t].kind == AB_KIND_OUTPUT)
			outputs += m->bytes[t];
	for (int method = 0; method < 3; method++) {
		if (method == 0)
			rc = greedy_schedule(m, RULE_LPMF,
					     outputs > m->resident0 ? outputs
								    : m->resident0,
					     trial, &unused, states);
		else if (method == 1)
			rc = inductor_bfs(m, trial, states);
		else
			rc = inductor_dfs(m, trial, &kept, states);
		if (!rc && kept)
			rc = model_peak(m, trial, &peak);
		if (rc)
			return rc;
		if (kept && peak < *best_peak) {
			*best_peak = peak;
			memcpy(best, trial, m->n * sizeof(*best));
		}
	}
	return 0;
}

/* -------------------------------------------------------------------- beam */

struct child {
	uint64_t key;      /* max(peak, static bound): the rank */
	uint64_t resident; /* after the step */
	uint64_t peak;
	uint64_t hash;     /* Zobrist hash of the set of ops run */
	int32_t parent;    /* state index in the previous layer */
	int32_t op;
	uint32_t gen;      /* generation order: the last tie-break */
};

/* The states of one layer: partial schedules of the same length. */
struct layer {
	size_t n;
	uint64_t *bits;      /* n * words: the set of ops run */
	uint64_t *resident, *peak, *hash;
	int32_t *ready_off;  /* n + 1: ready ops of each state (sorted) */
	int32_t *ready;
	size_t ready_cap;
};

static void layer_free(struct layer *l)
{
	free(l->bits);
	free(l->resident);
	free(l->peak);
	free(l->hash);
	free(l->ready_off);
	free(l->ready);
	memset(l, 0, sizeof(*l));
}

static int layer_alloc(struct layer *l, size_t cap, size_t words)
{
	memset(l, 0, sizeof(*l));
	l->bits = malloc((cap * words + 1) * sizeof(*l->bits));
	l->resident = malloc((cap + 1) * sizeof(*l->resident));
	l->peak = malloc((cap + 1) * sizeof(*l->peak));
	l->hash = malloc((cap + 1) * sizeof(*l->hash));
	l->ready_off = malloc((cap + 1) * sizeof(*l->ready_off));
	l->ready_cap = 64;
	l->ready = malloc(l->ready_cap * sizeof(*l->ready));
	if (!l->bits || !l->resident || !l->peak || !l->hash ||
	    !l->ready_off || !l->ready) {
		layer_free(l);
		return -ENOMEM;
	}
	return 0;
}

static int layer_ready_reserve(struct layer *l, size_t need)
{
	int32_t *r;
	size_t cap = l->ready_cap;

	if (need <= cap)
		return 0;
	while (cap < need)
		cap *= 2;
	r = realloc(l->ready, cap * sizeof(*r));
	if (!r)
		return -ENOMEM;
	l->ready = r;
	l->ready_cap = cap;
	return 0;
}

static inline bool has_bit(const uint64_t *bits, int32_t v)
{
	return bits[v >> 6] >> (v & 63) & 1;
}

/* The finaliser of v x gamma + "reor": ab_mix64 at (v - 1) x gamma +
 * "reor" (it adds the gamma itself). */
static uint64_t zobrist(int32_t v)
{
	return ab_mix64(((uint64_t)v - 1) * 0x9e3779b97f4a7c15ull + 0x72656f72ull);
}

/* Do children a and b stand for the same set of ops? */
static bool same_set(const struct layer *cur, size_t words,
		     const struct child *a, const struct child *b)
{
	const uint64_t *pa = cur->bits + (size_t)a->parent * words;
	const uint64_t *pb = cur->bits + (size_t)b->parent * words;

	if (a->parent == b->parent)
		return a->op == b->op;
	for (size_t w = 0; w < words; w++) {
		uint64_t x = pa[w], y = pb[w];

		if ((size_t)(a->op >> 6) == w)
			x |= 1ull << (a->op & 63);
		if ((size_t)(b->op >> 6) == w)
			y |= 1ull << (b->op & 63);
		if (x != y)
			return false;
	}
	return true;
}

static int cmp_child(const void *pa, const void *pb)
{
	const struct child *a = pa, *b = pb;
	int c = cmp_u64(a->key, b->key);

	if (!c)
		c = cmp_u64(a->resident, b->resident);
	if (!c)
		c = cmp_u64(a->peak, b->peak);
	return c ? c : cmp_u64(a->gen, b->gen);
}

static void swap_child(struct child *a, struct child *b)
{
	struct child t = *a;

	*a = *b;
	*b = t;
}

/* Moves the `keep` smallest children (cmp_child, a total order) to the
 * front, sorted: a quickselect, then a sort of the kept ones only. */
static void select_best(struct child *ch, size_t n, size_t keep)
{
	size_t lo = 0, hi = n;

	while (keep < n && hi - lo > 1) {
		/* Median of three as the pivot, moved to hi - 1. */
		size_t mid = lo + (hi - lo) / 2, store = lo;

		if (cmp_child(&ch[mid], &ch[lo]) < 0)
			swap_child(&ch[mid], &ch[lo]);
		if (cmp_child(&ch[hi - 1], &ch[lo]) < 0)
			swap_child(&ch[hi - 1], &ch[lo]);
		if (cmp_child(&ch[mid], &ch[hi - 1]) < 0)
			swap_child(&ch[mid], &ch[hi - 1]);
		for (size_t i = lo; i < hi - 1; i++)
			if (cmp_child(&ch[i], &ch[hi - 1]) < 0)
				swap_child(&ch[i], &ch[store++]);
		swap_child(&ch[store], &ch[hi - 1]);
		if (store == keep)
			break;
		if (store < keep)
			lo = store + 1;
		else
			hi = store;
	}
	qsort(ch, keep < n ? keep : n, sizeof(*ch), cmp_child);
}

struct beam_result {
	bool found; /* an order with a peak below the bound */
	bool cut;   /* some layer had more states than the width */
	uint64_t peak;
};

/* Merges equal sets in ch[0..n) (the lower peak, then the earlier child,
 * stays) and compacts the survivors to the front, *n_alive of them. */
static int dedupe_children(const struct layer *cur, size_t words,
			   struct child *ch, size_t n, int32_t **table,
			   size_t *table_cap, size_t *n_alive)
{
	size_t cap = 16, alive = 0;
	bool *dead;

	while (cap < 2 * n)
		cap *= 2;
	if (cap > *table_cap) {
		int32_t *t = realloc(*table, cap * sizeof(*t));

		if (!t)
			return -ENOMEM;
		*table = t;
		*table_cap = cap;
	}
	dead = calloc(n + 1, sizeof(*dead));
	if (!dead)
		return -ENOMEM;
	for (size_t i = 0; i < cap; i++)
		(*table)[i] = -1;
	for (size_t i = 0; i < n; i++) {
		size_t slot = ch[i].hash & (cap - 1);

		for (;; slot = (slot + 1) & (cap - 1)) {
			int32_t j = (*table)[slot];

			if (j < 0) {
				(*table)[slot] = (int32_t)i;
				break;
			}
			if (ch[j].hash != ch[i].hash ||
			    !same_set(cur, words, &ch[j], &ch[i]))
				continue;
			if (ch[i].peak < ch[j].peak) {
				dead[j] = true;
				(*table)[slot] = (int32_t)i;
			} else {
				dead[i] = true;
			}
			break;
		}
	}
	for (size_t i = 0; i < n; i++)
		if (!dead[i])
			ch[alive++] = ch[i];
	free(dead);
	*n_alive = alive;
	return 0;
}

/*
 * Beam search over downsets, layer by layer; keeps `width` states per
 * layer and drops those whose peak reaches `bound`.  On success with
 * res->found, order holds the best schedule found.
 */
static int beam_search(const struct model *m, size_t width, uint64_t bound,
		       int32_t *order, struct beam_result *res,
		       uint64_t *states)
{
	size_t n = m->n, words = (n + 63) / 64;
	struct layer cur = { 0 }, next = { 0 };
	struct child *ch = NULL;
	size_t ch_cap = 0, table_cap = 0;
	int32_t *table = NULL;
	/* Every kept state's (parent, op), layer after layer: the schedules. */
	struct trail_step {
		int32_t parent, op;
	} *trail = NULL;
	size_t *trail_at = malloc((n + 1) * sizeof(*trail_at));
	size_t trail_n = 0, trail_cap = 0;
	uint64_t *zob = malloc((n + 1) * sizeof(*zob));
	int rc = -ENOMEM;

	memset(res, 0, sizeof(*res));
	if (!zob || !trail_at ||
	    layer_alloc(&cur, width, words) || layer_alloc(&next, width, words))
		goto out;
	for (size_t v = 0; v < n; v++)
		zob[v] = zobrist((int32_t)v);
	/* Layer 0: nothing has run. */
	cur.n = 1;
	memset(cur.bits, 0, words * sizeof(*cur.bits));
	cur.resident[0] = m->resident0;
	cur.peak[0] = m->floor;
	cur.hash[0] = 0;
	cur.ready_off[0] = 0;
	if (layer_ready_reserve(&cur, n + 1))
		goto out;
	{
		size_t nr = 0;

		for (size_t v = 0; v < n; v++)
			if (m->pred_off[v + 1] == m->pred_off[v])
				cur.ready[nr++] = (int32_t)v;
		cur.ready_off[1] = (int32_t)nr;
	}
	for (size_t k = 0; k < n; k++) {
		size_t n_ch = 0, alive;

		for (size_t s = 0; s < cur.n; s++) {
			const uint64_t *bits = cur.bits + s * words;

			for (int32_t i = cur.ready_off[s]; i < cur.ready_off[s + 1]; i++) {
				int32_t v = cur.ready[i];
				uint64_t freed = m->drop[v], step, peak;

				if (m->phase[v] != m->phase[k])
					continue;
				for (int32_t j = m->in_off[v]; j < m->in_off[v + 1]; j++) {
					int32_t t = m->in[j];
					bool last = true;

					for (int32_t r = m->reader_off[t]; r < m->reader_off[t + 1] && last; r++)
						last = m->reader[r] == v ||
						       has_bit(bits, m->reader[r]);
					if (last)
						freed += m->bytes[t];
				}
				step = cur.resident[s] + m->alloc[v] +
				       (k ? 0 : m->first_extra);
				peak = step > cur.peak[s] ? step : cur.peak[s];
				(*states)++;
				if (peak >= bound)
					continue;
				if (n_ch == ch_cap) {
					size_t c = ch_cap ? 2 * ch_cap : 1024;
					struct child *nc = realloc(ch, c * sizeof(*nc));

					if (!nc)
						goto out;
					ch = nc;
					ch_cap = c;
				}
				ch[n_ch] = (struct child){
					.key = peak > m->static_lb ? peak : m->static_lb,
					.resident = cur.resident[s] + m->alloc[v] - freed,
					.peak = peak,
					.hash = cur.hash[s] ^ zob[v],
					.parent = (int32_t)s,
					.op = v,
					.gen = (uint32_t)n_ch,
				};
				n_ch++;
			}
		}
		if (n_ch == 0) {
			rc = 0; /* every schedule reached the bound */
			goto out;
		}
		if (dedupe_children(&cur, words, ch, n_ch, &table, &table_cap,
				    &alive))
			goto out;
		select_best(ch, alive, width);
		if (alive > width) {
			res->cut = true;
			alive = width;
		}
		/* Materialize the kept children as the next layer. */
		if (trail_n + alive > trail_cap) {
			size_t c = trail_cap ? 2 * trail_cap : 4096;
			struct trail_step *nt;

			while (c < trail_n + alive)
				c *= 2;
			nt = realloc(trail, c * sizeof(*nt));
			if (!nt)
				goto out;
			trail = nt;
			trail_cap = c;
		}
		trail_at[k] = trail_n;
		next.n = alive;
		next.ready_off[0] = 0;
		for (size_t i = 0; i < alive; i++) {
			const struct child *c = &ch[i];
			const uint64_t *pb = cur.bits + (size_t)c->parent * words;
			uint64_t *nb = next.bits + i * words;
			int32_t r0 = cur.ready_off[c->parent];
			int32_t r1 = cur.ready_off[c->parent + 1];
			int32_t s0 = m->succ_off[c->op], s1 = m->succ_off[c->op + 1];
			size_t at = (size_t)next.ready_off[i];

			memcpy(nb, pb, words * sizeof(*nb));
			nb[c->op >> 6] |= 1ull << (c->op & 63);
			next.resident[i] = c->resident;
			next.peak[i] = c->peak;
			next.hash[i] = c->hash;
			trail[trail_n + i] = (struct trail_step){ c->parent, c->op };
			if (layer_ready_reserve(&next, at + (size_t)(r1 - r0) +
							       (size_t)(s1 - s0)))
				goto out;
			/* Merge the parent's ready ops (minus op) with the
			 * successors of op that are now ready; both sorted. */
			for (int32_t a = r0, b = s0; a < r1 || b < s1;) {
				int32_t u;

				if (b >= s1 || (a < r1 && cur.ready[a] < m->succ[b])) {
					u = cur.ready[a++];
					if (u == c->op)
						continue;
				} else {
					bool ok = true;

					u = m->succ[b++];
					for (int32_t p = m->pred_off[u]; p < m->pred_off[u + 1] && ok; p++)
						ok = has_bit(nb, m->pred[p]);
					if (!ok)
						continue;
				}
				next.ready[at++] = u;
			}
			next.ready_off[i + 1] = (int32_t)at;
		}
		trail_n += alive;
		{
			struct layer tmp = cur;

			cur = next;
			next = tmp;
		}
	}
	/* All ops have run: one set, so one state (the best). */
	res->found = true;
	res->peak = cur.peak[0];
	for (size_t k = n, idx = 0; k-- > 0;) {
		order[k] = trail[trail_at[k] + idx].op;
		idx = (size_t)trail[trail_at[k] + idx].parent;
	}
	rc = 0;
out:
	layer_free(&cur);
	layer_free(&next);
	free(ch);
	free(table);
	free(trail);
	free(trail_at);
	free(zob);
	return rc;
}

/* ------------------------------------------------------- orders and graphs */

static bool is_permutation(size_t n, const int32_t *order, int32_t *pos)
{
	for (size_t v = 0; v < n; v++)
		pos[v] = -1;
	for (size_t k = 0; k < n; k++) {
		if (order[k] < 0 || (size_t)order[k] >= n || pos[order[k]] >= 0)
			return false;
		pos[order[k]] = (int32_t)k;
	}
	return true;
}

int ab_graph_permute_ops(const struct ab_graph *g, const int32_t *order,
			 struct ab_graph *out, struct ab_error *err)
{
	int32_t *pos = malloc((g->n_ops + 1) * sizeof(*pos));
	struct ab_op *ops = malloc((g->n_ops + 1) * sizeof(*ops));
	int rc;

	memset(out, 0, sizeof(*out));
	if (!pos || !ops) {
		rc = ab_fail(err, -ENOMEM, "graph '%s': out of memory", g->name);
		goto out;
	}
	if (!is_permutation(g->n_ops, order, pos)) {
		rc = ab_fail(err, -EINVAL, "graph '%s': the new order is not a permutation of its %zu operators",
			     g->name, g->n_ops);
		goto out;
	}
	rc = ab_graph_copy(g, out, err);
	if (rc)
		goto out;
	for (size_t k = 0; k < g->n_ops; k++) {
		ops[k] = out->ops[order[k]];
		ops[k].phase_start = g->ops[k].phase_start;
	}
	memcpy(out->ops, ops, g->n_ops * sizeof(*ops));
out:
	free(pos);
	free(ops);
	return rc;
}

/* Why op v must follow op u, for a message. */
static void constraint_reason(const struct ab_graph *g, int32_t u, int32_t v,
			      char *buf, size_t sz)
{
	const struct ab_op *a = &g->ops[u], *b = &g->ops[v];

	for (int i = 0; i < b->n_inputs; i++)
		for (int j = 0; j < a->n_outputs; j++)
			if (b->inputs[i] == a->outputs[j]) {
				snprintf(buf, sz, "it reads '%s'",
					 g->tensors[b->inputs[i]].name);
				return;
			}
	for (int i = 0; i < b->n_inputs; i++)
		for (int j = 0; j < a->n_inputs; j++)
			if (b->inputs[i] >= 0 && b->inputs[i] == a->inputs[j] &&
			    g->tensors[b->inputs[i]].kind == AB_KIND_VAR) {
				snprintf(buf, sz, "both use var '%s' and one of them updates it",
					 g->tensors[b->inputs[i]].name);
				return;
			}
	snprintf(buf, sz, "both have side effects");
}

int ab_reorder_check_order(const struct ab_graph *g, const int32_t *order,
			   struct ab_error *err)
{
	struct ab_problem_options popt = { .lifetimes = AB_LIFETIMES_DEFAULT };
	int32_t *pos = malloc((g->n_ops + 1) * sizeof(*pos));
	struct model m;
	char why[256];
	int rc;

	if (!pos)
		return ab_fail(err, -ENOMEM, "graph '%s': out of memory", g->name);
	if (!is_permutation(g->n_ops, order, pos)) {
		free(pos);
		return ab_fail(err, -EINVAL, "graph '%s': the order is not a permutation of its %zu operators",
			       g->name, g->n_ops);
	}
	rc = model_build(g, &popt, &m, err);
	if (rc) {
		free(pos);
		return rc;
	}
	for (size_t v = 0; v < g->n_ops && !rc; v++)
		for (int32_t i = m.pred_off[v]; i < m.pred_off[v + 1]; i++) {
			int32_t u = m.pred[i];

			if (pos[u] < pos[v])
				continue;
			constraint_reason(g, u, (int32_t)v, why, sizeof(why));
			rc = ab_fail(err, -EINVAL, "graph '%s': op '%s' runs at step %d, before op '%s' at step %d, but must follow it: %s",
				     g->name, g->ops[v].name, pos[v],
				     g->ops[u].name, pos[u], why);
			break;
		}
	for (size_t k = 0; k < g->n_ops && !rc; k++)
		if (m.phase[order[k]] != m.phase[k])
			rc = ab_fail(err, -EINVAL, "graph '%s': op '%s' of phase %d runs at step %zu, inside phase %d (ops stay in their phase)",
				     g->name, g->ops[order[k]].name,
				     m.phase[order[k]], k, m.phase[k]);
	model_free(&m);
	free(pos);
	return rc;
}

int ab_reorder_model_peak(const struct ab_graph *g,
			  const struct ab_problem_options *popt,
			  const int32_t *order, uint64_t *peak,
			  struct ab_error *err)
{
	struct model m;
	int rc = model_build(g, popt, &m, err);

	if (rc)
		return rc;
	rc = model_peak(&m, order, peak);
	model_free(&m);
	if (rc)
		return ab_fail(err, rc, "graph '%s': out of memory", g->name);
	return 0;
}

static int graph_lower_bound(const struct ab_graph *g,
			     const struct ab_problem_options *popt,
			     uint64_t *lb, struct ab_error *err)
{
	struct ab_problem p;
	int rc = ab_problem_from_graph(g, popt, &p, err);

	if (rc)
		return rc;
	*lb = ab_lower_bound(&p, NULL);
	ab_problem_free(&p);
	return 0;
}

/* ------------------------------------------------------------------- entry */

int ab_graph_reorder(const struct ab_graph *g,
		     const struct ab_problem_options *popt,
		     const struct ab_reorder_options *o, struct ab_graph *out,
		     struct ab_reorder_report *rep, struct ab_error *err)
{
	static const enum greedy_rule rules[] = { RULE_LPMF, RULE_FREE_MOST };
	struct ab_reorder_report r = { 0 };
	struct model m = { 0 };
	struct ab_graph cand = { 0 };
	int32_t *best = NULL, *trial = NULL;
	uint64_t best_peak, peak;
	size_t n = g->n_ops;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((unsigned)o->method >= AB_REORDER_COUNT)
		return ab_fail(err, -EINVAL, "reorder method %d: expected none, greedy, beam or inductor",
			       (int)o->method);
	if (o->beam_width < 0 || o->beam_width > AB_REORDER_BEAM_WIDTH_MAX)
		return ab_fail(err, -EINVAL, "beam width %d: expected 1 to %d (0 = %d)",
			       o->beam_width, AB_REORDER_BEAM_WIDTH_MAX,
			       AB_REORDER_BEAM_WIDTH_DEFAULT);
	rc = ab_graph_check(g, g->name ? g->name : "graph", err);
	if (!rc)
		rc = graph_lower_bound(g, popt, &r.lower_bound_before, err);
	if (rc)
		return rc;
	r.lower_bound_after = r.lower_bound_before;
	r.kept_original = true;
	if (o->method == AB_REORDER_NONE)
		goto keep;
	rc = model_build(g, popt, &m, err);
	if (rc)
		return rc;
	best = malloc((n + 1) * sizeof(*best));
	trial = malloc((n + 1) * sizeof(*trial));
	if (!best || !trial || model_peak(&m, NULL, &best_peak)) {
		rc = -ENOMEM;
		goto fail;
	}
	for (size_t k = 0; k < n; k++)
		best[k] = (int32_t)k;
	if (o->method == AB_REORDER_INDUCTOR) {
		rc = inductor_orders(g, &m, best, &best_peak, trial, &r.states);
		if (rc)
			goto fail;
	}
	for (size_t i = 0; o->method != AB_REORDER_INDUCTOR &&
			   i < sizeof(rules) / sizeof(rules[0]); i++) {
		rc = greedy_schedule(&m, rules[i], 0, trial, &peak, &r.states);
		if (rc)
			goto fail;
		if (peak < best_peak) {
			best_peak = peak;
			memcpy(best, trial, n * sizeof(*best));
		}
	}
	if (o->method == AB_REORDER_BEAM && best_peak > m.static_lb) {
		size_t width = o->beam_width ? (size_t)o->beam_width
					     : AB_REORDER_BEAM_WIDTH_DEFAULT;
		struct beam_result br;

		rc = beam_search(&m, width, best_peak, trial, &br, &r.states);
		if (rc)
			goto fail;
		if (br.found && br.peak < best_peak) {
			best_peak = br.peak;
			memcpy(best, trial, n * sizeof(*best));
		}
		r.optimal = !br.cut;
	}
	if (best_peak <= m.static_lb)
		r.optimal = true;
	for (size_t k = 0; k < n && r.kept_original; k++)
		r.kept_original = best[k] == (int32_t)k;
	if (!r.kept_original) {
		uint64_t lb;

		rc = ab_graph_permute_ops(g, best, &cand, err);
		if (!rc)
			rc = graph_lower_bound(&cand, popt, &lb, err);
		if (rc)
			goto fail_msg;
		if (lb < r.lower_bound_before) {
			r.lower_bound_after = lb;
			*out = cand;
			memset(&cand, 0, sizeof(cand));
		} else {
			r.kept_original = true;
		}
		ab_graph_free(&cand);
	}
	model_free(&m);
	free(best);
	free(trial);
keep:
	if (r.kept_original) {
		rc = ab_graph_copy(g, out, err);
		if (rc)
			return rc;
	}
	if (rep)
		*rep = r;
	return 0;
fail:
	if (rc == -EINVAL)
		ab_fail(err, rc, "graph '%s': no operator is ready at some step (a dependence cycle?)",
			g->name);
	else
		ab_fail(err, rc, "graph '%s': out of memory while reordering",
			g->name);
fail_msg:
	ab_graph_free(&cand);
	model_free(&m);
	free(best);
	free(trial);
	return rc;
}
