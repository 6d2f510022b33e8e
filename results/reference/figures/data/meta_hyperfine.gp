meta_caption = "committed reference: results/reference/hyperfine.csv, rev f18991e89a, Intel(R) Xeon(R) Processor (2 cores), 2026-12-07"
