/* Objects over time: bitsets by range, highest ends: see object_sets.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/arenabench.h"
#include "lib/object_sets.h"

/* ------------------------------------------------------------ the ranges */

/* [first, last] cut at blocks of 2^shift steps: the whole blocks
 * [lo, hi) and up to two partial pieces (in the end blocks bf, bl). */
struct span {
	size_t bf, bl, lo, hi;
	int parts;
	size_t block[2];
	int32_t first[2], last[2];
};

/* The canonical nodes of the leaves [a, z) of a tree stored from index 1
 * (node v's children 2v, 2v + 1): at most two a level, low side first;
 * their count. */
static unsigned canonical_nodes(size_t a, size_t z, size_t v[128])
{
	unsigned n = 0;

	for (; a < z; a >>= 1, z >>= 1) {
		if (a & 1)
			v[n++] = a++;
		if (z & 1)
			v[n++] = --z;
	}
	return n;
}

static void span_split(int32_t first, int32_t last, unsigned shift,
		       struct span *sp)
{
	size_t mask = ((size_t)1 << shift) - 1, f = (size_t)first,
	       l = (size_t)last;

	sp->bf = f >> shift;
	sp->bl = l >> shift;
	sp->lo = sp->bf;
	sp->hi = sp->bl + 1;
	sp->parts = 0;
	if ((f & mask) != 0 || (sp->bf == sp->bl && (l & mask) != mask)) {
		sp->block[0] = sp->bf;
		sp->first[0] = first;
		sp->last[0] = sp->bf == sp->bl ? last
					       : (int32_t)(f | mask);
		sp->parts = 1;
		sp->lo++;
	}
	if (sp->bf != sp->bl && (l & mask) != mask) {
		sp->block[sp->parts] = sp->bl;
		sp->first[sp->parts] = (int32_t)(l & ~mask);
		sp->last[sp->parts] = last;
		sp->parts++;
		sp->hi--;
	}
	if (sp->lo > sp->hi)
		sp->lo = sp->hi;
}

/* [first, last] for ab_objsets: span_split, and the first block a piece
 * even when the interval covers it whole (its start piece, so every start
 * is found among its block's pieces). */
static void span_split_start(int32_t first, int32_t last, unsigned shift,
			     struct span *sp)
{
	span_split(first, last, shift, sp);
	if (sp->parts && sp->block[0] == sp->bf)
		return; /* the first block is a piece already */
	if (sp->parts) { /* the last block's piece moves to second place */
		sp->block[1] = sp->block[0];
		sp->first[1] = sp->first[0];
		sp->last[1] = sp->last[0];
	}
	sp->block[0] = sp->bf;
	sp->first[0] = first;
	sp->last[0] = sp->bf == sp->bl ? last
				       : (int32_t)((size_t)first | (((size_t)1 << shift) - 1));
	sp->parts++;
	sp->lo = sp->bf + 1;
	if (sp->lo > sp->hi)
		sp->lo = sp->hi;
}

static size_t pow2_at_least(size_t x)
{
	size_t p = 1;

	while (p < x)
		p *= 2;
	return p;
}

static size_t blocks_of(int32_t steps, unsigned shift)
{
	return steps > 0 ? (((size_t)steps - 1) >> shift) + 1 : 1;
}

/* ---------------------------------------------- counts of cover (removal) */

/* node < 2^28 (ab_objsets_init refuses more), layer < 8 */
static uint64_t count_key(size_t node, unsigned layer, uint32_t object)
{
	return ((uint64_t)node << 3 | layer) << 32 | object; /* never 0 */
}

static size_t count_find(const struct ab_objsets *s, uint64_t key)
{
	size_t mask = s->count_cap - 1, i = ab_mix64(key) & mask;

	while (s->count[i].key && s->count[i].key != key)
		i = (i + 1) & mask;
	return i;
}

