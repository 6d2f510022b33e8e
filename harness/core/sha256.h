/* SHA-256 (FIPS 180-4): the hash a results .meta records of its CSV, so
 * that a reader can tell a matched pair from a torn one (docs/io.md). */
#ifndef AB_SHA256_H
#define AB_SHA256_H

#include <stddef.h>
#include <stdint.h>

#include "core/arenabench.h"

struct ab_sha256 {
	uint32_t h[8];
	uint64_t bytes;
	uint8_t block[64];
	size_t used;
};

void ab_sha256_init(struct ab_sha256 *s);
void ab_sha256_update(struct ab_sha256 *s, const void *data, size_t len);
/* The digest as 64 lowercase hex digits and a NUL. */
void ab_sha256_hex(struct ab_sha256 *s, char hex[65]);
/* The sha256 of a whole file (a regular file; errors name it). */
int ab_sha256_file(const char *path, char hex[65], struct ab_error *err);

#endif
