/* String -> index hash map: FNV-1a, linear probing, grows at 1/2 load;
 * and the closest name for a "did you mean". */
#include <ctype.h>
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

/* Damerau-Levenshtein (optimal string alignment) distance, case ignored;
 * names are short, so three rows on the stack, capped at 63 characters. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b), row[3][64];

	if (na > 63 || nb > 63)
		return (size_t)-1;
	for (size_t j = 0; j <= nb; j++)
		row[0][j] = j;
	for (size_t i = 1; i <= na; i++) {
		size_t *cur = row[i % 3], *prev = row[(i - 1) % 3], *prev2 = row[(i + 1) % 3];

		cur[0] = i;
		for (size_t j = 1; j <= nb; j++) {
			int ca = tolower((unsigned char)a[i - 1]), cb = tolower((unsigned char)b[j - 1]);
			size_t d = prev[j - 1] + (ca != cb);

			if (prev[j] + 1 < d)
				d = prev[j] + 1;
			if (cur[j - 1] + 1 < d)
				d = cur[j - 1] + 1;
			if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb && prev2[j - 2] + 1 < d)
				d = prev2[j - 2] + 1;
			cur[j] = d;
		}
	}
	return row[na % 3][nb];
}

const char *ab_closest_name(const char *s, const char *const *names, size_t n)
{
	size_t best = (size_t)-1, limit = strlen(s) / 3 > 2 ? strlen(s) / 3 : 2;
	const char *pick = NULL;

	for (size_t i = 0; i < n; i++) {
		size_t d = edit_distance(s, names[i]);

		if (d < best) {
			best = d;
			pick = names[i];
		}
	}
	return best <= limit ? pick : NULL;
}