static int count_grow(struct ab_objsets *s)
{
	size_t cap = s->count_cap ? 2 * s->count_cap : 1024;
	struct ab_objsets_count *count = calloc(cap, sizeof(*count));
	struct ab_objsets_count *old = s->count;
	size_t old_cap = s->count_cap;

	if (!count)
		return -ENOMEM;
	s->count = count;
	s->count_cap = cap;
	for (size_t i = 0; i < old_cap; i++)
		if (old[i].key)
			count[count_find(s, old[i].key)] = old[i];
	free(old);
	return 0;
}

/* One more interval of a removable layer at a (node, object) whose cover
 * bit is already set. */
static int count_extra(struct ab_objsets *s, uint64_t key)
{
	size_t i;

	if (2 * (s->count_used + 1) > s->count_cap) {
		int rc = count_grow(s);

		if (rc)
			return rc;
	}
	i = count_find(s, key);
	if (!s->count[i].key) {
		s->count[i] = (struct ab_objsets_count){ key, 0 };
		s->count_used++;
	}
	s->count[i].n++;
	return 0;
}

/* Takes one extra interval at key if there is one (the cover bit stays);
 * false when the interval removed was the last (the bit goes).  An entry
 * reaching 0 leaves the table (linear probing's deletion by backward
 * shift). */
static bool count_take(struct ab_objsets *s, uint64_t key)
{
	size_t mask = s->count_cap - 1, i, j;

	if (!s->count_used)
		return false;
	i = j = count_find(s, key);
	if (!s->count[i].key)
		return false;
	if (--s->count[i].n)
		return true;
	for (;;) {
		size_t h;
		bool home_between;

		j = (j + 1) & mask;
		if (!s->count[j].key)
			break;
		h = ab_mix64(s->count[j].key) & mask;
		home_between = i <= j ? (h > i && h <= j) : (h > i || h <= j);
		if (!home_between) {
			s->count[i] = s->count[j];
			i = j;
		}
	}
	s->count[i].key = 0;
	s->count_used--;
	return true;
}

/* ------------------------------------------------------------ ab_objsets */

enum { COVER, STARTS };

/* The word w of (node v, kind, layer): a row of words per (node, kind,
 * layer), the layers' rows side by side, so a query reads one line a
 * node for up to 512 objects and the next layer's query over the same
 * range finds the line beside it. */
static size_t word_index(const struct ab_objsets *s, size_t v, size_t w,
			 unsigned layer, int kind)
{
	return ((v * 2 + (size_t)kind) * s->layers + layer) * s->words + w;
}

size_t ab_objsets_bytes(int32_t steps, unsigned shift, unsigned layers,
			size_t m)
{
	size_t leaves = pow2_at_least(blocks_of(steps, shift));

	return 2 * leaves * 2 * layers * pow2_at_least((m + 63) / 64) *
	       sizeof(uint64_t);
}

int ab_objsets_init(struct ab_objsets *s, int32_t steps, unsigned shift,
		    unsigned layers, unsigned removable)
{
	size_t depth = 0;

	/* pieces keep their steps in 8 bits, their layers in 8 */
	*s = (struct ab_objsets){ .shift = shift < 8 ? shift : 8,
				  .layers = layers < 8 ? layers : 8,
				  .removable = removable };
	s->blocks = blocks_of(steps, s->shift);
	s->leaves = pow2_at_least(s->blocks);
	if (s->leaves > ((size_t)1 << 27) || !layers)
		return -ENOMEM;
	while (((size_t)1 << depth) < s->leaves)
		depth++;
	s->slot = calloc(s->blocks, sizeof(*s->slot));
	s->at = malloc(4 * (depth + 2) * sizeof(*s->at));
	if (!s->slot || !s->at) {
		ab_objsets_free(s);
		return -ENOMEM;
	}
	return 0;
}

void ab_objsets_free(struct ab_objsets *s)
{
	for (size_t c = 0; s->slot && c < s->blocks; c++)
		free(s->slot[c].ext);
	free(s->slot);
	free(s->bits);
	free(s->count);
	free(s->acc);
	free(s->at);
	*s = (struct ab_objsets){ 0 };
}

