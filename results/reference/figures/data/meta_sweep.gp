meta_caption = "committed reference: results/reference/sweep.csv, rev cda546115e, AMD EPYC (2 cores), 2026-11-30"
