/*
 * Faithfulness of the runtime baselines of issue 20: ggml_gallocr,
 * ort_mem_pattern, ort_sequential, executorch_greedy.  Every case pins
 * exact offsets and bytes worked out by hand below from the upstream rules
 * (the planner headers name the files and revisions), and every plan also
 * passes the geometric check.
 *
 * ggml: the cases of llama.cpp tests/test-alloc.cpp (0450e2f9) that need
 * no views and one buffer type, with the backend's limits of each test
 * (max buffer size, alignment 8 or 4) passed to lib/ggml_alloc.h.  Upstream
 * asserts bounds (allocated_total() <= X); we derive the exact figure and
 * check it meets the bound.  ggml decides in-place reuse itself (ops in
 * ggml_op_can_inplace, parent's last consumer, same layout); a problem has
 * no ops, so each case's problem already merges the in-place pairs ggml
 * makes (worked out per case), and the test pins the allocator.
 * ONNX Runtime: allocation_planner_test.cc ChainTest (the reuse it
 * expects); ExecuTorch: its test_memory_planning.py runs torch.export'ed
 * modules and checks reuse counts, which cannot be restated as a problem
 * without torch, so its rules are pinned by hand cases only.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "core/arenabench.h"
#include "lib/ggml_alloc.h"
#include "check/check.h"

struct spec {
	uint64_t size;
	int32_t first, last;
};

static void make(struct ab_problem *p, const struct spec *s, size_t n)
{
	int32_t steps = 0;

	cr_assert_eq(ab_problem_alloc(p, n), 0);
	p->name = strdup("faithful");
	for (size_t i = 0; i < n; i++) {
		p->buf[i].size = s[i].size;
		p->buf[i].align = 1;
		p->buf[i].first = s[i].first;
		p->buf[i].last = s[i].last;
		p->id[i] = (int64_t)i;
		if (s[i].last + 1 > steps)
			steps = s[i].last + 1;
	}
	p->steps = steps;
}

static void check(const char *what, const struct ab_problem *p,
		  const struct ab_plan *plan, uint32_t align,
		  const uint64_t *want, uint64_t peak)
{
	struct ab_check_result res;

	cr_expect_eq(ab_validate_plan(p, plan, align, &res), AB_PLAN_VALID,
		     "%s: plan invalid (%s, buffers %zu and %zu)", what,
		     ab_verdict_name(res.verdict), res.a, res.b);
	for (size_t i = 0; i < p->n; i++)
		cr_expect_eq(plan->offset[i], want[i],
			     "%s: buffer %zu at %llu, want %llu", what, i,
			     (unsigned long long)plan->offset[i],
			     (unsigned long long)want[i]);
	cr_expect_eq(plan->peak, peak, "%s: peak %llu, want %llu", what,
		     (unsigned long long)plan->peak, (unsigned long long)peak);
}

/* ggml's allocator with a chunk limit (0 = none) at an alignment. */
static void ggml_case(const char *what, const struct spec *s, size_t n,
		      uint32_t align, uint64_t max_chunk, const uint64_t *want,
		      uint64_t peak, int chunks)
{
	struct ab_problem p = { 0 };
	struct ab_plan plan;
	struct ab_plan_options o = { .align = align };

	make(&p, s, n);
	cr_assert_eq(ab_plan_alloc(&plan, n), 0);
	cr_assert_eq(ab_ggml_gallocr_plan(&p, &o, max_chunk, &plan), 0);
	check(what, &p, &plan, align, want, peak);
	cr_expect_eq(plan.n_arenas, chunks, "%s: %d chunks, want %d", what,
		     plan.n_arenas, chunks);
	ab_plan_free(&plan);
	ab_problem_free(&p);
}

static void planner_case(const char *name, const struct spec *s, size_t n,
			 uint32_t align, const uint64_t *want, uint64_t peak)
{
	const struct ab_planner *pl = ab_planner_find(name);
	struct ab_problem p = { 0 };
	struct ab_plan plan;
	struct ab_plan_options o = { .align = align };

	cr_assert_not_null(pl, "planner %s not registered", name);
	make(&p, s, n);
	cr_assert_eq(ab_plan_alloc(&plan, n), 0);
	cr_assert_eq(pl->plan(&p, &o, &plan), 0);
	check(name, &p, &plan, align, want, peak);
	ab_plan_free(&plan);
	ab_problem_free(&p);
}

