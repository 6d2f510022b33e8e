/*
 * Shared objects, the TFLite GPU delegate's way of reusing memory: tensors
 * take whole objects from a pool, and the objects are laid end to end.
 * Used by the gpu_greedy_in_order planner (and its tests).
 * Contract: returns 0 or a negative errno.
 */
#ifndef AB_GPU_OBJECTS_H
#define AB_GPU_OBJECTS_H

#include "core/arenabench.h"

/*
 * The TFLite GPU delegate's GREEDY_IN_ORDER offsets: records stably sorted
 * by first use; each takes, from the pool of objects whose last tenant
 * ended before its first use, the smallest object at least its size or,
 * if it fits closer, the largest smaller one (which grows), else a new
 * object; objects are then laid end to end in creation order
 * (memory_management.cc, ObjectsToOffsets).  Fills offsets[] and *total.
 * This is what reference/baselines.csv calls gpu_greedy_in_order_peak.
 * O(n log n + n * pool) (the pool is a sorted array).
 */
int ab_gpu_greedy_in_order(const struct ab_problem *p, uint64_t *offsets,
			   uint64_t *total);

#endif
