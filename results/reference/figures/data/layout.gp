layout_graph = "mobilenet_v2_1.0_224_u8"
layout_align = 64
layout_planners = "linear first_fit_in_order greedy_last_use size_first_fit multi_arena_phase tflite_arena tflm_greedy greedy_by_size_gpu xla_best_fit greedy_conflicts best_of gpu_greedy_in_order"