/* ------------------------------------------------------------ test-alloc */

/* test_max_size_too_many_tensors (max 16, align 8).  Leafs x1 x2 x0 (DFS
 * from x6), nodes x4=add(x1,x2) x3=mul(x0,x1) x5=add(x3,x0) x6=add(x4,x5).
 * In place: x4 takes x2 (x2's only child), x3 takes x1 (x1's last child by
 * then), x5 takes x3, x6 takes x4.  Buffers: A = x1,x3,x5 [0,2];
 * B = x2,x4,x6 [0,3]; C = x0 [0,2]; 8 bytes each.
 * A: new chunk 0 of 16 -> 0.  B: tail [8,16), reuse 8-8-8 = -8 -> 8; the
 * chunk is full (no block).  C: no block -> chunk 1 -> 0 (flat 16).
 * Total 16 + 8 = 24 (upstream bound: <= 32). */
Test(ggml_test_alloc, max_size_too_many_tensors)
{
	static const struct spec s[] = { { 8, 0, 2 }, { 8, 0, 3 }, { 8, 0, 2 } };

	ggml_case("too_many_tensors", s, 3, 8, 16, (uint64_t[]){ 0, 8, 16 },
		  24, 2);
}

/* test_max_size_tensor_too_large (max 32): x0 16, x1 8 inputs, x2 =
 * concat 24 (not in place).  x0 -> chunk 0 at 0; x1 -> tail at 16; x2:
 * the tail [24,32) is too small -> chunk 1 at 0 (flat 24).  The comments
 * upstream: chunk 0 [0,16), [16,24), chunk 1 [0,24).  Total 48 (<= 56). */
Test(ggml_test_alloc, max_size_tensor_too_large)
{
	static const struct spec s[] = { { 16, 0, 0 }, { 8, 0, 0 }, { 24, 0, 0 } };

	ggml_case("tensor_too_large", s, 3, 8, 32, (uint64_t[]){ 0, 16, 24 },
		  48, 2);
}

/* test_tensor_larger_than_max_size (max 16): x1 = scale(x0) in place of
 * x0 (one buffer of 24): the first chunk is max(24, 16) = 24 bytes.
 * Upstream: allocated_total() == 24. */
Test(ggml_test_alloc, tensor_larger_than_max_size)
{
	static const struct spec s[] = { { 24, 0, 1 } };

	ggml_case("larger_than_max", s, 1, 8, 16, (uint64_t[]){ 0 }, 24, 1);
}

/* test_not_enough_chunks (max 8, 17 inputs of 8, acc = add(acc, x[i+1])
 * in place of x0 all along).  x0..x14 fill chunks 0..14 (each full); x15
 * opens chunk 15, the last, of SIZE_MAX/2 bytes; x16 goes to its tail
 * (reuse 8-8-8 = -8) at 8.  Total 15 * 8 + 16 = 136 (> 16 * 8: the last
 * chunk grows, as upstream asserts). */
Test(ggml_test_alloc, not_enough_chunks)
{
	struct spec s[17];
	uint64_t want[17];

	s[0] = (struct spec){ 8, 0, 15 };
	for (int i = 1; i < 17; i++)
		s[i] = (struct spec){ 8, 0, i - 1 };
	for (int i = 0; i < 16; i++)
		want[i] = 8 * (uint64_t)i;
	want[16] = 128;
	ggml_case("not_enough_chunks", s, 17, 8, 8, want, 136, 16);
}

/* test_fill_leftover_space (max 16): x0 8; x1 = pad(x0) 16; x3 = mean(x1)
 * 4 (padded to 8).  x0 -> chunk 0 at 0; x1 does not fit the tail [8,16)
 * -> chunk 1 (flat 8); x0 freed: chunk 0 is [0,16) again; x3: tail of
 * chunk 0, reuse 8-0-8 = 0 -> 0.  Total 8 + 16 = 24 (<= 28). */
