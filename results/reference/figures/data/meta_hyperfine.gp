meta_caption = "local run, hyperfine.csv, rev dbab6cc91d+dirty, AMD EPYC (2 cores), gcc 12.2.0, 2026-11-30T06:39:18Z"
