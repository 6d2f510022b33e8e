meta_caption = "local run, hyperfine.csv, rev 2e5340b241, AMD EPYC (2 cores), gcc 12.2.0, 2026-11-30T04:24:02Z"
