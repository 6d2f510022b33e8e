/*
 * ggml's dynamic tensor allocator, re-implemented from ggml-org/llama.cpp
 * ggml/src/ggml-alloc.c at 0450e2f9dffdc4c346ddf316945bd933f363d651
 * (ggml_dyn_tallocr_alloc / _free_bytes / _new_chunk).
 *
 * State: per chunk, a list of free blocks sorted by offset, coalesced on
 * free; the last block of a chunk is its tail (room to grow).  A chunk is
 * created with one free block of max(size, max_chunk) bytes (the 16th one
 * of SIZE_MAX/2); max_size = its highest end so far.
 * Allocation of a size (padded up to the alignment):
 *  1. every chunk in turn: among its free blocks except the last, the
 *     smallest that holds the size, ties to the *later* block (ggml tests
 *     `<=`); a later chunk with any such block replaces an earlier choice
 *     (ggml resets its best size per chunk);
 *  2. else the chunks' last blocks that hold it: the first whose
 *     reuse = max_size - offset - size is >= 0 and smallest, else the one
 *     needing least growth (largest negative reuse), as ggml's
 *     better_reuse / better_fit pair selects;
 *  3. else a new chunk.
 * The block shrinks from its start; an empty block is removed.
 * Free merges with the block ending at the address, then with the next; or
 * with the block starting at its end, then with the previous; else inserts.
 * ggml asserts at 256 free blocks per chunk (MAX_FREE_BLOCKS); here the
 * list grows instead, so problems past that limit get the plan ggml would
 * make with a larger array.  Zero-size buffers get offset 0 and no block.
 *
 * The list is kept as two ordered sets (lib/ordset.h): the blocks by
 * offset (the tail is the greatest; a free finds its neighbours as
 * predecessor and successor) and by (size, inverted offset), where step 1's
 * choice in a chunk is the least member of size >= the request, or the one
 * after it when that is the tail.  O(log F) per event for F free blocks;
 * ggml scans the array, O(F).
 */
#include <errno.h>
#include <stdlib.h>

#include "lib/ggml_alloc.h"
#include "lib/ordset.h"
#include "lib/replay.h"

struct chunk {
	struct ab_ordset by_offset; /* (offset, size) */
	struct ab_ordset by_size;   /* (size, ~offset) */
	uint64_t max_size;
};

struct dyn {
	uint64_t align, max_chunk;
	uint64_t total; /* the chunks' max_size summed: the peak so far */
	struct chunk c[AB_GGML_MAX_CHUNKS];
	int n_chunks;
};

static int add_block(struct chunk *c, uint64_t off, uint64_t size)
{
	int rc = ab_ordset_insert(&c->by_offset,
				  (struct ab_ordset_key){ off, size }, 0);

	if (!rc)
		rc = ab_ordset_insert(&c->by_size,
				      (struct ab_ordset_key){ size, ~off }, 0);
	return rc;
}

static void remove_block(struct chunk *c, uint64_t off, uint64_t size)
{
	ab_ordset_erase(&c->by_offset, (struct ab_ordset_key){ off, size });
	ab_ordset_erase(&c->by_size, (struct ab_ordset_key){ size, ~off });
}

static int new_chunk(struct dyn *d, uint64_t size)
{
	struct chunk *c;
	uint64_t room = size > d->max_chunk ? size : d->max_chunk;

	if (d->n_chunks >= AB_GGML_MAX_CHUNKS)
		return -ENOSPC; /* unreachable: the last chunk is unbounded */
	if (d->n_chunks == AB_GGML_MAX_CHUNKS - 1)
		room = UINT64_MAX / 2;
	c = &d->c[d->n_chunks];
	if (add_block(c, 0, room))
		return -ENOMEM;
	return d->n_chunks++;
}

/* The smallest non-tail block of chunk c holding size, ties to the later
 * block: *blk = (offset, size). */
static bool best_inner(const struct chunk *c, uint64_t size,
		       struct ab_ordset_key *blk)
{
	struct ab_ordset_key k, tail;

	if (!ab_ordset_max(&c->by_offset, &tail, NULL) ||
	    !ab_ordset_lower_bound(&c->by_size,
				   (struct ab_ordset_key){ size, 0 }, &k, NULL))
		return false;
	if (~k.b == tail.a &&
	    !ab_ordset_successor(&c->by_size, k, &k, NULL))
		return false;
	*blk = (struct ab_ordset_key){ ~k.b, k.a };
	return true;
}

