meta_caption = "local run, sweep.csv, rev cda546115e, AMD EPYC (2 cores), gcc 12.2.0, 2026-11-30T03:51:50Z"
