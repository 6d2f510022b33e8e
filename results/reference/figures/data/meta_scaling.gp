meta_caption = "committed reference: results/reference/scaling.csv, rev f18991e89a, Intel(R) Xeon(R) Processor (2 cores), 2026-12-07"
