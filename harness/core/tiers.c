/* Memory tiers, the model: the list's rules and its text (core/tiers.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/tiers.h"

bool ab_tier_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

int ab_tiers_check_list(const struct ab_tier *tiers, int n_tiers,
			struct ab_error *err)
{
	if (n_tiers < 1 || n_tiers > AB_MAX_ARENAS)
		return ab_fail(err, -EINVAL, "expected 1 to %d tiers, got %d",
			       AB_MAX_ARENAS, n_tiers);
	for (int t = 0; t < n_tiers; t++) {
		size_t len = strnlen(tiers[t].name, sizeof(tiers[t].name));

		if (len == 0 || len > AB_TIER_NAME_MAX)
			return ab_fail(err, -EINVAL, "tier %d: expected a name of 1 to %d characters",
				       t, AB_TIER_NAME_MAX);
		for (size_t i = 0; i < len; i++)
			if (!ab_tier_name_char(tiers[t].name[i]))
				return ab_fail(err, -EINVAL,
					       "tier '%s': name may contain only lower-case letters, digits and '_'",
					       tiers[t].name);
		for (int u = 0; u < t; u++)
			if (strcmp(tiers[u].name, tiers[t].name) == 0)
				return ab_fail(err, -EINVAL, "tier '%s' is given twice",
					       tiers[t].name);
		if (!tiers[t].capacity && t + 1 < n_tiers)
			return ab_fail(err, -EINVAL,
				       "tier '%s' has no capacity, so it must be the last tier (found tier '%s' after it)",
				       tiers[t].name, tiers[t + 1].name);
	}
	return 0;
}

static const char *const benefit_names[] = {
	[AB_TIER_BY_BYTES] = "bytes",
	[AB_TIER_BY_ACCESSES] = "accesses",
};

const char *ab_tier_benefit_name(enum ab_tier_benefit b)
{
	return (unsigned)b < 2 ? benefit_names[b] : "?";
}

int ab_tier_benefit_from_name(const char *s)
{
	for (int b = 0; b < 2; b++)
		if (strcmp(s, benefit_names[b]) == 0)
			return b;
	return -1;
}

/* "sram:262144+dram": each tier's name and value[i], in tier order; a
 * zero value is left out when omit_zero (an unbounded tier's capacity). */
static char *tier_list(const struct ab_tier_set *t, const uint64_t *value,
		       bool omit_zero)
{
	size_t len = 1;
	char *s, *p;

	for (int i = 0; i < t->n; i++)
		len += strlen(t->tier[i].name) + 24;
	s = p = malloc(len);
	if (!s)
		return NULL;
	*p = 0;
	for (int i = 0; i < t->n; i++) {
		p += sprintf(p, "%s%s", i ? "+" : "", t->tier[i].name);
		if (value[i] || !omit_zero)
			p += sprintf(p, ":%" PRIu64, value[i]);
	}
	return s;
}

char *ab_tiers_options_text(const void *self)
{
	const struct ab_tier_set *t = self;
	uint64_t cap[AB_MAX_ARENAS];
	char *list, *r;

	for (int i = 0; i < t->n; i++)
		cap[i] = t->tier[i].capacity;
	list = tier_list(t, cap, true);
	if (!list)
		return NULL;
	r = ab_strdupf(";tiers=%s;tier_benefit=%s", list,
		       ab_tier_benefit_name(t->opt.benefit));
	free(list);
	return r;
}

char *ab_tiers_parts_text(const void *self, const struct ab_combined *res)
{
	return tier_list(self, res->peak, false);
}
