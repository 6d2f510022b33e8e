"""longest_first_fit: first fit, buffers in order of lifetime length,
longest first (ties: larger first, then index).

An example strategy for docs/python.md, numpy only.  Algorithm: sort the
buffers; place each at the lowest offset, a multiple of its alignment, where
it overlaps no placed buffer whose live steps [lower, upper) intersect its
own.  Complexity: O(n^2) in the worst case (each buffer scans the placed
buffers live with it).  Weak spots: like any first fit, holes left by
long-lived buffers can strand short ones; meant to be read, not to win.

Run it:
    build/arenabench plan graphs/starter/residual_block.graph --planner py:python/examples/longest_first_fit.py
    build/arenabench bench graphs/starter --planners size_first_fit,py:python/examples/longest_first_fit.py
or from Python: arenabench.plan(problem, "py:python/examples/longest_first_fit.py").
"""

import numpy as np

import arenabench


@arenabench.strategy(name="longest_first_fit", cost="fast")
def longest_first_fit(problem):
    """first fit, longest-lived buffers first (a Python example)"""
    n = problem.buffers
    length = problem.upper - problem.lower
    order = np.lexsort((np.arange(n), -problem.size.astype(np.int64), -length))
    offsets = np.zeros(n, dtype=np.uint64)
    placed = []  # indices placed so far
    for i in order:
        lo, hi = problem.lower[i], problem.upper[i]
        size, align = int(problem.size[i]), int(problem.align[i])
        # the address ranges of placed buffers live at the same time, by start
        busy = sorted((int(offsets[j]), int(offsets[j] + problem.size[j]))
                      for j in placed if problem.lower[j] < hi and lo < problem.upper[j])
        at = 0
        for start, end in busy:
            if at + size <= start:
                break
            at = max(at, -(-end // align) * align)
        offsets[i] = at
        placed.append(i)
    return offsets