int ab_objsets_reserve(struct ab_objsets *s, size_t m)
{
	size_t need = (m + 63) / 64, words = s->words ? s->words : 1,
	       rows = 2 * s->leaves * 2 * s->layers, bytes;
	uint64_t *bits = NULL, *acc;

	if (need <= s->words)
		return 0;
	while (words < need)
		words *= 2;
	bytes = rows * words * sizeof(*bits);
	acc = calloc(words, sizeof(*acc));
	if (!acc || posix_memalign((void **)&bits, 64, bytes)) {
		free(acc);
		return -ENOMEM;
	}
	memset(bits, 0, bytes);
	for (size_t r = 0; s->words && r < rows; r++)
		memcpy(bits + r * words, s->bits + r * s->words,
		       s->words * sizeof(*bits));
	free(s->bits);
	free(s->acc);
	s->bits = bits;
	s->acc = acc;
	s->words = words;
	return 0;
}

static bool bit_of(const struct ab_objsets *s, size_t v, unsigned layer,
		   int kind, uint32_t o)
{
	return s->bits[word_index(s, v, o / 64, layer, kind)] >> (o % 64) & 1;
}

/* Sets object's STARTS bit at v and above, up to a node that has it (a
 * node's bit is its children's OR). */
static void starts_set_up(struct ab_objsets *s, size_t v, unsigned layer,
			  uint32_t object)
{
	uint64_t bit = 1ull << (object % 64);

	for (; v; v >>= 1) {
		uint64_t *word = &s->bits[word_index(s, v, object / 64, layer,
						     STARTS)];

		if (*word & bit)
			return;
		*word |= bit;
	}
}

static struct ab_objsets_piece *slot_pieces(struct ab_objsets_slot *b)
{
	return b->ext ? b->ext : b->in;
}

/* Does the block still hold the start piece of an interval of object? */
static bool slot_has_start(struct ab_objsets_slot *b, unsigned layer,
			   uint32_t object)
{
	const struct ab_objsets_piece *pc = slot_pieces(b);

	for (uint32_t k = 0; k < b->n; k++)
		if (pc[k].object == object && pc[k].starts &&
		    (pc[k].layers >> layer & 1))
			return true;
	return false;
}

/* After a start piece left leaf v's block: object's STARTS bits from v
 * up, recomputed until one does not change. */
static void starts_fix_up(struct ab_objsets *s, size_t v, unsigned layer,
			  uint32_t object)
{
	for (; v; v >>= 1) {
		bool want = v >= s->leaves
				    ? slot_has_start(&s->slot[v - s->leaves],
						     layer, object)
				    : bit_of(s, 2 * v, layer, STARTS, object) ||
					      bit_of(s, 2 * v + 1, layer, STARTS,
						     object);
		uint64_t *word = &s->bits[word_index(s, v, object / 64, layer,
						     STARTS)];

		if (want == (bool)(*word >> (object % 64) & 1))
			return;
		*word ^= 1ull << (object % 64);
	}
}

static int slot_push(struct ab_objsets_slot *b, struct ab_objsets_piece pc)
{
	if (b->n == AB_OBJSETS_INLINE && !b->ext) {
		struct ab_objsets_piece *ext = malloc(2 * b->n * sizeof(*ext));

		if (!ext)
			return -ENOMEM;
		memcpy(ext, b->in, b->n * sizeof(*ext));
		b->ext = ext;
		b->cap = 2 * b->n;
	} else if (b->ext && b->n == b->cap) {
		struct ab_objsets_piece *ext =
			realloc(b->ext, 2 * b->cap * sizeof(*ext));

		if (!ext)
			return -ENOMEM;
		b->ext = ext;
		b->cap *= 2;
	}
	slot_pieces(b)[b->n++] = pc;
	return 0;
}

