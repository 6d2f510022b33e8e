meta_caption = "committed reference: results/reference/results.csv, rev 246e3bbabd, AMD EPYC (2 cores), 2026-12-02"
