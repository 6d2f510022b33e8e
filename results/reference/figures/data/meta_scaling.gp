meta_caption = "local run, scaling.csv, rev 71e84189d1+dirty, AMD EPYC (2 cores), gcc 12.2.0, 2026-11-30T01:38:37Z"
