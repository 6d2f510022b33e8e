layout_graph = "adversarial_medium_s1"
layout_why = "the graph of at most 400 buffers where the reuse-aware planners differ most (worst/best peak 3.6738, size_first_fit to first_fit_in_order)"
layout_align = 64
layout_planners = "linear first_fit_in_order greedy_last_use size_first_fit multi_arena_phase tflite_arena tflm_greedy greedy_by_size_gpu xla_best_fit greedy_conflicts best_of executorch_greedy ggml_gallocr gpu_greedy_in_order ort_mem_pattern ort_sequential"
layout_large_graph = "random_medium_s1"
layout_large_why = "the largest graph of the results (2080 buffers): its best and its worst reuse-aware planner (worst/best peak 2.6248)"
layout_large_planners = "best_of greedy_last_use"
