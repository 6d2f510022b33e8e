/* Error reporting: modules format a message, only main() prints it. */
#include <stdarg.h>
#include <stdio.h>

#include "arenabench.h"

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
