/* String -> index hash map: FNV-1a, linear probing, grows at 1/2 load. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/strmap.h"

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

int ab_strmap_init(struct ab_strmap *m, size_t expected)
{
	size_t cap = 16;

	while (cap < expected * 2)
		cap *= 2;
	m->cap = cap;
	m->count = 0;
	m->keys = calloc(cap, sizeof(*m->keys));
	m->vals = calloc(cap, sizeof(*m->vals));
	if (!m->keys || !m->vals) {
		ab_strmap_free(m);
		return -ENOMEM;
	}
	return 0;
}

void ab_strmap_free(struct ab_strmap *m)
{
	free(m->keys);
	free(m->vals);
	m->keys = NULL;
	m->vals = NULL;
	m->cap = m->count = 0;
}

static size_t find_slot(const struct ab_strmap *m, const char *key)
{
	size_t i = hash_str(key) & (m->cap - 1);

	while (m->keys[i] && strcmp(m->keys[i], key) != 0)
		i = (i + 1) & (m->cap - 1);
	return i;
}

int64_t ab_strmap_get(const struct ab_strmap *m, const char *key)
{
	size_t i;

	if (!m->cap)
		return -1;
	i = find_slot(m, key);
	return m->keys[i] ? m->vals[i] : -1;
}

static int grow(struct ab_strmap *m)
{
	struct ab_strmap bigger;
	size_t i;
	int rc = ab_strmap_init(&bigger, m->cap);

	if (rc)
		return rc;
	for (i = 0; i < m->cap; i++) {
		if (m->keys[i]) {
			size_t j = find_slot(&bigger, m->keys[i]);

			bigger.keys[j] = m->keys[i];
			bigger.vals[j] = m->vals[i];
			bigger.count++;
		}
	}
	ab_strmap_free(m);
	*m = bigger;
	return 0;
}

int ab_strmap_put(struct ab_strmap *m, const char *key, int64_t val)
{
	size_t i;

	if ((m->count + 1) * 2 > m->cap) {
		int rc = grow(m);

		if (rc)
			return rc;
	}
	i = find_slot(m, key);
	if (m->keys[i])
		return -EEXIST;
	m->keys[i] = key;
	m->vals[i] = val;
	m->count++;
	return 0;
}
