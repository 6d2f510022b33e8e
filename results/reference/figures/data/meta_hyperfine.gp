meta_caption = "committed reference: results/reference/hyperfine.csv, rev dbab6cc91d+dirty, AMD EPYC (2 cores), 2026-11-30"