int ab_objsets_add(struct ab_objsets *s, unsigned layer, uint32_t object,
		   int32_t first, int32_t last)
{
	bool counted = s->removable >> layer & 1;
	struct span sp;
	size_t v[128];
	unsigned n_nodes;

	span_split_start(first, last, s->shift, &sp);
	for (int k = 0; k < sp.parts; k++) {
		int32_t base = (int32_t)(sp.block[k] << s->shift);
		int rc = slot_push(&s->slot[sp.block[k]],
				   (struct ab_objsets_piece){
					   object, (uint8_t)(sp.first[k] - base),
					   (uint8_t)(sp.last[k] - base),
					   (uint8_t)(1u << layer), k == 0 });

		if (rc)
			return rc;
	}
	starts_set_up(s, s->leaves + sp.bf, layer, object);
	n_nodes = canonical_nodes(sp.lo + s->leaves, sp.hi + s->leaves, v);
	for (unsigned k = 0; k < n_nodes; k++) {
		uint64_t *word = &s->bits[word_index(s, v[k], object / 64,
						     layer, COVER)],
			 bit = 1ull << (object % 64);

		if (counted && (*word & bit)) {
			int rc = count_extra(s, count_key(v[k], layer, object));

			if (rc)
				return rc;
		}
		*word |= bit;
	}
	return 0;
}

void ab_objsets_remove(struct ab_objsets *s, unsigned layer, uint32_t object,
		       int32_t first, int32_t last)
{
	struct span sp;
	size_t v[128];
	unsigned n_nodes;

	span_split_start(first, last, s->shift, &sp);
	for (int k = 0; k < sp.parts; k++) {
		struct ab_objsets_slot *b = &s->slot[sp.block[k]];
		struct ab_objsets_piece *pc = slot_pieces(b);
		int32_t base = (int32_t)(sp.block[k] << s->shift);
		uint8_t f = (uint8_t)(sp.first[k] - base),
			l = (uint8_t)(sp.last[k] - base);

		for (uint32_t i = 0; i < b->n; i++) {
			if (pc[i].object == object && pc[i].first == f &&
			    pc[i].last == l && pc[i].starts == (k == 0) &&
			    (pc[i].layers >> layer & 1)) {
				pc[i] = pc[--b->n];
				break;
			}
		}
	}
	starts_fix_up(s, s->leaves + sp.bf, layer, object);
	n_nodes = canonical_nodes(sp.lo + s->leaves, sp.hi + s->leaves, v);
	for (unsigned k = 0; k < n_nodes; k++) {
		if (!(s->removable >> layer & 1) ||
		    count_take(s, count_key(v[k], layer, object)))
			continue;
		s->bits[word_index(s, v[k], object / 64, layer, COVER)] &=
			~(1ull << (object % 64));
	}
}

/* An interval [F, L] meets [first, last] when it holds first (F <= first
 * <= L) or starts after it (first < F <= last).  Holding first: cover on
 * the path from first's block to the root, or a piece of that block
 * around first.  Starting after: a start piece later in first's block,
 * STARTS of the canonical nodes of the whole blocks between the two end
 * blocks, or a start piece in last's block up to last. */
