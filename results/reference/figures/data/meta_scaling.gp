meta_caption = "local run, scaling.csv, rev dbab6cc91d, AMD EPYC (2 cores), gcc 12.2.0, 2026-11-30T06:23:46Z"
