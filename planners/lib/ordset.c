/* A treap of (a, b) keys: see ordset.h. */
#include <errno.h>
#include <stdlib.h>

#include "core/arenabench.h"
#include "lib/ordset.h"

#define NIL AB_ORDSET_NIL

static int key_cmp(struct ab_ordset_key x, struct ab_ordset_key y)
{
	if (x.a != y.a)
		return x.a < y.a ? -1 : 1;
	if (x.b != y.b)
		return x.b < y.b ? -1 : 1;
	return 0;
}

void ab_ordset_init(struct ab_ordset *s)
{
	*s = (struct ab_ordset){ .root = NIL, .free_list = NIL };
}

void ab_ordset_free(struct ab_ordset *s)
{
	free(s->node);
	ab_ordset_init(s);
}

/* Splits t into the members < k (or <= k when inclusive) and the rest. */
static void split(struct ab_ordset_node *nd, uint32_t t, struct ab_ordset_key k,
		  bool inclusive, uint32_t *lo, uint32_t *hi)
{
	uint32_t *l = lo, *h = hi;

	while (t != NIL) {
		int c = key_cmp(nd[t].key, k);

		if (c < 0 || (inclusive && c == 0)) {
			*l = t;
			l = &nd[t].right;
			t = nd[t].right;
		} else {
			*h = t;
			h = &nd[t].left;
			t = nd[t].left;
		}
	}
	*l = *h = NIL;
}

/* Every member of x precedes every member of y. */
static uint32_t merge(struct ab_ordset_node *nd, uint32_t x, uint32_t y)
{
	uint32_t root = NIL, *at = &root;

	while (x != NIL && y != NIL) {
		if (nd[x].prio >= nd[y].prio) {
			*at = x;
			at = &nd[x].right;
			x = nd[x].right;
		} else {
			*at = y;
			at = &nd[y].left;
			y = nd[y].left;
		}
	}
	*at = x != NIL ? x : y;
	return root;
}

int ab_ordset_insert(struct ab_ordset *s, struct ab_ordset_key k,
		     uint32_t value)
{
	uint32_t t;

	if (s->free_list != NIL) {
		t = s->free_list;
		s->free_list = s->node[t].left;
	} else {
		if (s->used == s->cap) {
			size_t cap = s->cap ? 2 * s->cap : 64;
			struct ab_ordset_node *nd;

			if (cap >= NIL)
				return -ENOMEM;
			nd = realloc(s->node, cap * sizeof(*nd));
			if (!nd)
				return -ENOMEM;
			s->node = nd;
			s->cap = cap;
		}
		t = (uint32_t)s->used++;
	}
	s->node[t] = (struct ab_ordset_node){
		.key = k, .value = value, .prio = (uint32_t)ab_mix64(t),
	};
	/* down to the first member of lower priority, which t replaces:
	 * its subtree is split around k into t's children */
	uint32_t *at = &s->root;

	while (*at != NIL && s->node[*at].prio > s->node[t].prio)
		at = key_cmp(k, s->node[*at].key) < 0 ? &s->node[*at].left
						       : &s->node[*at].right;
	split(s->node, *at, k, false, &s->node[t].left, &s->node[t].right);
	*at = t;
	s->count++;
	return 0;
}

bool ab_ordset_erase(struct ab_ordset *s, struct ab_ordset_key k)
{
	struct ab_ordset_node *nd = s->node;
	uint32_t *at = &s->root;

	while (*at != NIL) {
		int c = key_cmp(k, nd[*at].key);

		if (!c) {
			uint32_t t = *at;

			*at = merge(nd, nd[t].left, nd[t].right);
			nd[t].left = s->free_list;
			s->free_list = t;
			s->count--;
			return true;
		}
		at = c < 0 ? &nd[*at].left : &nd[*at].right;
	}
	return false;
}

bool ab_ordset_rekey(struct ab_ordset *s, struct ab_ordset_key k,
		     struct ab_ordset_key k2)
{
	uint32_t t = s->root;

	while (t != NIL) {
		int c = key_cmp(k, s->node[t].key);

		if (!c) {
			s->node[t].key = k2;
			return true;
		}
		t = c < 0 ? s->node[t].left : s->node[t].right;
	}
	return false;
}

/* The least member >= k (strict: > k). */
static bool least_from(const struct ab_ordset *s, struct ab_ordset_key k,
		       bool strict, struct ab_ordset_key *out, uint32_t *value)
{
	uint32_t t = s->root, best = NIL;

	while (t != NIL) {
		int c = key_cmp(s->node[t].key, k);

		if (c > 0 || (!strict && c == 0)) {
			best = t;
			t = s->node[t].left;
		} else {
			t = s->node[t].right;
		}
	}
	if (best == NIL)
		return false;
	if (out)
		*out = s->node[best].key;
	if (value)
		*value = s->node[best].value;
	return true;
}

bool ab_ordset_lower_bound(const struct ab_ordset *s, struct ab_ordset_key k,
			   struct ab_ordset_key *out, uint32_t *value)
{
	return least_from(s, k, false, out, value);
}

bool ab_ordset_successor(const struct ab_ordset *s, struct ab_ordset_key k,
			 struct ab_ordset_key *out, uint32_t *value)
{
	return least_from(s, k, true, out, value);
}

bool ab_ordset_predecessor(const struct ab_ordset *s, struct ab_ordset_key k,
			   struct ab_ordset_key *out, uint32_t *value)
{
	uint32_t t = s->root, best = NIL;

	while (t != NIL) {
		if (key_cmp(s->node[t].key, k) < 0) {
			best = t;
			t = s->node[t].right;
		} else {
			t = s->node[t].left;
		}
	}
	if (best == NIL)
		return false;
	if (out)
		*out = s->node[best].key;
	if (value)
		*value = s->node[best].value;
	return true;
}

bool ab_ordset_max(const struct ab_ordset *s, struct ab_ordset_key *out,
		   uint32_t *value)
{
	uint32_t t = s->root;

	if (t == NIL)
		return false;
	while (s->node[t].right != NIL)
		t = s->node[t].right;
	if (out)
		*out = s->node[t].key;
	if (value)
		*value = s->node[t].value;
	return true;
}