size_t ab_objsets_first_without(struct ab_objsets *s, unsigned layer,
				int32_t first, int32_t last, size_t m)
{
	size_t bf = (size_t)first >> s->shift, bl = (size_t)last >> s->shift;
	size_t n_at = 0, words = (m + 63) / 64;

	if (!m)
		return 0;
	__builtin_prefetch(&s->slot[bf]);
	if (bl != bf)
		__builtin_prefetch(&s->slot[bl]);
	for (size_t u = s->leaves + bf; u; u >>= 1)
		s->at[n_at++] = word_index(s, u, 0, layer, COVER);
	for (size_t a = s->leaves + bf + 1, z = s->leaves + bl; a < z;
	     a >>= 1, z >>= 1) {
		if (a & 1)
			s->at[n_at++] = word_index(s, a++, 0, layer, STARTS);
		if (z & 1)
			s->at[n_at++] = word_index(s, --z, 0, layer, STARTS);
	}
	for (size_t i = 0; i < n_at; i++) /* while the pieces are read */
		__builtin_prefetch(&s->bits[s->at[i]]);
	/* pieces of any object reserved land in acc */
	memset(s->acc, 0, s->words * sizeof(*s->acc));
	{
		struct ab_objsets_slot *b = &s->slot[bf];
		const struct ab_objsets_piece *pc = slot_pieces(b);
		int32_t base = (int32_t)(bf << s->shift);
		uint8_t f = (uint8_t)(first - base),
			l = (uint8_t)(bl == bf ? last - base
					       : (int32_t)((1u << s->shift) - 1));

		/* no branch on the steps: they meet at random */
		for (uint32_t i = 0; i < b->n; i++) {
			uint64_t holds = (uint64_t)(pc[i].first <= f) &
					 (uint64_t)(pc[i].last >= f);
			uint64_t after = (uint64_t)pc[i].starts &
					 (uint64_t)(pc[i].first > f) &
					 (uint64_t)(pc[i].first <= l);

			s->acc[pc[i].object / 64] |=
				((holds | after) & (uint64_t)(pc[i].layers >> layer))
				<< (pc[i].object % 64);
		}
	}
	if (bl != bf) {
		struct ab_objsets_slot *b = &s->slot[bl];
		const struct ab_objsets_piece *pc = slot_pieces(b);
		uint8_t l = (uint8_t)(last - (int32_t)(bl << s->shift));

		for (uint32_t i = 0; i < b->n; i++) {
			uint64_t meets = (uint64_t)pc[i].starts &
					 (uint64_t)(pc[i].first <= l) &
					 (uint64_t)(pc[i].layers >> layer);

			s->acc[pc[i].object / 64] |= meets
						     << (pc[i].object % 64);
		}
	}
	for (size_t w = 0; w < words; w++) {
		uint64_t x = s->acc[w], free_bits;

		for (size_t i = 0; i < n_at; i++)
			x |= s->bits[s->at[i] + w];
		free_bits = ~x;
		if (w == words - 1 && m % 64)
			free_bits &= (1ull << (m % 64)) - 1;
		if (free_bits)
			return w * 64 + (size_t)__builtin_ctzll(free_bits);
	}
	return m;
}

/* ------------------------------------------------------------ ab_objtops */

int ab_objtops_init(struct ab_objtops *t, int32_t steps)
{
	*t = (struct ab_objtops){ .steps = steps > 0 ? steps : 1 };
	while (((size_t)1 << t->top_shift) < (size_t)t->steps)
		t->top_shift++;
	return 0;
}

static void objtop_release(struct ab_objtop *o)
{
	for (size_t c = 0; o->block && c < o->blocks; c++)
		free(o->block[c].piece);
	free(o->block);
	free(o->node);
	o->block = NULL;
	o->node = NULL;
}

void ab_objtops_free(struct ab_objtops *t)
{
	for (size_t j = 0; j < t->n; j++) {
		objtop_release(&t->obj[j]);
		free(t->obj[j].iv);
	}
	free(t->obj);
	*t = (struct ab_objtops){ 0 };
}

/* The object's tree and piece lists at this shift, empty. */
static int objtop_shape(struct ab_objtop *o, int32_t steps, unsigned shift)
{
	objtop_release(o);
	o->shift = shift;
	o->blocks = blocks_of(steps, shift);
	o->leaves = pow2_at_least(o->blocks);
	o->node = calloc(4 * o->leaves, sizeof(*o->node));
	o->block = calloc(o->blocks, sizeof(*o->block));
	return o->node && o->block ? 0 : -ENOMEM;
}

int ab_objtops_add_object(struct ab_objtops *t)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 16;
		struct ab_objtop *obj = realloc(t->obj, cap * sizeof(*obj));

		if (!obj)
			return -ENOMEM;
		t->obj = obj;
		t->cap = cap;
	}
	t->obj[t->n] = (struct ab_objtop){ 0 };
	t->n++;
	return objtop_shape(&t->obj[t->n - 1], t->steps, t->top_shift);
}

