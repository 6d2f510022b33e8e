scaling_planners = "linear first_fit_in_order greedy_last_use size_first_fit multi_arena_phase tflite_arena tflm_greedy greedy_by_size_gpu xla_best_fit greedy_conflicts best_of local_search exact"
scaling_slopes = "1.09|0.5805|0 1.56|1.1955|1 1.39|0.5014|0 1.61|1.0533|1 1.59|1.0876|1 1.64|1.0475|1 1.59|1.2543|1 1.61|1.2249|1 1.64|1.2795|1 1.58|1.3132|1 1.64|2.0906|2 3.39|-2.3033|3 1.63|2.2279|2"