Test(ggml_test_alloc, fill_leftover_space)
{
	static const struct spec s[] = { { 8, 0, 0 }, { 16, 0, 1 }, { 4, 1, 1 } };

	ggml_case("fill_leftover", s, 3, 8, 16, (uint64_t[]){ 0, 8, 0 }, 24, 2);
}

/* test_reuse_and_free (max 40).  Leafs x1 x2 x0, nodes x3 x4 x5 x6 x7(view)
 * x8.  A = x1,x3,x8 8 [0,5]; B = x2 8 [0,0]; C = x0 24 [0,1];
 * D = x4,x6 32 [1,5] (x7 views x6 until x8); E = x5 32 [2,3].
 * A 0, B 8, C 16 (chunk 0 full at 40).  B freed: [8,16).  D: neither fits
 * -> chunk 1 at 0 (flat 40).  C freed: [8,40).  E: tail of chunk 0, reuse
 * 40-8-32 = 0 -> 8.  Total 40 + 32 = 72 (<= 104). */
Test(ggml_test_alloc, reuse_and_free)
{
	static const struct spec s[] = { { 8, 0, 5 }, { 8, 0, 0 }, { 24, 0, 1 },
					 { 32, 1, 5 }, { 32, 2, 3 } };

	ggml_case("reuse_and_free", s, 5, 8, 40,
		  (uint64_t[]){ 0, 8, 16, 40, 8 }, 72, 2);
}

/* test_merge_free_block(32).  Leafs x2 x0 x1 (16 each), nodes x5 = pad(x2)
 * 24, x3 = mean(x0) 4, x4 = mean(x1) 4, x6 = add(x3,x4) in place of x3,
 * x7 = pad(x6) 24, x8 = add(x5,x7) in place of x5.  P = x2 [0,0],
 * Q = x0 [0,1], R = x1 [0,2], S = x5,x8 24 [0,5], T = x3,x6 4 [1,4],
 * U = x4 4 [2,3], V = x7 24 [4,5].
 * P 0, Q 16 (chunk 0 full); R chunk 1; S chunk 2 (flat 32, 48).  P freed:
 * chunk 0 [0,16).  T: tails: chunk 0 reuse 32-0-8 = 24 (first >= 0) ->
 * 0.  Q freed: [8,32).  U: chunk 0 reuse 16 -> 8.  R freed, U freed:
 * chunk 0 [8,32).  V: chunk 0 reuse 32-8-24 = 0 -> 8.  Chunks 32 + 16 +
 * 24 = 72 (<= 88).  Without a limit the same offsets in one buffer of 72. */
static const struct spec merge_free[] = {
	{ 16, 0, 0 }, { 16, 0, 1 }, { 16, 0, 2 }, { 24, 0, 5 },
	{ 4, 1, 4 },  { 4, 2, 3 },  { 24, 4, 5 },
};

Test(ggml_test_alloc, merge_free_block_32)
{
	ggml_case("merge_free_block(32)", merge_free, 7, 8, 32,
		  (uint64_t[]){ 0, 16, 32, 48, 0, 8, 8 }, 72, 3);
}

Test(ggml_test_alloc, merge_free_block_unlimited)
{
	ggml_case("merge_free_block(SIZE_MAX)", merge_free, 7, 8, 0,
		  (uint64_t[]){ 0, 16, 32, 48, 0, 8, 8 }, 72, 1);
}

/* test_prefer_already_allocated_memory (max 32, align 4): x0 24, x1 =
 * mean(x0) 4, x2 = mean(x1) 4.  x0 0; x1 tail at 24; x0 freed: blocks
 * [0,24) [28,32); x2 takes the freed block (not the tail) -> 0.  28 (<=
 * 28). */
Test(ggml_test_alloc, prefer_already_allocated_memory)
{
	static const struct spec s[] = { { 24, 0, 0 }, { 4, 0, 1 }, { 4, 1, 1 } };

	ggml_case("prefer_allocated", s, 3, 4, 32, (uint64_t[]){ 0, 24, 0 },
		  28, 1);
}

/* ------------------------------------------------------------ ggml ties */

