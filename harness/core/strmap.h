/* A string -> index hash map (open addressing) for name lookups. */
#ifndef AB_STRMAP_H
#define AB_STRMAP_H

#include <stddef.h>
#include <stdint.h>

struct ab_strmap {
	size_t cap;   /* power of two */
	size_t count;
	const char **keys; /* borrowed: the caller keeps the strings alive */
	int64_t *vals;
};

int ab_strmap_init(struct ab_strmap *m, size_t expected);
void ab_strmap_free(struct ab_strmap *m);
/* Returns -1 if absent. */
int64_t ab_strmap_get(const struct ab_strmap *m, const char *key);
/* Returns 0, -EEXIST if the key is present (value unchanged), -ENOMEM. */
int ab_strmap_put(struct ab_strmap *m, const char *key, int64_t val);

/* The name of names[0..n) closest to s by edit distance (insertions,
 * deletions, substitutions and swaps of two neighbours, case ignored), or
 * NULL when none is within max(2, strlen(s) / 3) edits: a "did you mean"
 * for a mistyped command, option or planner. */
const char *ab_closest_name(const char *s, const char *const *names, size_t n);

#endif
