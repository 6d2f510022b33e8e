/* Large arrays on transparent huge pages: see arenabench.h. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/arenabench.h"

#define HUGE_PAGE ((size_t)2 << 20)

void *ab_alloc_large(size_t bytes)
{
	size_t rounded;
	void *q;

	if (bytes < HUGE_PAGE / 2)
		return malloc(bytes ? bytes : 1);
	if (bytes > SIZE_MAX - HUGE_PAGE)
		return NULL;
	rounded = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
	q = aligned_alloc(HUGE_PAGE, rounded);
#ifdef MADV_HUGEPAGE
	if (q)
		madvise(q, rounded, MADV_HUGEPAGE); /* advice: failure is harmless */
#endif
	return q;
}
