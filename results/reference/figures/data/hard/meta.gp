meta_caption = "committed reference: results/reference/hard.csv, rev ead5a2b9dc, AMD EPYC (2 cores), 2026-12-02"
