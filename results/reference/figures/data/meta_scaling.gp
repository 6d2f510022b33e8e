meta_caption = "committed reference: results/reference/scaling.csv, rev dbab6cc91d, AMD EPYC (2 cores), 2026-11-30"
