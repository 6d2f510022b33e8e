/* Error reporting: modules format a message, only main() prints it. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/arenabench.h"

/* A control character (a byte below 0x20, or 0x7f) from an input would
 * not show in a message, or would garble the terminal: it is written as
 * \xNN, so "1\x016" shows what the field holds. */
static void make_visible(char *msg, size_t cap)
{
	char out[sizeof(((struct ab_error *)0)->msg)];
	size_t k = 0;

	for (const unsigned char *p = (const unsigned char *)msg; *p && k + 5 < sizeof(out); p++) {
		if (*p < 0x20 || *p == 0x7f)
			k += (size_t)snprintf(out + k, sizeof(out) - k, "\\x%02x", *p);
		else
			out[k++] = (char)*p;
	}
	out[k] = 0;
	snprintf(msg, cap, "%s", out);
}

int ab_fail(struct ab_error *err, int code, const char *fmt, ...)
{
	if (err) {
		va_list ap;

		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
		make_visible(err->msg, sizeof(err->msg));
	}
	return code;
}

char *ab_strdupf(const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	return s;
}
