meta_caption = "committed reference: results/reference/scaling.csv, rev fff1d4be9e, AMD EPYC (2 cores), 2026-12-02"