static int dyn_alloc(struct dyn *d, uint64_t size, int *chunk, uint64_t *off)
{
	int best_c = -1;
	struct ab_ordset_key blk = { 0, 0 };
	int rc;

	/* ggml keeps the last chunk with a fitting inner block */
	for (int c = d->n_chunks - 1; c >= 0 && best_c < 0; c--)
		if (best_inner(&d->c[c], size, &blk))
			best_c = c;
	if (best_c < 0) {
		int64_t best_reuse = INT64_MIN;

		for (int c = 0; c < d->n_chunks; c++) {
			const struct chunk *ch = &d->c[c];
			struct ab_ordset_key tail;
			int64_t reuse;

			if (!ab_ordset_max(&ch->by_offset, &tail, NULL))
				continue;
			reuse = (int64_t)(ch->max_size - tail.a - size);
			if (tail.b >= size &&
			    ((best_reuse < 0 && reuse > best_reuse) ||
			     (reuse >= 0 && reuse < best_reuse))) {
				best_c = c;
				blk = tail;
				best_reuse = reuse;
			}
		}
	}
	if (best_c < 0) {
		best_c = new_chunk(d, size);
		if (best_c < 0)
			return best_c;
		ab_ordset_max(&d->c[best_c].by_offset, &blk, NULL);
	}
	struct chunk *ch = &d->c[best_c];

	*chunk = best_c;
	*off = blk.a;
	if (blk.b > size) {
		/* shrinks from its start: same rank by offset */
		ab_ordset_rekey(&ch->by_offset, blk,
				(struct ab_ordset_key){ blk.a + size, blk.b - size });
		ab_ordset_erase(&ch->by_size, (struct ab_ordset_key){ blk.b, ~blk.a });
		rc = ab_ordset_insert(&ch->by_size, (struct ab_ordset_key){
					blk.b - size, ~(blk.a + size) }, 0);
		if (rc)
			return rc;
	} else {
		remove_block(ch, blk.a, blk.b);
	}
	if (*off + size > ch->max_size) {
		d->total += *off + size - ch->max_size;
		ch->max_size = *off + size;
	}
	return 0;
}

static int dyn_free(struct dyn *d, int chunk, uint64_t off, uint64_t size)
{
	struct chunk *ch = &d->c[chunk];
	struct ab_ordset_key below, above;
	bool has_below = ab_ordset_predecessor(&ch->by_offset,
					       (struct ab_ordset_key){ off, 0 },
					       &below, NULL);
	bool has_above = ab_ordset_successor(&ch->by_offset,
					     (struct ab_ordset_key){ off, UINT64_MAX },
					     &above, NULL);
	uint64_t end = off + size;

	if (has_above && above.a == end) {
		remove_block(ch, above.a, above.b);
		end = above.a + above.b;
	}
	if (has_below && below.a + below.b == off) {
		/* grows at its end: same rank by offset */
		ab_ordset_rekey(&ch->by_offset, below,
				(struct ab_ordset_key){ below.a, end - below.a });
		ab_ordset_erase(&ch->by_size, (struct ab_ordset_key){ below.b, ~below.a });
		return ab_ordset_insert(&ch->by_size, (struct ab_ordset_key){
					  end - below.a, ~below.a }, 0);
	}
	return add_block(ch, off, end - off);
}

int ab_ggml_gallocr_plan(const struct ab_problem *p,
			 const struct ab_plan_options *o, uint64_t max_chunk,
			 struct ab_plan *out)
{
	size_t n = p->n;
	struct ab_replay_event *ev = malloc((2 * n + 1) * sizeof(*ev));
	struct dyn d = { 0 };
	uint64_t base = 0;
	int rc = -ENOMEM;

	for (int c = 0; c < AB_GGML_MAX_CHUNKS; c++) {
		ab_ordset_init(&d.c[c].by_offset);
		ab_ordset_init(&d.c[c].by_size);
	}
	d.align = ab_common_align(p, o);
	d.max_chunk = max_chunk && max_chunk < UINT64_MAX / 2 ? max_chunk
							      : UINT64_MAX / 2;
	if (!ev)
		goto out;
	rc = -EOVERFLOW;
	if (!d.align)
		goto out;
	rc = ab_replay_events(p, ev);
	for (size_t k = 0; !rc && k < 2 * n; k++) {
		uint32_t i = ev[k].buffer;
		uint64_t size = ab_align_up(p->buf[i].size, d.align);
		int c = 0;

		if (!size) {
			if (ev[k].kind == AB_REPLAY_ALLOC) {
				out->offset[i] = 0;
				out->arena[i] = 0;
			}
			continue;
		}
		if (ev[k].kind == AB_REPLAY_ALLOC) {
			rc = dyn_alloc(&d, size, &c, &out->offset[i]);
			out->arena[i] = (uint16_t)c;
			if (!rc && ab_above_cutoff(o, d.total))
				rc = AB_ABOVE_CUTOFF;
		} else {
			rc = dyn_free(&d, out->arena[i], out->offset[i], size);
		}
	}
	if (rc)
		goto out;
	/* The chunks are ggml's backend buffers: one arena each, end to end. */
	out->n_arenas = d.n_chunks ? d.n_chunks : 1;
	out->arena_base[0] = out->arena_size[0] = 0;
	for (int c = 0; c < d.n_chunks; c++) {
		out->arena_base[c] = base;
		out->arena_size[c] = d.c[c].max_size;
		base += d.c[c].max_size;
	}
	for (size_t i = 0; i < n; i++)
		out->offset[i] += out->arena_base[out->arena[i]];
	out->peak = base;
out:
	for (int c = 0; c < AB_GGML_MAX_CHUNKS; c++) {
		ab_ordset_free(&d.c[c].by_offset);
		ab_ordset_free(&d.c[c].by_size);
	}
	free(ev);
	return rc;
}