/* Equal-size holes: A 4 [0,0] B 2 [0,2] C 4 [0,0] D 2 [0,2]; E 4 [1,1].
 * Step 0: A 0, B 4, C 6, D 10.  A, C freed: holes [0,4) [6,10).  ggml's
 * `<=` keeps the later: E at 6 (ORT's strict < takes 0).  Peak 12. */
static const struct spec equal_holes[] = {
	{ 4, 0, 0 }, { 2, 0, 2 }, { 4, 0, 0 }, { 2, 0, 2 }, { 4, 1, 1 },
};

Test(ggml_ties, equal_holes_go_to_the_later_block)
{
	planner_case("ggml_gallocr", equal_holes, 5, 1,
		     (uint64_t[]){ 0, 4, 6, 10, 6 }, 12);
}

/* A hole that joins the tail is the tail: A 8 [0,0], B 2 [0,1],
 * C 4 [0,0]; D 4 [1,1].  Step 0: A 0, B 8, C 10 (top 14).  C freed: merges
 * into the tail (from 10); A freed: [0,8).  D: the only non-tail block
 * -> 0, though [10,14) below the top would fit exactly (XLA's top chunk
 * takes it).  Peak 14. */
Test(ggml_ties, a_freed_top_is_the_tail)
{
	static const struct spec s[] = { { 8, 0, 0 }, { 2, 0, 1 }, { 4, 0, 0 },
					 { 4, 1, 1 } };

	planner_case("ggml_gallocr", s, 4, 1, (uint64_t[]){ 0, 8, 10, 0 }, 14);
}

/* Padding: sizes 3 and 5 at --align 4 take 4 and 8 bytes; the peak is
 * ggml's buffer size, the padded top: A 3 [0,1] -> 0, B 5 [0,1] -> 4,
 * peak 12 (raw top 9). */
Test(ggml_ties, sizes_are_padded_to_the_alignment)
{
	static const struct spec s[] = { { 3, 0, 1 }, { 5, 0, 1 } };

	planner_case("ggml_gallocr", s, 2, 4, (uint64_t[]){ 0, 4 }, 12);
}

/* ------------------------------------------------------------ ONNX Runtime */

/* Equal waste: the strict < keeps the lower gap: E at 0.  Peak 12. */
Test(ort_ties, equal_gaps_go_to_the_lower_offset)
{
	planner_case("ort_mem_pattern", equal_holes, 5, 1,
		     (uint64_t[]){ 0, 4, 6, 10, 0 }, 12);
}

/* The fallback is the end of the highest *live* block: A 4 [0,1],
 * B 8 [0,0]; C 6 [1,1].  Step 0: A 0, B 4 (top 12).  B freed: live A
 * [0,4); no gap holds C -> end of A = 4.  Peak stays 12. */
Test(ort_ties, fallback_is_the_top_live_block)
{
	static const struct spec s[] = { { 4, 0, 1 }, { 8, 0, 0 }, { 6, 1, 1 } };

	planner_case("ort_mem_pattern", s, 3, 1, (uint64_t[]){ 0, 4, 4 }, 12);
}

/* allocation_planner_test.cc ChainTest: W (initializer) -> X -> B -> Y ->
 * Z, shapes {50, 100} float: 20,000 bytes.  Expected: X and B allocated,
 * Y reuses X (freed after node 1), B freed after node 2.  Z is the graph
 * output (kAllocateOutput, never reused, outside the pattern), so the
 * problem lists X [0,1], B [1,2], Y [2,3].  The pattern: X+Y [0,3] at 0,
 * B at 20,000: peak 40,000. */
Test(ort_allocation_planner_test, chain)
{
	static const struct spec s[] = { { 20000, 0, 1 }, { 20000, 1, 2 },
					 { 20000, 2, 3 } };

	planner_case("ort_sequential", s, 3, 1,
		     (uint64_t[]){ 0, 20000, 0 }, 40000);
	/* Without the reuse, Y is a new allocation at B's end. */
	planner_case("ort_mem_pattern", s, 3, 1,
		     (uint64_t[]){ 0, 20000, 0 }, 40000);
}

