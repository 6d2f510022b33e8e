/* Error reporting: modules format a message, only main() prints it. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/arenabench.h"

int ab_fail(struct ab_error *err, int code, const char *fmt, ...)
{
	if (err) {
		va_list ap;

		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
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
