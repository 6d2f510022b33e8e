meta_caption = "committed reference: results/reference/scaling.csv, rev f861921cf9, Intel(R) Xeon(R) Processor (2 cores), 2026-12-07"
