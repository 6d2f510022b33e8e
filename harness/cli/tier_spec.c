/*
 * The --tier spec parser users reach (cli.h: cli_tier_parse,
 * cli_tier_add), beside the option table of options.c, which also takes
 * its byte counts with units from here.
 */
#include <errno.h>
#include <string.h>

#include "cli/cli.h"

static const struct {
	const char *name;
	uint64_t factor;
} byte_units[] = {
	{ "", 1 }, { "B", 1 }, { "KiB", 1ull << 10 }, { "MiB", 1ull << 20 },
	{ "GiB", 1ull << 30 },
};

static const char *const ambiguous_units[] = {
	"K", "M", "G", "k", "KB", "MB", "GB", "kB", "Kb", "Mb", "Gb", "kb",
	"mb", "gb",
};

static int parse_capacity(const char *spec, const char *s, uint64_t *cap,
			  struct ab_error *err)
{
	const char *unit;
	uint64_t v = 0;

	if (!*s)
		return ab_fail(err, -EINVAL,
			       "tier '%s': expected a capacity after ':' (e.g. 256KiB), or no ':' for an unbounded tier",
			       spec);
	if (*s < '0' || *s > '9')
		return ab_fail(err, -EINVAL,
			       "tier '%s': capacity '%s' must start with a digit (a whole number of bytes with B, KiB, MiB or GiB)",
			       spec, s);
	for (; *s >= '0' && *s <= '9'; s++) {
		if (v > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return ab_fail(err, -ERANGE,
				       "tier '%s': capacity does not fit in 64 bits", spec);
		v = v * 10 + (uint64_t)(*s - '0');
	}
	unit = s;
	if (*unit == '.' || *unit == ',')
		return ab_fail(err, -EINVAL,
			       "tier '%s': capacity must be a whole number (write the bytes instead of a fraction)",
			       spec);
	for (size_t i = 0; i < sizeof(ambiguous_units) / sizeof(ambiguous_units[0]); i++)
		if (strcmp(unit, ambiguous_units[i]) == 0)
			return ab_fail(err, -EINVAL,
				       "tier '%s': unit '%s' is ambiguous (1000 or 1024?): write KiB, MiB, GiB (1024-based) or plain bytes",
				       spec, unit);
	for (size_t i = 0; i < sizeof(byte_units) / sizeof(byte_units[0]); i++) {
		if (strcmp(unit, byte_units[i].name) != 0)
			continue;
		if (v > UINT64_MAX / byte_units[i].factor)
			return ab_fail(err, -ERANGE,
				       "tier '%s': capacity does not fit in 64 bits", spec);
		if (v == 0)
			return ab_fail(err, -EINVAL,
				       "tier '%s': capacity must be at least 1 byte (leave out ':...' for an unbounded tier)",
				       spec);
		*cap = v * byte_units[i].factor;
		return 0;
	}
	return ab_fail(err, -EINVAL,
		       "tier '%s': unknown unit '%s' (expected B, KiB, MiB, GiB or none for bytes)",
		       spec, unit);
}

int cli_tier_parse(const char *spec, struct ab_tier *out, struct ab_error *err)
{
	const char *colon = strchr(spec, ':');
	size_t len = colon ? (size_t)(colon - spec) : strlen(spec);

	memset(out, 0, sizeof(*out));
	if (len == 0)
		return ab_fail(err, -EINVAL,
			       "tier '%s': expected a name before the capacity (lower-case letters, digits, '_'), e.g. sram:256KiB",
			       spec);
	if (len > AB_TIER_NAME_MAX)
		return ab_fail(err, -EINVAL,
			       "tier '%s': name is longer than %d characters",
			       spec, AB_TIER_NAME_MAX);
	for (size_t i = 0; i < len; i++)
		if (!ab_tier_name_char(spec[i]))
			return ab_fail(err, -EINVAL,
				       "tier '%s': name may contain only lower-case letters, digits and '_' (found '%c')",
				       spec, spec[i]);
	memcpy(out->name, spec, len);
	out->name[len] = '\0';
	if (colon)
		return parse_capacity(spec, colon + 1, &out->capacity, err);
	return 0;
}

int cli_tier_add(struct ab_tier *tiers, int *n_tiers, const char *spec,
		 struct ab_error *err)
{
	struct ab_tier t;
	int rc;

	if (*n_tiers >= AB_MAX_ARENAS)
		return ab_fail(err, -EINVAL, "tier '%s': at most %d tiers",
			       spec, AB_MAX_ARENAS);
	rc = cli_tier_parse(spec, &t, err);
	if (rc)
		return rc;
	tiers[*n_tiers] = t;
	rc = ab_tiers_check_list(tiers, *n_tiers + 1, err);
	if (rc)
		return rc;
	(*n_tiers)++;
	return 0;
}
