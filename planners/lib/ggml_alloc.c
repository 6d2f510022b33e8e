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
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/ggml_alloc.h"
#include "lib/replay.h"

struct block {
	uint64_t offset, size;
};

struct chunk {
	struct block *b;
	size_t n, cap;
	uint64_t max_size;
};

struct dyn {
	uint64_t align, max_chunk;
	struct chunk c[AB_GGML_MAX_CHUNKS];
	int n_chunks;
};

static int insert_block(struct chunk *c, size_t at, uint64_t off, uint64_t size)
{
	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 16;
		struct block *b = realloc(c->b, cap * sizeof(*b));

		if (!b)
			return -ENOMEM;
		c->b = b;
		c->cap = cap;
	}
	memmove(c->b + at + 1, c->b + at, (c->n - at) * sizeof(*c->b));
	c->b[at] = (struct block){ off, size };
	c->n++;
	return 0;
}

static void remove_block(struct chunk *c, size_t at)
{
	memmove(c->b + at, c->b + at + 1, (c->n - at - 1) * sizeof(*c->b));
	c->n--;
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
	if (insert_block(c, 0, 0, room))
		return -ENOMEM;
	return d->n_chunks++;
}

static int dyn_alloc(struct dyn *d, uint64_t size, int *chunk, uint64_t *off)
{
	int best_c = -1;
	size_t best_b = 0;

	for (int c = 0; c < d->n_chunks; c++) {
		const struct chunk *ch = &d->c[c];
		uint64_t best_size = UINT64_MAX;

		for (size_t i = 0; i + 1 < ch->n; i++)
			if (ch->b[i].size >= size && ch->b[i].size <= best_size) {
				best_c = c;
				best_b = i;
				best_size = ch->b[i].size;
			}
	}
	if (best_c < 0) {
		int64_t best_reuse = INT64_MIN;

		for (int c = 0; c < d->n_chunks; c++) {
			const struct chunk *ch = &d->c[c];
			const struct block *tail;
			int64_t reuse;

			if (!ch->n)
				continue;
			tail = &ch->b[ch->n - 1];
			reuse = (int64_t)(ch->max_size - tail->offset - size);
			if (tail->size >= size &&
			    ((best_reuse < 0 && reuse > best_reuse) ||
			     (reuse >= 0 && reuse < best_reuse))) {
				best_c = c;
				best_b = ch->n - 1;
				best_reuse = reuse;
			}
		}
	}
	if (best_c < 0) {
		best_c = new_chunk(d, size);
		if (best_c < 0)
			return best_c;
		best_b = 0;
	}
	struct chunk *ch = &d->c[best_c];
	struct block *b = &ch->b[best_b];

	*chunk = best_c;
	*off = b->offset;
	b->offset += size;
	b->size -= size;
	if (!b->size)
		remove_block(ch, best_b);
	if (*off + size > ch->max_size)
		ch->max_size = *off + size;
	return 0;
}

static int dyn_free(struct dyn *d, int chunk, uint64_t off, uint64_t size)
{
	struct chunk *ch = &d->c[chunk];
	size_t at = 0;

	for (size_t i = 0; i < ch->n; i++) {
		struct block *b = &ch->b[i];

		if (b->offset + b->size == off) {
			b->size += size;
			if (i + 1 < ch->n &&
			    b->offset + b->size == ch->b[i + 1].offset) {
				b->size += ch->b[i + 1].size;
				remove_block(ch, i + 1);
			}
			return 0;
		}
		if (off + size == b->offset) {
			b->offset = off;
			b->size += size;
			if (i > 0 && ch->b[i - 1].offset + ch->b[i - 1].size ==
					     b->offset) {
				ch->b[i - 1].size += b->size;
				remove_block(ch, i);
			}
			return 0;
		}
	}
	while (at < ch->n && ch->b[at].offset < off)
		at++;
	return insert_block(ch, at, off, size);
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
	for (int c = 0; c < AB_GGML_MAX_CHUNKS; c++)
		free(d.c[c].b);
	free(ev);
	return rc;
}
