hf_n = 64
hf_min = 0.0203588
hf_max = 64.4942
hf_planners = "best_of exact fast first_fit_in_order gpu_greedy_in_order greedy_by_size_gpu greedy_conflicts greedy_last_use linear local_search multi_arena_phase size_first_fit tflite_arena tflm_greedy xla_best_fit"
