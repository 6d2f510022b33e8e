meta_caption = "committed reference: results/reference/scaling.csv, rev fac76f4929, Intel(R) Xeon(R) Processor (2 cores), 2026-12-07"
