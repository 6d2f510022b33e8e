/*
 * ggml_gallocr: ggml's graph allocator (llama.cpp, whisper.cpp), reproduced.
 *
 * Algorithm (ggml/src/ggml-alloc.c, ggml_gallocr_alloc_graph_impl over
 * ggml_dyn_tallocr; lib/ggml_alloc.c has the allocator's rules):
 *  1. Walk the schedule online: at each step allocate the buffers it
 *     produces (index order), then free those it reads for the last time
 *     (lib/replay.h), as ggml allocates a node and then frees the parents
 *     whose child count reaches zero.
 *  2. Each allocation pads its size up to the alignment and takes the best
 *     fitting free block other than the tail (smallest, ties to the higher
 *     address), else the tail (growing the buffer).  Frees coalesce.
 *  3. The buffer size is the highest end: ggml's measure pass
 *     (ggml_gallocr_reserve) allocates exactly that, then replays.
 * Alignment: ggml has one alignment per buffer type and pads every size to
 * it, so offsets are multiples of the lcm of --align and the buffers' own
 * alignments; the peak is ggml's buffer size (the padded top).
 * Ties: best fit `<=` keeps the later block of equal size; events of one
 * step in buffer index order (graph order for graph inputs).
 * Complexity: O(n log n) ordering + O(n log F), F = free blocks (ggml's
 * list is an array scanned linearly, O(F) an event, capped at 256; here
 * unbounded and kept in two ordered sets that give the scan's answer:
 * lib/ggml_alloc.c).
 * Source: ggml-org/llama.cpp ggml/src/ggml-alloc.c at 0450e2f9dffdc4c3
 * (2026); tests pin ggml's tests/test-alloc.cpp expectations at the same
 * revision (tests/test_faithful.c, with the chunk limit the test sets).
 * Not expressible in a problem: ggml's in-place reuse (an op in
 * ggml_op_can_inplace takes a parent's block when it is the parent's last
 * consumer with the same layout) needs operators and layouts; on a graph,
 * `--inplace` merges such pairs before planning by arenabench's rule (an
 * elementwise op's same-size intermediate input read last by it), which
 * differs from ggml's in that ggml also reuses graph inputs and lets the
 * result be a graph output.  On a CSV there is no in-place reuse.  Views,
 * leafs allocated elsewhere and several buffer types are not modelled; the
 * chunk limit (max buffer size) is a library option (lib/ggml_alloc.h),
 * not a planner option, so this planner plans one unbounded buffer.
 * Weak spots: online and order-blind: a long-lived small buffer placed in
 * a hole can split it for good (the fragmentation llama.cpp users report).
 */
#include "lib/ggml_alloc.h"

static int plan_ggml_gallocr(const struct ab_problem *p,
			     const struct ab_plan_options *o,
			     struct ab_plan *out)
{
	return ab_ggml_gallocr_plan(p, o, 0, out);
}

const struct ab_planner ab_planner_ggml_gallocr = {
	.name = "ggml_gallocr",
	.about = "ggml graph allocator: online best fit over a free-block list (ties to the higher block), graph order",
	.cost = AB_COST_FAST,
	.plan = plan_ggml_gallocr,
};
