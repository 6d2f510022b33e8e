meta_caption = "committed reference: results/reference/hard.csv, rev e109b95068, AMD EPYC (2 cores), 2026-12-01"
