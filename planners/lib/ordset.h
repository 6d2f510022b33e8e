/*
 * An ordered set of keys (a, b), compared as pairs (a first, then b), each
 * carrying a 32-bit value: insert, erase, lower bound, predecessor.  The
 * free-block indexes of the online allocators (ORT's memory pattern, ggml's
 * free list) keep their blocks in one set by address and their gaps in one
 * set by (width, address), so a best fit is one lower bound instead of a
 * scan over every block.
 *
 * A treap (Seidel and Aragon 1996): a binary search tree on the keys that
 * is a heap on priorities drawn from the node's slot (ab_mix64, so runs are
 * deterministic); split and merge keep it, each O(log m) expected for m
 * members.  Nodes come from one array grown by doubling; erased ones are
 * recycled.  Keys are unique: inserting a present key is the caller's bug
 * (the set keeps both).
 *
 * Contract: functions returning int return 0 or -ENOMEM; nothing prints.
 */
#ifndef AB_ORDSET_H
#define AB_ORDSET_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

struct ab_ordset_key {
	uint64_t a, b;
};

struct ab_ordset_node {
	struct ab_ordset_key key;
	uint32_t left, right; /* slots, AB_ORDSET_NIL for none */
	uint32_t value;
	uint32_t prio;
};

#define AB_ORDSET_NIL UINT32_MAX

struct ab_ordset {
	struct ab_ordset_node *node;
	size_t cap, used, count;
	uint32_t root, free_list; /* free slots chained through .left */
};

void ab_ordset_init(struct ab_ordset *s);
void ab_ordset_free(struct ab_ordset *s);

int ab_ordset_insert(struct ab_ordset *s, struct ab_ordset_key k,
		     uint32_t value);
/* Changes member k's key to k2 in place, keeping its value; k2 must sort
 * where k did (between k's neighbours), which the caller knows (a block
 * that shrinks from its start or grows at its end keeps its rank among
 * disjoint blocks).  False when k is not a member. */
bool ab_ordset_rekey(struct ab_ordset *s, struct ab_ordset_key k,
		     struct ab_ordset_key k2);
/* Removes k; false when it is not a member. */
bool ab_ordset_erase(struct ab_ordset *s, struct ab_ordset_key k);

/* The least member >= k (found: true, *out and *value set). */
bool ab_ordset_lower_bound(const struct ab_ordset *s, struct ab_ordset_key k,
			   struct ab_ordset_key *out, uint32_t *value);
/* The least member > k. */
bool ab_ordset_successor(const struct ab_ordset *s, struct ab_ordset_key k,
			 struct ab_ordset_key *out, uint32_t *value);
/* The greatest member < k. */
bool ab_ordset_predecessor(const struct ab_ordset *s, struct ab_ordset_key k,
			   struct ab_ordset_key *out, uint32_t *value);
/* The greatest member. */
bool ab_ordset_max(const struct ab_ordset *s, struct ab_ordset_key *out,
		   uint32_t *value);

#endif
