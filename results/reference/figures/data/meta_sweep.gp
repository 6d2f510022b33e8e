meta_caption = "committed reference: results/reference/sweep.csv, rev 0147daf4e5, Intel(R) Xeon(R) Processor (2 cores), 2026-12-07"