static void top_sub_up(struct ab_objtop *o, size_t v, uint64_t end)
{
	for (; v && o->node[2 * v + 1] < end; v >>= 1)
		o->node[2 * v + 1] = end;
}

/* Files one interval in the tree, or as up to two partial pieces. */
static int objtop_insert(struct ab_objtop *o, struct ab_objtop_interval iv)
{
	struct span sp;

	span_split(iv.first, iv.last, o->shift, &sp);
	for (int k = 0; k < sp.parts; k++) {
		struct ab_objtop_block *b = &o->block[sp.block[k]];

		if (b->n == b->cap) {
			uint32_t cap = b->cap ? 2 * b->cap : 2;
			struct ab_objtop_interval *pc =
				realloc(b->piece, cap * sizeof(*pc));

			if (!pc)
				return -ENOMEM;
			b->piece = pc;
			b->cap = cap;
		}
		b->piece[b->n++] = iv;
		top_sub_up(o, o->leaves + sp.block[k], iv.end);
	}
	for (size_t a = sp.lo + o->leaves, z = sp.hi + o->leaves; a < z;
	     a >>= 1, z >>= 1) {
		if (a & 1) {
			if (o->node[2 * a] < iv.end)
				o->node[2 * a] = iv.end;
			top_sub_up(o, a++, iv.end);
		}
		if (z & 1) {
			--z;
			if (o->node[2 * z] < iv.end)
				o->node[2 * z] = iv.end;
			top_sub_up(o, z, iv.end);
		}
	}
	return 0;
}

int ab_objtops_raise(struct ab_objtops *t, uint32_t object, int32_t first,
		     int32_t last, uint64_t end)
{
	struct ab_objtop *o = &t->obj[object];
	int rc = 0;

	if (o->n == o->cap) {
		size_t cap = o->cap ? o->cap + o->cap / 2 : 4;
		struct ab_objtop_interval *iv = realloc(o->iv, cap * sizeof(*iv));

		if (!iv)
			return -ENOMEM;
		o->iv = iv;
		o->cap = cap;
	}
	o->iv[o->n++] = (struct ab_objtop_interval){ end, first, last };
	/* from 8 intervals a block, twice finer */
	if (o->n <= 8 * o->blocks || !o->shift)
		return objtop_insert(o, o->iv[o->n - 1]);
	rc = objtop_shape(o, t->steps, o->shift - 1);
	for (size_t i = 0; !rc && i < o->n; i++)
		rc = objtop_insert(o, o->iv[i]);
	return rc;
}

uint64_t ab_objtops_max(const struct ab_objtops *t, uint32_t object,
			int32_t first, int32_t last)
{
	const struct ab_objtop *o = &t->obj[object];
	struct span sp;
	uint64_t top = 0;
	size_t u, v;

	span_split(first, last, o->shift, &sp);
	for (int k = 0; k < sp.parts; k++) {
		const struct ab_objtop_block *b = &o->block[sp.block[k]];

		for (uint32_t i = 0; i < b->n; i++) {
			const struct ab_objtop_interval *pc = &b->piece[i];
			uint64_t end = pc->first <= last && pc->last >= first
					       ? pc->end : 0;

			top = end > top ? end : top;
		}
	}
	for (size_t a = sp.lo + o->leaves, z = sp.hi + o->leaves; a < z;
	     a >>= 1, z >>= 1) {
		if ((a & 1) && o->node[2 * a + 1] > top)
			top = o->node[2 * a + 1];
		if (a & 1)
			a++;
		if ((z & 1) && o->node[2 * (z - 1) + 1] > top)
			top = o->node[2 * (z - 1) + 1];
		if (z & 1)
			z--;
	}
	for (u = o->leaves + sp.bf, v = o->leaves + sp.bl; u != v;
	     u >>= 1, v >>= 1) {
		if (o->node[2 * u] > top)
			top = o->node[2 * u];
		if (o->node[2 * v] > top)
			top = o->node[2 * v];
	}
	for (; u; u >>= 1)
		if (o->node[2 * u] > top)
			top = o->node[2 * u];
	return top;
}