/* Most recently freed first: A 4 [0,0], B 4 [0,1]; C 4 [2,2], D 4 [2,2].
 * Free list after step 1: B (front), A.  C takes B, D takes A.  Groups
 * A+D [0,2] at 0, B+C [0,2] at 4.  Peak 8. */
Test(ort_sequential_ties, most_recently_freed_first)
{
	static const struct spec s[] = { { 4, 0, 0 }, { 4, 0, 1 }, { 4, 2, 2 },
					 { 4, 2, 2 } };

	planner_case("ort_sequential", s, 4, 1, (uint64_t[]){ 0, 4, 4, 0 }, 8);
}

/* Frees of one step go on the front in index order: A 4 [0,1],
 * B 4 [0,1]; C 4 [2,2] takes B (pushed last).  A 0, B 4, C 4.  Only exact
 * sizes are reused: D 2 [2,2] is an allocation of its own, in the gap
 * [0,4) below B+C (A freed) -> 0.  Peak 8. */
Test(ort_sequential_ties, same_step_frees_and_exact_sizes)
{
	static const struct spec s[] = { { 4, 0, 1 }, { 4, 0, 1 }, { 4, 2, 2 },
					 { 2, 2, 2 } };

	planner_case("ort_sequential", s, 4, 1, (uint64_t[]){ 0, 4, 4, 0 }, 8);
}

/* -------------------------------------------------------------- ExecuTorch */

/* Equal sizes in reverse producer order: A 4 [0,1], B 4 [0,1], C 4 [2,3]
 * are taken C, B, A.  C opens object 0; B shares it (no overlap with C)
 * at 0; A overlaps B, and 4 + 4 > 4: object 1 at 4.  Total 8. */
Test(executorch_ties, equal_sizes_in_reverse_producer_order)
{
	static const struct spec s[] = { { 4, 0, 1 }, { 4, 0, 1 }, { 4, 2, 3 } };

	planner_case("executorch_greedy", s, 3, 1, (uint64_t[]){ 4, 0, 0 }, 8);
}

/* Stacking above the highest overlapping tenant: A 8 [0,0], B 3 [1,2],
 * C 3 [1,1], D 2 [2,2].  Order A, C, B (ties reversed), D.  A: object 0
 * (8 bytes).  C: no overlap -> 0.  B overlaps C: top 3, 3 + 3 <= 8 -> 3.
 * D overlaps B: top 6 -> 6 (0 was free: C ended).  Total 8. */
Test(executorch_ties, stacks_above_the_highest_overlap)
{
	static const struct spec s[] = { { 8, 0, 0 }, { 3, 1, 2 }, { 3, 1, 1 },
					 { 2, 2, 2 } };

	planner_case("executorch_greedy", s, 4, 1, (uint64_t[]){ 0, 3, 0, 6 },
		     8);
}

/* A free object beats an earlier one with room to stack: A 8 [0,0],
 * B 4 [1,3], C 6 [0,0], D 4 [2,2].  Order A, C, D, B (B, D reversed).
 * A: object 0.  C overlaps A, 8 + 6 > 8: object 1 (6 bytes, base 8).
 * D: object 0 at 0.  B: object 0 could stack at 4, but object 1 has no
 * overlap (C ended) and the no-overlap pass runs first: 8.  Total 14. */
Test(executorch_ties, a_free_object_beats_stacking)
{
	static const struct spec s[] = { { 8, 0, 0 }, { 4, 1, 3 }, { 6, 0, 0 },
					 { 4, 2, 2 } };

	planner_case("executorch_greedy", s, 4, 1, (uint64_t[]){ 0, 8, 8, 0 },
		     14);
}

/* spec.realign: 3 and 5 at --align 4 take 4 and 8 bytes: B (8) opens
 * object 0, A overlaps it and 8 + 4 > 8: object 1 at 8.  Total 12. */
Test(executorch_ties, sizes_are_padded_to_the_alignment)
{
	static const struct spec s[] = { { 3, 0, 1 }, { 5, 0, 1 } };

	planner_case("executorch_greedy", s, 2, 4, (uint64_t[]){ 8, 0 }, 12);
}
