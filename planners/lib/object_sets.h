/*
 * Objects over time, for planners that share fixed-size objects among
 * buffers (ExecuTorch's greedy): which objects hold an interval meeting a
 * range of steps, and the highest end an object holds over a range.
 *
 * ab_objsets: (object, interval) pairs over steps [0, steps), answering
 * "the first object below m none of whose intervals meets [first, last]"
 * a word of 64 objects at a time.  An interval [F, L] meets the range
 * when it holds first (F <= first <= L) or starts inside it (first < F <=
 * last).  A segment tree over blocks of 2^shift steps; each node has two
 * bitsets over the objects: cover (an interval covers the node's blocks,
 * and this node is one of its canonical pieces) and starts (an interval
 * starts in one of the node's blocks).  An interval's first block always
 * keeps it as a piece (its start piece), and so does its last block when
 * it ends inside it; the blocks between are its canonical cover.  A query
 * ORs cover on the one path from first's block to the root, starts over
 * the canonical nodes of the whole blocks strictly between the two end
 * blocks, and the pieces of the two end blocks that hold first or start
 * in the range: O(W log(T / B) + pieces) for W = m / 64, stopping at the
 * first word with a clear bit.  Adding is O(log(T / B)) plus two pieces;
 * removing the same, its starts bits recomputed on one path.  A removable
 * layer counts in a hash table the intervals per (node, object) of cover
 * beyond the first (rare: two intervals of one object over the same node).
 * Memory: 2 bitsets of W words on 2 L nodes (L = blocks rounded up to a
 * power of two), ab_objsets_bytes, plus 8 bytes a piece.
 *
 * ab_objtops: per object, its intervals with their ends (bytes: an
 * object's tenant ends at its offset plus its size) and a max segment
 * tree over blocks of its own size (rebuilt twice finer once the object
 * holds 8 intervals a block), partial
 * pieces listed per block: the highest end over the intervals meeting
 * [first, last] in O(log + pieces).  Memory O(intervals).
 *
 * Contract: functions returning int return 0 or -ENOMEM; nothing prints.
 * Steps are 0 .. steps - 1, first <= last; objects are numbered from 0.
 */
#ifndef AB_OBJECT_SETS_H
#define AB_OBJECT_SETS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ab_objsets_piece {
	uint32_t object;
	uint8_t first, last;       /* steps within the block */
	uint8_t layers;            /* a bit a layer */
	uint8_t starts;            /* the interval's first piece */
};

/* A block's pieces: inline up to AB_OBJSETS_INLINE (a slot is 256
 * bytes, so a query's scan of a block is one memory access), beyond in
 * ext. */
#define AB_OBJSETS_INLINE 30

struct ab_objsets_slot {
	struct ab_objsets_piece *ext;
	uint32_t n, cap;
	struct ab_objsets_piece in[AB_OBJSETS_INLINE];
};

/* Intervals of a removable layer beyond the first with a node as
 * canonical piece (the first is the cover bit). */
struct ab_objsets_count {
	uint64_t key;              /* (node, layer, object), 0: empty slot */
	uint64_t n;
};

struct ab_objsets {
	unsigned shift;            /* a block is 2^shift steps, at most 256 */
	unsigned layers;           /* sets over the same steps, at most 8 */
	unsigned removable;        /* a bit a layer that removes */
	size_t blocks, leaves;     /* leaves: power of two >= blocks */
	size_t words;              /* bitset words a node and layer */
	uint64_t *bits;            /* per node, word, layer: cover, starts */
	struct ab_objsets_slot *slot; /* per block */
	struct ab_objsets_count *count; /* extras: hash, linear probing */
	size_t count_cap, count_used;
	uint64_t *acc;             /* a query's partial bits, words long */
	size_t *at;                /* a query's node words */
};

/* Bytes of the bitsets for m objects over steps at this shift. */
size_t ab_objsets_bytes(int32_t steps, unsigned shift, unsigned layers,
			size_t m);
/* layers sets over steps (blocks of 2^shift steps, shift <= 8, at most
 * 2^27 blocks); the layers whose bit is set in removable can remove. */
int ab_objsets_init(struct ab_objsets *s, int32_t steps, unsigned shift,
		    unsigned layers, unsigned removable);
void ab_objsets_free(struct ab_objsets *s);
/* Room for objects 0 .. m - 1. */
int ab_objsets_reserve(struct ab_objsets *s, size_t m);
/* object (reserved) holds [first, last] in layer. */
int ab_objsets_add(struct ab_objsets *s, unsigned layer, uint32_t object,
		   int32_t first, int32_t last);
/* Undoes one earlier add of the same (layer, object, first, last); a
 * removable layer only. */
void ab_objsets_remove(struct ab_objsets *s, unsigned layer, uint32_t object,
		       int32_t first, int32_t last);
/* The least object below m (m reserved) none of whose intervals in layer
 * meets [first, last], or m when every one has one. */
size_t ab_objsets_first_without(struct ab_objsets *s, unsigned layer,
				int32_t first, int32_t last, size_t m);

struct ab_objtop_interval {
	uint64_t end;
	int32_t first, last;
};

struct ab_objtop_block {
	struct ab_objtop_interval *piece;
	uint32_t n, cap;
};

struct ab_objtop {
	unsigned shift;
	size_t blocks, leaves;
	uint64_t *node;            /* [2 * v]: cover max, [2 * v + 1]: sub max */
	struct ab_objtop_block *block; /* partial pieces */
	struct ab_objtop_interval *iv; /* every interval, for a rebuild */
	size_t n, cap;
};

struct ab_objtops {
	int32_t steps;
	unsigned top_shift;        /* one block covers every step */
	struct ab_objtop *obj;
	size_t n, cap;
};

int ab_objtops_init(struct ab_objtops *t, int32_t steps);
void ab_objtops_free(struct ab_objtops *t);
/* A new object, numbered t->n - 1 after the call. */
int ab_objtops_add_object(struct ab_objtops *t);
/* object holds [first, last] up to end. */
int ab_objtops_raise(struct ab_objtops *t, uint32_t object, int32_t first,
		     int32_t last, uint64_t end);
/* The highest end of object's intervals meeting [first, last], 0 if none. */
uint64_t ab_objtops_max(const struct ab_objtops *t, uint32_t object,
			int32_t first, int32_t last);

#endif
