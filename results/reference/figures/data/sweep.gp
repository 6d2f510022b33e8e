sweep_planners = "linear first_fit_in_order greedy_last_use size_first_fit multi_arena_phase tflite_arena tflm_greedy greedy_by_size_gpu xla_best_fit greedy_conflicts best_of local_search exact executorch_greedy ggml_gallocr gpu_greedy_in_order ort_mem_pattern ort_sequential"
sweep_family = "zoo"
sweep_graphs = 39
sweep_aligns = "1 4 8 16 32 64 128 256"
