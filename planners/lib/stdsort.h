/*
 * A re-implementation of the element order that libstdc++'s std::sort
 * (introsort: median-of-three quicksort down to 16 elements, heapsort
 * past depth 2*floor(log2 n), then one insertion-sort pass) leaves among
 * elements that compare equal.  Baselines that reproduce a C++ runtime's
 * unstable std::sort (tflite_arena) call it so that ties land exactly where
 * the original lands them when built with GCC's standard library.
 */
#ifndef AB_STDSORT_H
#define AB_STDSORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* less(a, b, ctx): strict weak order on element values. */
typedef bool (*ab_less_fn)(uint32_t a, uint32_t b, const void *ctx);

/* Sorts a[0..n) in place exactly as libstdc++'s std::sort would. */
void ab_sort_like_libstdcxx(uint32_t *a, size_t n, ab_less_fn less,
			    const void *ctx);

#endif
