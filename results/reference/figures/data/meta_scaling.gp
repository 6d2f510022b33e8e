meta_caption = "local run, scaling.csv, rev 1b579a2268, AMD EPYC (2 cores), gcc 12.2.0, 2026-11-30T04:10:14Z"
