/* Large arrays on transparent huge pages, and the blocks kept for reuse:
 * see arenabench.h. */
#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/arenabench.h"

#define HUGE_PAGE ((size_t)2 << 20)

/*
 * Blocks freed by ab_free_large, kept for reuse: a kept block is handed
 * out again to a request it holds with little to spare, so the pages the
 * kernel cleared for it are not cleared again.  A request no kept block
 * serves first gives kept blocks back (free), the oldest first, until the
 * kept ones and the new one together are at most KEPT_BYTES: memory kept
 * adds at most that much to the process's peak, and nothing when a large
 * array is asked for (a check's image, a problem's arrays).  Only blocks the
 * caller gave up are here (their length is the allocator's usable size),
 * so a block freed with free() instead is simply not kept.
 */
#define KEPT_MAX 64
#define KEPT_BYTES ((size_t)128 << 20)

struct kept_block {
	void *q;
	size_t len;
};

static struct kept_block kept[KEPT_MAX];
static size_t kept_n, kept_bytes;
static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;

/* A kept block serves a request of `len` when it is at most this much
 * longer: a quarter, or one huge page for short requests. */
static size_t slack(size_t len)
{
	return len / 4 > HUGE_PAGE ? len / 4 : HUGE_PAGE;
}

/* Takes the kept block that serves len with the least to spare (NULL:
 * none). */
static void *take_kept(size_t len)
{
	size_t best = SIZE_MAX;
	void *q;

	for (size_t k = 0; k < kept_n; k++)
		if (kept[k].len >= len && kept[k].len - len <= slack(len) &&
		    (best == SIZE_MAX || kept[k].len < kept[best].len))
			best = k;
	if (best == SIZE_MAX)
		return NULL;
	q = kept[best].q;
	kept_bytes -= kept[best].len;
	memmove(kept + best, kept + best + 1, (--kept_n - best) * sizeof(*kept));
	return q;
}

/* Gives kept blocks back, the oldest first, until at most `room` bytes
 * are kept. */
static void give_back_kept(size_t room)
{
	size_t k = 0;

	while (k < kept_n && kept_bytes > room) {
		kept_bytes -= kept[k].len;
		free(kept[k++].q);
	}
	memmove(kept, kept + k, (kept_n - k) * sizeof(*kept));
	kept_n -= k;
}

void *ab_alloc_large(size_t bytes)
{
	size_t rounded;
	void *q;

	if (bytes < HUGE_PAGE / 2)
		return malloc(bytes ? bytes : 1);
	if (bytes > SIZE_MAX - HUGE_PAGE)
		return NULL;
	rounded = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
	pthread_mutex_lock(&kept_lock);
	q = take_kept(rounded);
	if (!q)
		give_back_kept(rounded < KEPT_BYTES ? KEPT_BYTES - rounded : 0);
	pthread_mutex_unlock(&kept_lock);
	if (q)
		return q;
	q = aligned_alloc(HUGE_PAGE, rounded);
#ifdef MADV_HUGEPAGE
	if (q)
		madvise(q, rounded, MADV_HUGEPAGE); /* advice: failure is harmless */
#endif
	return q;
}

void ab_free_large(void *q)
{
	size_t len;

	if (!q)
		return;
	len = malloc_usable_size(q);
	pthread_mutex_lock(&kept_lock);
	if (len >= HUGE_PAGE / 2 && len <= KEPT_BYTES) {
		give_back_kept(KEPT_BYTES - len);
		if (kept_n == KEPT_MAX) /* the oldest goes */
			give_back_kept(kept_bytes - kept[0].len);
		kept[kept_n++] = (struct kept_block){ q, len };
		kept_bytes += len;
		q = NULL;
	}
	pthread_mutex_unlock(&kept_lock);
	free(q); /* a small block, or no room to keep it */
}

void ab_give_back_large(void)
{
	pthread_mutex_lock(&kept_lock);
	give_back_kept(0);
	pthread_mutex_unlock(&kept_lock);
}

size_t ab_large_kept_bytes(void)
{
	size_t b;

	pthread_mutex_lock(&kept_lock);
	b = kept_bytes;
	pthread_mutex_unlock(&kept_lock);
	return b;
}
